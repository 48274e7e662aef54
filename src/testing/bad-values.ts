/**
 * Bad values, by what the schema expects: wrong JSON types, blank and malformed strings, document paths
 * and phone numbers the contract refuses, unknown keys, strings over their limit, integers out of range.
 * The generic mutations draw from these tables; none of them is valid where it is put.
 *
 * @module
 */
import type { Json } from "./arbitrary-values.js"
import type { FieldInfo } from "./payload-sites.js"

export const WRONG_TYPE: Readonly<Record<"string" | "number" | "boolean" | "object", ReadonlyArray<Json>>> = {
  string: [42, true, { value: "x" }, ["x"]],
  number: ["12.50", true, { amount: 12.5 }, [12.5]],
  boolean: ["true", 1, "ja", { value: true }],
  object: ["x", 1, [{}], false]
}
export const NOT_A_LIST: ReadonlyArray<Json> = [{ "0": "x" }, "x", 1, true]
export const BLANK: ReadonlyArray<string> = ["", " ", "\t\n", "\u00a0\u3000"]
export const MALFORMED: Readonly<Record<"date" | "datetime" | "decimal" | "email" | "digits13", ReadonlyArray<string>>> = {
  date: ["31.12.2024", "2024-02-30", "2023-02-29", "2024-13-01", "2024-1-5", "20240105", "2024-01-15T00:00:00Z", "0000-02-29", "\uff12\uff10\uff12\uff14-01-15"],
  datetime: [
    "2024-01-15T10:00:00",
    "2024-01-15 10:00:00Z",
    "2024-01-15T24:00:00Z",
    "2023-02-29T10:00:00Z",
    "2024-01-15T10:00Z",
    "15.01.2024 10:00",
    "2024-01-15T10:00:00+1:00",
    "2024-01-15",
    "0000-01-01T00:00:00Z",
    "2024-01-15T1\u0660:00:00Z"
  ],
  decimal: ["1,5", "1.234,56", "1e3", "+1", ".5", "5.", "12 345", "NaN", "0x1A", "12.50 EUR", "\u0661\u0662\u0663", "\uff11\uff12", "1.\u0665", "12.5\n"],
  email: ["info(at)example.de", "info@localhost", "info @example.de", "@example.de", "info@@example.de", "info\u0000@example.de", "info@exa\u0085mple.de", "info@example.de,", "<info@example.de>", "info..x@example.de", "info@exam_ple.de"],
  digits13: ["990001234567", "99000123456789", "99-0001234567", "990001234567X", "９９０００１２３４５６７８", "9900012345678\n"]
}
export const BAD_DOCUMENT_PATHS: ReadonlyArray<string> = [
  "/notes/letter.pdf",
  "../other-supplier/letter.pdf",
  "notes/../../letter.pdf",
  "notes//letter.pdf",
  "notes/./letter.pdf",
  "notes\\letter.pdf",
  "s3://bucket/notes/letter.pdf",
  "C:/notes/letter.pdf",
  "notes/letter\u0007.pdf",
  "notes/",
  "file:/etc/passwd",
  "%2e%2e/other-supplier/letter.pdf",
  "notes/\uff0e\uff0e/letter.pdf",
  "notes/letter\ud800.pdf",
  "notes/gpj.\u202epdf"
]
export const BAD_PHONE_NUMBERS: ReadonlyArray<string> = [
  "030 1234567",
  "0049 30 1234567",
  "+49 123",
  "+49 30 1234567 ext. 5",
  "+1234567890123456",
  "+49/30/1234567",
  "+49\n30\t1234567",
  "+49 30 123456\u0667"
]
export const UNKNOWN_KEYS: ReadonlyArray<string> = [
  "zaehlernummer",
  "comment",
  "id",
  "kraken_account_number",
  "created_by",
  "legacy_id",
  "Betrag",
  "metadata",
  "malo_id",
  "periodStartAt",
  "constructor",
  // An own key as JSON.parse makes it: code that copies with Object.assign or `target[key] = value` sets
  // a prototype instead (and loses the key), code that checks `key in object` finds it everywhere.
  "__proto__"
]

/** A string of `length` code points, some outside the BMP (two UTF-16 units each, still one character). */
export const longString = (length: number, variant: number): string =>
  Array.from({ length }, (_, i) => ((i + variant) % 7 === 0 ? "😀" : String.fromCharCode(97 + ((i + variant) % 26)))).join("")

/** Malformed integers for an integer field (a fraction, or outside its range). */
export const badIntegers = (info: FieldInfo): ReadonlyArray<number> => [
  12.5,
  0.1,
  ...(info.maximum !== undefined && info.maximum < Number.MAX_SAFE_INTEGER ? [info.maximum + 1] : [2 ** 53]),
  ...(info.minimum !== undefined && info.minimum > 0 ? [info.minimum - 1, 99] : [])
]
