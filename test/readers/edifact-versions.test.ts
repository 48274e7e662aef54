/**
 * Versions of a value across messages and files (src/readers/edifact/versions.ts): the latest version of
 * each (MaLo, OBIS, interval) wins by DTM+137, then file and message order; cancellations void the
 * document they name. Checked on the constructed fixtures (worked out by hand in their README) and, as a
 * property, on generated runs of messages with random dates and file orders.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type EdifactExclusion, type EdifactRecord, type EdifactRecordItem, type EdifactRecordOptions, type EdifactReject, readEdifactRecords } from "../../src/readers/edifact/records.js"
import { DEFAULT_VERSION_KEY, VersionIndex, versionOptionProblems } from "../../src/readers/edifact/versions.js"

const FIXTURES = new URL("../fixtures/market-messages/constructed/versions/", import.meta.url).pathname
const OPTIONS = { record: "QTY", groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B"], zone: "Europe/Berlin" }

/**
 * Builds `index` as `map` does: one reading of each input, then, where a cancellation found later voids
 * values already added, those inputs' values again; then settles it.
 */
const build = async (index: VersionIndex, inputs: ReadonlyArray<{ readonly name: string; readonly text: string }>, options: EdifactRecordOptions): Promise<void> => {
  const records: Array<Array<EdifactRecord>> = []
  for (const [file, input] of inputs.entries()) records.push(await index.addInput(file, input.name, [input.text], options))
  if (index.valuesToReadAgain()) {
    index.clearValues()
    records.forEach((read, file) => read.forEach((record) => index.addValue(file, record)))
  }
  index.settle(undefined)
}

/**
 * Each record of each input with the index's verdict: "mapped", or the exclusion or reject (`keepKeys` as
 * the index takes it). `asked`: which records (by file and QTY segment) are asked about, each record passing
 * the index first as map's second reading does; the others come out as "not asked" (map refuses a value
 * without a unit before its verdict).
 */
const verdicts = async (inputs: ReadonlyArray<{ readonly name: string; readonly text: string }>, keepKeys = true, asked?: (file: string, segment: number) => boolean) => {
  const index = new VersionIndex({ key: DEFAULT_VERSION_KEY }, "Europe/Berlin", keepKeys)
  await build(index, inputs, OPTIONS)
  const out: Array<{ readonly file: string; readonly segment: number; readonly qty: string; readonly outcome: "mapped" | "not asked" | EdifactExclusion | EdifactReject }> = []
  for (const [file, input] of inputs.entries()) {
    const items: Array<EdifactRecordItem> = []
    for await (const item of readEdifactRecords([input.text], { ...OPTIONS, columns: [...DEFAULT_VERSION_KEY, "QTY.1.2"] })) items.push(item)
    for (const item of items) {
      if (item.kind !== "record") continue
      const qty = item.raw.split("'")[0]!
      if (asked !== undefined) index.passing(file, item)
      const outcome = asked === undefined || asked(input.name, item.at.segment) ? index.verdictOf(file, item) ?? "mapped" : "not asked"
      out.push({ file: input.name, segment: item.at.segment, qty, outcome })
    }
  }
  return { out, warnings: index.warnings }
}

const fixture = (name: string) => ({ name, text: readFileSync(join(FIXTURES, name), "latin1") })
const FILES = ["a-preliminary.edi", "b-corrections.edi", "c-cancellations.edi", "d-cancelled.edi"].map(fixture)

const summary = (outcome: "mapped" | "not asked" | EdifactExclusion | EdifactReject): string => (typeof outcome === "string" ? outcome : outcome.kind === "exclusion" ? `${outcome.code}/${outcome.reason}` : outcome.code)

