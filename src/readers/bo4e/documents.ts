/**
 * The documents of a BO4E JSON file. A file is read whole (BO4E exports are documents, not streams of
 * millions of rows) and is one of three layouts, told apart in this order:
 *
 * 1. one JSON value that parses: an array is one document per element, anything else one document;
 * 2. NDJSON: there is more than one non-blank line, and the first parses on its own or at least half of
 *    them are JSON objects on their own: one document per non-blank line, a line that does not parse
 *    (the first one too) costs that line's document alone;
 * 3. otherwise the whole file is one document that is not JSON (a located problem).
 *
 * @module
 */
import { type ExactJson, isJsonObject, parseExactJson } from "./exact-json.js"
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
  // A line may start with a byte order mark of its own (NDJSON exports joined with cat): dropped as the file's.
  const lines = text.split("\n").map((l, i) => ({ text: withoutBom(l.endsWith("\r") ? l.slice(0, -1) : l), line: i + 1 })).filter((l) => l.text.trim() !== "")
  const parsedLines = lines.length > 1 ? lines.map((l) => parseExactJson(l.text)) : []
  // NDJSON when its first line parses alone, or when at least half of its lines are objects on their own: a
  // damaged first line then costs its document alone instead of the whole file. A pretty-printed document
  // that does not parse has few lines that are objects on their own, and stays one document that is not JSON.
  const objects = parsedLines.filter((parsed) => parsed.ok && isJsonObject(parsed.value)).length
  if (parsedLines.length > 1 && (parsedLines[0]!.ok || 2 * objects >= parsedLines.length)) {
    return {
      layout: "ndjson",
      documents: lines.map((l, i): Bo4eDocument => {
        const parsed = parsedLines[i]!
        return parsed.ok
          ? { kind: "document", document: i + 1, line: l.line, value: parsed.value, raw: l.text, ...repeated(repeatedJsonKeys(l.text)[0]?.key) }
          : { kind: "not_json", document: i + 1, line: l.line, message: parsed.message, raw: l.text }
      })
    }
  }
  return { layout: "not_json", documents: [{ kind: "not_json", document: 1, line: 1, message: whole.message, raw: text.slice(0, 200) }] }
}
