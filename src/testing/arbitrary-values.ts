/**
 * Realistic generators of the contract's values: MaLo ids with their check digit, 13-digit market partner
 * codes, decimal strings of varying scale and sign, document paths, phone numbers, free text (dates and
 * datetimes: arbitrary-dates.ts). Each one only produces values the contract accepts, and shrinks towards
 * a short, plain value.
 *
 * @module
 */
import { SchemaAST, type Schema } from "effect"
import * as fc from "fast-check"
import { KNOWN_VALUES } from "../schemas/conventions.js"

/**
 * A JSON value, as a payload holds it.
 *
 * @example
 * const value: Json = { notes: [{ body: "Hi", is_pinned: true }] }
 * validatePayload("notes", { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", ...value }).ok // => true
 *
 * @since 0.1.0
 */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }
/**
 * A JSON object.
 *
 * @example
 * const payload: JsonObject = { import_supplier: "STADTWERKE_NORD" }
 * Object.keys(payload) // => ["import_supplier"]
 *
 * @since 0.1.0
 */
export type JsonObject = { readonly [key: string]: Json }

/** What the generators of one payload share: the list size limit, the clock and whether warnings are wanted. */
export interface GeneratorContext {
  /** The largest number of items of a generated list. */
  readonly maxItems: number
  /** Also generate data that is valid but draws warnings (unknown choices, empty optional lists, …). */
  readonly withWarnings: boolean
  /** The last day (UTC, `YYYY-MM-DD`) a transaction may be dated. */
  readonly today: string
}

const DIGIT = fc.constantFrom(..."0123456789")
const UPPER_ALNUM = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

