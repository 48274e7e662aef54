/**
 * The unit of each quantity, from the measurement and never guessed: the reader file's `units` option. A
 * record gets the cells `@unit` (the unit the sender gave, kept; else the one its OBIS code implies, from
 * {@link OBIS_UNITS}), `@quantity` (the quantity, converted by an exact decimal shift only where `convert`
 * asks) and `@measure` (what it measures: `active energy`, `reactive energy`, …), or becomes a located
 * reject:
 *
 * - `unknown_obis`: no unit given, and the product is no OBIS code the table knows (the code is named);
 * - `unknown_unit`: a unit given that the table does not know (`kWh` is no EDIFACT code);
 * - `unit_contradicts_obis`: a unit given whose dimension is not what the OBIS code measures (`KWH` on a
 *   reactive OBIS code). Rejected, not warned: which of the two is wrong is not known, and either choice
 *   would send a quantity labelled with what it is not;
 * - `measure_not_accepted`: a measure outside `accept`, with why (`a maximum is not an energy amount`);
 * - `no_unit`: an accepted measure whose OBIS code has no unit code in the table (a calorific value), and
 *   none given;
 * - `unconvertible_quantity`: a quantity to convert that is no decimal.
 *
 * A product that is no OBIS code (`AUA`, a redispatch Medium code) with a unit given is measured by its
 * unit (`KWH`: active energy).
 *
 * @module
 */
import type { LegacyRecord } from "../../mappers/field-source.js"
import type { LookupItem } from "../lookup/accounts.js"
import { MEASURES, type MeasureName, obisGroups, obisUnit, shiftDecimal, UNIT_CODES } from "./obis-units.js"

/** The reader file's `units`: which cells hold the OBIS code, the unit given and the quantity; what is taken; what is converted. */
export interface QuantityUnits {
  /** The cell of the product's OBIS code: `PIA+5.2.1`. */
  readonly obis: string
  /** The cell of the unit the sender gave, when there is one: `QTY.1.3`. */
  readonly unit?: string
  /** The cell of the quantity: `QTY.1.2`. */
  readonly quantity: string
  /** The measures taken (see {@link MEASURES}): `["active energy", "reactive energy"]`. */
  readonly accept: ReadonlyArray<MeasureName>
  /** Units converted, from → to, both of one dimension: `{ "MWH": "KWH" }`. */
  readonly convert?: Readonly<Record<string, string>>
}

/** The cells a record gets. */
export const UNIT_CELLS = { unit: "@unit", quantity: "@quantity", measure: "@measure" } as const

/**
 * The cells the unit pass reads, which the reader must give (with the mapping's columns).
 *
 * @example
 * unitColumns({ obis: "PIA+5.2.1", unit: "QTY.1.3", quantity: "QTY.1.2", accept: ["active energy"] }) // => ["PIA+5.2.1", "QTY.1.2", "QTY.1.3"]
 */
export const unitColumns = (options: QuantityUnits): Array<string> => [options.obis, options.quantity, ...(options.unit !== undefined ? [options.unit] : [])]

const KEYS = ["obis", "unit", "quantity", "accept", "convert"]
const isCell = (v: unknown): v is string => typeof v === "string" && v.trim() !== ""

/**
 * The problems of a reader file's `units`, one a line (none for a usable one).
 *
 * @example
 * quantityUnitsProblems({ obis: "PIA+5.2.1", quantity: "QTY.1.2", accept: ["active energy"] }) // => []
 * quantityUnitsProblems({ obis: "PIA+5.2.1", quantity: "QTY.1.2", accept: ["energy"], convert: { MWH: "KWT" } })
 * // => ["units.accept: \"energy\" is not a measure (active energy, active energy reading, reactive energy, …)", "units.convert: MWH (energy) cannot become KWT (power)"]
 */
