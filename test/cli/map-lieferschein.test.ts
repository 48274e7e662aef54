/**
 * MSCONS Lieferscheine → delivery notes, through the built CLI, with the example
 * `examples/market-messages/mscons-delivery-notes.{mapping,reader}.json` on the constructed interchanges of
 * test/fixtures/market-messages/constructed/lieferschein (its README names the guide and the facts each
 * reproduces, and works out the expectations stated here). A Lieferschein is a 13019 message with
 * `BGM+Z41` or a 13016 message with `BGM+Z42`; each becomes one delivery note, whole or not at all.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const dir = tempDir()
const EXAMPLES = join(ROOT, "examples", "market-messages")
const MAPPING = join(EXAMPLES, "mscons-delivery-notes.mapping.json")
const FIXTURES = join(ROOT, "test", "fixtures", "market-messages", "constructed", "lieferschein")
const fixture = (name: string): string => join(FIXTURES, name)

const lines = (text: string): Array<Record<string, unknown>> => text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const amount = (line: string, start: string, end: string, obis: string, quantity: string, unit: string) => ({
  line_item_identifier: line,
  period_start_at: start,
  period_end_at: end,
  product_identifier: obis,
  product_identifier_type: "SRW",
  quantity,
  quantity_unit: unit
})

const JAN_1 = "2024-01-01T00:00:00+01:00"
const FEB_1 = "2024-02-01T00:00:00+01:00"
const MAR_1 = "2024-03-01T00:00:00+01:00"
const JUL_1 = "2024-07-01T00:00:00+02:00"
const NEXT_JAN_1 = "2025-01-01T00:00:00+01:00"

/** By hand from ordinary-comma.edi (README): Berlin instants of the UTC DTMs, quantities with a point. */
const LS_0001 = {
  import_supplier: "STADTWERKE_NORD",
  external_account_number: "KD-3003",
  delivery_note: {
    malo_number: "51238696781",
    edifact_reference_number: "LS-2024-0001",
    amounts: [
      amount("1", JAN_1, JUL_1, "1-1:1.9.1", "1234.567", "KWH"),
      amount("1", JUL_1, NEXT_JAN_1, "1-1:1.9.1", "1100.433", "KWH"),
      amount("2", JAN_1, JUL_1, "1-1:1.9.2", "410.25", "KWH"),
      amount("2", JUL_1, NEXT_JAN_1, "1-1:1.9.2", "389.75", "KWH")
    ]
  }
}
const LS_0002 = {
  import_supplier: "STADTWERKE_NORD",
  external_account_number: "KD-4004",
  delivery_note: {
    malo_number: "51481308456",
    edifact_reference_number: "LS-2024-0002",
    amounts: [
      amount("1", JAN_1, FEB_1, "1-1:1.9.0", "48210.5", "KWH"),
      amount("1", FEB_1, MAR_1, "1-1:1.9.0", "45120.25", "KWH"),
      // A power maximum takes kW from its OBIS code: a delivery note bills it (Leistungspreis).
      amount("2", JAN_1, FEB_1, "1-1:1.6.0", "152.4", "KWT"),
      amount("2", FEB_1, MAR_1, "1-1:1.6.0", "149.8", "KWT")
    ]
  }
}

/** Maps `inputs`; the payloads, rejects and exclusions it wrote, and the run. */
const map = async (name: string, inputs: ReadonlyArray<string>, mapping = MAPPING) => {
  const out = join(dir, `${name}.ndjson`)
  const rejects = join(dir, `${name}.rejects.ndjson`)
  const excluded = join(dir, `${name}.excluded.ndjson`)
  const run = await runCli(["map", "-m", mapping, "-o", out, "-r", rejects, "--excluded", excluded, ...inputs])
  return { run, out, payloads: lines(readFileSync(out, "utf8")), rejects: lines(readFileSync(rejects, "utf8")), excluded: lines(readFileSync(excluded, "utf8")) }
}

/** An exact decimal as a scaled integer (10^-6), so sums of written quantities are exact. */
const SCALE = 6
const scaled = (text: string): bigint => {
  const [whole, fraction = ""] = text.split(".")
  return BigInt(whole!) * 10n ** BigInt(SCALE) + BigInt(fraction.padEnd(SCALE, "0"))
}

/**
 * The Z31 quantities of the Lieferscheine of an interchange, summed per OBIS code, read from its text
 * without the project's reader: segments split at the UNA's terminator (honouring its release
 * character), numbers read with its decimal mark.
 */
