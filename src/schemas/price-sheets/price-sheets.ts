/**
 * Market participant fee price sheets: `POST /v1/data-import/market-participant-fees/import/`
 * (endpoint id `market-participant-fees`). One price sheet mirrors one price-catalogue message.
 *
 * @module
 */
import { Schema } from "effect"
import {
  type CrossFieldRule,
  DecimalString,
  IsoDateTime,
  JsonNumber,
  MarketParticipantCode,
  NonBlankString,
  nonEmptyArray
} from "../conventions.js"
import { ruleFilter } from "../rules.js"
import { pick } from "../rule-breaks.js"
import type { EndpointDefinition, ResourceDefinition } from "../endpoint-definition.js"
import { post, SERVICE_LEVEL_RESPONSES, validation400 } from "../endpoint-parts.js"
import { UndocumentedBody } from "../errors.js"

/** An interval zone's `lower_bound` does not exceed its `upper_bound`. */
const lowerNotAboveUpper = {
  name: "lower_bound_greater_than_upper_bound",
  description: "An interval zone whose lower bound exceeds its upper bound.",
  fields: ["lower_bound", "upper_bound"],
  check: (zone) =>
    zone.lower_bound <= zone.upper_bound
      ? []
      : [{ path: ["upper_bound"], code: "lower_bound_greater_than_upper_bound", detail: "lower_bound must not be greater than upper_bound." }],
  // lower bound above the upper one
  breaker: (zone, variant) => {
    const high = 10 + (variant % 9) * 1000
    const low = pick([high - 0.5, high - 1, 0], variant)
    return { value: { ...zone, lower_bound: high, upper_bound: low }, at: ["upper_bound"], detail: `upper_bound (${low}) is below lower_bound (${high})` }
  }
} as const satisfies CrossFieldRule<{ readonly lower_bound: number; readonly upper_bound: number }>

/** The cross-field rules of price sheets, for the list of error codes. */
const priceSheetsRules = [lowerNotAboveUpper] as const

/**
 * The consumption interval a price applies to; `lower_bound` must not exceed `upper_bound`.
 *
 * @example
 * Schema.is(Schemas.IntervalZone)({ lower_bound: 0, upper_bound: 100000 }) // => true
 * Schema.is(Schemas.IntervalZone)({ lower_bound: 100000, upper_bound: 0 }) // => false
 *
 * @since 0.1.0
 */
export const IntervalZone = Schema.Struct({
  lower_bound: JsonNumber,
  upper_bound: JsonNumber
}).check(
  // Not expressible in JSON Schema: it compares two values.
  ruleFilter(lowerNotAboveUpper)
).annotate({ identifier: "IntervalZone" })
/** The consumption interval a price applies to. */
export type IntervalZone = typeof IntervalZone.Type

/**
 * The price of one article, in cents as a decimal string.
 *
 * @example
 * Schema.is(Schemas.ArticlePrice)({ article_id: "9990001000079", price_cents: "794" }) // => true
 * Schema.is(Schemas.ArticlePrice)({ article_id: "9990001000079", price_cents: 794 }) // => false
 *
 * @since 0.1.0
 */
export const ArticlePrice = Schema.Struct({
  article_id: NonBlankString,
  price_cents: DecimalString,
  interval_zone: Schema.optionalKey(IntervalZone)
}).annotate({ identifier: "ArticlePrice" })
/** The price of one article. */
export type ArticlePrice = typeof ArticlePrice.Type

/**
 * One price sheet: a market participant's prices of one price sheet type.
 *
 * @example
 * const sheet = { market_participant_code: 9900123456789, price_sheet_type: "Z64", document_number: "PRICAT-2024-0001", active_from: "2024-01-01T00:00:00+01:00", article_prices: [{ article_id: "9990001000079", price_cents: "794" }] }
 * Schema.is(Schemas.PriceSheet)(sheet) // => true
 * Schema.is(Schemas.PriceSheet)({ ...sheet, article_prices: [] }) // => false
 *
 * @since 0.1.0
 */
export const PriceSheet = Schema.Struct({
  market_participant_code: MarketParticipantCode,
  price_sheet_type: NonBlankString,
  document_number: NonBlankString,
  preceding_document_number: Schema.optionalKey(NonBlankString),
  is_price_sheet_unused: Schema.optionalKey(Schema.Boolean),
  active_from: IsoDateTime,
  external_id: Schema.optionalKey(NonBlankString),
  article_prices: nonEmptyArray(ArticlePrice)
}).annotate({ identifier: "PriceSheet" })
/** One price sheet. */
export type PriceSheet = typeof PriceSheet.Type

/**
 * Request body of `market-participant-fees`.
 *
 * @example
 * const sheet = { market_participant_code: 9900123456789, price_sheet_type: "Z64", document_number: "PRICAT-2024-0001", active_from: "2024-01-01T00:00:00+01:00", article_prices: [{ article_id: "9990001000079", price_cents: "794" }] }
 * Schema.is(Schemas.MarketParticipantFeesRequest)({ price_sheets: [sheet] }) // => true
 * Schema.is(Schemas.MarketParticipantFeesRequest)({ price_sheets: [] }) // => false
 *
 * @since 0.1.0
 */
export const MarketParticipantFeesRequest = Schema.Struct({
  price_sheets: nonEmptyArray(PriceSheet)
}).annotate({ identifier: "MarketParticipantFeesRequest" })
/** Request body of `market-participant-fees`. */
export type MarketParticipantFeesRequest = typeof MarketParticipantFeesRequest.Type

/**
 * The catalogue's entry of `market-participant-fees`: path, request and response schemas, retry advice, repeat rule,
 * what the reference service does, and the natural key of one record.
 */
const priceSheetsEndpoints = {
  "market-participant-fees": {
    ...post("market-participant-fees", "/v1/data-import/market-participant-fees/import/", "Import fee price sheets."),
    naturalKey: { items: "price_sheets", account: false, fields: ["market_participant_code", "document_number"] },
    documentName: "price sheet",
    request: MarketParticipantFeesRequest,
    repeat: "never",
    service: { handler: "market-participant-fees", stores: "price_sheets" },
    responses: {
      201: { schema: UndocumentedBody, description: "Imported." },
      400: validation400,
      ...SERVICE_LEVEL_RESPONSES
    }
  }
} as const satisfies Record<string, EndpointDefinition>

/**
 * The resource as the registry (`src/schemas/registry.ts`) takes it: its endpoints, and the rules its
 * schemas carry, from which the code lists are built. A default export, so that the registry's
 * `export *` of the module's schemas (the public `Schemas`) leaves it out.
 */
export default {
  endpoints: priceSheetsEndpoints,
  rules: priceSheetsRules,
  warningRules: []
} as const satisfies ResourceDefinition