/** `fc.record` for JSON: plain objects only (fast-check may otherwise create null-prototype objects). */
export const record = <T>(model: { readonly [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<T> =>
  fc.record(model as { [K in keyof T]: fc.Arbitrary<T[K]> }, { noNullPrototype: true })

/**
 * `fc.oneof` whose alternatives are listed simplest first: a counterexample shrinks across them towards
 * the first one (a note with a body only, an unpinned note, a CHARGE), not only within the one drawn.
 */
export const oneof = <Ts extends Array<fc.MaybeWeightedArbitrary<unknown>>>(...arbitraries: Ts): fc.Arbitrary<fc.OneOfValue<Ts>> =>
  fc.oneof({ withCrossShrink: true }, ...arbitraries)

/** `n` decimal digits as a string. */
export const digits = (n: number): fc.Arbitrary<string> => fc.string({ unit: DIGIT, minLength: n, maxLength: n })

/**
 * A value that is left out of the object it belongs to (an optional key that is absent). Optional keys are
 * generated with {@link optional} and removed by {@link compactObject}, so a shrunk payload loses them first.
 */
const ABSENT: unique symbol = Symbol("absent")
type Absent = typeof ABSENT

/** An optional key: present (with a value of `arb`) about three times in four, else absent. */
export const optional = <A>(arb: fc.Arbitrary<A>): fc.Arbitrary<A | Absent> => fc.option(arb, { nil: ABSENT, freq: 4 })

/** The object without its absent keys, in the order written (schema order, as the API documents it). */
export const compactObject = (fields: Readonly<Record<string, Json | Absent | undefined>>): JsonObject => {
  const out: Record<string, Json> = {}
  for (const [key, value] of Object.entries(fields)) if (value !== ABSENT && value !== undefined) out[key] = value
  return out
}

/** A list of 1 to `maxItems` items. */
export const nonEmptyList = <A>(item: fc.Arbitrary<A>, ctx: GeneratorContext): fc.Arbitrary<Array<A>> =>
  fc.array(item, { minLength: 1, maxLength: Math.max(1, ctx.maxItems) })

/**
 * An optional list: absent, or 1 to `maxItems` items. Empty only when warnings are wanted, because the
 * convention is to omit an empty optional list (`empty_optional`).
 */
export const optionalList = <A>(item: fc.Arbitrary<A>, ctx: GeneratorContext): fc.Arbitrary<Array<A> | Absent> =>
  optional(ctx.withWarnings ? fc.array(item, { maxLength: Math.max(1, ctx.maxItems) }) : nonEmptyList(item, ctx))

// ---------------------------------------------------------------------------------------------------------
// Identifiers

/** The MaLo check digit: odd positions once, even positions twice, then the step to the next ten. */
export const maloCheckDigit = (first10: string): number => {
  let sum = 0
  for (let i = 0; i < 10; i++) sum += Number(first10[i]) * (i % 2 === 0 ? 1 : 2)
  return (10 - (sum % 10)) % 10
}

/** An 11-digit MaLo id (Marktlokations-ID) with a valid check digit, e.g. `51238696781`. */
export const maloId: fc.Arbitrary<string> = fc.tuple(fc.constantFrom(..."123456789"), digits(9))
  .map(([first, rest]) => `${first}${rest}${maloCheckDigit(first + rest)}`)

/** A MeLo id (Messlokations-ID): `DE` and 31 letters or digits. */
export const meloId: fc.Arbitrary<string> = fc.tuple(digits(11), fc.string({ unit: UPPER_ALNUM, minLength: 20, maxLength: 20 }))
  .map(([number, rest]) => `DE${number}${rest}`)

/** The GS1 check digit of the first 12 digits of a 13-digit code. */
const gs1CheckDigit = (first12: string): number => {
  let sum = 0
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3)
  return (10 - (sum % 10)) % 10
}

/** A 13-digit market partner code as text: BDEW (`99…`), DVGW (`98…`) or GLN (`40…`–`43…`) with check digit. */
export const marketPartnerCodeText: fc.Arbitrary<string> = fc.tuple(fc.constantFrom("99", "98", "40", "42", "43"), digits(10))
  .map(([prefix, rest]) => `${prefix}${rest}${gs1CheckDigit(prefix + rest)}`)

/** A 13-digit market participant code as a JSON integer. */
export const marketPartnerCode: fc.Arbitrary<number> = marketPartnerCodeText.map(Number)

/** Characters of a string at its limit: ASCII, umlauts, and two outside the BMP (two UTF-16 units each). */
const LIMIT_UNITS = fc.constantFrom("A", "K", "Z", "0", "7", "_", "-", "Ö", "ß", "😀", "𝔸")

/**
 * A string of exactly `length` code points, at least one of them outside the BMP: the contract's limits
 * count code points (as JSON Schema's `maxLength` does), so it is valid, while a limit counted in UTF-16
 * units (JavaScript's `length`, Java's and C#'s string lengths) would refuse it.
 */
export const atCodePointLimit = (length: number): fc.Arbitrary<string> =>
  fc.tuple(fc.array(LIMIT_UNITS, { minLength: length - 1, maxLength: length - 1 }), fc.nat(length - 1))
    .map(([units, at]) => [...units.slice(0, at), "😀", ...units.slice(at)].join(""))

/** An import supplier code: realistic ones, and generated ones up to and at the 32-character limit. */
export const importSupplierCode: fc.Arbitrary<string> = oneof(
  { weight: 6, arbitrary: fc.constantFrom("STADTWERKE_NORD", "TENTACLE_ENERGY", "NETZ_SUED", "EVU_MUSTERSTADT", "Ökostrom_Süd") },
  { weight: 2, arbitrary: fc.stringMatching(/^[A-Z][A-Z0-9_]{1,31}$/u) },
  { weight: 1, arbitrary: atCodePointLimit(32) }
)

/** An account number of the legacy system: customer numbers, slashes and dots, up to and at the 128-character limit. */
export const externalAccountNumber: fc.Arbitrary<string> = oneof(
  { weight: 6, arbitrary: digits(7).map((d) => `KD-${d}`) },
  { weight: 4, arbitrary: fc.tuple(fc.integer({ min: 2010, max: 2024 }), digits(5)).map(([y, d]) => `A/${y}/${d}`) },
  { weight: 2, arbitrary: digits(10) },
  { weight: 2, arbitrary: fc.string({ unit: UPPER_ALNUM, minLength: 1, maxLength: 128 }) },
  { weight: 1, arbitrary: atCodePointLimit(128) }
)

/** A reference of the legacy system, e.g. `EM-2024-09-0045127`. */
export const reference = (prefix: string): fc.Arbitrary<string> =>
  fc.tuple(fc.integer({ min: 2015, max: 2030 }), fc.integer({ min: 1, max: 12 }), digits(7))
    .map(([y, m, d]) => `${prefix}-${y}-${String(m).padStart(2, "0")}-${d}`)

// ---------------------------------------------------------------------------------------------------------
// Text

/**
 * Words of free text, some with what legacy exports carry and text handling gets wrong: a Windows path
 * (backslashes, which JSON escapes), a decomposed umlaut (`u` and U+0308, as macOS file names and some
 * exports write it; not equal to its NFC form), and the line separators JSON leaves unescaped: U+2028
 * (text pasted from office documents) and U+0085 NEL (data converted from EBCDIC), where a reader that
 * splits NDJSON with Python's `splitlines()` or a Unicode-aware line reader cuts the record.
 */
const WORDS = [
  "Kunde", "hat", "angerufen", "Zählerstand", "nachgereicht", "Abschlag", "angepasst", "Rückruf", "erbeten",
  "customer", "called", "about", "the", "final", "bill", "meter", "reading", "Straße", "Größe", "Übergabe",
  "déjà", "vu", "🙂", "⚡", "12,50 €", "#4711", "(Umzug)", "O'Brien", "\"Tarif\"",
  "C:\\Kunden\\Akte", "Mu\u0308ller", "Zeile\u2028zwei", "Ende\u0085"
]

/**
 * Free text as people write it: several words, umlauts, an emoji, sometimes a line break, a backslash or
 * a line separator that JSON does not escape. Never blank.
 */
export const freeText: fc.Arbitrary<string> = fc.tuple(
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }),
  fc.constantFrom(" ", " ", " ", "\n", "\r\n")
).map(([words, separator]) => words.join(" ").replace(/ (?=\S+$)/u, separator))

