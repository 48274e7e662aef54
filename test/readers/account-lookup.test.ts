/**
 * The account lookup's reading of a record's time (src/readers/lookup/accounts.ts): an instant with `Z` or an
 * offset as written, a time without offset as wall time in the reader's zone (never the machine's), a wall
 * time a clock change skips or repeats rejected as `unreadable_time`, and nothing read by `Date.parse`'s
 * leniency. Checked against @date-fns/tz around the clock changes of several zones.
 */
import { TZDate, tzOffset } from "@date-fns/tz"
import { format } from "date-fns"
import fc from "fast-check"
import { afterEach, describe, expect, it } from "vitest"
import { accountFinder, type LookupItem, readAccountTable, readTime, withAccounts } from "../../src/readers/lookup/accounts.js"

const BERLIN = "Europe/Berlin"
const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS
const DAY_MS = 24 * HOUR_MS

const lookup = { location: "malo", at: "start", into: "@account" }
const TABLE = "malo;account;valid_from;valid_to\n123;KD-OLD;2023-01-01;2024-01-01\n123;KD-NEW;2024-01-01;\n"

type Item = LookupItem<number>

const itemAt = (start: string): Item => ({ kind: "record", record: { malo: "123", start }, at: 1, raw: start })

/** What the lookup makes of a record at `start`: its account, or its reject code and detail. */
const lookUp = (start: string, table = TABLE, zone?: string): { account?: unknown; code?: string; detail?: string } => {
  const { periods, problems } = readAccountTable(table, zone)
  expect(problems).toEqual([])
  const item = accountFinder<number>(periods, lookup, { zone })(itemAt(start))
  return item.kind === "record" ? { account: item.record["@account"] } : { code: item.code, detail: item.detail }
}

const pad = (n: number, width = 2): string => String(n).padStart(width, "0")

/** The fields of an epoch value read as UTC, written `yyyy-MM-ddTHH:mm:ss` (a wall time stepped through with plain arithmetic). */
const fieldsText = (ms: number): string => new Date(ms).toISOString().slice(0, 19)

/** The wall time of an instant in a zone, by @date-fns/tz. */
const wallOf = (instant: number, zone: string): string => format(new TZDate(instant, zone), "yyyy-MM-dd'T'HH:mm:ss")

/**
 * Every instant whose wall time in `zone` is `wall` (`yyyy-MM-ddTHH:mm:ss`), by brute force over @date-fns/tz:
 * an offset is a multiple of 15 minutes between -16 and +16 hours, so each candidate is tried.
 */
const instantsOf = (wall: string, zone: string): Array<number> => {
  const asUtc = Date.parse(`${wall}Z`)
  const found: Array<number> = []
  for (let k = 64; k >= -64; k--) {
    const candidate = asUtc - k * 15 * MINUTE_MS
    if (wallOf(candidate, zone) === wall) found.push(candidate)
  }
  return found
}

/** Zones with clock changes of one hour, of half an hour (Lord Howe) and at midnight (São Paulo until 2019). */
const ZONES = [BERLIN, "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo", "Europe/London"] as const

/** The clock changes of a zone in 2000-2030, found with @date-fns/tz's offsets (day by day, then to the minute). */
const changesOf = (zone: string): Array<number> => {
  const changes: Array<number> = []
  const offset = (ms: number): number => tzOffset(zone, new Date(ms))
  for (let day = Date.UTC(2000, 0, 1); day < Date.UTC(2031, 0, 1); day += DAY_MS) {
    if (offset(day) === offset(day + DAY_MS)) continue
    let [low, high] = [day, day + DAY_MS]
    while (high - low > MINUTE_MS) {
      const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS
      if (offset(middle) === offset(low)) low = middle
      else high = middle
    }
    changes.push(high)
  }
  return changes
}

const CHANGES = new Map(ZONES.map((zone) => [zone, changesOf(zone)]))

/** A clock change of one of the zones, with the offsets (minutes) before and after it. */
const changeArb = fc.constantFrom(...ZONES).chain((zone) =>
  fc.constantFrom(...CHANGES.get(zone)!).map((at) => ({ zone, at, before: tzOffset(zone, new Date(at - 1)), after: tzOffset(zone, new Date(at)) }))
)

