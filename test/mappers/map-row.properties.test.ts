/**
 * The straight path of a mapping whose every payload is one row (`mapRow`) against the general path it
 * replaces (`mapGroup` of the row alone), on generated flat mappings and rows: the same event for every
 * row, key order included (events are written as JSON), with the `by-order` date-time state carried from
 * row to row; and `mapRecords` (list and stream) giving what the general path gives.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { defineMapping, type Mapping, type MappingEvent, type MappingResult, type MappingSpec, mapRecords } from "../../src/index.js"
import { type CompiledMapping, compileMapping, mapsInInputOrder, readRow } from "../../src/mappers/compile-mapping.js"
import { fail, succeed } from "../../src/mappers/conversion-result.js"
import type { Cell, FieldSource, FunctionSource, LegacyRecord } from "../../src/mappers/field-source.js"
import { mapGroup, notARecord } from "../../src/mappers/map-list.js"
import { isRowPerPayload, mapRow } from "../../src/mappers/map-row.js"
import { isRecord } from "../../src/validation/path.js"

type PostEndpoint = MappingSpec["endpoint"]

/** Wall times around Berlin's clock changes in 2024: the repeated 02:xx of 27 October weighs most. */
const WALLS: ReadonlyArray<Cell> = [
  "27.10.2024 02:30", "27.10.2024 02:30", "27.10.2024 02:30", "27.10.2024 02:00", "27.10.2024 02:59",
  "27.10.2024 01:30", "27.10.2024 03:00", "31.03.2024 02:30", "31.03.2024 01:59", "31.03.2024 03:00",
  "01.07.2024 12:00", "2024-10-27 02:30:00", "20241027023000", "27.10.2024 02:30:00"
]

/** The good cells of each column of the generated exports. */
const COLUMNS: Readonly<Record<string, ReadonlyArray<Cell>>> = {
  Konto: ["KD-1", " KD-2 ", "\uFEFFKD-3", "4711"],
  Text: ["Zähler getauscht", "51238696781", " Hallo ", "docs/a.pdf"],
  Art: ["CARD", "SRW", "KWH", "BDEW"],
  Menge: ["1.234,56", "12,5", "0,001", "1234", "-3,5", "12,50-", "1,234.56", "1.234", 17.25],
  Betrag: ["12,34", "0,5", "1.000,00", "12,345", "7"],
  Datum: ["27.10.2024", "27.10.2024", "27.10.2024", "31.03.2024", "01.07.2024", "20241027", "2024-10-27", "30.02.2024"],
  Uhr: ["02:30", "02:30", "02:30", "02:00", "03:00", "12:00", "2:30"],
  Von: WALLS,
  Bis: WALLS,
  Off: ["+02:00", "+01:00", "S", "W", "MESZ", "MEZ", "CET", "+0200", "Sommer?"],
  Flag: ["X", "X", "J", "nein", "0", "1", "", "vielleicht", "TRUE"],
  Liste: ["a;b", "a, b", " ; ;", "x", "A1,B2"],
  Code: ["9900000000003", "9900000000003", 9900000000003, "123", "9.900.000.000.003", "9900000000003,0"]
}
const COLUMN_NAMES = Object.keys(COLUMNS)

const MISSING = Symbol("missing column")

const badCell = fc.constantFrom<Cell>("", "   ", "\t\n", "garbage", "n/a", "-", 0, 42, -1.5, 1e21, true, false, null, undefined)

/** A cell of a column: one of its good cells or, in a noisy row, now and then a bad cell or none at all. */
const cellFrom = (good: ReadonlyArray<Cell>, noisy: boolean): fc.Arbitrary<Cell | typeof MISSING> =>
  noisy
    ? fc.oneof(
      { arbitrary: fc.constantFrom(...good), weight: 12 },
      { arbitrary: badCell, weight: 3 },
      { arbitrary: fc.string({ maxLength: 6 }), weight: 1 },
      { arbitrary: fc.constant(MISSING), weight: 1 }
    )
    : fc.constantFrom(...good)

const recordOf = (noisy: boolean): fc.Arbitrary<LegacyRecord> =>
  fc
    .record(Object.fromEntries(Object.entries(COLUMNS).map(([column, good]) => [column, cellFrom(good, noisy)])))
    .map((cells) => Object.fromEntries(Object.entries(cells).filter(([, cell]) => cell !== MISSING)) as LegacyRecord)

