/**
 * Every `@example` of the JSDoc in src/ and every ```ts block of the README and of docs/*.md is run, so none
 * can go stale.
 *
 * - A statement followed by a comment holding a value (`toMinorUnits("12.34") // => { ok: true, value: 1234 }`,
 *   on its line or the next) asserts that its expression equals the value; `...` or `…` in an object or at
 *   the end of a list stands for the rest. `console.log(x) // "text"` asserts `x`. A comment after `=>`
 *   must be a value.
 * - A statement that prints, followed by comment lines that are not a value, asserts that it printed
 *   exactly those lines.
 * - An example written as a vitest test asserts with its `expect` calls, which count as its checks.
 * - Every example checks something: a stated value, printed lines or an `expect`.
 * - Names an example uses without defining them (`line`, `mapping`, `payload`, …) are given below; the
 *   exports of the package, of the testing kit and of the example's own module are in scope; imports of
 *   `data-import-payloads` resolve to the sources.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import * as csvParseSync from "csv-parse/sync"
import * as effect from "effect"
import * as sqlite from "node:sqlite"
import * as fc from "fast-check"
import ts from "typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as library from "../../src/index.js"
import { initialState, openSession } from "../../src/service/memory-state.js"
import { decodeSeed } from "../../src/service/seed.js"
import { openStore } from "../../src/service/store.js"
import * as testingKit from "../../src/testing/index.js"

const ROOT = new URL("../../", import.meta.url).pathname

interface Example {
  readonly name: string
  readonly source: string
  /** The module the example documents (its exports are in scope), for JSDoc examples. */
  readonly module?: string
}

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []
  )

/** The `@example` blocks of a file's JSDoc comments. */
const jsdocExamples = (file: string): Array<Example> => {
  const text = readFileSync(file, "utf8")
  const out: Array<Example> = []
  for (const comment of text.matchAll(/\/\*\*([\s\S]*?)\*\//gu)) {
    const lines = comment[1]!.split("\n").map((l) => l.replace(/^\s*\* ?/u, ""))
    let current: Array<string> | undefined
    const flush = (): void => {
      if (current !== undefined && current.join("").trim() !== "") {
        const line = text.slice(0, comment.index).split("\n").length
        out.push({ name: `${relative(ROOT, file)}:${line}`, source: current.join("\n"), module: file })
      }
      current = undefined
    }
    for (const line of lines) {
      if (line.startsWith("@")) {
        flush()
        if (line.startsWith("@example")) current = []
      } else current?.push(line)
    }
    flush()
  }
  return out
}

/** The Markdown pages whose ```ts blocks are run: the README and every page of docs/. */
const PAGES = ["README.md", ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)]

/** The ```ts blocks of a Markdown page. */
const markdownExamples = (page: string): Array<Example> => {
  const text = readFileSync(join(ROOT, page), "utf8")
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gmu)].map((m) => ({
    name: `${page}:${text.slice(0, m.index).split("\n").length}`,
    source: m[1]!
  }))
}

const REST = "__rest__"

/** The value a comment states, or `undefined` when it is prose. */
const readValue = (comment: string): { readonly value: unknown } | undefined => {
  const text = comment
    .replace(/,\s*(?:\.\.\.|…)\s*\}/gu, `, "${REST}": true }`)
    .replace(/\{\s*(?:\.\.\.|…)\s*\}/gu, `{ "${REST}": true }`)
    .replace(/,\s*(?:\.\.\.|…)\s*\]/gu, `, "${REST}"]`)
  try {
    return { value: new Function(`return (${text})`)() }
  } catch {
    return undefined
  }
}

/** The expected value as a matcher: `…` becomes "containing". */
const toMatcher = (value: unknown): unknown => {
  if (Array.isArray(value)) {
    if (value.at(-1) === REST) return expect.arrayContaining(value.slice(0, -1).map(toMatcher))
    return value.map(toMatcher)
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).filter(([k]) => k !== REST).map(([k, v]) => [k, toMatcher(v)])
    const object = Object.fromEntries(entries)
    return Object.hasOwn(value, REST) ? expect.objectContaining(object) : object
  }
  return value
}