describe("readTime and the lookup: examples", () => {
  it("finds these clock changes in the tables it is checked against", () => {
    expect(CHANGES.get(BERLIN)).toContain(Date.UTC(2024, 2, 31, 1))
    expect(CHANGES.get(BERLIN)).toContain(Date.UTC(2024, 9, 27, 1))
    expect(CHANGES.get("America/Sao_Paulo")).toContain(Date.UTC(2018, 10, 4, 3))
    expect(CHANGES.get("Australia/Lord_Howe")!.length).toBeGreaterThan(50)
  })

  it("reads a time without offset as wall time in the reader's zone (Berlin by default) at a period's start", () => {
    expect(lookUp("2023-12-31T23:30:00")).toEqual({ account: "KD-OLD" })
    expect(lookUp("2023-12-31 23:59:59.999999")).toEqual({ account: "KD-OLD" })
    expect(lookUp("2024-01-01T00:00:00")).toEqual({ account: "KD-NEW" })
    expect(lookUp("2024-01-01T00:00")).toEqual({ account: "KD-NEW" })
    expect(lookUp("2024-01-01")).toEqual({ account: "KD-NEW" })
    expect(lookUp(" 2024-01-01 00:00:00 ")).toEqual({ account: "KD-NEW" })
    // In the zone of the reader file: with UTC, Berlin's 00:30 on New Year's Day is still the old year.
    expect(lookUp("2023-12-31T23:30:00", TABLE, "UTC")).toEqual({ account: "KD-OLD" })
    expect(lookUp("2024-01-01T00:00:00+01:00", TABLE, "UTC")).toEqual({ account: "KD-OLD" })
    expect(lookUp("2024-01-01T00:00:00+01:00")).toEqual({ account: "KD-NEW" })
  })

  it("keeps the instant of a time with Z or an offset, whatever the zone", () => {
    for (const zone of [undefined, "UTC", "Asia/Tokyo", "America/New_York"]) {
      const table = "malo;account;valid_from;valid_to\n123;KD-OLD;2023-01-01T00:00:00+01:00;2023-12-31T23:00:00Z\n123;KD-NEW;2023-12-31T23:00Z;\n"
      expect(lookUp("2023-12-31T22:59:59.999Z", table, zone)).toEqual({ account: "KD-OLD" })
      expect(lookUp("2023-12-31T22:59:59.9999+00:00", table, zone)).toEqual({ account: "KD-OLD" })
      expect(lookUp("2023-12-31T23:00:00Z", table, zone)).toEqual({ account: "KD-NEW" })
      expect(lookUp("2024-01-01T08:00:00+09:00", table, zone)).toEqual({ account: "KD-NEW" })
      expect(lookUp("2023-12-31T18:00:00-05:00", table, zone)).toEqual({ account: "KD-NEW" })
    }
  })

  it("rejects a wall time a clock change skips or repeats as unreadable_time, naming the cell, the text and the zone", () => {
    const table = "malo;account;valid_from;valid_to\n123;KD-1;2024-01-01;\n"
    const skipped = lookUp("2024-03-31T02:30:00", table)
    expect(skipped.code).toBe("unreadable_time")
    expect(skipped.detail).toBe('the account of location "123" cannot be looked up: start "2024-03-31T02:30:00" has no offset, and as a wall time it does not exist in Europe/Berlin (a clock change skips it)')
    const repeated = lookUp("2024-10-27 02:00:00", table)
    expect(repeated.code).toBe("unreadable_time")
    expect(repeated.detail).toBe('the account of location "123" cannot be looked up: start "2024-10-27 02:00:00" has no offset, and as a wall time it occurs twice in Europe/Berlin (a clock change repeats it): which instant it means is not known')
    // Either side of them, and the same times with their offset, are read.
    for (const start of ["2024-03-31T01:59:59", "2024-03-31T03:00:00", "2024-10-27T01:59:59", "2024-10-27T03:00:00", "2024-10-27T02:30:00+02:00", "2024-10-27T02:30:00+01:00"]) {
      expect(lookUp(start, table), start).toEqual({ account: "KD-1" })
    }
    // A date whose midnight São Paulo skipped.
    expect(lookUp("2018-11-04", table, "America/Sao_Paulo").detail).toContain('"2018-11-04" is a date whose midnight does not exist in America/Sao_Paulo')
  })

  it("takes no text that only Date.parse's leniency reads", () => {
    const table = "malo;account;valid_from;valid_to\n123;KD-1;1900-01-01;\n"
    const lenient = [
      "2024-1-1", "01/02/2024", "2024/01/02", "1.2.2024", "2024-03", "2024", "20240101", "Jan 1 2024", "Mon, 01 Jan 2024 00:00:00 GMT",
      "2024-01-01T1:00:00", "2024-01-01T24:00:00", "2024-01-01T24:00:00Z", "2024-02-30T00:00:00Z", "2023-02-29", "2024-01-01T10:00:00+0100",
      "2024-01-01T10:00:00+01", "2024-01-01t10:00:00z", "2024-01-01T10:00:00.Z", "+002024-01-01T00:00:00Z", "0000-01-01", "١٢٣٤-01-01"
    ]
    for (const start of lenient) {
      const result = lookUp(start, table)
      expect(result.code, start).toBe("unreadable_time")
      expect(result.detail, start).toContain(`start ${JSON.stringify(start)} is not a date-time`)
    }
    expect(lenient.filter((text) => !Number.isNaN(Date.parse(text))).length).toBeGreaterThan(10)
  })

  it("an empty time is still no account at no time; an unknown location none at its time", () => {
    expect(lookUp("")).toMatchObject({ code: "no_account_for_location", detail: 'no account in the account table for location "123" at (no start)' })
    const { periods } = readAccountTable(TABLE)
    const item = accountFinder<number>(periods, lookup)({ kind: "record", record: { malo: "999", start: "2024-06-01T00:00:00" }, at: 1, raw: "" })
    expect(item).toMatchObject({ kind: "reject", code: "no_account_for_location" })
  })

  it("reads the table as strictly: a date-time needs its offset, a day must exist, the zone must be known", () => {
    const problems = (rows: string, zone?: string) => readAccountTable(`malo;account;valid_from;valid_to\n${rows}`, zone).problems
    expect(problems("1;A;2024-02-30T00:00:00Z;\n")).toEqual(['line 2: valid_from "2024-02-30T00:00:00Z" is not a date (YYYY-MM-DD) or an ISO date-time with offset'])
    expect(problems("1;A;2024-01-01T00:00:00;\n")).toEqual(['line 2: valid_from "2024-01-01T00:00:00" is not a date (YYYY-MM-DD) or an ISO date-time with offset'])
    expect(problems("1;A;2024-01-01;2024-1-2\n")).toEqual(['line 2: valid_to "2024-1-2" is not a date or an ISO date-time with offset'])
    expect(problems("1;A;2024-01-01;\n", "Mars/Olympus")).toEqual(['the time zone "Mars/Olympus" is not known'])
    expect(problems("1;A;2024-01-01;2024-01-01T00:00:00+01:00\n")).toEqual(["line 2: valid_to is not after valid_from"])
  })

  it("withAccounts reads times in the zone it is given", async () => {
    const { periods } = readAccountTable(TABLE, "Asia/Tokyo")
    const out: Array<Item> = []
    for await (const item of withAccounts<number>([itemAt("2024-01-01T00:30:00"), itemAt("2023-12-31T23:30:00")], periods, lookup, "Asia/Tokyo")) out.push(item)
    expect(out.map((i) => (i.kind === "record" ? i.record["@account"] : i.kind))).toEqual(["KD-NEW", "KD-OLD"])
  })
})