describe("versions of a value across files", () => {
  it("keeps the latest version of each quarter-hour: corrections and re-sends supersede, a cancellation cancels, whatever the file order", async () => {
    // Worked out by hand (README of the fixtures): in QTY order of a, b, d.
    const expected = [
      ["a-preliminary.edi", "QTY+Z18:1,250", "superseded/superseded"],
      ["a-preliminary.edi", "QTY+Z18:1,500", "superseded/superseded"],
      ["a-preliminary.edi", "QTY+Z18:1,750", "superseded/re-sent"],
      ["a-preliminary.edi", "QTY+Z18:2,000", "mapped"],
      ["a-preliminary.edi", "QTY+220:0,500", "superseded/re-sent"],
      ["a-preliminary.edi", "QTY+220:0,750", "superseded/re-sent"],
      ["b-corrections.edi", "QTY+67:1,300", "mapped"],
      ["b-corrections.edi", "QTY+220:1,450", "mapped"],
      ["b-corrections.edi", "QTY+Z18:1,750", "mapped"],
      ["b-corrections.edi", "QTY+220:0,500", "mapped"],
      ["b-corrections.edi", "QTY+220:0,750", "mapped"],
      ["d-cancelled.edi", "QTY+220:3,000", "cancelled/cancelled"],
      ["d-cancelled.edi", "QTY+220:4,000", "cancelled/cancelled"]
    ]
    const sorted = (rows: ReadonlyArray<ReadonlyArray<string>>) => [...rows].map((r) => r.join(" ")).sort()
    for (const order of [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2]]) {
      const { out, warnings } = await verdicts(order.map((i) => FILES[i]!))
      expect(sorted(out.map((o) => [o.file, o.qty, summary(o.outcome)]))).toEqual(sorted(expected))
      expect(warnings.map((w) => [w.fileName, w.code, w.at.message, w.at.segment])).toEqual([["c-cancellations.edi", "orphan_cancellation", 2, 16]])
      expect(warnings[0]!.detail).toContain('names document "DOC-X" of sender "9900000000003", which is in no input of this run')
    }
  })

  it("names the message that replaces or cancels a value, with its document and date", async () => {
    const { out } = await verdicts(FILES)
    const detail = (qty: string, file: string) => {
      const o = out.find((x) => x.qty === qty && x.file === file)!.outcome
      return typeof o === "string" ? "" : o.detail
    }
    expect(detail("QTY+Z18:1,250", "a-preliminary.edi")).toBe(
      `superseded by message "1" (#1) of b-corrections.edi (BGM "DOC-C", DTM+137 2024-03-05T07:00:00+01:00), segment 14: "QTY+67:1,300'DTM+163:202403010000?+00:303'DTM+164:202403010015?+00:303'"`
    )
    expect(detail("QTY+Z18:1,500", "a-preliminary.edi")).toContain(`"QTY+220:1,450'DTM+163:202403010015?+00:303'DTM+164:202403010030?+00:303'STS+Z34++Z74'"`)
    expect(detail("QTY+Z18:1,750", "a-preliminary.edi")).toBe(
      `re-sent unchanged: the same value comes again in message "1" (#1) of b-corrections.edi (BGM "DOC-C", DTM+137 2024-03-05T07:00:00+01:00), segment 21`
    )
    expect(detail("QTY+220:3,000", "d-cancelled.edi")).toBe(
      `cancelled by message "1" (#1) of c-cancellations.edi (BGM "STORNO-1", DTM+137 2024-03-06T07:00:00+01:00), which names document "DOC-E" in RFF+ACW`
    )
  })

  it("a value repeated later in the same message is superseded by the later one", async () => {
    const text = message({ ref: "1", document: "D-1", dated: "202401020800", values: [[0, "Z18:5"], [0, "67:6"]] })
    const { out } = await verdicts([{ name: "one.edi", text: interchange([text]) }])
    expect(out.map((o) => summary(o.outcome))).toEqual(["superseded/superseded", "mapped"])
    expect((out[0]!.outcome as EdifactExclusion).detail).toContain("later in the same message (segment 15)")
  })

  it("a DTM 203 in the repeated autumn hour, left unread, names no version: both passes of the hour stay records", async () => {
    // 27.10.2024 02:00–02:15 occurs twice in Berlin. Without `ambiguous` the reader leaves both DTMs as
    // written, so the two quarter-hours would share a key and the first would pass for superseded by the
    // second: they are two values, which the payload check then refuses as unreadable times.
    const hour = (qty: string) => [`QTY+${qty}:KWH`, "DTM+163:202410270200:203", "DTM+164:202410270215:203"]
    const segments = ["UNH+1+MSCONS:D:04B:UN:2.4c", "BGM+Z48+D-1+9", "DTM+137:202410280800:203", "RFF+Z13:13025", "UNS+D", "NAD+DP", "LOC+172+51238696781", "LIN+1", "PIA+5+1-1?:1.29.0:SRW", ...hour("220:1,5"), ...hour("220:2,5")]
    const text = interchange([`${[...segments, `UNT+${segments.length + 1}+1`].join("'")}'`])
    const { out } = await verdicts([{ name: "autumn.edi", text }])
    expect(out.map((o) => [o.qty, summary(o.outcome)])).toEqual([["QTY+220:1,5:KWH", "mapped"], ["QTY+220:2,5:KWH", "mapped"]])
  })

  it("an index built without its keys refuses a ledger's versions, which are compared by key", async () => {
    const index = new VersionIndex({ key: DEFAULT_VERSION_KEY }, "Europe/Berlin", false)
    await build(index, FILES, OPTIONS)
    const prior = { find: () => undefined, findDocument: () => undefined }
    expect(() => index.settle(prior)).toThrow("without its keys")
    expect(() => [...index.winners()]).toThrow("not kept")
  })

  it("refuses a versions option without cells", () => {
    expect(versionOptionProblems({ key: ["LOC+172.2.1"] })).toEqual([])
    expect(versionOptionProblems({ key: "LOC+172.2.1" }).length).toBe(1)
    expect(versionOptionProblems({ key: ["LOC+172.2.1"], order: "x" })).toEqual(['versions: unknown key "order" (known: key, documents, cancellations)'])
  })

  it("takes documents instead of a key, never both", () => {
    expect(versionOptionProblems({ documents: ["NAD+MS.2.1", "RFF+Z13.1.2"] })).toEqual([])
    expect(versionOptionProblems({ documents: [] }).length).toBe(1)
    expect(versionOptionProblems({ documents: ["NAD+MS.2.1"], key: ["LOC+172.2.1"] }).length).toBe(1)
  })

  it("takes cancellations without a key (whole documents), and refuses a key left out without them or a refers that is no RFF", () => {
    expect(versionOptionProblems({ cancellations: { pids: ["31004"], documentTypes: ["457"], refers: "RFF+OI" } })).toEqual([])
    expect(versionOptionProblems({ cancellations: {} })).toEqual([])
    expect(versionOptionProblems({}).length).toBe(1)
    expect(versionOptionProblems({ cancellations: { refers: "RFF+OI.1.2" } }).length).toBe(1)
    expect(versionOptionProblems({ cancellations: { pids: [] } }).length).toBe(1)
    expect(versionOptionProblems({ cancellations: { bgm: ["457"] } }).length).toBe(1)
  })
})

