import { readFileSync } from "node:fs"
import { parse } from "csv-parse/sync"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  defineMapping,
  type MappingEvent,
  type MappingResult,
  type MappingSpec,
  mapRecords,
  validatePayload
} from "../../src/index.js"
import { ledgerMapping } from "./ledger-mapping.js"

const BATCH = 3

const ledger = ledgerMapping(BATCH)

const row = fc.record({
  Konto: fc.constantFrom("KD-1", "KD-2", "KD-3", ""),
  Nr: fc.constantFrom("A", "B", "C", "D", "E", "F", ""),
  Datum: fc.oneof(
    fc.date({ min: new Date("2015-01-01"), max: new Date("2024-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10).split("-").reverse().join(".")),
    fc.constantFrom("30.02.2024", "2024-01-01", "", "1.1.2024")
  ),
  Betrag: fc.oneof(fc.constantFrom("12,50", "-0,5", "1.234,56", "1.234", "abc", ""), fc.integer().map(String)),
  Art: fc.constantFrom("CHARGE", "CREDIT", "PAYMENT", "")
})

const allRows = (result: MappingResult): Array<number> =>
  [...result.payloads.flatMap((p) => p.sourceRows), ...result.rejected.flatMap((r) => r.sourceRows)].sort((a, b) => a - b)

const collect = async (events: AsyncIterable<MappingEvent>): Promise<MappingResult> => {
  const payloads: Array<{ payload: unknown; sourceRows: ReadonlyArray<number> }> = []
  const rejected: Array<{ sourceRows: ReadonlyArray<number>; errors: ReadonlyArray<never> }> = []
  for await (const e of events) {
    if (e.kind === "payload") payloads.push({ payload: e.payload, sourceRows: e.sourceRows })
    else {
      // Every event that is not a payload must say so: a third kind would be lost here.
      expect(e.kind).toBe("rejected")
      rejected.push({ sourceRows: e.sourceRows, errors: e.errors as ReadonlyArray<never> })
    }
  }
  return { payloads, rejected }
}

async function* streamOf<A>(items: ReadonlyArray<A>): AsyncGenerator<A> {
  for (const item of items) yield item
}

describe("mapRecords", () => {
  it("conserves rows, emits only valid payloads, and respects groups and batch sizes", () => {
    let payloads = 0
    let rejections = 0
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), (rows) => {
        const result = mapRecords(ledger, rows)
        payloads += result.payloads.length
        rejections += result.rejected.length
        expect(allRows(result)).toEqual(rows.map((_, i) => i))
        for (const { payload, sourceRows } of result.payloads) {
          expect(validatePayload("transactions", payload).ok).toBe(true)
          const p = payload
          expect(p.transactions.length).toBe(sourceRows.length)
          expect(sourceRows.length).toBeLessThanOrEqual(BATCH)
          for (const i of sourceRows) expect(rows[i]!.Konto).toBe(p.external_account_number)
        }
        for (const r of result.rejected) expect(r.errors.length).toBeGreaterThan(0)
      }),
      { numRuns: 500, seed: 99 }
    )
    // The loops above checked something: the generated rows give both outcomes.
    expect(payloads).toBeGreaterThan(0)
    expect(rejections).toBeGreaterThan(0)
  })

  it("streams contiguous groups to the same payloads as the list form", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 30 }), async (unsorted) => {
        const rows = [...unsorted].sort((a, b) => a.Konto.localeCompare(b.Konto))
        const streamed = await collect(mapRecords(ledger, streamOf(rows)))
        const listed = mapRecords(ledger, rows)
        expect(streamed.payloads).toStrictEqual(listed.payloads)
        expect(streamed.rejected).toStrictEqual(listed.rejected)
        expect(allRows(streamed)).toEqual(rows.map((_, i) => i))
      }),
      { numRuns: 200, seed: 5 }
    )
  })

  it("never splits a group silently when a stream is not sorted: the late rows are rejected, none is lost", async () => {
    let lateRows = 0
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 30 }), async (rows) => {
        const streamed = await collect(mapRecords(ledger, streamOf(rows)))
        expect(allRows(streamed)).toEqual(rows.map((_, i) => i))
        for (const { payload, sourceRows } of streamed.payloads) {
          expect(validatePayload("transactions", payload).ok).toBe(true)
          expect(sourceRows.length).toBeLessThanOrEqual(BATCH)
        }
        // Late: an earlier row has the same account and another account came in between.
        const late = rows.flatMap((r, i) =>
          rows.slice(0, i).some((earlier, j) => earlier.Konto === r.Konto && rows.slice(j + 1, i).some((between) => between.Konto !== r.Konto))
            ? [[i]]
            : [])
        lateRows += late.length
        const notContiguous = streamed.rejected.filter((r) => (r.errors as ReadonlyArray<{ code: string }>).some((e) => e.code === "group_not_contiguous"))
        expect(notContiguous.map((r) => r.sourceRows)).toEqual(late)
        for (const r of notContiguous) expect(r.errors).toHaveLength(1)
      }),
      { numRuns: 200, seed: 6 }
    )
    expect(lateRows).toBeGreaterThan(0)
    const rows = [
      { Konto: "KD-1", Nr: "A", Datum: "01.01.2024", Betrag: "1,00", Art: "CHARGE" },
      { Konto: "KD-2", Nr: "B", Datum: "01.01.2024", Betrag: "1,00", Art: "CHARGE" },
      { Konto: "KD-1", Nr: "C", Datum: "01.01.2024", Betrag: "1,00", Art: "CHARGE" }
    ]
    const streamed = await collect(mapRecords(ledger, streamOf(rows)))
    expect(streamed.payloads.map((p) => p.sourceRows)).toEqual([[0], [1]])
    expect(streamed.rejected).toEqual([{ sourceRows: [2], errors: [expect.objectContaining({ code: "group_not_contiguous" })] }])
    // The list form buffers: the two KD-1 rows form one payload.
    expect(mapRecords(ledger, rows).payloads.map((p) => p.sourceRows)).toEqual([[0, 2], [1]])
  })

  it("rejects a row that is not a record, and a row whose cell cannot be converted, with column and attr", () => {
    const result = mapRecords(ledger, [
      "not a record",
      { Konto: "KD-1", Nr: "A", Datum: "31.02.2024", Betrag: "1,00", Art: "CHARGE" },
      { Konto: "KD-1", Nr: "B", Datum: "01.02.2024", Betrag: "1,00", Art: "CHARGE" }
    ])
    expect(result.rejected).toEqual([
      { sourceRows: [0], errors: [expect.objectContaining({ code: "invalid" })] },
      { sourceRows: [1], errors: [expect.objectContaining({ column: "Datum", attr: "transactions.0.transaction_date", code: "invalid_date" })] }
    ])
    expect(result.payloads.map((p) => p.sourceRows)).toEqual([[2]])
  })

  it("a transaction that fails validation is rejected alone with the API's attr; the rest of its payload goes out", () => {
    const result = mapRecords(ledger, [
      { Konto: "KD-1", Nr: "A", Datum: "01.01.2024", Betrag: "1,00", Art: "CHARGE" },
      { Konto: "KD-1", Nr: "A", Datum: "02.01.2024", Betrag: "2,00", Art: "CHARGE" }
    ])
    expect(result.payloads.map((p) => p.sourceRows)).toEqual([[0]])
    expect(result.rejected).toEqual([{
      sourceRows: [1],
      errors: [expect.objectContaining({ attr: "transactions.1.transaction_id", code: "duplicate_transaction_ids" })]
    }])
  })

  it("refuses a mapping with an unknown endpoint or a malformed field", () => {
    expect(() => defineMapping({ endpoint: "nope", fields: {} } as unknown as MappingSpec)).toThrow(/endpoint/u)
    expect(() => defineMapping({ endpoint: "notes", fields: { "a b": "x" } })).toThrow(/dot path/u)
  })
})

