/**
 * The arithmetic of a market participant invoice, as a warning: the spec states no rule, so figures that
 * do not add up are suspicious, not invalid.
 *
 * @module
 */
import type { RuleWarning, WarningRule } from "../warning-rule.js"
import { isRecord } from "../is-record.js"

const ZERO_RATE_RE = /^-?0+(?:\.0+)?$/u


/** The sum of `key` over `items` (objects), or `undefined` when a figure is missing or not a whole JSON number. */
const sumOf = (items: ReadonlyArray<unknown>, key: string): bigint | undefined => {
  let sum = 0n
  for (const item of items) {
    const figure = isRecord(item) ? item[key] : undefined
    if (typeof figure !== "number" || !Number.isSafeInteger(figure)) return undefined
    sum += BigInt(figure)
  }
  return sum
}

/** The findings of {@link invoiceTotalsMismatch}. */
const totalsMismatch = (invoice: Readonly<Record<string, unknown>>): ReadonlyArray<RuleWarning> => {
  const total = invoice["amount_total"]
  const lines = invoice["line_items"]
  const taxes = invoice["tax_amounts"]
  if (typeof total !== "number" || !Number.isSafeInteger(total) || !Array.isArray(lines) || lines.length === 0) return []
  if (taxes !== undefined && !Array.isArray(taxes)) return []
  const net = sumOf(lines, "amount_net")
  if (net === undefined) return []
  const itemised = taxes !== undefined && taxes.length > 0
  if (!itemised && !lines.every((line) => isRecord(line) && typeof line["tax_rate"] === "string" && ZERO_RATE_RE.test(line["tax_rate"]))) return []
  const tax = itemised ? sumOf(taxes, "tax_amount") : 0n
  if (tax === undefined || net + tax === BigInt(total)) return []
  const taxText = itemised ? `the tax_amounts' tax_amount to ${tax}` : "no tax_amounts (every line at tax rate 0) to 0"
  return [{
    path: ["amount_total"],
    code: "invoice_totals_mismatch",
    detail: `The line items' amount_net add up to ${net} and ${taxText}, together ${net + tax}, but amount_total is ${total}.`
  }]
}

/**
 * `invoice_totals_mismatch`: the line items' `amount_net` plus the `tax_amounts`' `tax_amount` is not
 * `amount_total` (all in cents). Without `tax_amounts` (absent or empty), the lines alone are compared when
 * every line's `tax_rate` is zero (an untaxed invoice); otherwise nothing is compared, because the taxes
 * exist but are not itemised. `amount_adjustment` and `amount_discount` take no part (`amount_net` is
 * taken as the line's net; a discount lowers `amount_due`, not `amount_total`). A figure that is missing or
 * not a whole number is an error elsewhere, and the comparison is skipped.
 */
export const invoiceTotalsMismatch = {
  code: "invoice_totals_mismatch",
  description: "An invoice whose line items' `amount_net` plus its `tax_amounts`' `tax_amount` is not its `amount_total`.",
  check: totalsMismatch
} as const satisfies WarningRule
