/**
 * Financial transactions: `POST /v1/data-import/transactions/create/` (endpoint id `transactions`).
 *
 * @module
 */
import { Schema } from "effect"
import {
  AccountIdentificationFields,
  closedEnum,
  type CrossFieldRule,
  DecimalString,
  IsoDate,
  JsonNumber,
  NON_BLANK_RE,
  NonBlankString,
  nonEmptyArray,
  openEnum,
  type RuleFinding,
  type RuleWarning,
  WARNING_RULES,
  type WarningRule
} from "../conventions.js"
import { ruleFilter, startNotAfterEndRule } from "../rules.js"
import { transactionInFuture } from "./transaction-date.js"
import { TYPE_SPECIFIC_FIELDS } from "./type-specific-fields.js"
import { pick, repeatedId } from "../rule-breaks.js"
import type { EndpointDefinition, ResourceDefinition } from "../endpoint-definition.js"
import { post, SERVICE_LEVEL_RESPONSES } from "../endpoint-parts.js"
import { ValidationErrorBody } from "../errors.js"

/**
 * Transaction types that appear in the spec (open enumeration).
 *
 * @example
 * Schema.is(Schemas.TransactionType)("PAYMENT") // => true
 * Schema.is(Schemas.TransactionType)("REFUND") // => true
 * Schema.is(Schemas.TransactionType)("") // => false
 *
 * @since 0.1.0
 */
export const TransactionType = openEnum(["CHARGE", "CREDIT", "PAYMENT", "REPAYMENT", "SUPPLY_CHARGE"])
/**
 * Transaction reasons that appear in the spec (open enumeration).
 *
 * @example
 * Schema.is(Schemas.TransactionReason)("IMPORTED_CHARGE") // => true
 * Schema.is(Schemas.TransactionReason)(" ") // => false
 *
 * @since 0.1.0
 */
export const TransactionReason = openEnum([
  "IMPORTED_CHARGE",
  "IMPORTED_CREDIT",
  "ACCOUNT_CHARGE_PAYMENT",
  "FULL_CREDIT_REFUND",
  "GENERAL_CREDIT"
])
/**
 * Payment types that appear in the spec (open enumeration).
 *
 * @example
 * Schema.is(Schemas.PaymentType)("DIRECT_CREDIT") // => true
 * Schema.is(Schemas.PaymentType)(42) // => false
 *
 * @since 0.1.0
 */
export const PaymentType = openEnum(["DD_REGULAR_COLLECTION", "DIRECT_CREDIT", "DEBIT_CARD"])

const UNITS_LENGTH = 2
const SUPPLY_CHARGE = "SUPPLY_CHARGE"

/** `units` of a line item holds exactly two values. */
const unitsAreTwoValues = {
  name: "line_item_units_must_be_two_values",
  description: "`units` given with other than two values.",
  fields: [],
  scope: "list",
  jsonSchema: { minItems: UNITS_LENGTH, maxItems: UNITS_LENGTH },
  check: (units) =>
    units.length === UNITS_LENGTH
      ? []
      : [{ path: [], code: "line_item_units_must_be_two_values", detail: "units must hold exactly two values." }],
  // one value, or three, or four
  breaker: (_units, variant) => {
    const units = pick([[120.5], [1, 2, 3], [0, 100, 200, 300]], variant)
    return { value: units, at: [], detail: `units holds ${units.length} values` }
  }
} as const satisfies CrossFieldRule<ReadonlyArray<unknown>>

/** A line item's `start_date` is not after its `end_date`. */
const lineItemPeriodInOrder = startNotAfterEndRule("start_date", "end_date", "date")

/**
 * One line item of a SUPPLY_CHARGE; amounts are JSON numbers in the currency's major unit.
 *
 * @example
 * const item = { start_date: "2023-05-01", end_date: "2024-04-30", number_of_units: 412.3, net_amount: 128.8, units: [18234.1, 18646.4] }
 * Schema.is(Schemas.TransactionLineItem)(item) // => true
 * Schema.is(Schemas.TransactionLineItem)({ ...item, units: [18646.4] }) // => false
 *
 * @since 0.1.0
 */
