/**
 * send: a JSON number that JSON.parse rounds (`12345678901234567.89`) makes its record invalid with
 * `inexact_number` at its attr, and is never sent rounded; the other records of the line still go out.
 */
import { describe, expect, it } from "vitest"
import { openLedger, type SourceLine, sendRecords } from "../../src/index.js"
import { planLine } from "../../src/send/plan-line.js"
import { modelService, SEED, SUPPLIER } from "./model-service.js"

const transactionsLine = (amounts: ReadonlyArray<string>): string =>
  `{"import_supplier":"${SUPPLIER}","external_account_number":"KD-2","transactions":[${amounts
    .map((amount, i) => `{"transaction_id":"T-${i + 1}","transaction_date":"2024-02-01","amount":${amount},"type":"CHARGE"}`)
    .join(",")}]}`

const context = () => ({ known: () => undefined, seen: new Map<string, string>(), resendInDoubt: false, query: {}, now: () => new Date("2025-01-01T00:00:00Z") })

describe("send: inexact numbers", () => {
  it("the planner marks the record with the inexact amount invalid, at its attr, and plans the others", () => {
    const plan = planLine(transactionsLine(["12.5", "12345678901234567.89", "-0.1"]), context())
    expect(plan.kind).toBe("records")
    if (plan.kind !== "records") return
    expect(plan.judged.map((j) => j.disposition)).toEqual(["send", "invalid", "send"])
    expect(plan.judged[1]?.errors).toEqual([{
      attr: "transactions.1.amount",
      code: "inexact_number",
      detail: "12345678901234567.89 cannot be sent as a JSON number without changing it (it would become 12345678901234568)."
    }])
    const body = plan.request?.body as { transactions: Array<{ transaction_id: string }> }
    expect(body.transactions.map((t) => t.transaction_id)).toEqual(["T-1", "T-3"])
  })

  it("exact long numbers (16 digits that a double holds, 2^53) are sent as they are", () => {
    const plan = planLine(transactionsLine(["9007199254740992", "0.1000000000000000055511151231257827"]), context())
    expect(plan.kind).toBe("records")
    if (plan.kind !== "records") return
    expect(plan.judged.map((j) => j.disposition)).toEqual(["send", "invalid"])
    expect(plan.judged[1]?.errors?.map((e) => `${e.attr} ${e.code}`)).toEqual(["transactions.1.amount inexact_number"])
  })

  it("through sendRecords: the inexact record is invalid in the ledger with its cause; the service never sees a rounded amount", async () => {
    const service = modelService(SEED)
    const ledger = openLedger(":memory:", { service: "http://127.0.0.1:9/" })
    const input: Array<SourceLine> = [{ file: "/t.ndjson", line: 1, text: transactionsLine(["86", "12345678901234567.89"]) }]
    const run = await sendRecords(input, { ledger, client: service.client() })
    expect(run.dispositions).toMatchObject({ send: 1, invalid: 1 })
    expect(run.outcomes.created).toBe(1)
    expect(ledger.records({ outcome: "invalid", limit: 5 }).map((r) => r.cause)).toEqual(["inexact_number"])
    expect(service.model().stats().stored.transactions).toBe(1)
  })
})
