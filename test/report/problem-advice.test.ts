/**
 * Every code the report can show comes with what to do. The codes whose remedy is not "fix the source and
 * send again" are closed sets the project writes itself: the causes of `send` (read from its sources, so
 * a new cause without advice fails here), the blocked causes of the service's refusals, and the report's
 * own codes. The open families (validation codes, the service's codes, map's codes) get their kind's advice.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ADVICE_BY_CODE, ADVICE_BY_KIND, adviceFor } from "../../src/report/problem-advice.js"
import { PROBLEM_KINDS } from "../../src/report/report-types.js"
import { STOPPED_IN_FLIGHT } from "../../src/ledger/ledger-types.js"
import { BLOCKING_CODES, PREREQUISITE_CODES } from "../../src/send/record-outcomes.js"
import { ROOT } from "../cli/run-cli.js"

/** The string literals written as a `cause:` or a `code:` in the code (not the comments and examples) of the TypeScript files of `folder`. */
const literalsIn = (folder: string, field: "cause" | "code"): Set<string> => {
  const found = new Set<string>()
  for (const name of readdirSync(join(ROOT, folder)).filter((n) => n.endsWith(".ts"))) {
    const text = readFileSync(join(ROOT, folder, name), "utf8")
      .split("\n")
      .filter((line) => !/^\s*(\*|\/\/|\/\*\*)/u.test(line))
      .join("\n")
    for (const match of text.matchAll(new RegExp(`\\b${field}: "([A-Za-z_]+)"`, "gu"))) found.add(match[1]!)
  }
  return found
}

describe("what to do about each problem", () => {
  it("every kind of problem has advice", () => {
    for (const kind of PROBLEM_KINDS) expect(ADVICE_BY_KIND[kind], kind).toMatch(/\S/u)
  })

  it("every cause send writes, every blocked cause and every code of the report's own has advice of its own", () => {
    const causes = literalsIn("src/send", "cause")
    // The reading of the sources finds the causes (a changed spelling of `cause:` would find none).
    expect(causes).toContain("no_answer")
    expect(causes).toContain("unauthorized")
    const own = new Set([
      ...causes,
      ...Object.values(BLOCKING_CODES),
      ...Object.values(PREREQUISITE_CODES),
      STOPPED_IN_FLIGHT,
      ...literalsIn("src/report", "code")
    ])
    // "conflict" is a kind's own code: its kind's advice is its advice.
    own.delete("conflict")
    expect(own.size).toBeGreaterThan(12)
    const missing = [...own].filter((code) => !Object.hasOwn(ADVICE_BY_CODE, code))
    expect(missing).toEqual([])
  })

  it("a code of its own gets its advice, a code of an open family its kind's, several codes each once", () => {
    expect(adviceFor("blocked", "supplier_not_ongoing")).toBe(ADVICE_BY_CODE["supplier_not_ongoing"])
    expect(adviceFor("rejected", "TRANSACTION_IMPORT_ERROR")).toContain("--force-add-to-current-statement")
    expect(adviceFor("rejected", "note_body_or_document_path_not_found")).toBe(ADVICE_BY_KIND.rejected)
    expect(adviceFor("map_rejected", "invalid_date,missing_value")).toBe(ADVICE_BY_KIND.map_rejected)
    expect(adviceFor("in_doubt", "no_answer,no_result")).toBe(`${ADVICE_BY_CODE["no_answer"]} ${ADVICE_BY_CODE["no_result"]}`)
    // A service's code is any text: none finds a property of Object.
    expect(adviceFor("rejected", "constructor")).toBe(ADVICE_BY_KIND.rejected)
  })
})