export const TransactionLineItem = Schema.Struct({
  rate_band: Schema.optionalKey(openEnum(["CONSUMPTION_STANDARD"])),
  start_date: IsoDate,
  end_date: IsoDate,
  number_of_units: JsonNumber,
  net_amount: JsonNumber,
  price_per_unit: Schema.optionalKey(JsonNumber),
  units: Schema.optionalKey(
    Schema.Array(JsonNumber).check(ruleFilter(unitsAreTwoValues))
  )
}).check(ruleFilter(lineItemPeriodInOrder)).annotate({ identifier: "TransactionLineItem" })
/** One line item of a SUPPLY_CHARGE. */
export type TransactionLineItem = typeof TransactionLineItem.Type

/**
 * One tax item of a SUPPLY_CHARGE; all five fields are required.
 *
 * @example
 * const tax = { amount: 24.47, tax_type: "VAT", value_taxed: 128.8, rate: 0.19, unit_type: "PROPORTION" }
 * Schema.is(Schemas.TransactionTaxItem)(tax) // => true
 * Schema.is(Schemas.TransactionTaxItem)({ ...tax, rate: "19%" }) // => false
 *
 * @since 0.1.0
 */
export const TransactionTaxItem = Schema.Struct({
  amount: JsonNumber,
  tax_type: openEnum(["VAT"]),
  value_taxed: JsonNumber,
  rate: JsonNumber,
  unit_type: openEnum(["PROPORTION"])
}).annotate({ identifier: "TransactionTaxItem" })
/** One tax item of a SUPPLY_CHARGE. */
export type TransactionTaxItem = typeof TransactionTaxItem.Type

/** A type-specific field on a transaction of another type (`field_not_used_by_type`, a warning). */
const fieldsOfOtherTypes = {
  code: "field_not_used_by_type",
  description: "A transaction field documented for another transaction type.",
  check: (transaction) => {
    const type = transaction["type"]
    // A blank type is an error of its own: which fields it uses is unknown.
    if (typeof type !== "string" || !NON_BLANK_RE.test(type)) return []
    const out: Array<RuleWarning> = []
    for (const [field, types] of Object.entries(TYPE_SPECIFIC_FIELDS)) {
      if (Object.hasOwn(transaction, field) && !types.includes(type)) {
        out.push({
          path: [field],
          code: "field_not_used_by_type",
          detail: `${field} is documented for ${types.join(" and ")} transactions, not for ${type}.`
        })
      }
    }
    return out
  }
} as const satisfies WarningRule

/**
 * Another type of transaction made a valid SUPPLY_CHARGE, for the breaker of its fields: with a product
 * code and one line item over the transaction's day, and without the fields of other types. Only
 * changing `type` would leave both fields missing (two errors, not the one the breaker announces) and a
 * `payment_type` to warn about.
 */
const asSupplyCharge = (t: Readonly<Record<string, unknown>>): Record<string, unknown> => ({
  ...Object.fromEntries(Object.entries(t).filter(([field]) => TYPE_SPECIFIC_FIELDS[field]?.includes(SUPPLY_CHARGE) ?? true)),
  type: SUPPLY_CHARGE,
  product_code: typeof t["product_code"] === "string" ? t["product_code"] : "STROM",
  line_items: Array.isArray(t["line_items"]) && t["line_items"].length > 0
    ? t["line_items"]
    : [{ start_date: t["transaction_date"], end_date: t["transaction_date"], number_of_units: 1, net_amount: t["amount"] }]
})

/** A SUPPLY_CHARGE needs a `product_code` and at least one line item. */
const supplyChargeFields = {
  name: "supply_charge_fields",
  description: "A SUPPLY_CHARGE without `product_code` or `line_items` (`required`), or with `line_items` empty (`empty`).",
  reports: ["required", "empty"],
  fields: ["product_code", "line_items"],
  when: { type: SUPPLY_CHARGE },
  reads: ["type", "product_code", "line_items"],
  // Exact: when `type` is SUPPLY_CHARGE, `product_code` and a non-empty `line_items` are required.
  jsonSchema: {
    if: { type: "object", required: ["type"], properties: { type: { const: SUPPLY_CHARGE } } },
    then: {
      type: "object",
      required: ["product_code", "line_items"],
      properties: { product_code: {}, line_items: { type: "array", minItems: 1 } }
    }
  },
  check: (t) => {
    if (t.type !== SUPPLY_CHARGE) return []
    const findings: Array<RuleFinding> = []
    if (t.product_code === undefined) {
      findings.push({ path: ["product_code"], code: "required", detail: "A SUPPLY_CHARGE needs a product_code." })
    }
    if (t.line_items === undefined) {
      findings.push({ path: ["line_items"], code: "required", detail: "A SUPPLY_CHARGE needs line_items." })
    } else if (t.line_items.length === 0) {
      findings.push({ path: ["line_items"], code: "empty", detail: "A SUPPLY_CHARGE needs at least one line item." })
    }
    return findings
  },
  // a SUPPLY_CHARGE without one of the fields it needs (or with its list of line items empty)
  breaker: (t, variant) => {
    const charge = t.type === SUPPLY_CHARGE ? t : asSupplyCharge(t)
    const ways = (["product_code", "line_items"] as const).flatMap((field) => {
      const { [field]: _removed, ...rest } = charge
      const removal = { value: rest, at: [field], code: "required", detail: `${field} is missing (type ${SUPPLY_CHARGE})` }
      const emptied = { value: { ...charge, [field]: [] }, at: [field], code: "empty", detail: `${field} is empty` }
      return field === "line_items" ? [removal, emptied] : [removal]
    })
    return pick(ways, variant)
  }
} as const satisfies CrossFieldRule<{ readonly type?: unknown; readonly product_code?: unknown; readonly line_items?: ReadonlyArray<unknown> }>