describe("readTime: properties against @date-fns/tz", () => {
  it("a wall time near a clock change is the one instant that shows it in the zone, or rejected when there is none or two", () => {
    fc.assert(
      fc.property(
        changeArb,
        fc.integer({ min: -3 * 3600, max: 3 * 3600 }),
        fc.boolean(),
        fc.constantFrom("T", " "),
        fc.option(fc.stringMatching(/^[0-9]{1,9}$/u), { nil: undefined }),
        fc.integer({ min: -2 * 60, max: 2 * 60 }),
        ({ zone, at, before, after }, deltaSeconds, useBefore, separator, fraction, boundaryMinutes) => {
          // A wall time near the change, read with the offset before or after it: covers the skipped and the repeated ones.
          const wall = fieldsText(at + deltaSeconds * 1000 + (useBefore ? before : after) * MINUTE_MS)
          const text = `${wall.slice(0, 10)}${separator}${wall.slice(11)}${fraction === undefined ? "" : `.${fraction}`}`
          const expected = instantsOf(wall, zone)
          const read = readTime(text, zone)
          const fractionMs = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0"))
          if (expected.length === 1) expect(read).toEqual({ ok: true, ms: expected[0]! + fractionMs, form: "wall" })
          else {
            expect(read.ok).toBe(false)
            expect(!read.ok && read.reason).toContain(expected.length === 0 ? `does not exist in ${zone}` : `occurs twice in ${zone}`)
          }
          // The lookup at a period boundary near the change: the account of that instant, or the same reject.
          const boundary = at + boundaryMinutes * MINUTE_MS
          const table = `malo;account;valid_from;valid_to\n123;KD-OLD;2000-01-01T00:00:00Z;${new Date(boundary).toISOString()}\n123;KD-NEW;${new Date(boundary).toISOString()};\n`
          const found = lookUp(text, table, zone)
          if (expected.length === 1) expect(found).toEqual({ account: expected[0]! + fractionMs < boundary ? "KD-OLD" : "KD-NEW" })
          else expect(found.code).toBe("unreadable_time")
        }
      ),
      { seed: 2024, numRuns: 600 }
    )
  })

  it("a date near a clock change is its midnight in the zone, or rejected when that midnight is skipped or repeated", () => {
    fc.assert(
      fc.property(changeArb, fc.integer({ min: -1, max: 1 }), ({ zone, at }, days) => {
        const date = wallOf(at + days * DAY_MS, zone).slice(0, 10)
        const expected = instantsOf(`${date}T00:00:00`, zone)
        const read = readTime(date, zone)
        if (expected.length === 1) expect(read).toEqual({ ok: true, ms: expected[0]!, form: "date" })
        else expect(read.ok).toBe(false)
      }),
      { seed: 19, numRuns: 400 }
    )
  })

  it("a time written with an offset (by @date-fns/tz, in any zone) is its instant, whatever the reader's zone", () => {
    const zones = Intl.supportedValuesOf("timeZone")
    fc.assert(
      fc.property(
        fc.oneof(changeArb.map(({ at }) => at), fc.constant(Date.UTC(2000, 0, 1))).chain((at) => fc.integer({ min: -DAY_MS, max: DAY_MS }).map((d) => at + d)),
        fc.constantFrom(...zones),
        fc.constantFrom(...ZONES),
        (instant, writtenIn, readerZone) => {
          const text = new TZDate(instant, writtenIn).toISOString()
          expect(readTime(text, readerZone)).toEqual({ ok: true, ms: instant, form: "offset" })
          expect(readTime(new Date(instant).toISOString(), readerZone)).toEqual({ ok: true, ms: instant, form: "offset" })
        }
      ),
      { seed: 7, numRuns: 1000 }
    )
  })

  it("a date or time Date.parse reads only by leniency is not read", () => {
    const lenientArb = fc
      .record({
        year: fc.integer({ min: 1971, max: 2099 }),
        month: fc.integer({ min: 1, max: 9 }),
        day: fc.integer({ min: 1, max: 28 }),
        hour: fc.integer({ min: 0, max: 9 }),
        minute: fc.integer({ min: 0, max: 59 }),
        style: fc.constantFrom("unpadded", "us", "slashes", "dots", "month", "utc-string", "date-string", "short-hour", "compact-offset")
      })
      .map(({ year, month, day, hour, minute, style }) => {
        const iso = `${year}-${pad(month)}-${pad(day)}`
        const time = Date.UTC(year, month - 1, day, hour, minute)
        switch (style) {
          case "unpadded": return `${year}-${month}-${day}`
          case "us": return `${pad(month)}/${pad(day)}/${year}`
          case "slashes": return `${year}/${pad(month)}/${pad(day)}`
          case "dots": return `${day}.${month}.${year}`
          case "month": return iso.slice(0, 7)
          case "utc-string": return new Date(time).toUTCString()
          case "date-string": return new Date(time).toString()
          case "short-hour": return `${iso}T${hour}:${pad(minute)}:00`
          default: return `${iso}T${pad(hour)}:${pad(minute)}:00+0100`
        }
      })
    fc.assert(
      fc.property(lenientArb, fc.constantFrom(...ZONES), (text, zone) => {
        fc.pre(!Number.isNaN(Date.parse(text)))
        const read = readTime(text, zone)
        expect(read.ok, text).toBe(false)
        expect(lookUp(text, TABLE, zone).code).toBe("unreadable_time")
      }),
      { seed: 11, numRuns: 500 }
    )
  })
})

