/**
 * The tables of error and warning codes (docs/decisions.md, linked from the README) list exactly the codes
 * the library defines.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { ERROR_CODES, WARNING_CODES } from "../../src/index.js"

const page = readFileSync(new URL("../../docs/decisions.md", import.meta.url), "utf8")

/** The codes in the first column of the table under a `## heading`. */
const codesUnder = (heading: string): Array<string> => {
  const start = page.indexOf(`\n## ${heading}\n`)
  expect(start, `docs/decisions.md has "## ${heading}"`).toBeGreaterThanOrEqual(0)
  const section = page.slice(start + 1).split(/\n## /u)[0]!
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([a-z_]+)`/gu)].map((m) => m[1]!))
    .sort()
}

describe("docs/decisions.md: the code tables", () => {
  it("Error codes: every code of ERROR_CODES, and no other", () => {
    expect(codesUnder("Error codes")).toStrictEqual(Object.keys(ERROR_CODES).sort())
  })

  it("Warning codes: every code of WARNING_CODES, and no other", () => {
    expect(codesUnder("Warning codes")).toStrictEqual(Object.keys(WARNING_CODES).sort())
  })

  it("the new codes are there with their rows", () => {
    expect(codesUnder("Error codes")).toContain("inexact_number")
    expect(codesUnder("Warning codes")).toContain("invoice_totals_mismatch")
  })
})