/**
 * One financial transaction of a transactions request (`amount` a JSON number, in major units).
 *
 * @example
 * const debit = { transaction_id: "BU-2024-000118", transaction_date: "2024-01-15", amount: 86, type: "PAYMENT", payment_type: "DD_REGULAR_COLLECTION" }
 * Schema.is(Schemas.Transaction)(debit) // => true
 * Schema.is(Schemas.Transaction)({ ...debit, type: "SUPPLY_CHARGE" }) // => false
 *
 * @since 0.1.0
 */
export const Transaction = Schema.Struct({
  transaction_id: NonBlankString,
  transaction_date: IsoDate,
  amount: JsonNumber,
  type: TransactionType,
  reason: Schema.optionalKey(TransactionReason),
  display_note: Schema.optionalKey(NonBlankString),
  note: Schema.optionalKey(NonBlankString),
  reference: Schema.optionalKey(NonBlankString),
  payment_type: Schema.optionalKey(PaymentType),
  product_code: Schema.optionalKey(NonBlankString),
  line_items: Schema.optionalKey(Schema.Array(TransactionLineItem)),
  tax_items: Schema.optionalKey(Schema.Array(TransactionTaxItem))
}).check(
  ruleFilter(supplyChargeFields),
  ruleFilter(transactionInFuture)
).annotate({ identifier: "Transaction", [WARNING_RULES]: [fieldsOfOtherTypes] })
/** One financial transaction of a transactions request. */
export type Transaction = typeof Transaction.Type

/** The `transaction_id`s of one request's transactions are unique (reported on the later one). */
const uniqueTransactionIds = {
  name: "duplicate_transaction_ids",
  description: "Two transactions of one account share a `transaction_id`, in one payload or (CLI) anywhere in the input (reported on the later one).",
  fields: ["transaction_id"],
  scope: "items",
  check: (transactions) => {
    const seen = new Set<unknown>()
    const findings: Array<RuleFinding> = []
    for (const [index, transaction] of transactions.entries()) {
      if (transaction === undefined) continue
      const id = transaction.transaction_id
      if (seen.has(id)) {
        findings.push({
          path: [index, "transaction_id"],
          code: "duplicate_transaction_ids",
          detail: `transaction_id ${String(id)} occurs more than once.`
        })
      }
      seen.add(id)
    }
    return findings
  },
  // a repeated id, on a later item
  breaker: repeatedId("transaction_id")
} as const satisfies CrossFieldRule<ReadonlyArray<{ readonly transaction_id?: unknown } | undefined>>

/** The cross-field rules of transactions, for the list of error codes. */
const transactionsRules = [lineItemPeriodInOrder, unitsAreTwoValues, supplyChargeFields, transactionInFuture, uniqueTransactionIds] as const

/** The warning rules of transactions, for the list of warning codes. */
const transactionsWarningRules = [fieldsOfOtherTypes] as const

/**
 * The transactions of one request; their `transaction_id`s must be unique (`duplicate_transaction_ids`).
 *
 * @example
 * const debit = { transaction_id: "BU-2024-000118", transaction_date: "2024-01-15", amount: 86, type: "PAYMENT" }
 * Schema.is(Schemas.TransactionList)([debit]) // => true
 * Schema.is(Schemas.TransactionList)([debit, debit]) // => false
 *
 * @since 0.1.0
 */
export const TransactionList = nonEmptyArray(Transaction).check(
  // Not expressible in JSON Schema: `uniqueItems` compares whole items, not one field of them.
  ruleFilter(uniqueTransactionIds)
)

