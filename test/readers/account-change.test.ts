/**
 * An amount over a period in which the account table changes the location's account
 * (src/readers/lookup/accounts.ts, `end` and `acrossChange`): rejected as `account_change_in_period`,
 * naming both accounts and the instant of the change, or booked to the account at the period's start
 * where the lookup says so. A property checks the decision against a count of the table's rows by hand.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type AccountLookup, accountFinder, accountLookupProblems, type LookupItem, readAccountTable } from "../../src/readers/lookup/accounts.js"

const TABLE = "malo;account;valid_from;valid_to\n123;KD-OLD;2024-01-01;2024-03-15\n123;KD-NEW;2024-03-15;2024-06-01\n"
const LOOKUP: AccountLookup = { location: "malo", at: "start", end: "end", into: "@account" }

const lookUp = (start: string, end: string, lookup: AccountLookup = LOOKUP, table = TABLE): { account?: unknown; code?: string; detail?: string } => {
  const { periods, problems } = readAccountTable(table)
  expect(problems).toEqual([])
  const item: LookupItem<number> = { kind: "record", record: { malo: "123", start, end }, at: 1, raw: "" }
  const found = accountFinder<number>(periods, lookup)(item)
  return found.kind === "record" ? { account: found.record["@account"] } : { code: found.code, detail: found.detail }
}

describe("an amount whose period spans a change of account", () => {
  it("is rejected naming both accounts and the change's instant (Berlin midnight)", () => {
    expect(lookUp("2024-03-01T00:00:00+01:00", "2024-04-01T00:00:00+02:00")).toEqual({
      code: "account_change_in_period",
      detail: 'the period 2024-03-01T00:00:00+01:00 – 2024-04-01T00:00:00+02:00 of location "123" spans a change of account in the account table on 2024-03-15T00:00:00+01:00: KD-OLD before, KD-NEW from then on; ' +
        'it is booked to neither (acrossChange: "start" in the reader file\'s accounts books such a period to the account at its start)'
    })
  })

  it("ending where the change is, or starting there, is no span (the end is exclusive)", () => {
    expect(lookUp("2024-03-14T23:45:00+01:00", "2024-03-15T00:00:00+01:00")).toEqual({ account: "KD-OLD" })
    expect(lookUp("2024-03-15T00:00:00+01:00", "2024-03-15T00:15:00+01:00")).toEqual({ account: "KD-NEW" })
  })

  it("running past the table's last period names no account after it", () => {
    expect(lookUp("2024-05-01", "2024-07-01").detail).toContain("on 2024-06-01T00:00:00+02:00: KD-NEW before, no account from then on")
  })

  it("is booked to the account at its start with acrossChange: start", () => {
    expect(lookUp("2024-03-01T00:00:00+01:00", "2024-04-01T00:00:00+02:00", { ...LOOKUP, acrossChange: "start" })).toEqual({ account: "KD-OLD" })
  })

  it("an end that cannot be read is unreadable_time, naming the end's cell", () => {
    expect(lookUp("2024-03-01", "202403312200")).toMatchObject({ code: "unreadable_time" })
    expect(lookUp("2024-03-01", "202403312200").detail).toContain('end "202403312200" is not a date-time')
  })

  it("without end, only the start is looked up, as before", () => {
    expect(lookUp("2024-03-01", "2024-04-01", { location: "malo", at: "start", into: "@account" })).toEqual({ account: "KD-OLD" })
  })

  it("the reader file's accounts: end a cell, acrossChange reject or start and only with end, no other key", () => {
    expect(accountLookupProblems({ table: "t.csv", location: "l", at: "a", into: "i", end: "e", acrossChange: "start" })).toEqual([])
    expect(accountLookupProblems({ table: "t.csv", location: "l", at: "a", into: "i", acrossChange: "start" })).toEqual(["accounts: acrossChange needs end, the cell with the period's end (DTM+164)"])
    expect(accountLookupProblems({ table: "t.csv", location: "l", at: "a", into: "i", end: "e", acrosChange: "start" })).toEqual(["accounts: unknown key \"acrosChange\" (known: table, location, at, into, end, acrossChange)"])
  })

  it("rejects a period exactly when the table gives its location another account somewhere inside it (property)", () => {
    const DAY = 86_400_000
    const base = Date.UTC(2024, 0, 1)
    const day = (n: number): string => new Date(base + n * DAY).toISOString().slice(0, 10)
    fc.assert(fc.property(
      fc.array(fc.record({ account: fc.constantFrom("A", "B"), from: fc.integer({ min: 0, max: 60 }), days: fc.integer({ min: 1, max: 40 }) }), { minLength: 1, maxLength: 4 }),
      fc.integer({ min: 0, max: 60 }),
      fc.integer({ min: 1, max: 40 }),
      (rows, from, days) => {
        const table = `malo;account;valid_from;valid_to\n${rows.map((r) => `123;${r.account};${day(r.from)};${day(r.from + r.days)}`).join("\n")}\n`
        const result = lookUp(`${day(from)}T00:00:00Z`, `${day(from + days)}T00:00:00Z`, LOOKUP, table.replace(/;(\d{4}-\d{2}-\d{2})/gu, ";$1T00:00:00Z"))
        // Day by day (UTC midnights): the accounts valid at each day of the period.
        const accountsOn = (d: number): Set<string> => new Set(rows.filter((r) => r.from <= d && d < r.from + r.days).map((r) => r.account))
        const atStart = accountsOn(from)
        if (atStart.size !== 1) {
          expect(result.code).toBe(atStart.size === 0 ? "no_account_for_location" : "ambiguous_account")
          return
        }
        const account = [...atStart][0]!
        const changes = Array.from({ length: days - 1 }, (_, i) => accountsOn(from + i + 1)).some((s) => s.size !== 1 || !s.has(account))
        expect(result).toEqual(changes ? expect.objectContaining({ code: "account_change_in_period" }) : { account })
      }
    ), { numRuns: 300 })
  })

  it("one finder over a series of records, times repeated and out of order, finds what a new finder finds for each (property)", () => {
    const { periods } = readAccountTable(TABLE)
    const times = ["2024-03-14T23:00:00Z", "2024-03-15T00:00:00+01:00", "2024-03-15T00:00:00", "2024-03-20", "2024-05-31T22:00:00Z", "2024-06-01T00:00:00", "2024-03-31T02:30:00", "2024-13-01", ""]
    const record = fc.record({ start: fc.constantFrom(...times), end: fc.constantFrom(...times), malo: fc.constantFrom("123", "999") })
    fc.assert(fc.property(fc.array(record, { maxLength: 30 }), fc.constantFrom<AccountLookup>(LOOKUP, { ...LOOKUP, acrossChange: "start" }, { location: "malo", at: "start", into: "@account" }), (records, lookup) => {
      const shared = accountFinder<number>(periods, lookup)
      for (const r of records) {
        const item = (): LookupItem<number> => ({ kind: "record", record: { ...r }, at: 1, raw: "" })
        expect(shared(item())).toEqual(accountFinder<number>(periods, lookup)(item()))
      }
    }), { numRuns: 200 })
  })
})
