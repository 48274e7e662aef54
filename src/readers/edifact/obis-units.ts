/**
 * What an OBIS code measures, and the unit of its quantity: the table that gives a `QTY` without a unit
 * (DE6411 is optional, and real MSCONS leaves it out almost always) the unit its OBIS code implies, and tells
 * an energy amount from a meter reading, a power maximum or a calorific value. Data, not code: one line per
 * OBIS pattern, one per unit, one per measure.
 *
 * Sources (read, not copied):
 *
 * - OBIS codes: EDI@Energy "Codeliste der OBIS-Kennzahlen und Medien" 2.5c (BDEW, 01.08.2025), chapters 2
 *   (value groups: C the quantity, D the kind of value — 6 maximum, 8 meter reading "Zeitintegral 1", 9
 *   advance over a period "Zeitintegral 2", 29 load profile "Zeitintegral 5" — E the tariff), 3 (electricity)
 *   and 4 (gas); D = 4, 5, 7 (averages and instantaneous power) and D = 10 (time integral 3, seen in real
 *   archives as energy in kWh) from DIN EN 62056-61.
 * - Unit codes: the BDEW MSCONS code list of DE6411 (FV2504: `KWH`, `KWT`, `D54`, `MTS`), and UN/ECE
 *   Recommendation 20 for the units that list leaves to the OBIS code (`K3` kilovolt ampere reactive hour,
 *   `KVR` kilovar, `MTQ` cubic metre, `MWH` megawatt hour, `GWH` gigawatt hour, `MAW` megawatt).
 *
 * A pattern is `A-B:C.D.E` where a group is a number or a letter that stands for any number (`b` the
 * channel, `e` the tariff or time reference). An OBIS code is matched with its `*F` group (a billing period,
 * `*255` the current one) left out, since F does not change what is measured, and with a dash other than
 * `-` between A and B (`1–0:1.8.0`, as a BO4E export writes it) read as `-`.
 *
 * @module
 */
import { toDecimalString } from "../../mappers/to-decimal-string.js"

/** What a unit measures: a unit given beside an OBIS code must measure what the code does. */
export type Dimension = "energy" | "reactive energy" | "power" | "reactive power" | "volume" | "irradiance" | "speed"

/** A unit code the table knows: its name, its dimension, and its power of ten against its dimension's base unit (Wh, W, var, varh, m³). */
export interface UnitCode {
  readonly name: string
  readonly dimension: Dimension
  readonly exponent: number
  /** What a quantity in this unit measures when its product is not an OBIS code the table knows (`AUA`, Ausfallarbeit, with `KWH`). */
  readonly measure: MeasureName
}

/**
 * The unit codes, by code (EDIFACT DE6411; sources in the module doc).
 *
 * @example
 * UNIT_CODES["K3"]?.name // => "kilovolt ampere reactive hour (kvarh)"
 */
export const UNIT_CODES: Readonly<Record<string, UnitCode>> = {
  KWH: { name: "kilowatt hour", dimension: "energy", exponent: 3, measure: "active energy" },
  MWH: { name: "megawatt hour", dimension: "energy", exponent: 6, measure: "active energy" },
  GWH: { name: "gigawatt hour", dimension: "energy", exponent: 9, measure: "active energy" },
  K3: { name: "kilovolt ampere reactive hour (kvarh)", dimension: "reactive energy", exponent: 3, measure: "reactive energy" },
  KWT: { name: "kilowatt", dimension: "power", exponent: 3, measure: "active power" },
  MAW: { name: "megawatt", dimension: "power", exponent: 6, measure: "active power" },
  KVR: { name: "kilovar", dimension: "reactive power", exponent: 3, measure: "reactive power" },
  MTQ: { name: "cubic metre", dimension: "volume", exponent: 0, measure: "volume" },
  D54: { name: "watt per square metre", dimension: "irradiance", exponent: 0, measure: "irradiance" },
  MTS: { name: "metre per second", dimension: "speed", exponent: 0, measure: "wind speed" }
}

/** A measure: what a quantity is, its dimension, and, when it is no energy amount, why not. */
export interface Measure {
  readonly dimension: Dimension | "energy per volume" | "ratio"
  /** Why a quantity of this measure is no energy amount; absent for an amount. */
  readonly notAnAmount?: string
}

/**
 * The measures, by name: what a reader file's `units.accept` lists.
 *
 * @example
 * MEASURES["active power maximum"].notAnAmount // => "a maximum is not an energy amount"
 */
