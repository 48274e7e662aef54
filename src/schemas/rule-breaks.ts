/**
 * What the breakers of the cross-field rules share: a choice among ways by a number, and a date or
 * datetime before another. Plain date arithmetic (`instant.ts`), no generator: the rules carry their
 * breakers into the main bundle, and the testing kit draws the numbers.
 *
 * @module
 */
import { ISO_DATE_RE } from "./patterns.js"
import { dateOfDay, dayOfDate, toInstant, wallClockOf } from "./instant.js"

/**
 * The value `variant` chooses among `values` (any natural number; it wraps around).
 *
 * @example
 * pick(["a", "b", "c"], 4) // => "b"
 */
export const pick = <A>(values: ReadonlyArray<A>, variant: number): A => values[variant % values.length] as A

/** Zones a datetime before another is written in: as text, and as minutes east of UTC. */
const ZONES: ReadonlyArray<readonly [string, number]> = [["Z", 0], ["+01:00", 60], ["+02:00", 120], ["-05:00", -300]]

/**
 * A date or datetime strictly before `value` (same kind): a date some days earlier, a datetime some
 * minutes earlier as an instant, written in one of a few zones, whole seconds.
 *
 * @example
 * before("2024-03-31", 0) // => "2024-03-30"
 * before("2024-03-31T03:00:00+02:00", 1) // => "2024-03-31T01:22:00+01:00"
 */
export const before = (value: string, variant: number): string => {
  const step = 1 + (variant % 5) * 37
  if (ISO_DATE_RE.test(value)) return dateOfDay(dayOfDate(value) - step)
  const [zone, minutes] = pick(ZONES, variant)
  return `${wallClockOf(toInstant(value).seconds - step * 60 + minutes * 60)}${zone}`
}

/**
 * The breaker of a rule that the `field`s of a list's items are unique: a later item repeats an earlier
 * item's value (a one-item list gets a copy of its item). `undefined` for an empty list.
 *
 * @example
 * repeatedId("id")([{ id: "a" }, { id: "b" }], 0)?.value // => [{ id: "a" }, { id: "a" }]
 * repeatedId("id")([{ id: "a" }], 0)?.at // => [1, "id"]
 */
export const repeatedId = (field: string) =>
  (items: ReadonlyArray<Readonly<Record<string, unknown>> | undefined>, variant: number) => {
    const [first] = items
    if (first === undefined) return undefined
    if (items.length === 1) return { value: [first, structuredClone(first)], at: [1, field], detail: `item 1's ${field} repeats item 0's` }
    const later = 1 + (variant % (items.length - 1))
    const earlier = variant % later
    const value = items.map((item, index) => (index === later ? { ...item, [field]: items[earlier]?.[field] ?? "X" } : item))
    return { value, at: [later, field], detail: `item ${later}'s ${field} repeats item ${earlier}'s` }
  }
