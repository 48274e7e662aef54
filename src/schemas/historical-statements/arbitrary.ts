/**
 * Valid request bodies of historical-statements: statements over ordered periods.
 *
 * @module
 */
import { HistoricalStatement } from "./historical-statements.js"
import { dateOfDay, dayOfDate } from "../instant.js"
import type { ArbitraryKit, GeneratorContext, PayloadArbitrary } from "../../testing/arbitrary-kit.js"

const statement = ({ choice, compactObject, documentPath, fc, isoDatePair, money, optional, record, reference }: ArbitraryKit, ctx: GeneratorContext) =>
  record({
    period: isoDatePair,
    statement_id: reference("ST"),
    issued_after: optional(fc.integer({ min: 0, max: 30 })),
    number: optional(reference("R")),
    gross_amount: optional(money({ min: -2_000, max: 20_000 })),
    statement_path: optional(documentPath),
    supply_type: optional(choice(HistoricalStatement.fields.supply_type, ctx)),
    is_annulled: optional(fc.boolean())
  }).map(({ period: [from, to], issued_after, ...rest }) => {
    const { statement_id, ...others } = rest
    return compactObject({
      bill_period_from_date: from,
      bill_period_to_date: to,
      statement_id,
      // Issued some days after the period (not a rule, just how bills are).
      issued_date: typeof issued_after === "number" ? dateOfDay(dayOfDate(to) + issued_after) : undefined,
      ...others
    })
  })

/** A historical-statements request body. */
export const historicalStatements: PayloadArbitrary = (kit, ctx) =>
  kit.record({ ...kit.account, statements: kit.nonEmptyList(statement(kit, ctx), ctx) }).map(kit.compactObject)
