/**
 * Transactions, with the two query parameters: `check_previously_added` (a known `transaction_id` is
 * `TRANSACTION_ALREADY_EXISTS` and skipped) and `force_add_to_current_statement` (a date outside the
 * account's open statement period is moved into it, with a description and a pinned note; without it,
 * such a transaction is the 400 `TRANSACTION_IMPORT_ERROR` and nothing is added).
 *
 * @module
 */
import { endpoints } from "../schemas/endpoints/catalogue.js"
import type { Transaction, TransactionData, TransactionResult } from "../schemas/transactions/transactions.js"
import { addNote } from "./notes.js"
import { importedAccount } from "./account-access.js"
import { toDecimalText } from "./decimal-text.js"
import type { Answer, Handler } from "./handler.js"
import type { StatementPeriod } from "./seed.js"
import { businessError } from "./service-response.js"
import { accountKey } from "./state.js"

const TRUE = new Set(["true", "1"])
const FALSE = new Set(["false", "0"])

/** The two query flags with their defaults from the catalogue, or the 400 for a value that is no boolean. */
const readFlags = (query: URLSearchParams): { readonly flags: Readonly<Record<string, boolean>> } | { readonly refused: Answer } => {
  const flags: Record<string, boolean> = {}
  const errors = []
  for (const parameter of endpoints.transactions.queryParameters) {
    const text = query.get(parameter.name)?.toLowerCase()
    if (text === undefined) flags[parameter.name] = parameter.default
    else if (TRUE.has(text) || FALSE.has(text)) flags[parameter.name] = TRUE.has(text)
    else errors.push({ detail: `${parameter.name} must be true or false.`, attr: parameter.name })
  }
  return errors.length === 0 ? { flags } : { refused: { status: 400, body: businessError("invalid", errors) } }
}

/** A transaction as the API echoes it: money as decimal strings. */
export const toTransactionData = (t: Transaction): TransactionData => ({
  ...t,
  amount: toDecimalText(t.amount),
  ...(t.line_items === undefined ? {} : {
    line_items: t.line_items.map((item) => ({
      ...item,
      net_amount: toDecimalText(item.net_amount),
      ...(item.price_per_unit === undefined ? {} : { price_per_unit: toDecimalText(item.price_per_unit) })
    }))
  }),
  ...(t.tax_items === undefined ? {} : {
    tax_items: t.tax_items.map((tax) => ({ ...tax, amount: toDecimalText(tax.amount), value_taxed: toDecimalText(tax.value_taxed) }))
  })
})

/** The date inside the period nearest to `date`, or `undefined` when `date` is inside already. */
const moveInto = (date: string, period: StatementPeriod | undefined): string | undefined =>
  period === undefined ? undefined : date < period.start ? period.start : date > period.end ? period.end : undefined

type Plan =
  | { readonly outcome: "exists"; readonly data: TransactionData }
  | { readonly outcome: "add"; readonly data: TransactionData; readonly movedFrom?: string }

const describeMove = (id: string, from: string, to: string, period: StatementPeriod): string =>
  `Transaction ${id} dated ${from} was moved to ${to}, into the open statement period ${period.start} to ${period.end}.`

/** `transactions`: 201 `{ results }`, or 400 for the first transaction outside the period when not forced. */
export const transactionsHandler: Handler<"transactions"> = ({ state, request, query, context }) => {
  const read = readFlags(query)
  if ("refused" in read) return read.refused
  const found = importedAccount(state, "transactions", request)
  if ("refused" in found) return found.refused
  const check = read.flags["check_previously_added"] === true
  const force = read.flags["force_add_to_current_statement"] === true
  const account = accountKey(request.import_supplier, request.external_account_number)
  const period = found.account.open_statement_period
  const plans: Array<Plan> = []
  for (const t of request.transactions) {
    const data = toTransactionData(t)
    if (check && state.find("transactions", account, t.transaction_id).length > 0) {
      plans.push({ outcome: "exists", data })
      continue
    }
    const to = moveInto(t.transaction_date, period)
    if (to === undefined || period === undefined) {
      plans.push({ outcome: "add", data })
    } else if (!force) {
      return {
        status: 400,
        body: {
          status: "TRANSACTION_IMPORT_ERROR",
          error_detail: `Transaction ${t.transaction_id} dated ${t.transaction_date} is not within the open statement period ${period.start} to ${period.end}.`,
          transaction_data: data
        }
      }
    } else {
      const description = describeMove(t.transaction_id, t.transaction_date, to, period)
      const note = data.note === undefined ? description : `${data.note} (${description})`
      plans.push({ outcome: "add", data: { ...data, transaction_date: to, note }, movedFrom: t.transaction_date })
    }
  }
  const results: Array<TransactionResult> = plans.map((plan) => {
    if (plan.outcome === "exists") return { status: "TRANSACTION_ALREADY_EXISTS", transaction_data: plan.data }
    state.add({ kind: "transactions", account, key: plan.data.transaction_id, data: plan.data })
    if (plan.movedFrom !== undefined && period !== undefined) {
      const body = describeMove(plan.data.transaction_id, plan.movedFrom, plan.data.transaction_date, period)
      addNote(state, account, { body, is_pinned: true }, context.now)
    }
    return { status: "TRANSACTION_ADDED_TO_ACCOUNT", transaction_data: plan.data }
  })
  return { status: 201, body: { results } }
}
