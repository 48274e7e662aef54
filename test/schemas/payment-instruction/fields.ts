/**
 * What the tests know of `payment-instruction`'s request from contract-decisions.md: its field table, as attrs of
 * its example payload (examples/payloads/payment-instruction.json), and the error codes that apply to it.
 */
import type { FieldTable } from "../fields.js"
import { POST_IMPORT } from "../../support/applicable-codes.js"

/** Which fields are required, optional and not nullable, not null as items, and not blank. */
export const FIELDS = {
  "payment-instruction": (() => {
    /** contract-decisions.md: the account, `vendor`, `reference` and `type` (all top-level, all required). */
    const REQUIRED = ["import_supplier", "external_account_number", "vendor", "reference", "type"]
    return { required: REQUIRED, optional: [], notNull: [], strings: REQUIRED }
  })()
} as const satisfies Readonly<Record<string, FieldTable>>

/**
 * The error codes that apply to it, read from contract-decisions.md (not from the schemas): which
 * fields its request has (lists, required non-empty lists, document paths, phone numbers, ordered pairs)
 * and which cross-field rules. arbitrary-invalid-payload.test.ts checks that its broken payloads cover
 * exactly these.
 */
export const APPLICABLE = {
  "payment-instruction": [...POST_IMPORT]
} as const satisfies Readonly<Record<string, ReadonlyArray<string>>>