describe("readTime does not depend on the machine's zone", () => {
  const saved = process.env["TZ"]
  afterEach(() => {
    if (saved === undefined) delete process.env["TZ"]
    else process.env["TZ"] = saved
  })

  it("gives the same answers with TZ set to UTC, Asia/Tokyo and America/New_York", () => {
    const texts = ["2024-01-01T00:00:00", "2023-12-31 23:30:00", "2024-01-01", "2024-03-31T02:30:00", "2024-10-27T02:30:00", "2024-07-01T12:00:00+02:00", "2024-1-1"]
    const answers = (): unknown => texts.map((text) => [readTime(text, BERLIN), lookUp(text)])
    const reference = answers()
    const parsed: Array<number> = []
    for (const TZ of ["UTC", "Asia/Tokyo", "America/New_York"]) {
      process.env["TZ"] = TZ
      // The setting took hold: Date.parse now reads a time without offset in another zone.
      parsed.push(Date.parse("2024-01-01T00:00:00"))
      expect(answers(), TZ).toEqual(reference)
    }
    expect(new Set(parsed).size).toBe(3)
    expect(reference).toMatchObject([[{ ok: true, ms: Date.UTC(2023, 11, 31, 23) }, { account: "KD-NEW" }], [{ ok: true }, { account: "KD-OLD" }], [{ ok: true, ms: Date.UTC(2023, 11, 31, 23) }, { account: "KD-NEW" }], [{ ok: false }, { code: "unreadable_time" }], [{ ok: false }, { code: "unreadable_time" }], [{ ok: true, ms: Date.UTC(2024, 6, 1, 10) }, {}], [{ ok: false }, { code: "unreadable_time" }]])
  })
})

