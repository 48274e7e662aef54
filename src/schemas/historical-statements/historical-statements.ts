/**
 * Historical statements: `POST /v1/data-import/historical-statements/create/`
 * (endpoint id `historical-statements`).
 *
 * @module
 */
import { Schema } from "effect"
import {
  AccountIdentificationFields,
  type CrossFieldRule,
  DocumentPath,
  IsoDate,
  JsonNumber,
  NonBlankString,
  nonEmptyArray,
  openEnum,
  type RuleFinding
} from "../conventions.js"
import { ruleFilter, startNotAfterEndRule } from "../rules.js"
import { repeatedId } from "../rule-breaks.js"
import type { EndpointDefinition, ResourceDefinition } from "../endpoint-definition.js"
import { post, SERVICE_LEVEL_RESPONSES, validation400 } from "../endpoint-parts.js"

/** A statement's `bill_period_from_date` is not after its `bill_period_to_date`. */
const billPeriodInOrder = startNotAfterEndRule("bill_period_from_date", "bill_period_to_date", "date")

/**
 * One historical statement (bill) of the legacy system; `statement_path` points to its PDF.
 *
 * @example
 * const statement = { bill_period_from_date: "2023-05-01", bill_period_to_date: "2024-04-30", statement_id: "JA-2024-0045127", statement_path: "statements/2024/JA-2024-0045127.pdf" }
 * Schema.is(Schemas.HistoricalStatement)(statement) // => true
 * Schema.is(Schemas.HistoricalStatement)({ ...statement, bill_period_to_date: "2023-04-30" }) // => false
 *
 * @since 0.1.0
 */
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
}).check(ruleFilter(billPeriodInOrder)).annotate({ identifier: "HistoricalStatement" })
/** One historical statement. */
export type HistoricalStatement = typeof HistoricalStatement.Type

/** The `statement_id`s of one request's statements are unique (reported on the later one). */
const uniqueStatementIds = {
  name: "duplicate_statement_ids",
  description: "Two historical statements of one payload share a `statement_id` (reported on the later one).",
  fields: ["statement_id"],
  scope: "items",
  check: (statements) => {
    const seen = new Set<unknown>()
    const findings: Array<RuleFinding> = []
    for (const [index, statement] of statements.entries()) {
      if (statement === undefined) continue
      const id = statement.statement_id
      if (seen.has(id)) {
        findings.push({ path: [index, "statement_id"], code: "duplicate_statement_ids", detail: `statement_id ${String(id)} occurs more than once.` })
      }
      seen.add(id)
    }
    return findings
  },
  // a repeated id, on a later item
  breaker: repeatedId("statement_id")
} as const satisfies CrossFieldRule<ReadonlyArray<{ readonly statement_id?: unknown } | undefined>>

/** The cross-field rules of historical statements, for the list of error codes. */
const historicalStatementsRules = [billPeriodInOrder, uniqueStatementIds] as const

/**
 * Request body of `historical-statements`.
 *
 * @example
 * const statement = { bill_period_from_date: "2023-05-01", bill_period_to_date: "2024-04-30", statement_id: "JA-2024-0045127" }
 * const body = { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", statements: [statement] }
 * Schema.is(Schemas.HistoricalStatementsRequest)(body) // => true
 * Schema.is(Schemas.HistoricalStatementsRequest)({ ...body, statements: [statement, statement] }) // => false
 *
 * @since 0.1.0
 */
export const HistoricalStatementsRequest = Schema.Struct({
  ...AccountIdentificationFields,
  // Not expressible in JSON Schema: `uniqueItems` compares whole items, not one field of them.
  statements: nonEmptyArray(HistoricalStatement).check(ruleFilter(uniqueStatementIds))
}).annotate({ identifier: "HistoricalStatementsRequest" })
/** Request body of `historical-statements`. */
export type HistoricalStatementsRequest = typeof HistoricalStatementsRequest.Type

/**
 * 201 (and, per the descriptive text, 200) response of `historical-statements`: the validated data.
 *
 * @example
 * Schemas.HistoricalStatementsResponse === Schemas.HistoricalStatementsRequest // => true
 *
 * @since 0.1.0
 */
export const HistoricalStatementsResponse = HistoricalStatementsRequest
/** Response of `historical-statements`. */
export type HistoricalStatementsResponse = typeof HistoricalStatementsResponse.Type

/**
 * The catalogue's entry of `historical-statements`: path, request and response schemas, retry advice, repeat rule,
 * what the reference service does, and the natural key of one record.
 */
const historicalStatementsEndpoints = {
  "historical-statements": {
    ...post("historical-statements", "/v1/data-import/historical-statements/create/", "Import historical statements."),
    naturalKey: { items: "statements", account: true, fields: ["statement_id"] },
    documentName: "historical statement",
    documentPaths: ["statements[].statement_path"],
    request: HistoricalStatementsRequest,
    // A repeat is a 400 `historical_statement_already_exists`, which cannot be told from a real refusal.
    repeat: "never",
    service: { handler: "historical-statements", stores: "historical_statements" },
    responses: {
      200: { schema: HistoricalStatementsResponse, description: "The validated data (the descriptive text says 200 OK)." },
      201: { schema: HistoricalStatementsResponse, description: "The validated data." },
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
  endpoints: historicalStatementsEndpoints,
  rules: historicalStatementsRules,
  warningRules: []
} as const satisfies ResourceDefinition