// Whole documents: a data sheet (PARTIN-like, records NAD and CTA) named by its participant and PID.
const SHEET_OPTIONS = { record: ["NAD", "CTA"], groups: ["NAD", "CTA"], detail: "UNH" as const, messages: ["PARTIN:D:20B"], zone: "Europe/Berlin" }
const SHEET_KEY = ["NAD+MS.2.1", "RFF+Z13.1.2"]
const sheet = (ref: string, participant: string, dated: string, people: number): string => {
  const segments = [
    `UNH+${ref}+PARTIN:D:20B:UN:1.0e`, `BGM+10+DOC-${ref}`, `DTM+137:${dated}:203`, "RFF+Z13:37001", `NAD+MS+${participant}::293`, "UNS+D",
    ...Array.from({ length: people }, (_, i) => [`NAD+Z10+${participant}::293`, `CTA+IC+:Person ${i}`]).flat()
  ]
  return `${segments.join("'")}'UNT+${segments.length + 1}+${ref}'`
}

/** Each record of each input with its verdict, whole documents versioned. */
const sheetVerdicts = async (inputs: ReadonlyArray<string>) => {
  const index = new VersionIndex({ documents: SHEET_KEY }, "Europe/Berlin")
  await build(index, inputs.map((text, file) => ({ name: `f${file}`, text })), SHEET_OPTIONS)
  const out: Array<{ readonly file: number; readonly message: string; readonly outcome: string }> = []
  for (const [file, text] of inputs.entries()) {
    for await (const item of readEdifactRecords([text], { ...SHEET_OPTIONS, columns: [...SHEET_KEY, "@message"] })) {
      if (item.kind !== "record") continue
      const outcome = index.verdictOf(file, item)
      out.push({ file, message: String(item.record["@message"]), outcome: outcome === undefined ? "mapped" : summary(outcome) })
    }
  }
  return out
}

const envelope = (messages: ReadonlyArray<string>): string => `UNB+UNOC:3+9900000000011:500+9900000000028:500+250312:0815+I'${messages.join("")}UNZ+${messages.length}+I'`