export const MEASURES = {
  "active energy": { dimension: "energy" },
  "active energy reading": { dimension: "energy", notAnAmount: "a meter reading is not an energy amount" },
  "reactive energy": { dimension: "reactive energy" },
  "reactive energy reading": { dimension: "reactive energy", notAnAmount: "a meter reading is not an energy amount" },
  "active power": { dimension: "power", notAnAmount: "a power is not an energy amount" },
  "active power maximum": { dimension: "power", notAnAmount: "a maximum is not an energy amount" },
  "reactive power": { dimension: "reactive power", notAnAmount: "a power is not an energy amount" },
  "reactive power maximum": { dimension: "reactive power", notAnAmount: "a maximum is not an energy amount" },
  "gas volume": { dimension: "volume" },
  "gas volume reading": { dimension: "volume", notAnAmount: "a meter reading is not an energy amount" },
  "gas energy": { dimension: "energy" },
  "gas energy reading": { dimension: "energy", notAnAmount: "a meter reading is not an energy amount" },
  "gas energy maximum": { dimension: "energy", notAnAmount: "a maximum is not an energy amount" },
  volume: { dimension: "volume" },
  "calorific value": { dimension: "energy per volume", notAnAmount: "a calorific value is not an energy amount" },
  "state number": { dimension: "ratio", notAnAmount: "a state number (Zustandszahl) is not an energy amount" },
  irradiance: { dimension: "irradiance", notAnAmount: "an irradiance is not an energy amount" },
  "wind speed": { dimension: "speed", notAnAmount: "a wind speed is not an energy amount" }
} as const satisfies Record<string, Measure>

/** The name of a measure. */
export type MeasureName = keyof typeof MEASURES

/** One line of the OBIS table: a pattern, what it measures (the measure and in words), and the unit code of its quantity (none for a calorific value or a state number: no code of the lists above). */
export interface ObisUnit {
  readonly obis: string
  readonly measure: MeasureName
  readonly what: string
  readonly unit: string | undefined
}

const line = (obis: string, measure: MeasureName, unit: string | undefined, what: string): ObisUnit => ({ obis, measure, what, unit })

/**
 * The OBIS table (sources in the module doc). No OBIS code matches two lines (a test checks it).
 *
 * @example
 * OBIS_UNITS.find((l) => l.obis === "1-b:3.29.e") // => { obis: "1-b:3.29.e", measure: "reactive energy", what: "reactive energy positive (Q+), load profile (Zeitintegral 5)", unit: "K3" }
 */