describe("the account table's header", () => {
  const problems = (text: string) => readAccountTable(text).problems

  it("refuses a column it does not know: a misnamed valid_to would make every period open-ended", () => {
    const misnamed = "malo;account;valid_from;gueltig_bis\n123;KD-OLD;2023-01-01;2024-01-01\n"
    expect(problems(misnamed)).toEqual(['the account table\'s header has the column "gueltig_bis", which is none of malo, account, valid_from, valid_to'])
    // Read anyway, KD-OLD would be the account of a reading long after its end.
    expect(readAccountTable(misnamed).periods).toEqual([])
  })

  it("refuses a column named twice: the later cell would silently win", () => {
    expect(problems("malo;account;valid_from;valid_to;malo\n123;KD-1;2023-01-01;;456\n")).toEqual(['the account table\'s header names the column "malo" twice'])
  })

  it("refuses a header without malo, account or valid_from, and names what is missing", () => {
    expect(problems("malo;valid_from;valid_to\n123;2023-01-01;\n")).toEqual(["the account table's header has no column account (it needs malo, account, valid_from and optionally valid_to)"])
    expect(problems("MaLo;Account;valid_from;valid_to\n123;KD-1;2023-01-01;\n")).toEqual([
      'the account table\'s header has the column "MaLo", which is none of malo, account, valid_from, valid_to',
      'the account table\'s header has the column "Account", which is none of malo, account, valid_from, valid_to',
      "the account table's header has no column malo (it needs malo, account, valid_from and optionally valid_to)",
      "the account table's header has no column account (it needs malo, account, valid_from and optionally valid_to)"
    ])
  })

  it("takes the columns in any order, spaces around names, a byte order mark and CRLF; without valid_to every period is open", () => {
    const { periods, problems: found } = readAccountTable("\uFEFF valid_to ; account ;malo;valid_from\r\n2024-01-01;KD-1;123;2023-01-01\r\n")
    expect(found).toEqual([])
    expect(periods.map((p) => [p.location, p.account])).toEqual([["123", "KD-1"]])
    expect(readAccountTable("malo;account;valid_from\n123;KD-1;2023-01-01\n").periods.map((p) => p.to)).toEqual([undefined])
  })

  it("takes a trailing delimiter on every line (a column without a name, left empty), refuses a value under it", () => {
    const { periods, problems: found } = readAccountTable("malo;account;valid_from;valid_to;\n123;KD-1;2023-01-01;;\n")
    expect(found).toEqual([])
    expect(periods.map((p) => p.account)).toEqual(["KD-1"])
    expect(problems("malo;account;valid_from;valid_to;\n123;KD-1;2023-01-01;;2024-01-01\n")).toEqual(["line 2: the column without a name holds \"2024-01-01\""])
  })

  it("any header with a column other than the four, or one of them twice, is refused (property)", () => {
    const known = ["malo", "account", "valid_from", "valid_to"]
    const header = fc.tuple(fc.shuffledSubarray(known, { minLength: 4, maxLength: 4 }), fc.boolean())
      .map(([all, withTo]) => all.filter((c) => withTo || c !== "valid_to"))
      .chain((columns) => fc.tuple(fc.constant(columns), fc.oneof(fc.constantFrom(...columns), fc.stringMatching(/^[A-Za-z_]{1,12}$/u).filter((n) => !known.includes(n))), fc.nat()))
    const cellOf = (c: string) => (c === "malo" ? "123" : c === "account" ? "KD-1" : c === "valid_from" ? "2023-01-01" : "")
    fc.assert(fc.property(header, ([columns, extra, at]) => {
      // Without the extra column the table is read…
      expect(readAccountTable(`${columns.join(";")}\n${columns.map(cellOf).join(";")}\n`)).toMatchObject({ problems: [], periods: [{ location: "123", account: "KD-1" }] })
      // …with it, refused.
      const names = [...columns]
      names.splice(at % (names.length + 1), 0, extra)
      const read = readAccountTable(`${names.join(";")}\n${names.map(cellOf).join(";")}\n`)
      expect(read.problems.length).toBeGreaterThan(0)
      expect(read.periods).toEqual([])
    }))
  })
})

