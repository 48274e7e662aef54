/**
 * Historical statements: `POST /v1/data-import/historical-statements/create/`
 * (endpoint id `historical-statements`).
 *
 * @module
 */
import { Schema } from "effect"
import {
  AccountIdentificationFields,
  DocumentPath,
  IsoDate,
  JsonNumber,
  NonBlankString,
  nonEmptyArray,
  openEnum
} from "./conventions.js"
import { startNotAfterEnd } from "./rules.js"

/** One historical statement (bill) of the legacy system; `statement_path` points to its PDF. */
export const HistoricalStatement = Schema.Struct({
  bill_period_from_date: IsoDate,
  bill_period_to_date: IsoDate,
  statement_id: NonBlankString,
  issued_date: Schema.optionalKey(IsoDate),
  number: Schema.optionalKey(NonBlankString),
  gross_amount: Schema.optionalKey(JsonNumber),
  statement_path: Schema.optionalKey(DocumentPath),
  supply_type: Schema.optionalKey(openEnum(["ELECTRICITY"])),
  is_annulled: Schema.optionalKey(Schema.Boolean)
}).check(startNotAfterEnd("bill_period_from_date", "bill_period_to_date", "date")).annotate({ identifier: "HistoricalStatement" })
/** One historical statement. */
export type HistoricalStatement = typeof HistoricalStatement.Type

/** Request body of `historical-statements`. */
export const HistoricalStatementsRequest = Schema.Struct({
  ...AccountIdentificationFields,
  statements: nonEmptyArray(HistoricalStatement)
}).annotate({ identifier: "HistoricalStatementsRequest" })
/** Request body of `historical-statements`. */
export type HistoricalStatementsRequest = typeof HistoricalStatementsRequest.Type

/** 201 (and, per the descriptive text, 200) response of `historical-statements`: the validated data. */
export const HistoricalStatementsResponse = HistoricalStatementsRequest
/** Response of `historical-statements`. */
export type HistoricalStatementsResponse = typeof HistoricalStatementsResponse.Type