/**
 * Request body of `transactions`.
 *
 * @example
 * const transactions = [{ transaction_id: "BU-2024-000118", transaction_date: "2024-01-15", amount: 86, type: "PAYMENT" }]
 * Schema.is(Schemas.TransactionsRequest)({ import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", transactions }) // => true
 * Schema.is(Schemas.TransactionsRequest)({ import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", transactions: [] }) // => false
 *
 * @since 0.1.0
 */
export const TransactionsRequest = Schema.Struct({
  ...AccountIdentificationFields,
  transactions: TransactionList
}).annotate({ identifier: "TransactionsRequest" })
/** Request body of `transactions`. */
export type TransactionsRequest = typeof TransactionsRequest.Type

/**
 * Query parameters of `transactions`; both default to `true` when absent.
 *
 * @example
 * Schema.is(Schemas.TransactionsQuery)({ check_previously_added: false }) // => true
 * Schema.is(Schemas.TransactionsQuery)({ check_previously_added: "false" }) // => false
 *
 * @since 0.1.0
 */
export const TransactionsQuery = Schema.Struct({
  check_previously_added: Schema.optionalKey(Schema.Boolean),
  force_add_to_current_statement: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "TransactionsQuery" })
/** Query parameters of `transactions`. */
export type TransactionsQuery = typeof TransactionsQuery.Type

/** Defaults of the `transactions` query parameters, as the spec gives them. */
const TRANSACTIONS_QUERY_DEFAULTS = {
  check_previously_added: true,
  force_add_to_current_statement: true
} as const satisfies Required<TransactionsQuery>

/** A number in a response: the server echoes amounts as decimal strings; plain numbers are accepted too. */
const ResponseNumber = Schema.Union([DecimalString, JsonNumber])

/**
 * A transaction as the server echoes it: amounts as decimal strings, possibly with its own `status`.
 *
 * @example
 * const echoed = { transaction_id: "BU-2024-000118", transaction_date: "2024-01-15", amount: "86.00", type: "PAYMENT" }
 * Schema.is(Schemas.TransactionData)(echoed) // => true
 * Schema.is(Schemas.TransactionData)({ ...echoed, amount: 86 }) // => false
 *
 * @since 0.1.0
 */
export const TransactionData = Schema.Struct({
  transaction_id: Schema.String,
  transaction_date: IsoDate,
  amount: DecimalString,
  type: TransactionType,
  reason: Schema.optionalKey(Schema.String),
  display_note: Schema.optionalKey(Schema.String),
  note: Schema.optionalKey(Schema.String),
  reference: Schema.optionalKey(Schema.String),
  payment_type: Schema.optionalKey(Schema.String),
  product_code: Schema.optionalKey(Schema.String),
  line_items: Schema.optionalKey(Schema.Array(Schema.Struct({
    rate_band: Schema.optionalKey(Schema.String),
    start_date: IsoDate,
    end_date: IsoDate,
    number_of_units: ResponseNumber,
    net_amount: ResponseNumber,
    price_per_unit: Schema.optionalKey(ResponseNumber),
    units: Schema.optionalKey(Schema.Array(ResponseNumber))
  }))),
  tax_items: Schema.optionalKey(Schema.Array(Schema.Struct({
    amount: ResponseNumber,
    tax_type: Schema.String,
    value_taxed: ResponseNumber,
    rate: ResponseNumber,
    unit_type: Schema.String
  }))),
  status: Schema.optionalKey(openEnum(["TRANSACTION_IMPORT_SUCCESS"]))
}).annotate({ identifier: "TransactionData" })
/** A transaction as the server echoes it. */
export type TransactionData = typeof TransactionData.Type

/**
 * Outcome of one transaction.
 *
 * @example
 * Schema.is(Schemas.TransactionResultStatus)("TRANSACTION_ALREADY_EXISTS") // => true
 * Schema.is(Schemas.TransactionResultStatus)("TRANSACTION_SKIPPED") // => false
 *
 * @since 0.1.0
 */
export const TransactionResultStatus = closedEnum([
  "TRANSACTION_ADDED_TO_ACCOUNT",
  "TRANSACTION_ALREADY_EXISTS",
  "TRANSACTION_IMPORT_ERROR"
])

