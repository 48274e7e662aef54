/**
 * The seed of the reference service: tokens, import suppliers, account import processes and market
 * participants, checked by an Effect schema and reported in the API's own error shape.
 *
 * @module
 */
import { Schema } from "effect"
import {
  ExternalAccountNumber,
  ImportSupplierCode,
  IsoDate,
  IsoDateTime,
  MarketParticipantCode,
  NonBlankString
} from "../schemas/conventions.js"
import { AccountImportProcessStatus, ImportSupplierStatus } from "../schemas/import-status/import-status.js"
import { codedIssue, compareDates } from "../schemas/rules.js"
import type { ValidationResult } from "../validation/result.js"
import { runValidation } from "../validation/run-validation.js"

/**
 * A token: what follows `Authorization: Token `. Visible ASCII only (no whitespace, control or
 * non-ASCII characters): the header is unambiguous, and every client can send it.
 */
const Token = NonBlankString.check(
  Schema.isPattern(/^[\x21-\x7e]+$/u, { code: "invalid", message: "A token holds visible ASCII characters only (no whitespace, control or non-ASCII characters)." })
)

/**
 * The statement period that is open on an account: transactions outside it are moved in, or refused.
 *
 * @example
 * Schema.is(StatementPeriod)({ start: "2024-01-01", end: "2024-12-31" }) // => true
 * Schema.is(StatementPeriod)({ start: "2024-12-31", end: "2024-01-01" }) // => false
 *
 * @since 0.1.0
 */
export const StatementPeriod = Schema.Struct({ start: IsoDate, end: IsoDate }).check(
  Schema.makeFilter((p) =>
    compareDates(p.start, p.end) <= 0
      ? undefined
      : { path: ["end"], issue: codedIssue("start_date_later_than_end_date", "end must not be earlier than start.") }
  )
)
/** The statement period that is open on an account. */
export type StatementPeriod = typeof StatementPeriod.Type

/**
 * An import supplier and its status (set by the operators: through the seed, or a rehearsal control).
 *
 * @example
 * Schema.is(SeedSupplier)({ code: "STADTWERKE_NORD", status: "Ongoing" }) // => true
 * Schema.is(SeedSupplier)({ code: "STADTWERKE_NORD", status: "ONGOING" }) // => false
 *
 * @since 0.1.0
 */
export const SeedSupplier = Schema.Struct({ code: ImportSupplierCode, status: ImportSupplierStatus })
/** An import supplier of the seed. */
export type SeedSupplier = typeof SeedSupplier.Type

const PENDING = new Set<string>(["IN_PROGRESS", "UNKNOWN"])

/**
 * An account import process. `COMPLETED` means imported: it needs its `service_account_number` and
 * `account_created_at`. `IN_PROGRESS` and `UNKNOWN` are pending (staged, not imported): both are `null`
 * (or left out).
 *
 * @example
 * const staged = { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-2", status: "IN_PROGRESS" }
 * Schema.is(SeedAccount)(staged) // => true
 * Schema.is(SeedAccount)({ ...staged, status: "COMPLETED" }) // => false
 *
 * @since 0.1.0
 */
export const SeedAccount = Schema.Struct({
  import_supplier: ImportSupplierCode,
  external_account_number: ExternalAccountNumber,
  status: AccountImportProcessStatus,
  service_account_number: Schema.optionalKey(Schema.NullOr(NonBlankString)),
  account_created_at: Schema.optionalKey(Schema.NullOr(IsoDateTime)),
  open_statement_period: Schema.optionalKey(StatementPeriod)
}).check(
  Schema.makeFilter((a) => {
    const pending = PENDING.has(a.status)
    return (["service_account_number", "account_created_at"] as const).flatMap((field) => {
      const given = a[field] !== undefined && a[field] !== null
      if (pending && given) {
        return [{ path: [field], issue: codedIssue("invalid", `A pending (${a.status}) account has no ${field}: null or leave it out.`) }]
      }
      if (!pending && !given) {
        return [{ path: [field], issue: codedIssue("required", `An imported (COMPLETED) account needs its ${field}.`) }]
      }
      return []
    })
  })
)
/** An account import process of the seed. */
export type SeedAccount = typeof SeedAccount.Type

/** A `duplicate` issue at each item whose key an earlier item already had (at `field` of it, if given). */
const duplicates = <A>(items: ReadonlyArray<A>, key: (a: A) => string, field: string | undefined, what: string) => {
  const seen = new Set<string>()
  return items.flatMap((item, index) => {
    const k = key(item)
    const repeated = seen.has(k)
    seen.add(k)
    return repeated ? [{ path: field === undefined ? [index] : [index, field], issue: codedIssue("duplicate", `${what} occurs more than once.`) }] : []
  })
}

/**
 * The seed of `data-import serve`: who may call (tokens, and API keys that obtain tokens), which import suppliers and account import
 * processes exist, and which market participants are already known.
 *
 * @example
 * const seed: Seed = {
 *   tokens: ["rehearsal-token"],
 *   suppliers: [{ code: "STADTWERKE_NORD", status: "Ongoing" }],
 *   accounts: [{ import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", status: "COMPLETED",
 *                service_account_number: "A-1B2C3D4E", account_created_at: "2024-01-02T10:00:00Z" }],
 *   market_participants: [9900000000003]
 * }
 * decodeSeed(seed).ok // => true
 *
 * @since 0.1.0
 */
export const Seed = Schema.Struct({
  tokens: Schema.Array(Token).check(Schema.isMinLength(1, { code: "empty", message: "At least one token is needed." })),
  /** Organisation API keys: `obtainKrakenToken` issues tokens for them (served by the HTTP server, not the model). */
  api_keys: Schema.optionalKey(Schema.Array(Token).check(Schema.makeFilter((list) => duplicates(list, String, undefined, "This API key")))),
  suppliers: Schema.Array(SeedSupplier).check(
    Schema.makeFilter((list) => duplicates(list, (s) => s.code, "code", "This supplier code"))
  ),
  accounts: Schema.Array(SeedAccount).check(
    Schema.makeFilter((list) =>
      duplicates(list, (a) => JSON.stringify([a.import_supplier, a.external_account_number]), "external_account_number", "This account (supplier and external account number)")
    )
  ),
  market_participants: Schema.optionalKey(Schema.Array(MarketParticipantCode).check(
    Schema.makeFilter((list) => duplicates(list, String, undefined, "This market participant code"))
  ))
}).check(
  Schema.makeFilter((seed) => {
    const suppliers = new Set(seed.suppliers.map((s) => s.code))
    return seed.accounts.flatMap((a, index) =>
      suppliers.has(a.import_supplier)
        ? []
        : [{ path: ["accounts", index, "import_supplier"], issue: codedIssue("invalid", `No supplier ${a.import_supplier} in suppliers.`) }]
    )
  })
)
/** The seed of `data-import serve`. */
export type Seed = typeof Seed.Type

/**
 * Checks a seed (parsed JSON). A bad seed gives the API's error shape: every problem with its `attr`.
 *
 * @example
 * const result = decodeSeed({ ...JSON.parse(text), tokens: [] })
 * if (!result.ok) for (const e of result.error.errors) console.log(`${e.attr}: ${e.detail}`)
 * // tokens: At least one token is needed.
 *
 * @since 0.1.0
 */
export const decodeSeed = (input: unknown): ValidationResult<Seed> =>
  runValidation<Seed>(Seed, input, { rootMustBeObject: true })
