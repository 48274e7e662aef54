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
 * A document nested more than {@link MAX_DEPTH} levels deep is one of its own kind, `too_deep`, found
 * before it is parsed into a value: an array too deep to parse whole is cut into its elements, each a
 * document, so that one deep element costs itself alone.
 *
 * @module
 */
import { type ExactJson, type ExactJsonParse, isJsonObject, jsonArrayElements, parseExactJson } from "./exact-json.js"
import { withoutBom } from "../byte-order-mark.js"
import { repeatedJsonKeys } from "../json/repeated-json-keys.js"

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
  | { readonly kind: "too_deep"; readonly document: number; readonly line: number | undefined; readonly raw: string }

/**
 * The deepest nesting of objects and lists a document may have. A BO nests a dozen levels at most; the
 * exact parse and the cells of a document are read recursively, so a deeper one (which JSON.parse alone
 * still takes) would exhaust the stack and crash the run, or be called not JSON, instead of costing its
 * document as `too_deep`.
 */
export const MAX_DEPTH = 256

/** The layout the file was read as. */
export type Bo4eLayout = "single" | "array" | "ndjson" | "not_json"

const repeated = (key: string | undefined): { readonly repeatedKey?: string } => (key === undefined ? {} : { repeatedKey: key })

/** Splits `text` into its documents (a byte order mark is dropped). */
export const bo4eDocuments = (input: string): { readonly layout: Bo4eLayout; readonly documents: ReadonlyArray<Bo4eDocument> } => {
  const text = withoutBom(input)
  // One level more for the array that holds the documents.
  const whole = parseExactJson(text, MAX_DEPTH + 1)
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
  if (whole.tooDeep !== undefined) {
    const elements = jsonArrayElements(text)
    if (elements === undefined) return { layout: "single", documents: [{ kind: "too_deep", document: 1, line: 1, raw: text }] }
    return {
      layout: "array",
      documents: elements.map((element, i): Bo4eDocument => {
        const parsed = parseExactJson(element, MAX_DEPTH)
        return parsed.ok
          ? { kind: "document", document: i + 1, line: undefined, value: parsed.value, raw: undefined, ...repeated(repeatedJsonKeys(element)[0]?.key) }
          : { kind: "too_deep", document: i + 1, line: undefined, raw: element.trim() }
      })
    }
  }
  // A line may start with a byte order mark of its own (NDJSON exports joined with cat): dropped as the file's.
  const lines = text.split("\n").map((l, i) => ({ text: withoutBom(l.endsWith("\r") ? l.slice(0, -1) : l), line: i + 1 })).filter((l) => l.text.trim() !== "")
  const parsedLines = lines.length > 1 ? lines.map((l) => parseExactJson(l.text, MAX_DEPTH)) : []
  // A line too deep to read is JSON all the same (an object when it starts as one).
  const isJson = (parsed: ExactJsonParse): boolean => parsed.ok || parsed.tooDeep !== undefined
  // NDJSON when its first line parses alone, or when at least half of its lines are objects on their own: a
  // damaged first line then costs its document alone instead of the whole file. A pretty-printed document
  // that does not parse has few lines that are objects on their own, and stays one document that is not JSON.
  const objects = parsedLines.filter((parsed, i) => parsed.ok ? isJsonObject(parsed.value) : isJson(parsed) && lines[i]!.text.trimStart().startsWith("{")).length
  if (parsedLines.length > 1 && (isJson(parsedLines[0]!) || 2 * objects >= parsedLines.length)) {
    return {
      layout: "ndjson",
      documents: lines.map((l, i): Bo4eDocument => {
        const parsed = parsedLines[i]!
        return parsed.ok
          ? { kind: "document", document: i + 1, line: l.line, value: parsed.value, raw: l.text, ...repeated(repeatedJsonKeys(l.text)[0]?.key) }
          : parsed.tooDeep !== undefined
          ? { kind: "too_deep", document: i + 1, line: l.line, raw: l.text }
          : { kind: "not_json", document: i + 1, line: l.line, message: parsed.message, raw: l.text }
      })
    }
  }
  return { layout: "not_json", documents: [{ kind: "not_json", document: 1, line: 1, message: whole.message, raw: text.slice(0, 200) }] }
}