/**
 * One item of the transactions 201 response.
 *
 * @example
 * const transaction_data = { transaction_id: "BU-2024-000118", transaction_date: "2024-01-15", amount: "86.00", type: "PAYMENT" }
 * Schema.is(Schemas.TransactionResult)({ status: "TRANSACTION_ADDED_TO_ACCOUNT", transaction_data }) // => true
 * Schema.is(Schemas.TransactionResult)({ status: "ADDED", transaction_data }) // => false
 *
 * @since 0.1.0
 */
export const TransactionResult = Schema.Struct({
  status: TransactionResultStatus,
  transaction_data: TransactionData
}).annotate({ identifier: "TransactionResult" })
/** One item of the transactions 201 response. */
export type TransactionResult = typeof TransactionResult.Type

/**
 * 201 response of `transactions`: `{ results }`.
 *
 * @example
 * const transaction_data = { transaction_id: "BU-2024-000118", transaction_date: "2024-01-15", amount: "86.00", type: "PAYMENT" }
 * Schema.is(Schemas.TransactionsResponse)({ results: [{ status: "TRANSACTION_ADDED_TO_ACCOUNT", transaction_data }] }) // => true
 * Schema.is(Schemas.TransactionsResponse)([{ status: "TRANSACTION_ADDED_TO_ACCOUNT", transaction_data }]) // => false
 *
 * @since 0.1.0
 */
export const TransactionsResponse = Schema.Struct({ results: Schema.Array(TransactionResult) }).annotate({ identifier: "TransactionsResponse" })
/** 201 response of `transactions`. */
export type TransactionsResponse = typeof TransactionsResponse.Type

/**
 * 400 body when a transaction could not be created: the reason and the first failing transaction.
 *
 * @example
 * const transaction_data = { transaction_id: "BU-2024-000118", transaction_date: "2023-01-15", amount: "86.00", type: "PAYMENT" }
 * const error_detail = "The transaction is not within the open statement period."
 * Schema.is(Schemas.TransactionImportError)({ status: "TRANSACTION_IMPORT_ERROR", error_detail, transaction_data }) // => true
 * Schema.is(Schemas.TransactionImportError)({ status: "TRANSACTION_ADDED_TO_ACCOUNT", error_detail, transaction_data }) // => false
 *
 * @since 0.1.0
 */
export const TransactionImportError = Schema.Struct({
  status: Schema.Literal("TRANSACTION_IMPORT_ERROR"),
  error_detail: Schema.String,
  transaction_data: TransactionData
}).annotate({ identifier: "TransactionImportError" })
/** 400 body when a transaction could not be created. */
export type TransactionImportError = typeof TransactionImportError.Type

/**
 * The catalogue's entry of `transactions`: path, request and response schemas, retry advice, repeat rule,
 * what the reference service does, and the natural key of one record.
 */
const transactionsEndpoints = {
  "transactions": {
    ...post("transactions", "/v1/data-import/transactions/create/", "Import financial transactions."),
    naturalKey: { items: "transactions", account: true, fields: ["transaction_id"] },
    documentName: "transaction",
    itemResults: {
      in: "results",
      statuses: { TRANSACTION_ADDED_TO_ACCOUNT: "created", TRANSACTION_ALREADY_EXISTS: "already_exists", TRANSACTION_IMPORT_ERROR: "import_error" }
    },
    // With `check_previously_added`, the service skips a known id silently: within one input, a repeat is an error.
    uniqueInInput: { code: "duplicate_transaction_ids", field: "transaction_id", consequence: "the service would skip one of them" },
    queryParameters: [
      {
        name: "check_previously_added",
        type: "boolean",
        default: TRANSACTIONS_QUERY_DEFAULTS.check_previously_added,
        description: "Skip transactions that were already added (TRANSACTION_ALREADY_EXISTS)."
      },
      {
        name: "force_add_to_current_statement",
        type: "boolean",
        default: TRANSACTIONS_QUERY_DEFAULTS.force_add_to_current_statement,
        description: "Move a transaction outside the open statement period into it, with a description and a pinned note."
      }
    ],
    query: TransactionsQuery,
    request: TransactionsRequest,
    repeat: "when-check-previously-added",
    service: { handler: "transactions", stores: "transactions" },
    responses: {
      201: { schema: TransactionsResponse, description: "`{ results }`, one per transaction." },
      400: {
        schema: Schema.Union([ValidationErrorBody, TransactionImportError]),
        description: "Validation errors, or the first transaction that could not be created.",
        retry: "do-not-retry-unchanged"
      },
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
  endpoints: transactionsEndpoints,
  rules: transactionsRules,
  warningRules: transactionsWarningRules
} as const satisfies ResourceDefinition