export const OBIS_UNITS: ReadonlyArray<ObisUnit> = [
  // Electricity, active: C = 1 import (+), 2 export (-).
  line("1-b:1.4.e", "active power", "KWT", "active power import (+), current average"),
  line("1-b:2.4.e", "active power", "KWT", "active power export (-), current average"),
  line("1-b:1.5.e", "active power", "KWT", "active power import (+), last average"),
  line("1-b:2.5.e", "active power", "KWT", "active power export (-), last average"),
  line("1-b:1.6.e", "active power maximum", "KWT", "active power import (+), maximum"),
  line("1-b:2.6.e", "active power maximum", "KWT", "active power export (-), maximum"),
  line("1-b:1.7.e", "active power", "KWT", "active power import (+), instantaneous"),
  line("1-b:2.7.e", "active power", "KWT", "active power export (-), instantaneous"),
  line("1-b:1.8.e", "active energy reading", "KWH", "active energy import (+), meter reading (Zeitintegral 1)"),
  line("1-b:2.8.e", "active energy reading", "KWH", "active energy export (-), meter reading (Zeitintegral 1)"),
  line("1-b:1.9.e", "active energy", "KWH", "active energy import (+), advance over a period (Vorschub, Zeitintegral 2)"),
  line("1-b:2.9.e", "active energy", "KWH", "active energy export (-), advance over a period (Vorschub, Zeitintegral 2)"),
  line("1-b:1.10.e", "active energy", "KWH", "active energy import (+), time integral 3"),
  line("1-b:2.10.e", "active energy", "KWH", "active energy export (-), time integral 3"),
  line("1-b:1.29.e", "active energy", "KWH", "active energy import (+), load profile (Zeitintegral 5)"),
  line("1-b:2.29.e", "active energy", "KWH", "active energy export (-), load profile (Zeitintegral 5)"),
  line("1-b:1.98.0", "active energy", "KWH", "balanced quantity of a market location, withdrawal (OBIS-like)"),
  line("1-b:2.98.0", "active energy", "KWH", "balanced quantity of a market location, feed-in (OBIS-like)"),
  // Electricity, reactive: C = 3 positive (Q+), 4 negative (Q-), 5–8 quadrants I–IV.
  line("1-b:3.6.e", "reactive power maximum", "KVR", "reactive power positive (Q+), maximum"),
  line("1-b:4.6.e", "reactive power maximum", "KVR", "reactive power negative (Q-), maximum"),
  line("1-b:5.6.e", "reactive power maximum", "KVR", "reactive power quadrant I, maximum"),
  line("1-b:6.6.e", "reactive power maximum", "KVR", "reactive power quadrant II, maximum"),
  line("1-b:7.6.e", "reactive power maximum", "KVR", "reactive power quadrant III, maximum"),
  line("1-b:8.6.e", "reactive power maximum", "KVR", "reactive power quadrant IV, maximum"),
  line("1-b:3.8.e", "reactive energy reading", "K3", "reactive energy positive (Q+), meter reading (Zeitintegral 1)"),
  line("1-b:4.8.e", "reactive energy reading", "K3", "reactive energy negative (Q-), meter reading (Zeitintegral 1)"),
  line("1-b:5.8.e", "reactive energy reading", "K3", "reactive energy quadrant I, meter reading (Zeitintegral 1)"),
  line("1-b:6.8.e", "reactive energy reading", "K3", "reactive energy quadrant II, meter reading (Zeitintegral 1)"),
  line("1-b:7.8.e", "reactive energy reading", "K3", "reactive energy quadrant III, meter reading (Zeitintegral 1)"),
  line("1-b:8.8.e", "reactive energy reading", "K3", "reactive energy quadrant IV, meter reading (Zeitintegral 1)"),
  line("1-b:3.9.e", "reactive energy", "K3", "reactive energy positive (Q+), advance over a period (Vorschub, Zeitintegral 2)"),
  line("1-b:4.9.e", "reactive energy", "K3", "reactive energy negative (Q-), advance over a period (Vorschub, Zeitintegral 2)"),
  line("1-b:5.9.e", "reactive energy", "K3", "reactive energy quadrant I, advance over a period (Vorschub, Zeitintegral 2)"),
  line("1-b:6.9.e", "reactive energy", "K3", "reactive energy quadrant II, advance over a period (Vorschub, Zeitintegral 2)"),
  line("1-b:7.9.e", "reactive energy", "K3", "reactive energy quadrant III, advance over a period (Vorschub, Zeitintegral 2)"),
  line("1-b:8.9.e", "reactive energy", "K3", "reactive energy quadrant IV, advance over a period (Vorschub, Zeitintegral 2)"),
  line("1-b:3.29.e", "reactive energy", "K3", "reactive energy positive (Q+), load profile (Zeitintegral 5)"),
  line("1-b:4.29.e", "reactive energy", "K3", "reactive energy negative (Q-), load profile (Zeitintegral 5)"),
  line("1-b:5.29.e", "reactive energy", "K3", "reactive energy quadrant I, load profile (Zeitintegral 5)"),
  line("1-b:6.29.e", "reactive energy", "K3", "reactive energy quadrant II, load profile (Zeitintegral 5)"),
  line("1-b:7.29.e", "reactive energy", "K3", "reactive energy quadrant III, load profile (Zeitintegral 5)"),
  line("1-b:8.29.e", "reactive energy", "K3", "reactive energy quadrant IV, load profile (Zeitintegral 5)"),
  // Channel 66: excess reactive energy and power of a delivery note (OBIS-like).
  line("1-b:13.9.e", "reactive energy", "K3", "excess reactive energy positive (Blindmehrarbeit), advance over a period"),
  line("1-b:14.9.e", "reactive energy", "K3", "excess reactive energy negative (Blindmehrarbeit), advance over a period"),
  line("1-b:13.6.e", "reactive power maximum", "KVR", "excess reactive power positive (Blindmehrleistung), maximum"),
  line("1-b:14.6.e", "reactive power maximum", "KVR", "excess reactive power negative (Blindmehrleistung), maximum"),
  // Gas, volume: C = 1–3 meter, 11–13 converter (withdrawal); 4–6, 14–16 feed-in. D = 0–2 meter readings, 21–23 differences.
  line("7-b:1.0.0", "gas volume reading", "MTQ", "operating volume, withdrawal, undisturbed, meter reading"),
  line("7-b:2.0.0", "gas volume reading", "MTQ", "operating volume, withdrawal, disturbed, meter reading"),
  line("7-b:3.0.0", "gas volume reading", "MTQ", "operating volume, withdrawal, meter reading"),
  line("7-b:3.1.0", "gas volume reading", "MTQ", "operating volume, withdrawal, temperature-compensated, meter reading"),
  line("7-b:3.2.0", "gas volume reading", "MTQ", "standard volume, withdrawal, measured, meter reading"),
  line("7-b:3.21.0", "gas volume", "MTQ", "operating volume, withdrawal, difference of meter readings"),
  line("7-b:3.22.0", "gas volume", "MTQ", "operating volume, withdrawal, temperature-compensated, difference of meter readings"),
  line("7-b:3.23.0", "gas volume", "MTQ", "standard volume, withdrawal, measured, difference of meter readings"),
  line("7-b:4.0.0", "gas volume reading", "MTQ", "operating volume, feed-in, undisturbed, meter reading"),
  line("7-b:5.0.0", "gas volume reading", "MTQ", "operating volume, feed-in, disturbed, meter reading"),
  line("7-b:6.0.0", "gas volume reading", "MTQ", "operating volume, feed-in, meter reading"),
  line("7-b:6.1.0", "gas volume reading", "MTQ", "operating volume, feed-in, temperature-compensated, meter reading"),
  line("7-b:6.2.0", "gas volume reading", "MTQ", "standard volume, feed-in, measured, meter reading"),
  line("7-b:6.21.0", "gas volume", "MTQ", "operating volume, feed-in, difference of meter readings"),
  line("7-b:6.22.0", "gas volume", "MTQ", "operating volume, feed-in, temperature-compensated, difference of meter readings"),
  line("7-b:6.23.0", "gas volume", "MTQ", "standard volume, feed-in, measured, difference of meter readings"),
  line("7-b:11.2.0", "gas volume reading", "MTQ", "standard volume, withdrawal, converter, undisturbed, meter reading"),
  line("7-b:12.2.0", "gas volume reading", "MTQ", "standard volume, withdrawal, converter, disturbed, meter reading"),
  line("7-b:13.2.0", "gas volume reading", "MTQ", "standard volume, withdrawal, converted, meter reading"),
  line("7-b:13.21.0", "gas volume", "MTQ", "standard volume, withdrawal, converted, difference of meter readings"),
  line("7-b:14.2.0", "gas volume reading", "MTQ", "standard volume, feed-in, converter, undisturbed, meter reading"),
  line("7-b:15.2.0", "gas volume reading", "MTQ", "standard volume, feed-in, converter, disturbed, meter reading"),
  line("7-b:16.2.0", "gas volume reading", "MTQ", "standard volume, feed-in, converted, meter reading"),
  line("7-b:16.21.0", "gas volume", "MTQ", "standard volume, feed-in, converted, difference of meter readings"),
  // Gas, volume profiles (C = 99): D the source and direction, E = 0/2 readings, 15/17 hourly differences.
  line("7-b:99.21.0", "gas volume reading", "MTQ", "profile, operating volume, withdrawal, undisturbed, meter reading"),
  line("7-b:99.22.0", "gas volume reading", "MTQ", "profile, operating volume, withdrawal, disturbed, meter reading"),
  line("7-b:99.23.0", "gas volume reading", "MTQ", "profile, operating volume, withdrawal, meter reading"),
  line("7-b:99.24.0", "gas volume reading", "MTQ", "profile, operating volume, feed-in, undisturbed, meter reading"),
  line("7-b:99.25.0", "gas volume reading", "MTQ", "profile, operating volume, feed-in, disturbed, meter reading"),
  line("7-b:99.26.0", "gas volume reading", "MTQ", "profile, operating volume, feed-in, meter reading"),
  line("7-b:99.21.2", "gas volume reading", "MTQ", "profile, standard volume, withdrawal, undisturbed, meter reading"),
  line("7-b:99.22.2", "gas volume reading", "MTQ", "profile, standard volume, withdrawal, disturbed, meter reading"),
  line("7-b:99.23.2", "gas volume reading", "MTQ", "profile, standard volume, withdrawal, meter reading"),
  line("7-b:99.24.2", "gas volume reading", "MTQ", "profile, standard volume, feed-in, undisturbed, meter reading"),
  line("7-b:99.25.2", "gas volume reading", "MTQ", "profile, standard volume, feed-in, disturbed, meter reading"),
  line("7-b:99.26.2", "gas volume reading", "MTQ", "profile, standard volume, feed-in, meter reading"),
  line("7-b:99.21.15", "gas volume", "MTQ", "profile, operating volume, withdrawal, undisturbed, hourly difference"),
  line("7-b:99.22.15", "gas volume", "MTQ", "profile, operating volume, withdrawal, disturbed, hourly difference"),
  line("7-b:99.23.15", "gas volume", "MTQ", "profile, operating volume, withdrawal, hourly difference"),
  line("7-b:99.24.15", "gas volume", "MTQ", "profile, operating volume, feed-in, undisturbed, hourly difference"),
  line("7-b:99.25.15", "gas volume", "MTQ", "profile, operating volume, feed-in, disturbed, hourly difference"),
  line("7-b:99.26.15", "gas volume", "MTQ", "profile, operating volume, feed-in, hourly difference"),
  line("7-b:99.21.17", "gas volume", "MTQ", "profile, standard volume, withdrawal, undisturbed, hourly difference"),
  line("7-b:99.22.17", "gas volume", "MTQ", "profile, standard volume, withdrawal, disturbed, hourly difference"),
  line("7-b:99.23.17", "gas volume", "MTQ", "profile, standard volume, withdrawal, hourly difference"),
  line("7-b:99.24.17", "gas volume", "MTQ", "profile, standard volume, feed-in, undisturbed, hourly difference"),
  line("7-b:99.25.17", "gas volume", "MTQ", "profile, standard volume, feed-in, disturbed, hourly difference"),
  line("7-b:99.26.17", "gas volume", "MTQ", "profile, standard volume, feed-in, hourly difference"),
  // Gas, energy: C = 31–33 withdrawal, 34–36 feed-in (readings at D = 2); profiles at C = 99.
  line("7-b:31.2.0", "gas energy reading", "KWH", "energy, withdrawal, undisturbed, meter reading"),
  line("7-b:32.2.0", "gas energy reading", "KWH", "energy, withdrawal, disturbed, meter reading"),
  line("7-b:33.2.0", "gas energy reading", "KWH", "energy, withdrawal, meter reading"),
  line("7-b:34.2.0", "gas energy reading", "KWH", "energy, feed-in, undisturbed, meter reading"),
  line("7-b:35.2.0", "gas energy reading", "KWH", "energy, feed-in, disturbed, meter reading"),
  line("7-b:36.2.0", "gas energy reading", "KWH", "energy, feed-in, meter reading"),
  line("7-b:33.86.0", "gas energy", "KWH", "energy quantity, withdrawal, absolute (Vorlauf Energie absolut)"),
  line("7-b:33.47.0", "gas energy maximum", "KWH", "energy, withdrawal, maximum of a month"),
  line("7-b:99.31.2", "gas energy reading", "KWH", "profile, energy, withdrawal, undisturbed, meter reading"),
  line("7-b:99.32.2", "gas energy reading", "KWH", "profile, energy, withdrawal, disturbed, meter reading"),
  line("7-b:99.33.2", "gas energy reading", "KWH", "profile, energy, withdrawal, meter reading"),
  line("7-b:99.34.2", "gas energy reading", "KWH", "profile, energy, feed-in, undisturbed, meter reading"),
  line("7-b:99.35.2", "gas energy reading", "KWH", "profile, energy, feed-in, disturbed, meter reading"),
  line("7-b:99.36.2", "gas energy reading", "KWH", "profile, energy, feed-in, meter reading"),
  line("7-b:99.31.17", "gas energy", "KWH", "profile, energy, withdrawal, undisturbed, hourly value"),
  line("7-b:99.32.17", "gas energy", "KWH", "profile, energy, withdrawal, disturbed, hourly value"),
  line("7-b:99.33.17", "gas energy", "KWH", "profile, energy, withdrawal, hourly value (channel 10 preliminary, 20 final calorific value)"),
  line("7-b:99.34.17", "gas energy", "KWH", "profile, energy, feed-in, undisturbed, hourly value"),
  line("7-b:99.35.17", "gas energy", "KWH", "profile, energy, feed-in, disturbed, hourly value"),
  line("7-b:99.36.17", "gas energy", "KWH", "profile, energy, feed-in, hourly value (channel 10 preliminary, 20 final calorific value)"),
  // Gas, properties that are no amounts.
  line("7-b:52.0.e", "state number", undefined, "state number (Zustandszahl), average"),
  line("7-b:54.0.e", "calorific value", undefined, "calorific value (Brennwert, kWh/m³), average"),
  line("7-b:70.19.e", "calorific value", undefined, "net calorific value (Heizwert, kWh/m³), gas analysis")
]

