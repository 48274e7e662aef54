/**
 * The documents of a BO4E JSON file. A file is read whole (BO4E exports are documents, not streams of
 * millions of rows) and is one of three layouts, told apart in this order:
 *
 * 1. one JSON value that parses: an array is one document per element, anything else one document;
 * 2. NDJSON: the first non-blank line parses on its own and there is more than one non-blank line: one
 *    document per non-blank line, a line that does not parse costs that line's document alone;
 * 3. otherwise the whole file is one document that is not JSON (a located problem).
 *
 * @module
 */
import { type ExactJson, parseExactJson } from "./exact-json.js"
import { withoutBom } from "../byte-order-mark.js"
import { repeatedJsonKeys } from "../repeated-json-keys.js"

/** One document: its 1-based number, the line it starts on (NDJSON, or line 1 of a single document), its value or why it has none. */
export type Bo4eDocument =
  | {
    readonly kind: "document"
    readonly document: number
    readonly line: number | undefined
    readonly value: ExactJson
    readonly raw: string | undefined
    /** A key written twice in one of its objects (parsing kept the last value): the document cannot be read. */
    readonly repeatedKey?: string
  }
  | { readonly kind: "not_json"; readonly document: number; readonly line: number | undefined; readonly message: string; readonly raw: string }

/** The layout the file was read as. */
export type Bo4eLayout = "single" | "array" | "ndjson" | "not_json"

const repeated = (key: string | undefined): { readonly repeatedKey?: string } => (key === undefined ? {} : { repeatedKey: key })

/** Splits `text` into its documents (a byte order mark is dropped). */
export const bo4eDocuments = (input: string): { readonly layout: Bo4eLayout; readonly documents: ReadonlyArray<Bo4eDocument> } => {
  const text = withoutBom(input)
  const whole = parseExactJson(text)
  if (whole.ok) {
    const repeats = new Map(repeatedJsonKeys(text).map((r) => [r.element, r.key]))
    if (Array.isArray(whole.value)) {
      const elements = whole.value as ReadonlyArray<ExactJson>
      return {
        layout: "array",
        documents: elements.map((value, i) => ({ kind: "document", document: i + 1, line: undefined, value, raw: undefined, ...repeated(repeats.get(i)) }))
      }
    }
    return { layout: "single", documents: [{ kind: "document", document: 1, line: 1, value: whole.value, raw: text, ...repeated(repeats.get(undefined)) }] }
  }
  const lines = text.split("\n").map((l, i) => ({ text: l.endsWith("\r") ? l.slice(0, -1) : l, line: i + 1 })).filter((l) => l.text.trim() !== "")
  const first = lines[0] === undefined ? undefined : parseExactJson(lines[0].text)
  if (first?.ok === true && lines.length > 1) {
    return {
      layout: "ndjson",
      documents: lines.map((l, i): Bo4eDocument => {
        const parsed = parseExactJson(l.text)
        return parsed.ok
          ? { kind: "document", document: i + 1, line: l.line, value: parsed.value, raw: l.text, ...repeated(repeatedJsonKeys(l.text)[0]?.key) }
          : { kind: "not_json", document: i + 1, line: l.line, message: parsed.message, raw: l.text }
      })
    }
  }
  return { layout: "not_json", documents: [{ kind: "not_json", document: 1, line: 1, message: whole.message, raw: text.slice(0, 200) }] }
}
