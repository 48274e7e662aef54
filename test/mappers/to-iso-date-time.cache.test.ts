/**
 * toIsoDateTime caches time-zone offsets per 12-hour window. Its answers must not depend on what was
 * converted before: they are compared with a brute-force reading of the zone (every quarter-hour offset
 * from -16 to +16 hours, checked with Intl) for wall times around clock changes, in several zones.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toIsoDateTime } from "../../src/index.js"

const pad = (n: number): string => String(n).padStart(2, "0")

const wallFormats = new Map<string, Intl.DateTimeFormat>()
/** The wall time of an instant in a zone, as `YYYY-MM-DD HH:MM:SS`. */
const wallOf = (instant: number, timeZone: string): string => {
  let format = wallFormats.get(timeZone)
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit"
    })
    wallFormats.set(timeZone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]))
  return `${parts["year"]}-${parts["month"]}-${parts["day"]} ${parts["hour"]}:${parts["minute"]}:${parts["second"]}`
}

/** What toIsoDateTime must answer, found by trying every quarter-hour offset. */
const expected = (wallMs: number, timeZone: string, ambiguous: "earlier" | "later" | "reject"): string => {
  const wall = new Date(wallMs).toISOString().slice(0, 19).replace("T", " ")
  const instants: Array<number> = []
  for (let minutes = -16 * 60; minutes <= 16 * 60; minutes += 15) {
    const instant = wallMs - minutes * 60_000
    if (wallOf(instant, timeZone) === wall) instants.push(instant)
  }
  instants.sort((a, b) => a - b)
  if (instants.length === 0) return "nonexistent_time"
  if (instants.length > 1 && ambiguous === "reject") return "ambiguous_time"
  const instant = ambiguous === "later" ? instants[instants.length - 1]! : instants[0]!
  const offset = (wallMs - instant) / 60_000
  const sign = offset < 0 ? "-" : "+"
  return `${wall.replace(" ", "T")}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
}

// Days around the clock changes of 2024 in each zone, so most samples are near one.
const ZONES: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["Europe/Berlin", ["2024-03-31", "2024-10-27"]],
  ["America/New_York", ["2024-03-10", "2024-11-03"]],
  ["Australia/Lord_Howe", ["2024-04-07", "2024-10-06"]],
  ["Asia/Kathmandu", ["2024-06-01"]]
]

describe("toIsoDateTime with cached offsets", () => {
  it("answers as a brute-force reading of the zone, whatever was converted before", () => {
    const sample = fc.tuple(
      fc.constantFrom(...ZONES),
      fc.nat(),
      fc.integer({ min: -36 * 4, max: 36 * 4 }),
      fc.constantFrom("earlier" as const, "later" as const, "reject" as const)
    )
    fc.assert(fc.property(fc.array(sample, { minLength: 1, maxLength: 12 }), (samples) => {
      for (const [[zone, days], pick, quarters, ambiguous] of samples) {
        const wallMs = Date.parse(`${days[pick % days.length]!}T00:00:00Z`) + quarters * 15 * 60_000
        const d = new Date(wallMs)
        const text = `${pad(d.getUTCDate())}.${pad(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
        const result = toIsoDateTime(text, { format: "dd.MM.yyyy HH:mm", timeZone: zone, ambiguous })
        expect(result.ok ? result.value : result.error.code, `${text} ${zone} ${ambiguous}`).toBe(expected(wallMs, zone, ambiguous))
      }
    }), { numRuns: 120, seed: 31 })
  })
})