/** An OBIS code's value groups A to E (F, the billing period, left out). */
type Groups = readonly [number, number, number, number, number]

/** A pattern's groups: a number, or `undefined` for a letter (any number). */
type PatternGroups = readonly [number | undefined, number | undefined, number | undefined, number | undefined, number | undefined]

// A dash between A and B may be any of the dashes a text editor puts there (hyphen, non-breaking hyphen,
// figure dash, en dash, em dash, minus sign): BO4E exports write an en dash.
const OBIS_TEXT = /^([0-9]{1,3})[-\u2010-\u2014\u2212]([0-9]{1,3}):([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})(?:\*([0-9]{1,3}))?$/u
const PATTERN_TEXT = /^([0-9]{1,3}|[a-z])-([0-9]{1,3}|[a-z]):([0-9]{1,3}|[a-z])\.([0-9]{1,3}|[a-z])\.([0-9]{1,3}|[a-z])$/u

/**
 * The value groups A to E of an OBIS code as written (`1-1:1.29.0`, `1-0:1.8.0*255`, `1–0:1.8.0`, with
 * spaces around), or `undefined` for a text that is no OBIS code (`AUA`, a Medium code of redispatch).
 *
 * @example
 * obisGroups("1-0:1.8.0*255") // => [1, 0, 1, 8, 0]
 * obisGroups("1\u20130:1.8.0") // => [1, 0, 1, 8, 0]
 * obisGroups("AUA") // => undefined
 */
