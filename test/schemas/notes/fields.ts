/**
 * What the tests know of `notes`'s request from contract-decisions.md: its field table, as attrs of
 * its example payload (examples/payloads/notes.json), and the error codes that apply to it.
 */
import type { FieldTable } from "../fields.js"
import { POST_IMPORT } from "../../support/applicable-codes.js"

/** Which fields are required, optional and not nullable, not null as items, and not blank. */
export const FIELDS = {
  "notes": (() => {
    /** Required by contract-decisions.md: the account, the notes, and `document_path` in each document item. */
    const REQUIRED = [
      "import_supplier",
      "external_account_number",
      "notes",
      "notes.1.document_paths.0.document_path",
      "notes.2.document_paths.1.document_path"
    ]
    /** Optional fields that are not nullable (the spec never says "or null" for notes). */
    const OPTIONAL_NOT_NULLABLE = [
      "notes.0",
      "notes.0.body",
      "notes.0.created_at",
      "notes.0.is_pinned",
      "notes.0.unpin_at",
      "notes.1.document_paths",
      "notes.1.document_paths.0"
    ]
    const STRINGS = [
      "import_supplier",
      "external_account_number",
      "notes.0.body",
      "notes.0.created_at",
      "notes.0.unpin_at",
      "notes.1.document_paths.0.document_path"
    ]
    return { required: REQUIRED, optional: OPTIONAL_NOT_NULLABLE, notNull: [], strings: STRINGS }
  })()
} as const satisfies Readonly<Record<string, FieldTable>>

/**
 * The error codes that apply to it, read from contract-decisions.md (not from the schemas): which
 * fields its request has (lists, required non-empty lists, document paths, phone numbers, ordered pairs)
 * and which cross-field rules. arbitrary-invalid-payload.test.ts checks that its broken payloads cover
 * exactly these.
 */
export const APPLICABLE = {
  "notes": [...POST_IMPORT, "not_a_list", "empty", "invalid_document_path", "note_body_or_document_path_not_found", "note_unpin_at_earlier_than_creation_date"]
} as const satisfies Readonly<Record<string, ReadonlyArray<string>>>
