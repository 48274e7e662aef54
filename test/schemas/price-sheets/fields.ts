/**
 * What the tests know of `market-participant-fees`'s request from contract-decisions.md: its field table, as attrs of
 * its example payload (examples/payloads/market-participant-fees.json), and the error codes that apply to it.
 */
import type { FieldTable } from "../fields.js"
import { COMMON } from "../../support/applicable-codes.js"

/** Which fields are required, optional and not nullable, not null as items, and not blank. */
export const FIELDS = {
  "market-participant-fees": (() => {
    const SHEET = "price_sheets.0"
    const PRICE = `${SHEET}.article_prices.0`
    const ZONE = `${PRICE}.interval_zone`
    /** contract-decisions.md: `price_sheets`; five fields per sheet; two per article price; both interval bounds. */
    const REQUIRED = [
      "price_sheets",
      ...["market_participant_code", "price_sheet_type", "document_number", "active_from", "article_prices"].map(
        (f) => `${SHEET}.${f}`
      ),
      `${PRICE}.article_id`,
      `${PRICE}.price_cents`,
      `${SHEET}.article_prices.1.article_id`,
      `${SHEET}.article_prices.1.price_cents`,
      `${ZONE}.lower_bound`,
      `${ZONE}.upper_bound`
    ]
    const OPTIONAL = [
      `${SHEET}.preceding_document_number`,
      `${SHEET}.is_price_sheet_unused`,
      `${SHEET}.external_id`,
      ZONE,
      `${SHEET}.article_prices.1`
    ]
    const STRINGS = [
      `${SHEET}.price_sheet_type`,
      `${SHEET}.document_number`,
      `${SHEET}.preceding_document_number`,
      `${SHEET}.active_from`,
      `${SHEET}.external_id`,
      `${PRICE}.article_id`,
      `${PRICE}.price_cents`
    ]
    return { required: REQUIRED, optional: OPTIONAL, notNull: [SHEET], strings: STRINGS }
  })()
} as const satisfies Readonly<Record<string, FieldTable>>

/**
 * The error codes that apply to it, read from contract-decisions.md (not from the schemas): which
 * fields its request has (lists, required non-empty lists, document paths, phone numbers, ordered pairs)
 * and which cross-field rules. arbitrary-invalid-payload.test.ts checks that its broken payloads cover
 * exactly these.
 */
export const APPLICABLE = {
  "market-participant-fees": [...COMMON, "not_a_list", "empty", "lower_bound_greater_than_upper_bound"]
} as const satisfies Readonly<Record<string, ReadonlyArray<string>>>
