/**
 * The tables of error and warning codes (docs/decisions.md, linked from the README) are generated from the
 * library's lists (`npm run docs:codes`, scripts/code-tables.mjs): they hold exactly the codes the library
 * defines, each with its description, in the lists' order.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { ERROR_CODES, WARNING_CODES } from "../../src/index.js"

const page = readFileSync(new URL("../../docs/decisions.md", import.meta.url), "utf8")

/** The rows (`[code, description]`) of the table between the marker comments of `name`. */
const rowsOf = (name: string): Array<[string, string]> => {
  const start = page.indexOf(`<!-- ${name}:start -->`)
  const end = page.indexOf(`<!-- ${name}:end -->`)
  expect(start, `docs/decisions.md has <!-- ${name}:start --> before <!-- ${name}:end -->`).toBeGreaterThanOrEqual(0)
  expect(end).toBeGreaterThan(start)
  return page
    .slice(start, end)
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [, code, description] = /^\| `([a-z_]+)` \| (.*) \|$/u.exec(line) ?? []
      return [code ?? line, (description ?? "").replaceAll("\\|", "|")]
    })
}

/** The section of the page a table lies in: the `## heading` above its markers. */
const sectionOf = (name: string): string | undefined =>
  page.slice(0, page.indexOf(`<!-- ${name}:start -->`)).match(/\n## ([^\n]+)\n/gu)?.at(-1)?.trim().slice(3)

const fix = "run `npm run docs:codes` to rewrite the tables"

describe("docs/decisions.md: the code tables", () => {
  it("Error codes: every code of ERROR_CODES with its description, and no other", () => {
    expect(rowsOf("error-codes"), fix).toStrictEqual(Object.entries(ERROR_CODES))
    expect(sectionOf("error-codes")).toBe("Error codes")
  })

  it("Warning codes: every code of WARNING_CODES with its description, and no other", () => {
    expect(rowsOf("warning-codes"), fix).toStrictEqual(Object.entries(WARNING_CODES))
    expect(sectionOf("warning-codes")).toBe("Warning codes")
  })

  it("the new codes are there with their rows", () => {
    expect(rowsOf("error-codes").map(([code]) => code)).toContain("inexact_number")
    expect(rowsOf("warning-codes").map(([code]) => code)).toContain("invoice_totals_mismatch")
  })
})
