/**
 * The kit handed to the payload generators (`arbitrary.ts` in each resource's folder of src/schemas/):
 * fast-check itself and the shared value and date generators. A generator receives the kit as an argument
 * and imports fast-check and this folder by type only, so a module that holds generators (such as the
 * resource registry, which the main entry loads) never loads fast-check: only the testing entry, which
 * builds the kit, does.
 *
 * This module imports neither the endpoint catalogue nor the resource registry, not even by type: the
 * generators import its types and the registry imports the generators, so either would close a cycle.
 *
 * @module
 */
import * as fc from "fast-check"
import type { Arbitrary } from "fast-check"
import { isoDate, isoDatePair, isoDateTime, isoDateTimePair } from "./arbitrary-dates.js"
import {
  account,
  atCodePointLimit,
  cents,
  choice,
  compactObject,
  decimalString,
  documentPath,
  emailAddress,
  freeText,
  type GeneratorContext,
  type JsonObject,
  label,
  maloId,
  marketPartnerCode,
  marketPartnerCodeText,
  meloId,
  money,
  name,
  nonEmptyList,
  oneof,
  optional,
  optionalList,
  phoneNumber,
  record,
  reference,
  taxRate
} from "./arbitrary-values.js"

export type { GeneratorContext, Json, JsonObject } from "./arbitrary-values.js"

/**
 * What a payload generator receives: fast-check and the shared value and date generators (each member is
 * the function or arbitrary of arbitrary-values.ts or arbitrary-dates.ts of the same name).
 */
export interface ArbitraryKit {
  /** fast-check itself, for what the shared generators do not cover (`fc.boolean()`, `fc.constantFrom(…)`, …). */
  readonly fc: typeof fc
  /** `fc.record` for JSON: plain objects only. */
  readonly record: typeof record
  /** `fc.oneof` that shrinks across its alternatives towards the first one. */
  readonly oneof: typeof oneof
  /** An optional key: present about three times in four, else absent (removed by `compactObject`). */
  readonly optional: typeof optional
  /** An optional list: absent, or 1 to `maxItems` items (empty too when warnings are wanted). */
  readonly optionalList: typeof optionalList
  /** A list of 1 to `maxItems` items. */
  readonly nonEmptyList: typeof nonEmptyList
  /** The object without its absent keys. */
  readonly compactObject: typeof compactObject
  /** A value of an open enumeration (another code too when warnings are wanted). */
  readonly choice: typeof choice
  /** A short code or label: one of the examples, or another one. */
  readonly label: typeof label
  /** The two keys that identify the account on every post-import request. */
  readonly account: typeof account
  /** A reference of the legacy system with a prefix, e.g. `EM-2024-09-0045127`. */
  readonly reference: typeof reference
  /** A string of exactly `length` code points, some outside the BMP (a limit counted in code points, reached). */
  readonly atCodePointLimit: typeof atCodePointLimit
  /** An 11-digit MaLo id with its check digit. */
  readonly maloId: typeof maloId
  /** A MeLo id: `DE` and 31 letters or digits. */
  readonly meloId: typeof meloId
  /** A 13-digit market participant code as a JSON integer. */
  readonly marketPartnerCode: typeof marketPartnerCode
  /** A 13-digit market partner code as text. */
  readonly marketPartnerCodeText: typeof marketPartnerCodeText
  /** A decimal string of varying scale (and sign, when `signed`). */
  readonly decimalString: typeof decimalString
  /** Money in major units as a JSON number with at most two decimals. */
  readonly money: typeof money
  /** An amount in cents as a JSON integer. */
  readonly cents: typeof cents
  /** A tax rate as a decimal string. */
  readonly taxRate: typeof taxRate
  /** A person or company name. */
  readonly name: typeof name
  /** Free text as people write it; never blank. */
  readonly freeText: typeof freeText
  /** A document path below the supplier's root. */
  readonly documentPath: typeof documentPath
  /** A phone number. */
  readonly phoneNumber: typeof phoneNumber
  /** An e-mail address. */
  readonly emailAddress: typeof emailAddress
  /** A calendar date between two dates (inclusive). */
  readonly isoDate: typeof isoDate
  /** Two dates, the second not before the first. */
  readonly isoDatePair: typeof isoDatePair
  /** A zoned datetime. */
  readonly isoDateTime: typeof isoDateTime
  /** Two zoned datetimes, the second not before the first as instants. */
  readonly isoDateTimePair: typeof isoDateTimePair
}

/** The kit, built once: the testing entry hands it to every payload generator. */
export const arbitraryKit: ArbitraryKit = {
  fc,
  record,
  oneof,
  optional,
  optionalList,
  nonEmptyList,
  compactObject,
  choice,
  label,
  account,
  reference,
  atCodePointLimit,
  maloId,
  meloId,
  marketPartnerCode,
  marketPartnerCodeText,
  decimalString,
  money,
  cents,
  taxRate,
  name,
  freeText,
  documentPath,
  phoneNumber,
  emailAddress,
  isoDate,
  isoDatePair,
  isoDateTime,
  isoDateTimePair
}

/**
 * The generator of one POST endpoint's request bodies, in their JSON form: a function of the kit (so its
 * module needs fast-check by type only) and of the generator context.
 */
export type PayloadArbitrary = (kit: ArbitraryKit, ctx: GeneratorContext) => Arbitrary<JsonObject>
