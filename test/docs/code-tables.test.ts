/**
 * The README's tables of error and warning codes list exactly the codes the library defines.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { ERROR_CODES, WARNING_CODES } from "../../src/index.js"

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8")

/** The codes in the first column of the table under a `## heading`. */
const codesUnder = (heading: string): Array<string> => {
  const start = readme.indexOf(`\n## ${heading}\n`)
  expect(start).toBeGreaterThanOrEqual(0)
  const section = readme.slice(start + 1).split(/\n## /u)[0]!
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([a-z_]+)`/gu)].map((m) => m[1]!))
    .sort()
}

describe("README code tables", () => {
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