/** A short code or label, as the open string fields of the contract hold them (`Z18`, `1-1:1.8.0`, …). */
export const label = (...examples: ReadonlyArray<string>): fc.Arbitrary<string> =>
  oneof({ weight: 3, arbitrary: fc.constantFrom(...examples) }, { weight: 1, arbitrary: fc.stringMatching(/^[A-Z][A-Z0-9_-]{0,11}$/u) })

/** A person or company name. */
export const name: fc.Arbitrary<string> = fc.constantFrom(
  "Stadtwerke Nord Netz GmbH", "Netzgesellschaft Süd mbH & Co. KG", "Anna Müller", "Jürgen O'Neill", "Zoë Šimková", "Energieversorgung Musterstadt AG"
)

/** The known values of an open enumeration (its `KNOWN_VALUES` annotation). */
export const knownValuesOf = (schema: Schema.Top): ReadonlyArray<string> => {
  const known = SchemaAST.resolve(schema.ast)?.[KNOWN_VALUES]
  if (!Array.isArray(known) || known.length === 0) throw new Error("The schema is not an open enumeration with known values.")
  return known as ReadonlyArray<string>
}

/**
 * A value of an open enumeration: one the spec lists, or (only when warnings are wanted) another code,
 * which the contract accepts with the warning `unknown_choice`.
 */
export const choice = (schema: Schema.Top, ctx: GeneratorContext): fc.Arbitrary<string> => {
  const known = fc.constantFrom(...knownValuesOf(schema))
  return ctx.withWarnings
    ? oneof({ weight: 3, arbitrary: known }, { weight: 1, arbitrary: fc.constantFrom("OTHER", "kWh", "Z99", "UNBEKANNT") })
    : known
}

// ---------------------------------------------------------------------------------------------------------
// Numbers

/** Money in major units as a JSON number with at most two decimals (`86`, `-12.5`, `1204.37`). */
export const money = (options: { readonly min?: number; readonly max?: number } = {}): fc.Arbitrary<number> =>
  fc.integer({ min: Math.round((options.min ?? -250_000) * 100), max: Math.round((options.max ?? 250_000) * 100) })
    .map((cents) => cents / 100)

/** An amount in cents as a JSON integer. */
export const cents = (options: { readonly min?: number; readonly max?: number } = {}): fc.Arbitrary<number> =>
  fc.integer({ min: options.min ?? -5_000_000, max: options.max ?? 50_000_000 })

/**
 * The fraction digits of a decimal string: up to `maxScale` of them, and now and then (where there is a
 * fraction at all) 18 to 24, ending in a non-zero digit: more than a double keeps, so a tool that passes
 * the value through a JSON number (`parseFloat`, `Number`) changes it, which the contract's decimal strings
 * exist to prevent. The contract sets no limit on digits.
 */