export const obisGroups = (text: string): Groups | undefined => {
  const m = OBIS_TEXT.exec(text.trim())
  if (m === null) return undefined
  const groups = [m[1], m[2], m[3], m[4], m[5]].map(Number) as unknown as Groups
  return groups.every((g) => g <= 255) ? groups : undefined
}

/** The groups of a pattern of {@link OBIS_UNITS}; throws for a pattern that is not one (a mistake in the table). */
export const patternGroups = (pattern: string): PatternGroups => {
  const m = PATTERN_TEXT.exec(pattern)
  if (m === null) throw new Error(`not an OBIS pattern: ${pattern}`)
  return [m[1], m[2], m[3], m[4], m[5]].map((g) => (/^[a-z]$/u.test(g!) ? undefined : Number(g))) as unknown as PatternGroups
}

const COMPILED = OBIS_UNITS.map((entry) => ({ entry, groups: patternGroups(entry.obis) }))

/** Lines found by code as written: a file names a handful of codes, each looked up once. */
const found = new Map<string, ObisUnit | undefined>()

/**
 * The line of {@link OBIS_UNITS} an OBIS code matches (its `*F` group and the kind of dash ignored), or
 * `undefined` for a code the table does not know or a text that is no OBIS code.
 *
 * @example
 * obisUnit("1-1:1.29.0")?.unit // => "KWH"
 * obisUnit("1-1:4.29.0")?.unit // => "K3"
 * obisUnit("1-1:1.6.0")?.measure // => "active power maximum"
 * obisUnit("7-0:3.21.0*255")?.unit // => "MTQ"
 * obisUnit("1-1:99.99.0") // => undefined
 */
export const obisUnit = (text: string): ObisUnit | undefined => {
  if (found.has(text)) return found.get(text)
  const groups = obisGroups(text)
  const hit = groups === undefined ? undefined : COMPILED.find((c) => c.groups.every((g, i) => g === undefined || g === groups[i]))?.entry
  if (found.size >= 4096) found.clear()
  found.set(text, hit)
  return hit
}

/**
 * A decimal (`-12.345`, digits and one point) times 10^`places`, by moving its point (the `decimal`
 * converter's `shift`): exact for any number of digits. Every fraction digit is kept (`1500` kWh in MWh
 * is `1.500`); leading zeros go, one before the point stays. `undefined` for a text that is no such decimal.
 *
 * @example
 * shiftDecimal("1.2345", 3) // => "1234.5"
 * shiftDecimal("1500", -3) // => "1.500"
 * shiftDecimal("-0.0004", 3) // => "-0.4"
 * shiftDecimal("1,5", 3) // => undefined
 */
export const shiftDecimal = (text: string, places: number): string | undefined => {
  const moved = toDecimalString(text, { locale: "plain", shift: places })
  return moved.ok ? moved.value : undefined
}
