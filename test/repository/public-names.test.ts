/**
 * The public API keeps only what users call: every runtime export of the package's entries
 * (`data-import-payloads`, `data-import-payloads/testing`) is named in the README or in docs/library.md,
 * as code: in an inline code span (`name`, `name(…)`, `Schemas.Note`) or in a ```ts block. A name the
 * user documentation never mentions is either undocumented or internal; an internal one belongs in its
 * module (the CLI reaches it through an engine's entry, a test imports the module).
 * Types (`export type`) are erased at run time and not listed here.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import * as main from "../../src/index.js"
import * as testing from "../../src/testing/index.js"
import { ROOT } from "./layers.js"

/** The pages whose code names the public API. */
const PAGES = ["README.md", "docs/library.md"]

/** The code of a Markdown page: each ```ts block and each inline code span outside fenced blocks. */
const codeOf = (markdown: string): Array<string> => {
  const blocks = [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gmu)].map((m) => m[1]!)
  // Any fenced block (sh, json, …) is taken out before inline spans are read: its backticks are no spans.
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gmu, "")
  // A span may run over a line break, not over a blank line (which ends its paragraph).
  const spans = [...prose.matchAll(/`((?:[^`\n]|\n(?!\n))+)`/gu)].map((m) => m[1]!)
  return [...blocks, ...spans]
}

/** Whether `name` appears in one of the pieces of code as a whole identifier. */
const namedIn = (code: ReadonlyArray<string>, name: string): boolean => {
  const whole = new RegExp(`(?<![\\w$])${name.replace(/\$/gu, "\\$")}(?![\\w$])`, "u")
  return code.some((piece) => whole.test(piece))
}

/** The names of `entry` that none of `code` names. */
const unnamed = (entry: object, code: ReadonlyArray<string>): Array<string> => Object.keys(entry).filter((name) => !namedIn(code, name)).sort()

const CODE = PAGES.flatMap((page) => codeOf(readFileSync(join(ROOT, page), "utf8")))

describe("the public API is what the user documentation names", () => {
  it("reads a name in an inline code span or a ts block, not in prose or another language's block", () => {
    const page = [
      "`validatePayload(id, input)` checks a payload; `Schemas.Note` is a schema.",
      "The word compact in prose names nothing, nor does `compacted` or `x.compactly`; `sendRecords(lines,",
      "{ ledger })` is one span over a line break.",
      "```ts",
      "const report = campaignReport(source)",
      "```",
      "```sh",
      "node -e 'import { toOpenApi } from \"data-import-payloads\"; `x`'",
      "```"
    ].join("\n")
    const code = codeOf(page)
    const entry = { validatePayload: 1, Schemas: 1, campaignReport: 1, compact: 1, toOpenApi: 1, sendRecords: 1, ledger: 1 }
    expect(unnamed(entry, code)).toEqual(["compact", "toOpenApi"])
  })

  it("finds code on both pages", () => {
    expect(namedIn(CODE, "validatePayload")).toBe(true)
    expect(namedIn(CODE, "arbitraryPayload")).toBe(true)
    expect(namedIn(CODE, "anExportNoPageNames")).toBe(false)
  })

  it("names every runtime export of data-import-payloads", () => {
    expect(unnamed(main, CODE)).toEqual([])
  })

  it("names every runtime export of data-import-payloads/testing", () => {
    expect(unnamed(testing, CODE)).toEqual([])
  })
})