const record: fc.Arbitrary<LegacyRecord> = fc.oneof(recordOf(false), recordOf(true))

/** Input rows: records, each once or repeated (a repeated wall time is what `by-order` resolves), and now and then no record. */
const inputs: fc.Arbitrary<Array<unknown>> = fc
  .array(
    fc.tuple(
      fc.oneof(
        { arbitrary: record, weight: 12 },
        { arbitrary: fc.constantFrom<unknown>(null, undefined, [], ["KD-1", "12,5"], "KD-1;12,5", 42), weight: 1 }
      ),
      fc.integer({ min: 1, max: 3 })
    ),
    { maxLength: 8 }
  )
  .map((items) => items.flatMap(([item, times]) => Array.from({ length: times }, () => (isRecord(item) ? { ...item } : item))))

/** Functions of the row: values, plain objects, results that fail, and functions that throw. */
const FUNCTIONS = {
  konto: (row: LegacyRecord) => String(row["Konto"] ?? "").trim(),
  menge: (row: LegacyRecord) => {
    const menge = row["Menge"]
    if (typeof menge !== "string") throw new TypeError(`Menge is ${typeof menge}`)
    return menge.replace(",", ".")
  },
  text: (row: LegacyRecord) => (typeof row["Text"] === "string" && row["Text"].trim() !== "" ? succeed(row["Text"].trim()) : fail("no_text", "Text is empty")),
  throwsText: () => {
    throw "a thrown text, not an Error"
  },
  nothing: () => undefined,
  notAResult: (row: LegacyRecord) => ({ ok: "not a result", konto: row["Konto"] ?? null }),
  flag: (row: LegacyRecord) => row["Flag"] === "X",
  fails: () => fail("always", "this source always fails")
} as const satisfies Record<string, FunctionSource["from"]>

const someOf = <T>(arbitraries: { readonly [K in keyof T]: fc.Arbitrary<T[K]> }) =>
  fc.record(arbitraries, { requiredKeys: [] }) as fc.Arbitrary<Partial<T>>

/** A column source: `column` (or `columns`), a converter, and, sometimes, options drawn from `options`. */
const converted = (columns: fc.Arbitrary<{ readonly column: string } | { readonly columns: ReadonlyArray<string> }>, convert: fc.Arbitrary<string>, options?: fc.Arbitrary<Record<string, unknown>>) =>
  fc.tuple(columns, convert, options === undefined ? fc.constant(undefined) : fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: options, weight: 1 }))
    .map(([where, name, opts]) => ({ ...where, convert: name, ...(opts !== undefined ? { options: opts } : {}) }) as FieldSource)

const column = (...names: Array<string>) => fc.constantFrom(...names).map((c) => ({ column: c }))

const locale = fc.constantFrom("de", "en", "auto")

/** Field sources by kind, each reading the given columns. */
const SOURCES = {
  text: (...names: Array<string>) =>
    fc.oneof(fc.constantFrom<FieldSource>(...names), column(...names), column(...names).map((c) => ({ ...c, convert: "string" }) as FieldSource)),
  decimal: (...names: Array<string>) =>
    converted(column(...names), fc.constantFrom("decimal", "number"), someOf({ locale, scale: fc.integer({ min: 0, max: 4 }), rounding: fc.constantFrom("half-even", "half-up") })),
  integer: (...names: Array<string>) => converted(column(...names), fc.constantFrom("integer", "number"), someOf({ locale })),
  cents: (...names: Array<string>) => converted(column(...names), fc.constant("cents"), someOf({ locale, digits: fc.integer({ min: 0, max: 3 }) })),
  date: (...names: Array<string>) => converted(column(...names), fc.constant("date"), someOf({ format: fc.constantFrom("dd.MM.yyyy", "yyyyMMdd", "yyyy-MM-dd") })),
  datetime: (...names: Array<string>) => {
    const options = {
      format: fc.constantFrom("dd.MM.yyyy HH:mm", "dd.MM.yyyy HH:mm:ss", "yyyy-MM-dd HH:mm:ss", "yyyyMMddHHmmss"),
      timeZone: fc.constantFrom("Europe/Berlin", "UTC"),
      ambiguous: fc.constantFrom("reject", "earlier", "later", "by-order"),
      output: fc.constantFrom("offset", "utc")
    }
    return fc.tuple(
      fc.oneof({ arbitrary: column(...names), weight: 3 }, { arbitrary: fc.constant({ columns: ["Datum", "Uhr"] }), weight: 1 }),
      fc.oneof(
        { arbitrary: someOf({ output: options.output }).map((o) => ({ ...o, ambiguous: "by-order" })), weight: 3 },
        { arbitrary: someOf(options), weight: 2 },
        { arbitrary: someOf({ ...options, offsetColumn: fc.constant("Off") }), weight: 1 }
      )
    ).map(([where, opts]) => ({ ...where, convert: "datetime", options: opts }) as FieldSource)
  },
  boolean: (...names: Array<string>) =>
    converted(column(...names), fc.constant("boolean"), someOf({ trueValues: fc.constantFrom(["X"], ["J", "ja"]), falseValues: fc.constantFrom([""], ["N", "nein"]) })),
  list: (...names: Array<string>) => converted(column(...names), fc.constant("list"), someOf({ separator: fc.constantFrom(";", ",") })),
  constant: (...values: Array<unknown>) => fc.constantFrom(...values).map((value) => ({ value }) as FieldSource),
  function: (...from: Array<FunctionSource["from"]>) => fc.constantFrom(...from).map((f) => ({ from: f }) as FieldSource)
} as const