const quantitiesPerObis = (text: string): Map<string, bigint> => {
  const una = text.startsWith("UNA") ? text.slice(3, 9) : ":+.? '"
  const [component, element, mark, release, , terminator] = [...una]
  const segments: Array<Array<Array<string>>> = []
  let elements: Array<Array<string>> = [[""]]
  for (let i = text.startsWith("UNA") ? 9 : 0; i < text.length; i++) {
    const c = text[i]!
    const last = elements[elements.length - 1]!
    if (c === release) last[last.length - 1] += text[++i]!
    else if (c === terminator) {
      segments.push(elements)
      elements = [[""]]
    } else if (c === element) elements.push([""])
    else if (c === component) last.push("")
    else if (c !== "\n" && c !== "\r") last[last.length - 1] += c
  }
  const sums = new Map<string, bigint>()
  let lieferschein = false
  let obis = ""
  for (const segment of segments) {
    const tag = segment[0]![0]!
    if (tag === "BGM") lieferschein = ["Z41", "Z42"].includes(segment[1]![0]!)
    if (tag === "PIA") obis = segment[2]![0]!
    if (tag === "QTY" && lieferschein && segment[1]![0] === "Z31") {
      const quantity = segment[1]![1]!.replace(mark!, ".")
      sums.set(obis, (sums.get(obis) ?? 0n) + scaled(quantity))
    }
  }
  return sums
}