/** The `//` comment lines right after `end`: on the same line, then on the lines below (no blank line between). */
const commentsAfter = (text: string, end: number): { sameLine: string | undefined; below: Array<string> } => {
  let i = end
  let sameLine: string | undefined
  const below: Array<string> = []
  let onFirstLine = true
  let newlines = 0
  while (i < text.length) {
    const c = text[i]!
    if (c === " " || c === "\t" || c === ";") {
      i++
    } else if (c === "\n") {
      newlines++
      if (newlines > 1 && !onFirstLine && below.length === 0) break
      onFirstLine = false
      i++
      if (text[i] === "\n") break
    } else if (text.startsWith("//", i)) {
      const stop = text.indexOf("\n", i)
      const comment = text.slice(i + 2, stop === -1 ? text.length : stop).trim()
      if (onFirstLine) sameLine = comment
      else below.push(comment)
      i = stop === -1 ? text.length : stop
    } else break
  }
  return { sameLine, below }
}

interface Check {
  readonly expected?: unknown
  readonly printed?: ReadonlyArray<string>
  readonly where: string
}

/** Rewrites an example so its statements check what their comments say. */
const instrument = (example: Example): { code: string; checks: Array<Check> } => {
  const file = ts.createSourceFile("example.ts", example.source, ts.ScriptTarget.ES2022, true)
  const edits: Array<{ start: number; end: number; text: string }> = []
  const checks: Array<Check> = []
  const visitStatements = (statements: ReadonlyArray<ts.Statement>): void => {
    for (const statement of statements) {
      const { line } = file.getLineAndCharacterOfPosition(statement.getStart())
      const where = `${example.name} (line ${line + 1} of the example)`
      const { sameLine, below } = commentsAfter(example.source, statement.end)
      const stated = sameLine !== undefined ? [sameLine] : below.length === 1 ? below : []
      const arrow = stated.length === 1 && stated[0]!.startsWith("=>")
      const value = stated.length === 1 ? readValue(arrow ? stated[0]!.slice(2).trim() : stated[0]!) : undefined
      if (arrow && value === undefined) throw new Error(`${where}: "${stated[0]}" after => is not a value`)
      if (value !== undefined && ts.isExpressionStatement(statement)) {
        let expression = statement.expression
        if (ts.isCallExpression(expression) && expression.expression.getText() === "console.log" && expression.arguments.length === 1) {
          expression = expression.arguments[0]!
        }
        checks.push({ expected: value.value, where })
        edits.push({ start: expression.getStart(), end: expression.end, text: `__check(${checks.length - 1}, (${expression.getText()}))` })
        continue
      }
      const prose = sameLine === undefined ? below : []
      if (prose.length > 0 && !ts.isVariableStatement(statement) && !ts.isFunctionDeclaration(statement) && readValue(prose.join(" ")) === undefined) {
        checks.push({ printed: prose, where })
        edits.push({ start: statement.getStart(), end: statement.getStart(), text: `__printing(); ` })
        edits.push({ start: statement.end, end: statement.end, text: ` __printed(${checks.length - 1});` })
        continue
      }
      if (ts.isBlock(statement)) visitStatements(statement.statements)
      if (ts.isIfStatement(statement)) {
        if (ts.isBlock(statement.thenStatement)) visitStatements(statement.thenStatement.statements)
      }
    }
  }
  visitStatements(file.statements)
  let source = example.source
  for (const edit of edits.sort((a, b) => b.start - a.start)) source = source.slice(0, edit.start) + edit.text + source.slice(edit.end)
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true }
  })
  return { code: outputText, checks }
}

const asModule = (namespace: object): object => ({ __esModule: true, ...namespace })

