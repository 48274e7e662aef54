/**
 * The CLI calls the library like any user would: through the public entries (`src/index.ts`,
 * `src/testing/index.ts`), never through fast-check, `effect/SchemaAST` or the library's other modules;
 * and through `src/internal/`, the engines the commands share that the package's exports do not expose.
 * The few exceptions are named below with their reason.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = resolve(new URL("../../", import.meta.url).pathname)
const CLI = join(ROOT, "src", "cli")

/** Library modules the CLI may import although they are not public entries, and why. */
const EXCEPTIONS: Readonly<Record<string, string>> = {
  // `serve` runs the reference service; its store (node:sqlite) and server (node:http) stay out of the
  // library's entries, which load no I/O modules.
  "src/service/index.ts": "serve: the reference service",
  // The early check of the token before any request, shared by `send` and `status` with `createClient`.
  "src/client/build-request.ts": "send, status: isHeaderSafe",
  // The campaign report reads the ledger in SQL (node:sqlite), an I/O module the library's entries do not load.
  "src/report/campaign-report.ts": "report: the ledger read in SQL",
  "src/report/render-html.ts": "report: the HTML format",
  "src/report/render-csv.ts": "report: the CSV format",
  "src/report/report-exclusions.ts": "report: the rows left out on purpose, listed in the CSV",
  "src/report/in-doubt-list.ts": "report --in-doubt: the records in doubt as CSV",
  // Keys as people read them (instants in wall time and UTC), in send's list of the records in doubt.
  "src/endpoints/natural-key-text.ts": "send: the keys of the records in doubt in wall time",
  "src/report/render-text.ts": "report: the text and markdown formats",
  "src/report/report-problems.ts": "report: the problems listed",
  "src/report/supplier-standing.ts": "status --journal: one supplier's records in the ledger",
  "src/send/ledger-types.ts": "report: LedgerMismatchError for a file that is no ledger",
  // The ledger's files by every name SQLite and a run give them, so that `report --out` never empties one.
  "src/send/ledger.ts": "report: ledgerFilesOf, the files --out must not name; send, report: damagedLedgerAdvice, a damaged ledger's recovery",
  // Where a ledger's name leads (through a symbolic link made before the ledger exists), for the message of a missing one.
  "src/send/ledger-file.ts": "send, map: targetOf, where a --journal that does not exist would be created",
  // The token lifecycle: a run obtains its first token before it starts, so a wrong key ends it at once.
  "src/client/create-client.ts": "send, status: the client's credentials",
  "src/client/token-source.ts": "send, status: the first token, before the run",
  // The documents folder (node:fs), checked before anything is sent.
  "src/documents/file-store.ts": "validate, send: the documents folder",
  // serve issues and checks JWTs (jose, node:crypto): the reference service's own modules.
  "src/service/graphql.ts": "serve: obtainKrakenToken",
  "src/service/tokens.ts": "serve: its JWT keys"
}

const PUBLIC = new Set(["src/index.ts", "src/testing/index.ts"])
const PACKAGES = new Set(["commander"])

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

/** Every module a file names: static imports and exports, `import(…)` calls and `import("…")` types. */
const specifiers = (text: string): Array<string> =>
  [...text.matchAll(/\bfrom\s+"([^"]+)"|\bimport\s*\(\s*"([^"]+)"\s*\)|^\s*import\s+"([^"]+)"/gmu)].map((m) => (m[1] ?? m[2] ?? m[3])!)

/** What is wrong with one import of `file`, or `undefined`. */
const problemOf = (file: string, specifier: string): string | undefined => {
  if (specifier.startsWith("node:") || PACKAGES.has(specifier)) return undefined
  if (!specifier.startsWith(".")) return `${specifier} (a package the CLI does not use directly)`
  const target = relative(ROOT, resolve(join(file, ".."), specifier)).replace(/\.js$/u, ".ts")
  if (target.startsWith("src/cli/") || target.startsWith("src/internal/") || PUBLIC.has(target) || Object.hasOwn(EXCEPTIONS, target)) return undefined
  return `${target} (not a public entry)`
}

const problemsOf = (file: string, text: string): Array<string> =>
  specifiers(text).flatMap((specifier) => {
    const problem = problemOf(file, specifier)
    return problem === undefined ? [] : [`${relative(ROOT, file)}: ${problem}`]
  })

describe("the CLI imports only the public entries", () => {
  it("no file under src/cli imports fast-check, effect or an internal module of the library", () => {
    const files = sourceFiles(CLI)
    expect(files.length).toBeGreaterThan(20)
    expect(files.flatMap((file) => problemsOf(file, readFileSync(file, "utf8")))).toEqual([])
  })

  it("every exception is still used", () => {
    const used = new Set(sourceFiles(CLI).flatMap((file) =>
      specifiers(readFileSync(file, "utf8")).filter((s) => s.startsWith(".")).map((s) =>
        relative(ROOT, resolve(join(file, ".."), s)).replace(/\.js$/u, ".ts")
      )
    ))
    expect(Object.keys(EXCEPTIONS).filter((module) => !used.has(module))).toEqual([])
  })

  it("finds the imports it must refuse", () => {
    const file = join(CLI, "commands", "example.ts")
    const text = [
      `import * as fc from "fast-check"`,
      `import { SchemaAST } from "effect"`,
      `import { endpoints } from "../../endpoints/catalogue.js"`,
      `const kit = await import("../../testing/arbitrary-payload.js")`,
      `import { validatePayload } from "../../index.js"`,
      `import { Output } from "../io.js"`,
      `import { readFileSync } from "node:fs"`
    ].join("\n")
    expect(problemsOf(file, text)).toEqual([
      "src/cli/commands/example.ts: fast-check (a package the CLI does not use directly)",
      "src/cli/commands/example.ts: effect (a package the CLI does not use directly)",
      "src/cli/commands/example.ts: src/endpoints/catalogue.ts (not a public entry)",
      "src/cli/commands/example.ts: src/testing/arbitrary-payload.ts (not a public entry)"
    ])
  })
})
