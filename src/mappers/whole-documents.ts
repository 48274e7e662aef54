/**
 * Which lists of a payload hold parts of one document and which hold records of their own. A delivery
 * note without one of its amounts, or an invoice whose line items no longer add up to its total, is a
 * different document, not a smaller one: a part that fails rejects its whole document. A note, a
 * transaction or a historical statement stands on its own: one that fails leaves the others of its
 * payload to go out.
 *
 * @module
 */
import { endpoints } from "../schemas/endpoints/catalogue.js"
import type { PostEndpointId } from "../schemas/endpoints/endpoint-id.js"
import { naturalKeyOf } from "../schemas/endpoints/natural-key.js"
import type { MappingError, RejectedRows } from "./mapping-result.js"

/**
 * The lists of a payload of `endpoint` (dot paths from the payload root, without array indexes) whose
 * items are records of their own: its natural key's `items`, if it has one. Every other list of a payload
 * holds parts of one document. A price sheet is a document of its own: a bad article price costs its
 * price sheet (its parent item, as any nested item does), and the other price sheets of the payload
 * still go out.
 *
 * @example
 * recordListsOf("transactions") // => ["transactions"]
 * recordListsOf("delivery-note") // => []
 */
export const recordListsOf = (endpoint: PostEndpointId): ReadonlyArray<string> => {
  const items = naturalKeyOf(endpoint).items
  return items === undefined ? [] : [items]
}

/** A list's path without its array indexes: `price_sheets.0.article_prices` is `price_sheets.article_prices`. */
const listOf = (path: string): string => path.split(".").filter((step) => !/^\d+$/u.test(step)).join(".")

/** Whether the items of a payload-level list at `path` are parts of one document of `endpoint` (not records of their own). */
export const isDocumentPart = (endpoint: PostEndpointId, path: string): boolean => !recordListsOf(endpoint).includes(listOf(path))

/** How a batch of rows is one document: which of its payload-level lists hold parts, and how rows are named. */
export interface DocumentRule {
  /** Per payload-level collection of the mapping, whether its items are parts of the document. */
  readonly parts: ReadonlyArray<boolean>
  readonly name: string
  /** How a row is named in a detail: `row 3` (1-based, in input order), or the line the CLI read it from. */
  readonly rowName: (index: number) => string
}

/** The rule of a mapping of `endpoint` whose payload-level collections are at `paths`. */
export const documentRule = (endpoint: PostEndpointId, paths: ReadonlyArray<string>, rowName: (index: number) => string): DocumentRule => ({
  parts: paths.map((path) => isDocumentPart(endpoint, path)),
  name: endpoints[endpoint].documentName,
  rowName
})

/** `row N`, 1-based in input order: how a row is named when the caller does not name it. */
export const rowNumber = (index: number): string => `row ${index + 1}`

/** At most this many failing rows are described in one detail: a document of thousands of bad rows must not give a detail of megabytes. */
const CAUSES_SHOWN = 3

const describe = (e: MappingError): string => `${[e.attr, e.code].filter((p) => p !== undefined && p !== "").join(" ")}: ${e.detail}`

/**
 * The error of the rows of a document rejected because other rows of it were: it names each rejected
 * row (by the first row of its rejection) and its own first reason, so that the one row to fix is found.
 */
export const documentIncomplete = (rule: DocumentRule, causes: ReadonlyArray<RejectedRows>): MappingError => {
  const ordered = [...causes].sort((a, b) => a.sourceRows[0]! - b.sourceRows[0]!)
  const shown = ordered.slice(0, CAUSES_SHOWN).map((c) => {
    const more = c.errors.length > 1 ? ` (and ${c.errors.length - 1} more)` : ""
    return `${rule.rowName(c.sourceRows[0]!)}: ${describe(c.errors[0]!)}${more}`
  })
  const rest = causes.length - shown.length
  const which = causes.length === 1 ? "a part of it was rejected" : `${causes.length} parts of it were rejected`
  return {
    code: "document_incomplete",
    detail: `This ${rule.name} goes out whole or not at all, and ${which}: ${shown.join("; ")}${rest > 0 ? `; and ${rest} more` : ""}.`
  }
}