const example = (id: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(ROOT, "examples", "payloads", `${id}.json`), "utf8")) as Record<string, unknown>

/** The seed of the README's rehearsal walk-through. */
const SEED = {
  tokens: ["rehearsal-token"],
  suppliers: [{ code: "STADTWERKE_NORD", status: "Ongoing" }],
  accounts: [{
    import_supplier: "STADTWERKE_NORD",
    external_account_number: "KD-1",
    status: "COMPLETED",
    service_account_number: "A-1B2C3D4E",
    account_created_at: "2024-01-02T10:00:00Z",
    open_statement_period: { start: "2024-01-01", end: "2024-12-31" }
  }],
  market_participants: [9900000000003]
}

/** Names examples use without defining them. */
const givens = (): Record<string, unknown> => {
  const decoded = decodeSeed(SEED)
  if (!decoded.ok) throw new Error("the examples' seed is not valid")
  const seed = decoded.value
  const rows = [{ Konto: "KD-1", Notiz: "Rückruf erbeten" }, { Konto: "KD-2", Notiz: "Zählerwechsel" }]
  return {
    line: JSON.stringify(example("energy-amount")),
    lines: [JSON.stringify(example("energy-amount"))],
    input: example("notes"),
    payload: example("transactions"),
    amount: example("energy-amount")["energy_amount"],
    rows,
    streamOfRows: (async function* () {
      yield* rows
    })(),
    mapping: library.defineMapping({
      endpoint: "notes",
      groupBy: ["Konto"],
      fields: { import_supplier: { value: "STADTWERKE_NORD" }, external_account_number: "Konto" },
      collections: [{ path: "notes", fields: { body: "Notiz" } }]
    }),
    check: () => undefined,
    seed,
    text: JSON.stringify(SEED),
    state: openSession(initialState(seed)).state,
    openStore,
    parseStatus: (body: unknown) => ({ ok: typeof body === "object" && body !== null }),
    // The environment an example reads its credentials from (docs/credentials.md).
    process: { env: { DATA_IMPORT_API_KEY: "our-api-key" } }
  }
}

/** `describe`/`it` of a test written as an example: run at once; `asserted` is called for each `expect`. */
const vitestShim = (asserted: () => void) => ({
  describe: Object.assign((_: string, fn: () => void) => fn(), {
    each: (cases: ReadonlyArray<unknown>) => (_: string, fn: (c: unknown) => void) => cases.forEach((c) => fn(c))
  }),
  it: (_: string, fn: () => void) => fn(),
  expect: Object.assign((...args: Parameters<typeof expect>) => (asserted(), expect(...args)), expect)
})

const AsyncFunction = (async () => undefined).constructor as new (...args: Array<string>) => (...args: Array<unknown>) => Promise<void>