export const quantityUnitsProblems = (spec: unknown): Array<string> => {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec)) return ["units: { obis, unit?, quantity, accept, convert? }"]
  const units = spec as Record<string, unknown>
  const measures = Object.keys(MEASURES)
  const problems = Object.keys(units).filter((k) => !KEYS.includes(k)).map((k) => `units: unknown key ${JSON.stringify(k)} (known: ${KEYS.join(", ")})`)
  if (!isCell(units["obis"])) problems.push("units.obis: the cell of the OBIS code (PIA+5.2.1)")
  if (units["unit"] !== undefined && !isCell(units["unit"])) problems.push("units.unit: the cell of the unit given (QTY.1.3)")
  if (!isCell(units["quantity"])) problems.push("units.quantity: the cell of the quantity (QTY.1.2)")
  const accept = units["accept"]
  if (!Array.isArray(accept) || accept.length === 0) problems.push(`units.accept: the measures taken, a list of ${measures.join(", ")}`)
  else for (const m of accept) if (typeof m !== "string" || !measures.includes(m)) problems.push(`units.accept: ${JSON.stringify(m)} is not a measure (${measures.slice(0, 3).join(", ")}, …)`)
  const convert = units["convert"]
  if (convert !== undefined) {
    if (typeof convert !== "object" || convert === null || Array.isArray(convert)) problems.push("units.convert: { FROM: TO } unit codes ({ \"MWH\": \"KWH\" })")
    else {
      for (const [from, to] of Object.entries(convert)) {
        const a = UNIT_CODES[from]
        const b = typeof to === "string" ? UNIT_CODES[to] : undefined
        if (a === undefined || b === undefined) problems.push(`units.convert: ${from} → ${String(to)}: unit codes of the table (${Object.keys(UNIT_CODES).join(", ")})`)
        else if (a.dimension !== b.dimension) problems.push(`units.convert: ${from} (${a.dimension}) cannot become ${String(to)} (${b.dimension})`)
      }
    }
  }
  return problems
}

type Verdict = { readonly ok: true; readonly unit: string; readonly quantity: string | undefined; readonly measure: MeasureName } | { readonly ok: false; readonly code: string; readonly detail: string }

const text = (record: LegacyRecord, cell: string | undefined): string => {
  if (cell === undefined) return ""
  const v = record[cell]
  return v === undefined || v === null ? "" : String(v).trim()
}

/**
 * The unit, quantity and measure of one record, or why it has none that can be sent.
 *
 * @example
 * const options = { obis: "PIA+5.2.1", unit: "QTY.1.3", quantity: "QTY.1.2", accept: ["active energy", "reactive energy"] as const, convert: { MWH: "KWH" } }
 * quantityUnitOf({ "PIA+5.2.1": "1-1:4.29.0", "QTY.1.2": "2.5" }, options) // => { ok: true, unit: "K3", quantity: "2.5", measure: "reactive energy" }
 * quantityUnitOf({ "PIA+5.2.1": "1-1:1.29.0", "QTY.1.2": "0.0125", "QTY.1.3": "MWH" }, options) // => { ok: true, unit: "KWH", quantity: "12.5", measure: "active energy" }
 * quantityUnitOf({ "PIA+5.2.1": "1-1:1.6.0", "QTY.1.2": "7" }, options) // => { ok: false, code: "measure_not_accepted", … }
 */
export const quantityUnitOf = (record: LegacyRecord, options: QuantityUnits): Verdict => {
  const obis = text(record, options.obis)
  const given = text(record, options.unit)
  const line = obis === "" ? undefined : obisUnit(obis)
  // How details name the product: made only for a detail, as nearly every quantity has none.
  const named = (): string => (obis === "" ? `the product (${options.obis} is empty)` : `the ${obisGroups(obis) !== undefined ? "OBIS code" : "product"} ${JSON.stringify(obis)}`)
  let unit: string
  let measure: MeasureName
  if (given !== "") {
    const code = UNIT_CODES[given]
    if (code === undefined) {
      return { ok: false, code: "unknown_unit", detail: `the unit ${JSON.stringify(given)} (${options.unit}) of ${named()} is not a unit code the table knows (${Object.keys(UNIT_CODES).join(", ")})` }
    }
    if (line !== undefined && MEASURES[line.measure].dimension !== code.dimension) {
      const detail = `the unit ${JSON.stringify(given)} (${options.unit}, ${code.name}: ${code.dimension}) contradicts ${named()}, which measures ${line.what} (${MEASURES[line.measure].dimension}${line.unit !== undefined ? `, in ${line.unit}` : ""}); which of the two is wrong is not known`
      return { ok: false, code: "unit_contradicts_obis", detail }
    }
    unit = given
    measure = line?.measure ?? code.measure
  } else {
    if (line === undefined) {
      const what = obis === "" ? `${options.obis} is empty` : `${named()} (${options.obis}) is not in the OBIS unit table`
      return { ok: false, code: "unknown_obis", detail: `${what}, and ${options.unit ?? "the record"} gives no unit: its unit is not known` }
    }
    measure = line.measure
    if (line.unit === undefined) {
      if (options.accept.includes(measure)) return { ok: false, code: "no_unit", detail: `${named()} measures ${line.what}, for which the table has no unit code, and ${options.unit ?? "the record"} gives none` }
      unit = ""
    } else unit = line.unit
  }
  if (!options.accept.includes(measure)) {
    const what = line !== undefined ? `${line.what}${line.unit !== undefined ? `, in ${line.unit}` : ""}` : `by its unit ${unit}`
    const why = (MEASURES[measure] as { readonly notAnAmount?: string }).notAnAmount ?? `${measure} is not among the measures taken`
    return { ok: false, code: "measure_not_accepted", detail: `${named()} measures ${measure} (${what}): ${why} (this reader takes ${options.accept.join(", ")})` }
  }
  const quantity = text(record, options.quantity)
  const to = options.convert?.[unit]
  if (to === undefined || quantity === "") return { ok: true, unit, quantity: quantity === "" ? undefined : quantity, measure }
  const shifted = shiftDecimal(quantity, UNIT_CODES[unit]!.exponent - UNIT_CODES[to]!.exponent)
  if (shifted === undefined) return { ok: false, code: "unconvertible_quantity", detail: `the quantity ${JSON.stringify(quantity)} (${options.quantity}) in ${unit} is no decimal, so it cannot be converted to ${to}` }
  return { ok: true, unit: to, quantity: shifted, measure }
}

