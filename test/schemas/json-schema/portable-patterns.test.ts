/**
 * The exported schemas are read by engines other than JavaScript's: Python's `re` (jsonschema), PCRE,
 * Go's RE2. There `\d`, `\w`, `\s` and `\b` have other, Unicode-wide meanings (`\d` matches "١٢٣"), so no
 * pattern may use a class escape; the characters are written out instead. And `$` also matches before a
 * final newline there, so an end anchor must refuse one itself: `(?!\n)$`.
 */
import { describe, expect, it } from "vitest"
import { ENDPOINT_IDS, toJsonSchema, toOpenApi } from "../../../src/index.js"

/** Every `pattern` in a JSON document, with its JSON path. */
const patternsOf = (value: unknown, at = "#"): Array<[string, string]> => {
  if (Array.isArray(value)) return value.flatMap((v, i) => patternsOf(v, `${at}/${i}`))
  if (typeof value !== "object" || value === null) return []
  return Object.entries(value).flatMap(([key, v]) =>
    key === "pattern" && typeof v === "string" ? [[`${at}/pattern`, v] as [string, string]] : patternsOf(v, `${at}/${key}`)
  )
}

/** A class escape outside JavaScript's fixed ASCII meaning: `\d \D \w \W \s \S \b \B` (an escaped backslash is not one). */
const CLASS_ESCAPE = /(?<!\\)(?:\\\\)*\\[dDwWsSbB]/u

describe("patterns of the exported schemas mean the same in every regular expression engine", () => {
  it("finds the escapes it looks for", () => {
    for (const bad of ["^\\d+$", "[^\\s@]", "\\S", "a\\bb", "\\\\\\w"]) expect(bad).toMatch(CLASS_ESCAPE)
    for (const fine of ["^[0-9]+$", "\\\\d", "\\.", "[^\\t\\n ]"]) expect(fine).not.toMatch(CLASS_ESCAPE)
  })

  it.each(ENDPOINT_IDS)("toJsonSchema(%s) has no \\d, \\w, \\s or \\b in any pattern", (id) => {
    const patterns = patternsOf(toJsonSchema(id))
    expect(patterns.filter(([, p]) => CLASS_ESCAPE.test(p))).toEqual([])
  })

  /** A `$` anchor not preceded by `(?!\n)` (an escaped `\$` is a dollar sign). */
  const BARE_END = /(?<!\(\?!\\n\))(?<!(?<!\\)\\(?:\\\\)*)\$/u

  it("finds bare end anchors", () => {
    for (const bad of ["^[0-9]+$", "a$|b(?!\\n)$"]) expect(bad).toMatch(BARE_END)
    for (const fine of ["^[0-9]+(?!\\n)$", "\\$", "[^\\t]"]) expect(fine).not.toMatch(BARE_END)
  })

  it.each(ENDPOINT_IDS)("toJsonSchema(%s) ends every anchored pattern with (?!\\n)$", (id) => {
    expect(patternsOf(toJsonSchema(id)).filter(([, p]) => BARE_END.test(p))).toEqual([])
  })

  it("toOpenApi() has none either, and has patterns to check", () => {
    const patterns = patternsOf(toOpenApi())
    expect(patterns.length).toBeGreaterThan(5)
    expect(patterns.filter(([, p]) => CLASS_ESCAPE.test(p))).toEqual([])
  })
})