const run = async (example: Example): Promise<number> => {
  const { code, checks } = instrument(example)
  const own = example.module !== undefined ? ((await import(/* @vite-ignore */ example.module)) as object) : {}
  const written = new Map<string, string>()
  // An example written as a test asserts with its own `expect` calls.
  let expected = 0
  const modules: Record<string, object> = {
    "data-import-payloads": asModule(library),
    "data-import-payloads/testing": asModule(testingKit),
    "fast-check": asModule(fc),
    "effect": asModule(effect),
    "csv-parse/sync": asModule(csvParseSync),
    // In-memory databases only: an example opens ":memory:", never a file.
    "node:sqlite": asModule(sqlite),
    "vitest": asModule(vitestShim(() => expected++)),
    "node:fs": asModule({
      writeFileSync: (path: string, text: string) => written.set(path, text),
      readFileSync: (path: string) => {
        if (path === "seed.json") return JSON.stringify(SEED)
        throw new Error(`${example.name}: the example reads ${path}, which the test does not provide`)
      }
    })
  }
  const require = (name: string): object => {
    const found = modules[name]
    if (found === undefined) throw new Error(`${example.name}: the example imports ${name}, which the test does not provide`)
    return found
  }
  let printing: Array<string> | undefined
  const consoleShim = {
    log: (...args: Array<unknown>) => printing?.push(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "))
  }
  let checked = 0
  const scope: Record<string, unknown> = {
    ...library,
    ...testingKit,
    Schema: effect.Schema,
    Effect: effect.Effect,
    fc,
    ...givens(),
    ...own,
    require,
    exports: {},
    console: consoleShim,
    __check: (index: number, actual: unknown) => {
      const check = checks[index]!
      expect(actual, check.where).toEqual(toMatcher(check.expected))
      checked++
      return actual
    },
    __printing: () => {
      printing = []
    },
    __printed: (index: number) => {
      const check = checks[index]!
      expect(printing, check.where).toEqual(check.printed)
      printing = undefined
      checked++
    }
  }
  const names = Object.keys(scope).filter((n) => /^[A-Za-z_$][\w$]*$/u.test(n) && n !== "default")
  await new AsyncFunction(...names, `{\n${code}\n}`)(...names.map((n) => scope[n]))
  for (const text of written.values()) expect(() => JSON.parse(text), example.name).not.toThrow()
  expect(checked, `${example.name}: every stated value was checked`).toBe(checks.length)
  return checked + expected
}

const EXAMPLES = [...sourceFiles(join(ROOT, "src")).flatMap(jsdocExamples), ...PAGES.flatMap(markdownExamples)]

describe("every example of the documentation runs and says what happens", () => {
  beforeAll(() => fc.configureGlobal({ numRuns: 5 }))
  afterAll(() => fc.resetConfigureGlobal())

  it("finds the examples: JSDoc of src/ and the ts blocks of the README and of docs/*.md", () => {
    expect(EXAMPLES.filter((e) => e.module !== undefined).length).toBeGreaterThan(40)
    const pages = EXAMPLES.filter((e) => e.module === undefined)
    expect(pages.length).toBeGreaterThanOrEqual(12)
    const inPage = (page: string): number => pages.filter((e) => e.name.startsWith(`${page}:`)).length
    expect(inPage("README.md")).toBeGreaterThanOrEqual(2)
    // The pages the README's long material moved to keep their examples.
    expect(inPage("docs/library.md")).toBeGreaterThanOrEqual(6)
    for (const page of ["docs/mapping.md", "docs/validate.md", "docs/reference-service.md", "docs/credentials.md"]) {
      expect(inPage(page), page).toBeGreaterThanOrEqual(1)
    }
  })

  it.each(EXAMPLES.map((e) => [e.name, e] as const))("%s", async (_, example) => {
    // An example that states nothing would only show that it runs.
    expect(await run(example), `${example.name} states no value and no output`).toBeGreaterThan(0)
  })

  it("checks stated values: a wrong one fails", async () => {
    await expect(run({ name: "wrong", source: `toMinorUnits("12.34") // => { ok: true, value: 1235 }` })).rejects.toThrow()
    await expect(run({ name: "wrong", source: `console.log("a")\n// b` })).rejects.toThrow()
    expect(await run({ name: "silent", source: `const cents = toMinorUnits("12.34")` })).toBe(0)
    const asTest = (body: string): Example => ({ name: "as a test", source: `import { expect, it } from "vitest"\nit("converts", () => {\n${body}\n})` })
    expect(await run(asTest(`expect(toMinorUnits("12.34")).toEqual({ ok: true, value: 1234 })\nexpect(toMinorUnits("1")).toEqual({ ok: true, value: 100 })`))).toBe(2)
    expect(await run(asTest(`const cents = toMinorUnits("12.34")`))).toBe(0)
    await expect(run(asTest(`expect(toMinorUnits("12.34")).toEqual({ ok: true, value: 1235 })`))).rejects.toThrow()
    expect(await run({ name: "right", source: `toMinorUnits("12.345") // => { ok: false, error: { code: "fraction_lost", ... } }` })).toBe(1)
  })
})