describe("mapRecords: constants", () => {
  const contactMapping = () =>
    defineMapping({
      endpoint: "market-participant",
      fields: {
        code: { column: "Code", convert: "integer" },
        code_type: { value: "BDEW" },
        role: { value: "NETWORK_OPERATOR" },
        energy: { value: "ELECTRICITY" },
        name: "Name",
        contact_details: { value: [{ category: "DEFAULT" }] },
        "contact_details.0.name": "Kontakt"
      }
    })
  const rows = [{ Code: "9900000000003", Name: "A", Kontakt: "Frau Meier" }, { Code: "9900000000010", Name: "B", Kontakt: "" }]

  it("a field written below a constant object writes into its own row's payload, never into the mapping or the next row", async () => {
    for (const streamed of [false, true]) {
      const mapping = contactMapping()
      const events = streamed
        ? await (async () => {
          const out = []
          for await (const e of mapRecords(mapping, (async function*() {
            yield* rows
          })())) out.push(e)
          return out
        })()
        : mapRecords(mapping, rows).payloads.map((p) => ({ kind: "payload", ...p }))
      const contacts = events.map((e) => (e.kind === "payload" ? (e.payload as { contact_details?: unknown }).contact_details : e.kind))
      expect(contacts).toEqual([[{ category: "DEFAULT", name: "Frau Meier" }], [{ category: "DEFAULT" }]])
      expect(mapping.fields["contact_details"]).toEqual({ value: [{ category: "DEFAULT" }] })
    }
  })
})

