/**
 * What the tests know of `market-participant`'s request from contract-decisions.md: its field table, as attrs of
 * its example payload (examples/payloads/market-participant.json), and the error codes that apply to it.
 */
import type { FieldTable } from "../fields.js"
import { COMMON } from "../../support/applicable-codes.js"

/** Which fields are required, optional and not nullable, not null as items, and not blank. */
export const FIELDS = {
  "market-participant": (() => {
    const CONTACT = "contact_details.0"
    /** contract-decisions.md: `code`, `code_type`, `name`, `role`, `energy`; a contact needs its `category`. */
    const REQUIRED = ["code", "code_type", "name", "role", "energy", `${CONTACT}.category`]
    const OPTIONAL = ["contact_details", CONTACT, `${CONTACT}.name`, `${CONTACT}.email`, `${CONTACT}.phone`, `${CONTACT}.valid_from`]
    const STRINGS = [
      "code_type",
      "name",
      "role",
      "energy",
      `${CONTACT}.category`,
      `${CONTACT}.name`,
      `${CONTACT}.email`,
      `${CONTACT}.phone`,
      `${CONTACT}.valid_from`
    ]
    return { required: REQUIRED, optional: OPTIONAL, notNull: [], strings: STRINGS }
  })()
} as const satisfies Readonly<Record<string, FieldTable>>

/**
 * The error codes that apply to it, read from contract-decisions.md (not from the schemas): which
 * fields its request has (lists, required non-empty lists, document paths, phone numbers, ordered pairs)
 * and which cross-field rules. arbitrary-invalid-payload.test.ts checks that its broken payloads cover
 * exactly these.
 */
export const APPLICABLE = {
  "market-participant": [...COMMON, "not_a_list", "invalid_phone_number"]
} as const satisfies Readonly<Record<string, ReadonlyArray<string>>>