/**
 * Any source on any column: mostly a mismatch of converter and cell. Object constants too, also where
 * another field writes below them (each row writes into its own copy; mapRecords' tests pin that).
 */
const anySource = (): fc.Arbitrary<FieldSource> => fc.oneof(
  ...[SOURCES.text, SOURCES.decimal, SOURCES.integer, SOURCES.cents, SOURCES.date, SOURCES.datetime, SOURCES.boolean, SOURCES.list].map((s) => s(...COLUMN_NAMES)),
  SOURCES.constant(null, "", "  ", 7, "SW", ["a", "b"], { nested: true }),
  SOURCES.function(...Object.values(FUNCTIONS))
)

/** The payload fields of each endpoint with the sources that fit them; `true`: required by the endpoint. */
const FIELDS: Readonly<Record<string, ReadonlyArray<readonly [string, fc.Arbitrary<FieldSource>, boolean]>>> = {
  "energy-amount": [
    ["import_supplier", fc.oneof(SOURCES.constant("SW"), SOURCES.text("Art")), true],
    ["external_account_number", fc.oneof(SOURCES.text("Konto"), SOURCES.function(FUNCTIONS.konto)), true],
    ["energy_amount.malo_number", fc.oneof(SOURCES.constant("51238696781"), SOURCES.text("Text")), true],
    ["energy_amount.period_start_at", SOURCES.datetime("Von"), true],
    ["energy_amount.period_end_at", SOURCES.datetime("Bis"), true],
    ["energy_amount.product_identifier", fc.oneof(SOURCES.constant("1-1:1.8.0"), SOURCES.text("Art")), true],
    ["energy_amount.product_identifier_type", fc.oneof(SOURCES.constant("SRW"), SOURCES.text("Art")), true],
    ["energy_amount.quantity", fc.oneof(SOURCES.decimal("Menge"), SOURCES.function(FUNCTIONS.menge)), true],
    ["energy_amount.quantity_unit", SOURCES.constant("KWH"), true],
    ["energy_amount.cancelled", SOURCES.boolean("Flag"), false],
    ["energy_amount.cancelled_at", SOURCES.datetime("Von", "Bis"), false],
    ["energy_amount.qualifier", SOURCES.text("Text"), false],
    ["energy_amount.plausibility_indications", SOURCES.list("Liste"), false],
    ["energy_amount.measurement_classifications.0", SOURCES.text("Liste"), false]
  ],
  "payment-instruction": [
    ["import_supplier", SOURCES.constant("SW"), true],
    ["external_account_number", fc.oneof(SOURCES.text("Konto"), SOURCES.function(FUNCTIONS.konto)), true],
    ["vendor", fc.oneof(SOURCES.constant("ADYEN"), SOURCES.text("Text")), true],
    ["reference", fc.oneof(SOURCES.text("Konto", "Text"), SOURCES.function(FUNCTIONS.text, FUNCTIONS.konto)), true],
    ["type", fc.oneof(SOURCES.constant("CARD"), SOURCES.text("Art")), true]
  ],
  "market-participant": [
    ["code", SOURCES.integer("Code"), true],
    ["code_type", SOURCES.constant("BDEW"), true],
    ["name", SOURCES.text("Text"), true],
    ["role", SOURCES.constant("NETWORK_OPERATOR"), true],
    ["energy", SOURCES.constant("ELECTRICITY"), true],
    ["contact_details.0.category", SOURCES.text("Art"), false],
    ["contact_details.0.valid_from", SOURCES.datetime("Von"), false],
    ["contact_details.0.name", SOURCES.text("Text"), false]
  ],
  "notes": [
    ["import_supplier", SOURCES.constant("SW"), true],
    ["external_account_number", SOURCES.text("Konto"), true],
    ["notes.0.body", fc.oneof(SOURCES.text("Text"), SOURCES.function(FUNCTIONS.text)), false],
    ["notes.0.created_at", SOURCES.datetime("Von"), false],
    ["notes.0.unpin_at", SOURCES.datetime("Bis"), false],
    ["notes.0.is_pinned", SOURCES.boolean("Flag"), false],
    ["notes.0.document_paths.0.document_path", SOURCES.text("Text"), false],
    ["notes.1.body", SOURCES.text("Liste"), false]
  ]
}