describe("versions of whole documents", () => {
  it("maps every record of the latest sheet of a participant and PID, supersedes every record of an earlier one, whatever the order", async () => {
    const early = envelope([sheet("A1", "9900000000011", "202503120815", 2)])
    const late = envelope([sheet("B1", "9900000000011", "202506121400", 1), sheet("B2", "9900000000035", "202501010000", 1)])
    for (const inputs of [[early, late], [late, early]]) {
      const out = await sheetVerdicts(inputs)
      expect(out.filter((o) => o.message === "A1").map((o) => o.outcome)).toEqual(["superseded/superseded", "superseded/superseded", "superseded/superseded", "superseded/superseded", "superseded/superseded"])
      expect(out.filter((o) => o.message !== "A1").map((o) => o.outcome)).toEqual(["mapped", "mapped", "mapped", "mapped", "mapped", "mapped"])
    }
  })

  it("property: exactly the records of each participant's latest sheet are mapped, every record once", async () => {
    const participants = ["9900000000011", "9900000000035", "9900000000042"]
    const sheets = fc.uniqueArray(fc.record({ who: fc.integer({ min: 0, max: 2 }), day: fc.integer({ min: 1, max: 28 }), people: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 6, selector: (s) => `${s.who} ${s.day}` })
    await fc.assert(
      fc.asyncProperty(sheets, fc.integer({ min: 1, max: 3 }), async (list, files) => {
        const texts = Array.from({ length: files }, (_, f) =>
          envelope(list.flatMap((s, i) => (i % files === f ? [sheet(`M${i}`, participants[s.who]!, `202503${String(s.day).padStart(2, "0")}0800`, s.people)] : []))))
        const out = await sheetVerdicts(texts)
        // Worked out apart from the index: per participant, the sheet of the latest day (days are unique per participant).
        const winners = new Set(list.flatMap((s, i) => (list.some((t) => t.who === s.who && t.day > s.day) ? [] : [`M${i}`])))
        expect(out).toHaveLength(list.reduce((sum, s) => sum + 1 + 2 * s.people, 0))
        for (const o of out) expect(o.outcome).toBe(winners.has(o.message) ? "mapped" : "superseded/superseded")
      }),
      { numRuns: 60, seed: 44 }
    )
  })
})

// Generated runs: messages of one sender, each with its own document number, a random date (ties
// included) and a random set of quarter-hours of two MaLos with random values, spread over files in a
// random order.

const MALOS = ["51238696781", "51481308456"]
const QUARTERS = 4

/**
 * How the DTMs of a MaLo's values are written: quarter-hours in format 303 (read as date-times, which the
 * index tells apart by series without hashing) or months in format 610 (read as `2024-03`, which it hashes).
 */
type DateForm = "303" | "610" | "mixed"

/** A key number (0 … 7) as MaLo and DTM+163/164: a quarter-hour (UTC, format 303) or a month (format 610; "mixed": the first MaLo's). */
const keyCells = (k: number, form: DateForm = "303"): { malo: string; start: string; end: string } => {
  const q = k % QUARTERS
  const malo = Math.floor(k / QUARTERS)
  if (form === "610" || (form === "mixed" && malo === 0)) return { malo: MALOS[malo]!, start: `20240${q + 1}:610`, end: `20240${q + 2}:610` }
  const at = (m: number) => `20240301${String(Math.floor(m / 60)).padStart(2, "0")}${String(m % 60).padStart(2, "0")}?+00:303`
  return { malo: MALOS[malo]!, start: at(q * 15), end: at(q * 15 + 15) }
}

interface GenMessage {
  readonly ref: string
  readonly document: string
  readonly dated: string
  /** Key number and QTY C186 (qualifier:value). */
  readonly values: ReadonlyArray<readonly [number, string]>
}

/** A message: one LOC group per MaLo it holds values of. */
const message = (m: GenMessage, form: DateForm = "303"): string => {
  const segments = [`UNH+${m.ref}+MSCONS:D:04B:UN:2.4c`, `BGM+Z48+${m.document}+9`, `DTM+137:${m.dated}:203`, "RFF+Z13:13025", "UNS+D", "NAD+DP"]
  for (const malo of MALOS) {
    const mine = m.values.filter(([k]) => keyCells(k, form).malo === malo)
    if (mine.length === 0) continue
    segments.push(`LOC+172+${malo}`, "LIN+1", "PIA+5+1-1?:1.29.0:SRW")
    for (const [k, qty] of mine) segments.push(`QTY+${qty}:KWH`, `DTM+163:${keyCells(k, form).start}`, `DTM+164:${keyCells(k, form).end}`)
  }
  segments.push(`UNT+${segments.length + 1}+${m.ref}`)
  return segments.map((s) => `${s}'`).join("")
}

const interchange = (messages: ReadonlyArray<string>): string => `UNA:+,? 'UNB+UNOC:3+9900000000003:500+9900000000010:500+240302:0600+X'${messages.join("")}UNZ+${messages.length}+X'`

const genMessages = fc
  .array(
    fc.record({
      day: fc.integer({ min: 1, max: 4 }),
      keys: fc.uniqueArray(fc.integer({ min: 0, max: MALOS.length * QUARTERS - 1 }), { minLength: 1, maxLength: MALOS.length * QUARTERS }),
      values: fc.array(fc.tuple(fc.constantFrom("Z18", "67", "220"), fc.integer({ min: 0, max: 3 })), { minLength: MALOS.length * QUARTERS, maxLength: MALOS.length * QUARTERS }),
      file: fc.integer({ min: 0, max: 2 })
    }),
    { minLength: 1, maxLength: 8 }
  )
  .map((raw) =>
    raw.map((r, i) => ({
      file: r.file,
      message: {
        ref: String(i + 1),
        document: `DOC-${i + 1}`,
        dated: `2024030${r.day}0800`,
        // Sorted by MaLo, as the message writes them: the segment order is then the order here.
        values: [...r.keys].sort((a, b) => a - b).map((k, j) => [k, `${r.values[j]![0]}:${r.values[j]![1]},5`] as const)
      }
    }))
  )

describe("versions, as a property", () => {
  it("maps exactly the latest version of each key, and gives every QTY exactly one outcome", async () => {
    await fc.assert(
      fc.asyncProperty(genMessages, fc.constantFrom([0, 1, 2], [2, 1, 0], [1, 0, 2]), fc.constantFrom<DateForm>("303", "610", "mixed"), async (generated, fileOrder, form) => {
        // Files in the run's order; each holds its messages in generation order.
        const inputs = fileOrder.map((f) => ({ name: `f${f}.edi`, messages: generated.filter((g) => g.file === f).map((g) => g.message) })).filter((f) => f.messages.length > 0)
        const texts = inputs.map((f) => ({ name: f.name, text: interchange(f.messages.map((m) => message(m, form))) }))
        const { out } = await verdicts(texts)
        // An index without its keys as text (a run without a ledger) gives the same verdicts, details included,
        // though it holds the raw text of a latest version only once a loser after it names it.
        expect((await verdicts(texts, false)).out).toEqual(out)
        // The same when the latest versions are never asked about (refused before, as a value without a
        // unit is), each record only passing the index: a loser still names the raw text of its winner.
        const notMapped = (file: string, segment: number) => out.some((o) => o.file === file && o.segment === segment && o.outcome !== "mapped")
        const withoutWinners = (await verdicts(texts, false, notMapped)).out
        expect(withoutWinners).toEqual(out.map((o) => (o.outcome === "mapped" ? { ...o, outcome: "not asked" } : o)))
        // Independently: every QTY with its rank (date, file, message, place in message); the latest per key.
        const all = inputs.flatMap((f, file) => f.messages.flatMap((m, mi) => m.values.map(([k, qty], vi) => ({ k, qty, rank: [Number(m.dated), file, mi, vi], document: m.document }))))
        const later = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): boolean => {
          for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!
          return false
        }
        const latest = new Map<number, (typeof all)[number]>()
        for (const v of all) if (!latest.has(v.k) || later(v.rank, latest.get(v.k)!.rank)) latest.set(v.k, v)
        // Every QTY has exactly one outcome, in the order written.
        expect(out.length).toBe(all.length)
        out.forEach((o, i) => {
          const v = all[i]!
          expect(o.qty).toBe(`QTY+${v.qty}:KWH`)
          expect(o.outcome === "mapped").toBe(latest.get(v.k) === v)
          if (typeof o.outcome !== "string") {
            expect(o.outcome.kind).toBe("exclusion")
            expect((o.outcome as EdifactExclusion).code).toBe("superseded")
            expect((o.outcome as EdifactExclusion).reason).toBe(latest.get(v.k)!.qty === v.qty ? "re-sent" : "superseded")
          }
        })
        expect(out.filter((o) => o.outcome === "mapped").length).toBe(latest.size)
      }),
      { numRuns: 60 }
    )
  })
})