const fractionDigits = (maxScale: number): fc.Arbitrary<string> =>
  maxScale === 0
    ? fc.constant("")
    : oneof(
      { weight: 19, arbitrary: fc.string({ unit: DIGIT, maxLength: maxScale }) },
      { weight: 1, arbitrary: fc.tuple(fc.string({ unit: DIGIT, minLength: 17, maxLength: 23 }), fc.constantFrom(..."123456789")).map(([d, last]) => d + last) }
    )

/**
 * A decimal string: an optional `-`, digits, optionally a `.` and digits. Its scale varies from none to
 * `maxScale` (trailing zeros kept, as in `"19.00"`), rarely far beyond it (more digits than a double
 * keeps), and its sign varies when `signed`.
 */
export const decimalString = (
  options: { readonly maxIntegerDigits?: number; readonly maxScale?: number; readonly signed?: boolean } = {}
): fc.Arbitrary<string> =>
  fc.tuple(
    options.signed === true ? fc.boolean() : fc.constant(false),
    fc.bigInt({ min: 0n, max: 10n ** BigInt(options.maxIntegerDigits ?? 7) - 1n }),
    fractionDigits(options.maxScale ?? 6)
  ).map(([negative, integer, fraction]) => {
    const isZero = integer === 0n && !/[1-9]/u.test(fraction)
    return `${negative && !isZero ? "-" : ""}${integer}${fraction === "" ? "" : `.${fraction}`}`
  })

/** A tax rate as a decimal string, as invoices write them. */
export const taxRate: fc.Arbitrary<string> = fc.constantFrom("19", "19.00", "7", "7.0", "0", "16.00", "5")

// ---------------------------------------------------------------------------------------------------------
// Paths, phone numbers, e-mail addresses

const FOLDERS = ["notes", "statements", "2024", "2023-12", "KD-0045127", "Schriftverkehr", "Zählerfotos", "archive v2", "Akte 2024:03"]
const FILES = ["letter.pdf", "Rechnung 2023-12.pdf", "scan 10:42.png", "Kündigung (final).pdf", "v1.2.pdf", "übersicht.PDF", "photo.jpeg"]

/** A document path below the supplier's root: folders and a file name, with spaces, umlauts, dots and colons. */
export const documentPath: fc.Arbitrary<string> = fc.tuple(
  fc.array(fc.constantFrom(...FOLDERS), { maxLength: 3 }),
  fc.constantFrom(...FILES)
).map(([folders, file]) => [...folders, file].join("/"))

/** A phone number of 8 to 15 digits (the `(0)` counted): `+`, country code, area code and number. */
const longerPhoneNumber: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom("49", "43", "41", "31"),
  fc.integer({ min: 2, max: 4 }).chain((n) => digits(n).map((d) => `${1 + (Number(d) % 9)}${d.slice(1)}`)),
  fc.integer({ min: 4, max: 8 }).chain(digits),
  fc.constantFrom(" ", "-", "", " (0)")
).map(([country, area, number, style]) =>
  style === " (0)" ? `+${country} (0)${area} ${number}` : `+${country}${style === "" ? "" : " "}${area}${style}${number}`
)

/**
 * A phone number: `+`, country code, area code and number, written with spaces, dashes or parentheses,
 * and now and then one of the shortest numbers there are: 7 digits, the contract's lower limit (Niue and
 * Tokelau: a 3-digit country code and 4 digits).
 */
export const phoneNumber: fc.Arbitrary<string> = oneof(
  { weight: 19, arbitrary: longerPhoneNumber },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("683", "690"), digits(4)).map(([country, number]) => `+${country} ${number}`) }
)

/**
 * An e-mail address, some with what the contract accepts (RFC 6531/6532) and strict ASCII checks refuse:
 * non-ASCII local parts and domains (`zoë@`, `@bücher-süd.example`), an apostrophe (`o'neill@`).
 */
export const emailAddress: fc.Arbitrary<string> = fc.tuple(
  fc.constantFrom("info", "netzabrechnung", "m.mueller", "kundenservice+import", "zoë", "o'neill"),
  fc.constantFrom("stadtwerke-nord.de", "netz-sued.example", "evu.musterstadt.de", "bücher-süd.example")
).map(([local, domain]) => `${local}@${domain}`)

/** The two keys that identify the account on every post-import request. */
export const account = { import_supplier: importSupplierCode, external_account_number: externalAccountNumber }