/** Fields the endpoints do not know, or that clash with a field (a primitive above a nested path). */
const EXTRAS: ReadonlyArray<string> = ["zusatz", "energy_amount.extra", "notes.0.extra", "contact_details", "energy_amount.cents", "vendor.code"]

const flatSpec: fc.Arbitrary<MappingSpec> = fc.constantFrom(...Object.keys(FIELDS)).chain((endpoint) => {
  return fc.record({
    fields: fc.tuple(
      ...FIELDS[endpoint]!.map(([path, fits, required]) =>
        fc.oneof(
          { arbitrary: fits, weight: required ? 40 : 4 },
          { arbitrary: anySource(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: required ? 1 : 4 }
        ).map((source) => [path, source] as const)
      ),
      ...EXTRAS.map((path) =>
        fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 12 },
          { arbitrary: fc.oneof(anySource(), SOURCES.cents("Betrag", "Menge")), weight: 1 }
        ).map((source) => [path, source] as const)
      )
    ).chain((entries) => {
      const present = entries.filter((entry): entry is readonly [string, FieldSource] => entry[1] !== undefined)
      // The order of the fields is the order of the errors and of the payload's keys.
      return fc.shuffledSubarray(present, { minLength: present.length, maxLength: present.length })
    }),
    rest: someOf({ batchSize: fc.integer({ min: 1, max: 3 }), collections: fc.constant([]) })
  }).map(({ fields, rest }) => ({ endpoint: endpoint as PostEndpoint, fields: Object.fromEntries(fields), ...rest }))
})

const flatMapping: fc.Arbitrary<Mapping> = flatSpec.map((spec) => defineMapping(spec))

const json = (value: unknown): string => JSON.stringify(value)

/** An event of the general path, and whether every field of its row could be read (`undefined`: not a record). */
type GeneralEvent = { readonly event: MappingEvent; readonly readAll: boolean | undefined }

/**
 * The general path, as mapping used it for every mapping: each record read, in input order, through one
 * compiled root (or through the root `rootOf` gives for it) and built as a group of one row.
 */
const generalEvents = (mapping: Mapping, rows: ReadonlyArray<unknown>, rootOf?: () => CompiledMapping): Array<GeneralEvent> => {
  const shared = compileMapping(mapping)
  return rows.flatMap((row, index): Array<GeneralEvent> => {
    if (!isRecord(row)) return [{ event: notARecord(index), readAll: undefined }]
    const root = rootOf?.() ?? shared
    const read = readRow(root, index, row as LegacyRecord)
    return mapGroup(mapping, root, [read]).map((event) => ({ event, readAll: read.read.values.every((v) => v.ok) }))
  })
}

/** The general path's list result: records that are not records first, then the rows' events in input order. */
const generalResult = (events: ReadonlyArray<MappingEvent>, rows: ReadonlyArray<unknown>): MappingResult => {
  const refused = events.filter((e) => !isRecord(rows[e.sourceRows[0]!]))
  const ordered = [...refused, ...events.filter((e) => !refused.includes(e))]
  return {
    // A payload's warnings (allowed but suspicious data) come with it, as the events carry them.
    payloads: ordered.flatMap((e) => (e.kind === "payload" ? [{ payload: e.payload, sourceRows: e.sourceRows, ...(e.warnings === undefined ? {} : { warnings: e.warnings }) }] : [])),
    rejected: ordered.flatMap((e) => (e.kind === "rejected" ? [{ sourceRows: e.sourceRows, errors: e.errors }] : []))
  }
}