/**
 * The unit pass of a reader, one item at a time: a record gets `@unit`, `@quantity` and `@measure` (in the
 * record itself with `inPlace`, else in a copy), or becomes a reject with the record's location; other
 * items pass as they are.
 *
 * @example
 * const find = quantityUnitFinder<number>({ obis: "PIA+5.2.1", quantity: "QTY.1.2", accept: ["active energy"] })
 * find({ kind: "record", record: { "PIA+5.2.1": "1-1:1.29.0", "QTY.1.2": "4.5" }, at: 9, raw: "QTY+220:4.5'" })
 * // => { kind: "record", record: { "PIA+5.2.1": "1-1:1.29.0", "QTY.1.2": "4.5", "@unit": "KWH", "@quantity": "4.5", "@measure": "active energy" }, at: 9, raw: "QTY+220:4.5'" }
 * find({ kind: "record", record: { "PIA+5.2.1": "1-1:1.6.0", "QTY.1.2": "7" }, at: 12, raw: "QTY+220:7'" })
 * // => { kind: "reject", code: "measure_not_accepted", detail: "the OBIS code \"1-1:1.6.0\" measures active power maximum (active power import (+), maximum, in KWT): a maximum is not an energy amount (this reader takes active energy)", at: 12, raw: "QTY+220:7'" }
 */
export const quantityUnitFinder = <At, Other extends { readonly kind: string } = never>(
  options: QuantityUnits,
  { inPlace = false }: { readonly inPlace?: boolean } = {}
): (item: LookupItem<At, Other>) => LookupItem<At, Other> => (any) => {
  if (any.kind !== "record") return any
  const item = any as Extract<LookupItem<At>, { readonly kind: "record" }>
  const verdict = quantityUnitOf(item.record, options)
  if (!verdict.ok) return { kind: "reject", code: verdict.code, detail: verdict.detail, at: item.at, raw: item.raw }
  const cells: Record<string, string> = { [UNIT_CELLS.unit]: verdict.unit, [UNIT_CELLS.measure]: verdict.measure }
  if (verdict.quantity !== undefined) cells[UNIT_CELLS.quantity] = verdict.quantity
  if (!inPlace) return { ...item, record: { ...item.record, ...cells } }
  Object.assign(item.record as Record<string, unknown>, cells)
  return item
}

/**
 * {@link quantityUnitFinder} over a reader's items: each record with its unit, quantity and measure, or a reject.
 *
 * @example
 * const items = [{ kind: "record" as const, record: { "PIA+5.2.1": "1-1:3.29.0", "QTY.1.2": "0.5" }, at: 9, raw: "QTY+220:0.5'" }]
 * const out: Array<unknown> = []
 * for await (const item of withQuantityUnits(items, { obis: "PIA+5.2.1", quantity: "QTY.1.2", accept: ["reactive energy"] })) out.push(item)
 * out // => [{ kind: "record", record: { "PIA+5.2.1": "1-1:3.29.0", "QTY.1.2": "0.5", "@unit": "K3", "@quantity": "0.5", "@measure": "reactive energy" }, at: 9, raw: "QTY+220:0.5'" }]
 */
export async function* withQuantityUnits<At, Other extends { readonly kind: string } = never>(
  items: AsyncIterable<LookupItem<At, Other>> | Iterable<LookupItem<At, Other>>,
  options: QuantityUnits
): AsyncGenerator<LookupItem<At, Other>> {
  const find = quantityUnitFinder<At, Other>(options)
  for await (const item of items) yield find(item)
}