describe("map of MSCONS Lieferscheine to delivery notes", () => {
  it("maps each Lieferschein to one delivery note with all its amounts, and skips the other messages by name", async () => {
    const { run, payloads, rejects, excluded } = await map("ordinary", [fixture("ordinary-comma.edi")])
    expect(run.code).toBe(0)
    expect(payloads).toEqual([LS_0001, LS_0002])
    expect(rejects).toEqual([])
    expect(excluded.map((e) => [e["lines"], e["outcome"], e["reason"]])).toEqual([[[66], "skipped", "document type 7"], [[81], "skipped", "PID 13025"]])
    expect(excluded[0]!["detail"]).toContain("document type 7 (Prozessdatenbericht) is not among the document types the reader file takes (Z41, Z42, 270)")
    expect(excluded[1]!["detail"]).toContain("PID 13025 (Lastgang Marktlokation, Tranche) is not among the PIDs the reader file takes (13006, 13016, 13019)")
    expect(run.stderr).toContain(`${fixture("ordinary-comma.edi")}: 10 rows read = 8 in 2 payloads (delivery-note) + 0 rejected + 2 excluded`)
  })

  it("gives the same payloads whichever decimal mark the interchange's UNA names", async () => {
    const { run, payloads } = await map("point", [fixture("ordinary-point.edi")])
    expect(run.code).toBe(0)
    expect(payloads).toEqual([LS_0001, LS_0002])
  })

  it("cross-check: per OBIS code, the payloads' amounts add up to the interchange's Z31 quantities, summed apart", async () => {
    for (const name of ["ordinary-comma.edi", "ordinary-point.edi"]) {
      const { payloads } = await map(`sum-${name}`, [fixture(name)])
      const mapped = new Map<string, bigint>()
      for (const p of payloads) {
        for (const a of (p["delivery_note"] as { amounts: Array<{ product_identifier: string; quantity: string }> }).amounts) {
          mapped.set(a.product_identifier, (mapped.get(a.product_identifier) ?? 0n) + scaled(a.quantity))
        }
      }
      const written = quantitiesPerObis(readFileSync(fixture(name), "latin1"))
      expect(mapped).toEqual(written)
      // And the sums the README works out by hand.
      expect(written).toEqual(new Map([["1-1:1.9.1", scaled("2335")], ["1-1:1.9.2", scaled("800")], ["1-1:1.9.0", scaled("93330.75")], ["1-1:1.6.0", scaled("302.2")]]))
    }
  })

  it("the delivery notes pass data-import validate", async () => {
    const { out } = await map("validate", [fixture("ordinary-comma.edi")])
    const checked = await runCli(["validate", "--format", "json", out])
    expect(checked.code).toBe(0)
    const report = JSON.parse(checked.stdout) as { ok: boolean; totals: Record<string, number>; byEndpoint: Record<string, number> }
    expect(report.ok).toBe(true)
    expect(report.totals).toMatchObject({ records: 2, valid: 2, invalid: 0, unparseable: 0, errors: 0 })
    expect(report.byEndpoint).toEqual({ "delivery-note": 2 })
  })

  it("a damaged message, and one with a number written with the other mark, cost only themselves, each whole", async () => {
    const file = fixture("damaged-beside-intact.edi")
    const { run, payloads, rejects } = await map("damaged", [file])
    expect(run.code).toBe(1)
    expect(payloads.map((p) => (p["delivery_note"] as { edifact_reference_number: string }).edifact_reference_number)).toEqual(["LS-2024-0101", "LS-2024-0104"])
    expect((payloads[0]!["delivery_note"] as { amounts: unknown }).amounts).toEqual([
      amount("1", JAN_1, JUL_1, "1-1:1.9.0", "1500.125", "KWH"),
      amount("1", JUL_1, NEXT_JAN_1, "1-1:1.9.0", "1499.875", "KWH")
    ])
    expect((payloads[1]!["delivery_note"] as { amounts: unknown }).amounts).toEqual([
      amount("1", FEB_1, MAR_1, "1-1:1.9.0", "45120.25", "KWH"),
      amount("2", FEB_1, MAR_1, "1-1:1.6.0", "149.8", "KWT")
    ])
    const detail = (r: Record<string, unknown>) => (r["errors"] as Array<{ detail: string }>)[0]!.detail
    expect(rejects.map((r) => r["lines"])).toEqual([[32], [37], [52], [55]])
    expect(detail(rejects[0]!)).toContain(`${file}: message "2" (#2), segment 32 at byte`)
    expect(detail(rejects[0]!)).toContain("segment_count_mismatch: UNT says the message has 99 segments; it has 20")
    expect(detail(rejects[1]!)).toContain("segment_count_mismatch")
    // Message 3: its bad number is rejected for what it is, its other amount with it.
    expect(detail(rejects[2]!)).toContain(`message "3" (#3), segment 52 at byte`)
    expect(detail(rejects[2]!)).toContain("document_incomplete: the message is one document, and its segment 55 was rejected (invalid_number)")
    expect(detail(rejects[3]!)).toContain("invalid_number: QTY.1.2 \"812.5\" (segment 55)")
    expect(run.stderr).toContain(`${file}: 8 rows read = 4 in 2 payloads (delivery-note) + 4 rejected`)
  })

  it("a Storno cancels its Lieferschein, and a later Lieferschein of the same values supersedes the earlier one whole, in either file order", async () => {
    const c1 = fixture("c1-originals.edi")
    const c2 = fixture("c2-corrections.edi")
    const corrected = {
      import_supplier: "STADTWERKE_NORD",
      external_account_number: "KD-3003",
      delivery_note: {
        malo_number: "51238696781",
        edifact_reference_number: "LS-2024-0211",
        amounts: [
          amount("1", JAN_1, JUL_1, "1-1:1.9.1", "1234.567", "KWH"),
          amount("1", JUL_1, NEXT_JAN_1, "1-1:1.9.1", "1098.433", "KWH"),
          amount("2", JAN_1, JUL_1, "1-1:1.9.2", "410.25", "KWH"),
          amount("2", JUL_1, NEXT_JAN_1, "1-1:1.9.2", "389.75", "KWH")
        ]
      }
    }
    for (const [name, inputs] of [["c1-c2", [c1, c2]], ["c2-c1", [c2, c1]]] as const) {
      const { run, payloads, rejects, excluded } = await map(name, inputs)
      expect(run.code).toBe(0)
      expect(payloads).toEqual([corrected])
      expect(rejects).toEqual([])
      expect(excluded.map((e) => [e["file"], e["lines"], e["outcome"], e["reason"]])).toEqual([
        [c1, [14], "superseded", "superseded"],
        [c1, [17], "superseded", "superseded"],
        // The NT of the whole year: its key is in no later message, and it goes with its document.
        [c1, [22], "superseded", "superseded"],
        [c1, [37], "cancelled", "cancelled"],
        [c1, [42], "cancelled", "cancelled"]
      ])
      expect(excluded[1]!["detail"]).toContain(`superseded by message "2" (#2) of ${c2} (BGM "LS-2024-0211", DTM+137 2025-01-20T09:00:00+01:00), segment 28`)
      expect(excluded[2]!["detail"]).toContain("left out with its message, one document: its segment 14 is superseded")
      expect(excluded[3]!["detail"]).toContain(`cancelled by message "1" (#1) of ${c2} (BGM "ST-2024-0202", DTM+137 2025-01-20T09:00:00+01:00), which names document "LS-2024-0202" in RFF+ACW`)
      expect(run.stderr).toContain("excluded by outcome and reason (5):\n  superseded: superseded 3\n  cancelled: cancelled 2\n")
    }
  })

  it("the energy-amount example takes none of a Lieferschein's quantities: the two examples share the QTYs, each once", async () => {
    const { run, payloads, excluded } = await map("energy", [fixture("ordinary-comma.edi")], join(EXAMPLES, "mscons-energy-amounts.mapping.json"))
    expect(run.code).toBe(0)
    expect(payloads.map((p) => (p["energy_amount"] as { edifact_reference_number: string }).edifact_reference_number)).toEqual(["EM-2024-0003", "LG-2024-0004"])
    expect(excluded.map((e) => (e["lines"] as Array<number>)[0])).toEqual([14, 17, 22, 25, 40, 43, 48, 51])
    expect(new Set(excluded.map((e) => e["reason"]))).toEqual(new Set(["qualifier Z31"]))
  })

  it("property: a generated Lieferschein of N amounts is one delivery note of N amounts, or rejected whole", async () => {
    const quantity = fc.tuple(fc.integer({ min: 1, max: 99_999 }), fc.option(fc.stringMatching(/^\d{1,3}$/u), { nil: undefined }))
      .map(([whole, fraction]) => (fraction === undefined ? String(whole) : `${whole}.${fraction}`))
    const message = fc.record({ quantities: fc.array(quantity, { minLength: 1, maxLength: 4 }), broken: fc.boolean() })
    // One amount a month (January to April 2024, the starts of the months in UTC): a Lieferschein sends each value once.
    const MONTHS = ["202312312300", "202401312300", "202402292300", "202403312200", "202404302200"]
    // A register of its own for each message: two documents of one MaLo never send the same value.
    const REGISTERS = ["1-1?:1.9.0", "1-1?:1.9.1", "1-1?:1.9.2", "1-1?:2.9.0"]
    let runNo = 0
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(".", ","), fc.array(message, { minLength: 1, maxLength: 4 }), async (mark, messages) => {
        const other = mark === "." ? "," : "."
        const body = messages.map((m, k) => {
          const qtys = m.quantities.flatMap((q, i) => {
            // A broken message writes its last quantity with the other mark (and a fraction, so it is one).
            const text = m.broken && i === m.quantities.length - 1 ? `${q.split(".")[0]}${other}5` : q.replace(".", mark)
            return [`QTY+Z31:${text}`, `DTM+163:${MONTHS[i]}?+00:303`, `DTM+164:${MONTHS[i + 1]}?+00:303`]
          })
          const segments = [`UNH+${k + 1}+MSCONS:D:04B:UN:2.4c`, `BGM+Z41+LS-G-${k + 1}+9`, "DTM+137:202501100800?+00:303", "RFF+Z13:13019",
            "NAD+MS+9900000000010::293", "NAD+MR+9900000000020::293", "UNS+D", "NAD+DP", "LOC+172+51238696781", "LIN+1", `PIA+5+${REGISTERS[k]}:SRW`, ...qtys]
          return [...segments, `UNT+${segments.length + 1}+${k + 1}`]
        })
        const text = `UNA:+${mark}? '\n${["UNB+UNOC:3+9900000000010:500+9900000000020:500+250110:0800+G1", ...body.flat(), `UNZ+${messages.length}+G1`].map((s) => `${s}'\n`).join("")}`
        const input = write(dir, `generated-${runNo++}.edi`, text)
        const { payloads, rejects } = await map(`generated-${runNo}`, [input])
        const intact = messages.map((m, k) => ({ m, k })).filter(({ m }) => !m.broken)
        expect(payloads.map((p) => (p["delivery_note"] as { edifact_reference_number: string }).edifact_reference_number)).toEqual(intact.map(({ k }) => `LS-G-${k + 1}`))
        for (const [i, { m }] of intact.entries()) {
          expect((payloads[i]!["delivery_note"] as { amounts: Array<{ quantity: string }> }).amounts.map((a) => a.quantity)).toEqual(m.quantities)
        }
        expect(rejects.length).toBe(messages.filter((m) => m.broken).reduce((n, m) => n + m.quantities.length, 0))
      }),
      { numRuns: 4 }
    )
  })
})