async function* streamOf<A>(items: ReadonlyArray<A>): AsyncGenerator<A> {
  for (const item of items) yield item
}

/** How often each outcome was reached over a run, so that a run that never reaches one fails. */
const tally = () => {
  const seen = { payloads: 0, unreadRows: 0, invalidPayloads: 0, notRecords: 0, carried: 0, carriedPayloads: 0 }
  return {
    seen,
    /** Counts an event; `readAll`: every field of its row could be read (a rejection is then the API's). */
    count: (event: MappingEvent, readAll: boolean | undefined) => {
      if (event.kind === "payload") seen.payloads++
      else if (readAll === undefined) seen.notRecords++
      else if (readAll) seen.invalidPayloads++
      else seen.unreadRows++
    },
    /** Fails unless each of these outcomes was reached at least once. */
    expectReached: (...outcomes: Array<keyof typeof seen>) => {
      for (const outcome of outcomes) expect(seen[outcome], outcome).toBeGreaterThan(0)
    }
  }
}

describe("mapRow", () => {
  it("gives, row by row, exactly the event of the general path, by-order date-times included", () => {
    const { seen, count, expectReached } = tally()
    fc.assert(
      fc.property(flatMapping, inputs, (mapping, rows) => {
        expect(isRowPerPayload(mapping)).toBe(true)
        const general = compileMapping(mapping)
        const straight = compileMapping(mapping)
        const carriesState = mapsInInputOrder(mapping)
        rows.forEach((row, index) => {
          if (!isRecord(row)) return
          const read = readRow(general, index, row as LegacyRecord)
          const expected = mapGroup(mapping, general, [read])
          expect(expected).toHaveLength(1)
          const actual = mapRow(mapping, straight, index, row as LegacyRecord)
          expect(actual).toStrictEqual(expected[0])
          expect(json(actual)).toBe(json(expected[0]))
          count(expected[0]!, read.read.values.every((v) => v.ok))
          if (carriesState) {
            // A root that never saw the rows before: where its event differs, the carried state decided this row.
            const fresh = compileMapping(mapping)
            if (json(mapGroup(mapping, fresh, [readRow(fresh, index, row as LegacyRecord)])[0]) !== json(actual)) {
              seen.carried++
              if (actual.kind === "payload") seen.carriedPayloads++
            }
          }
        })
      }),
      { numRuns: 500, seed: 377 }
    )
    expectReached("payloads", "unreadRows", "invalidPayloads", "carried", "carriedPayloads")
  })

  it("is the path of exactly the mappings without groupBy and without collections", () => {
    fc.assert(
      fc.property(flatSpec, fc.constantFrom<ReadonlyArray<string>>([], ["Konto"], ["Konto", "Art"]), (spec, groupBy) => {
        expect(isRowPerPayload(defineMapping({ ...spec, collections: [] }))).toBe(true)
        expect(isRowPerPayload(defineMapping({ ...spec, groupBy }))).toBe(false)
        expect(isRowPerPayload(defineMapping({ ...spec, collections: [{ path: "items", fields: { body: "Text" } }] }))).toBe(false)
      }),
      { numRuns: 50, seed: 378 }
    )
  })
})

describe("mapRecords of a mapping with one row per payload", () => {
  it("gives the general path's payloads and rejections, in order, as a list and as a stream", async () => {
    const { seen, count, expectReached } = tally()
    await fc.assert(
      fc.asyncProperty(flatMapping, inputs, async (mapping, rows) => {
        const general = generalEvents(mapping, rows)
        for (const { event, readAll } of general) count(event, readAll)
        const events = general.map(({ event }) => event)
        // Rows read each by a root of their own: where an event differs, the state carried from the rows before decided it.
        const alone = generalEvents(mapping, rows, () => compileMapping(mapping))
        seen.carried += alone.filter(({ event }, i) => json(event) !== json(events[i])).length
        const expected = generalResult(events, rows)
        const listed = mapRecords(mapping, rows)
        expect(listed).toStrictEqual(expected)
        expect(json(listed)).toBe(json(expected))
        const streamed: Array<MappingEvent> = []
        for await (const event of mapRecords(mapping, streamOf(rows))) streamed.push(event)
        expect(streamed).toStrictEqual(events)
        expect(json(streamed)).toBe(json(events))
      }),
      { numRuns: 300, seed: 379 }
    )
    expectReached("payloads", "unreadRows", "invalidPayloads", "notRecords", "carried")
  })
})