describe("the bundled example mappings", () => {
  const dir = new URL("../../examples/mappings/", import.meta.url)
  const load = (name: string) => ({
    mapping: defineMapping(JSON.parse(readFileSync(new URL(`${name}.mapping.json`, dir), "utf8")) as MappingSpec),
    rows: parse(readFileSync(new URL(`${name}.csv`, dir), "utf8"), { columns: true, delimiter: ";" }) as Array<Record<string, string>>
  })

  it("energy amounts: German decimals and Berlin wall times become exact decimals and zoned datetimes", () => {
    const { mapping, rows } = load("energy-amounts")
    const result = mapRecords(mapping, rows)
    expect(allRows(result)).toEqual(rows.map((_, i) => i))
    const byRow = new Map(result.payloads.map((p) => [p.sourceRows[0], p.payload as { energy_amount: Record<string, unknown> }]))
    expect(byRow.get(0)?.energy_amount).toMatchObject({ period_start_at: "2024-10-01T00:00:00+02:00", quantity: "263.4175" })
    // 27.10.2024 02:30 happens twice in Berlin; the mapping takes the earlier one (summer time).
    expect(byRow.get(1)?.energy_amount).toMatchObject({ period_start_at: "2024-10-27T02:30:00+02:00", quantity: "0.812" })
    expect(byRow.get(2)?.energy_amount).toMatchObject({ quantity: "1204.5", cancelled: true, plausibility_indications: ["Z57", "Z84"] })
    // 31.03.2024 02:30 does not exist in Berlin: rejected, never shifted.
    expect(result.rejected).toEqual([{ sourceRows: [3], errors: [expect.objectContaining({ column: "Zeitraum_von", code: "nonexistent_time" })] }])
  })

  it.each([
    // Batches of two per account; KD-0045128's 30.02.2024 rejects its own item only.
    { name: "transactions", payloads: [[0, 1], [2], [3], [5]], rejected: [[4]] },
    // KD-0045128's first note has neither text nor attachment: it fails validation
    // (note_body_or_document_path_not_found) alone, and the account's other note goes out.
    { name: "notes", payloads: [[0, 1], [3]], rejected: [[2]] }
  ])("$name: every row accounted for, every payload valid", ({ name, payloads, rejected }) => {
    const { mapping, rows } = load(name)
    const result = mapRecords(mapping, rows)
    expect(allRows(result)).toEqual(rows.map((_, i) => i))
    expect(result.payloads.map((p) => p.sourceRows)).toEqual(payloads)
    expect(result.rejected.map((r) => r.sourceRows)).toEqual(rejected)
    for (const p of result.payloads) expect(validatePayload(mapping.endpoint, p.payload).ok).toBe(true)
  })
})