describe("periods that overlap", () => {
  const HEADER = "malo;account;valid_from;valid_to\n"

  it("two accounts at one moment are ambiguous_account, naming both; either side of the overlap each is read", () => {
    const table = `${HEADER}123;KD-A;2023-01-01;2024-03-01\n123;KD-B;2024-01-01;\n`
    expect(lookUp("2024-02-01", table)).toEqual({ code: "ambiguous_account", detail: '2 accounts (KD-A, KD-B) in the account table for location "123" at 2024-02-01' })
    expect(lookUp("2023-12-31T23:59:59", table)).toEqual({ account: "KD-A" })
    expect(lookUp("2024-03-01", table)).toEqual({ account: "KD-B" })
  })

  it("a row written twice, or periods of one account that overlap, still give that account", () => {
    expect(lookUp("2024-02-01", `${HEADER}123;KD-A;2023-01-01;\n123;KD-A;2023-01-01;\n`)).toEqual({ account: "KD-A" })
    expect(lookUp("2024-02-01", `${HEADER}123;KD-A;2023-01-01;2024-06-01\n123;KD-A;2024-01-01;\n`)).toEqual({ account: "KD-A" })
    // A third row with another account makes the moment ambiguous, each account named once.
    expect(lookUp("2024-02-01", `${HEADER}123;KD-A;2023-01-01;\n123;KD-A;2023-01-01;\n123;KD-B;2024-01-01;\n`).detail).toBe('2 accounts (KD-A, KD-B) in the account table for location "123" at 2024-02-01')
  })

  it("the account found is the one every period valid at that moment names, else a reject (property)", () => {
    const day = (n: number) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10)
    const period = fc.record({ account: fc.constantFrom("KD-A", "KD-B", "KD-C"), from: fc.integer({ min: 0, max: 30 }), length: fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }) })
    fc.assert(fc.property(fc.array(period, { minLength: 1, maxLength: 6 }), fc.integer({ min: -2, max: 62 }), (periods, at) => {
      const table = `${HEADER}${periods.map((p) => `123;${p.account};${day(p.from)};${p.length === undefined ? "" : day(p.from + p.length)}`).join("\n")}\n`
      const valid = new Set(periods.filter((p) => p.from <= at && (p.length === undefined || at < p.from + p.length)).map((p) => p.account))
      const found = lookUp(day(at), table)
      if (valid.size === 1) expect(found).toEqual({ account: [...valid][0] })
      else expect(found.code).toBe(valid.size === 0 ? "no_account_for_location" : "ambiguous_account")
    }))
  })
})
