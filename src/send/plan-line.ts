/**
 * What a run does with one line of its input: each record of the line is judged against the ledger
 * (settled before, a repeat in this run, a conflict, kept in doubt) and, for the rest, validated; the
 * valid ones become one request of just those records.
 *
 * @module
 */
import { type EndpointId, isPostEndpointId, type PostEndpointId } from "../schemas/endpoints/endpoint-id.js"
import { inferEndpoint } from "../schemas/endpoints/infer-endpoint.js"
import { bodyWith, type KeyedRecord, naturalKeyOf, recordsOf } from "../schemas/endpoints/natural-key.js"
import { isRepeatHarmless } from "../client/repeat-is-harmless.js"
import type { ApiError } from "../schemas/errors.js"
import { compileValidator, type PayloadValidator } from "../validation/compile-validator.js"
import { withExactNumbers } from "../validation/inexact-numbers.js"
import { type LedgerRecord, STORED_OUTCOMES } from "../ledger/ledger-types.js"
import { reopenedBy } from "./option-decisions.js"

/**
 * What became of one record read in a run, before any answer:
 * - `send`: handed to the senders (its outcome comes from the answer);
 * - `settled_before`: stored by an earlier run (or an earlier line of this one) with the same content;
 * - `rejected_before`: refused by the service for this very content earlier: not sent again unchanged;
 * - `duplicate`: the same record with the same content, already read in this run;
 * - `conflict`: the same record with other content than the version stored (or in doubt): never sent;
 * - `kept_in_doubt`: maybe stored by an earlier run, and a repeat is not harmless: not sent;
 * - `invalid`: refused here (not JSON, no endpoint, not valid).
 *
 * @since 0.1.0
 */
export type Disposition = "send" | "settled_before" | "rejected_before" | "duplicate" | "conflict" | "kept_in_doubt" | "invalid"

/** One record of a line and its disposition. */
export interface JudgedRecord {
  readonly record: KeyedRecord
  readonly disposition: Disposition
  /** For `invalid`: the errors that concern it. */
  readonly errors?: ReadonlyArray<ApiError>
  /** The warnings that concern it (`validatePayload`'s, located by `attr`). */
  readonly warnings?: ReadonlyArray<ApiError>
}

/** A request to send: the body of the records to send, and those records, in the body's order. */
export interface PlannedRequest {
  readonly endpoint: PostEndpointId
  readonly body: unknown
  readonly records: ReadonlyArray<KeyedRecord>
}

/** The plan of one line. */
export type LinePlan =
  | { readonly kind: "unidentified"; readonly endpoint: string | null; readonly detail: string; readonly errors: ReadonlyArray<ApiError> }
  | { readonly kind: "records"; readonly endpoint: PostEndpointId; readonly judged: ReadonlyArray<JudgedRecord>; readonly request?: PlannedRequest }

/** What a plan reads: the ledger's record of an identity, and the run's memory of identities read so far. */
export interface PlanContext {
  readonly known: (identity: string) => LedgerRecord | undefined
  /**
   * Moves a record the ledger holds under its former identity to its identity now (`Ledger.rekey`). Absent
   * (a dry run, which writes nothing), such a record keeps its former identity for the run.
   */
  readonly rekey?: ((from: string, to: string, key: string) => void) | undefined
  /** Content read for an identity earlier in this run; the planner adds to it. */
  readonly seen: Map<string, string>
  /**
   * The identities whose version in `seen` this run did not send (invalid, refused before, a conflict, kept
   * in doubt); the planner adds to it. Another version after such a one is judged on its own.
   */
  readonly notSent?: Set<string> | undefined
  readonly endpoint?: PostEndpointId | undefined
  readonly resendInDoubt: boolean
  readonly query: Readonly<Record<string, boolean>>
  readonly now?: (() => Date) | undefined
  /** A record with warnings is invalid (not sent), its warnings its errors. */
  readonly failOnWarnings?: boolean | undefined
  /** Errors beyond validation (missing documents), by attr: they make their records invalid. */
  readonly checkDocuments?: ((endpoint: PostEndpointId, body: unknown) => ReadonlyArray<ApiError>) | undefined
}

const validators = new Map<EndpointId, PayloadValidator<EndpointId>>()
const validatorOf = (id: EndpointId): PayloadValidator<EndpointId> => {
  let validator = validators.get(id)
  if (validator === undefined) {
    // Every body comes straight from JSON.parse: no getters or prototypes to look for.
    validator = compileValidator(id, { input: "json" })
    validators.set(id, validator)
  }
  return validator
}

const unidentified = (endpoint: string | null, code: string, detail: string, errors?: ReadonlyArray<ApiError>): LinePlan => ({
  kind: "unidentified",
  endpoint,
  detail,
  errors: errors ?? [{ detail, code, attr: "non_field_errors" }]
})

/** Which record an error is about: the index of `items.N…` in its `attr`, or `undefined` for the whole body. */
const indexOfError = (items: string | undefined, attr: string): number | undefined => {
  if (items === undefined || !attr.startsWith(`${items}.`)) return undefined
  const index = Number.parseInt(attr.slice(items.length + 1), 10)
  return Number.isNaN(index) ? undefined : index
}

/** Errors or warnings by the record they are about (`null`: the body as a whole). */
const byRecord = (items: string | undefined, list: ReadonlyArray<ApiError>): Map<number | null, Array<ApiError>> => {
  const out = new Map<number | null, Array<ApiError>>()
  for (const issue of list) {
    const index = indexOfError(items, issue.attr) ?? null
    const found = out.get(index)
    if (found === undefined) out.set(index, [issue])
    else found.push(issue)
  }
  return out
}

/**
 * The record as the ledger knows it. A ledger written before natural keys declared their instants may
 * hold it under its former identity (`KeyedRecord.formerIdentity`), which one key text shared with every
 * other text naming the same instant. Held there with this very content, it is this record: it moves to
 * its identity now. Held there with other content, it may be this record changed or another record whose
 * key named the same instant; the content cannot tell, so the record is judged under its former identity,
 * as that ledger would have judged it, and nothing it may have stored is sent again.
 */
const recognised = (record: KeyedRecord, context: PlanContext): KeyedRecord => {
  const former = record.formerIdentity
  if (former === undefined || context.known(record.identity) !== undefined) return record
  const known = context.known(former)
  if (known === undefined) return record
  if (known.content === record.content && context.rekey !== undefined) {
    context.rekey(former, record.identity, record.key)
    return record
  }
  const { formerIdentity: _, ...rest } = record
  return { ...rest, identity: former, key: known.key }
}

/** A record's disposition from the ledger and the run so far, before validation (`undefined`: a candidate to send). */
const judge = (endpoint: PostEndpointId, body: unknown, record: KeyedRecord, context: PlanContext): Disposition | undefined => {
  const seen = context.seen.get(record.identity)
  if (seen !== undefined) {
    if (seen === record.content) return "duplicate"
    // Another version earlier in this run: a conflict when that one was sent (it may be stored now). One this
    // run did not send (the invalid version of a payload file mapped before the fix, lying beside the fixed
    // one) leaves this one to be judged against the ledger, as if it came alone.
    if (context.notSent?.has(record.identity) !== true) return "conflict"
    context.notSent.delete(record.identity)
  }
  context.seen.set(record.identity, record.content)
  const known = context.known(record.identity)
  if (known === undefined) return undefined
  // A version in flight when a run died is as much in doubt as one answered in doubt.
  const maybeStored = known.state === "in_flight" || (known.state === "done" && (known.outcome === "in_doubt" || STORED_OUTCOMES.has(known.outcome!)))
  if (known.content !== record.content) return maybeStored ? "conflict" : undefined
  // An outcome a send option decided is open to a run with the other value of the option.
  if (reopenedBy(known, context.query) !== undefined) return undefined
  if (known.state === "done" && known.outcome !== null && STORED_OUTCOMES.has(known.outcome)) return "settled_before"
  if (known.state === "done" && known.outcome === "rejected") return "rejected_before"
  if (maybeStored) {
    const alone = record.index === null ? body : bodyWith(endpoint, body, [record.index])
    return context.resendInDoubt || isRepeatHarmless(endpoint, alone, context.query) ? undefined : "kept_in_doubt"
  }
  return undefined
}

/**
 * Plans one line of NDJSON: parses it, finds its endpoint and records, judges each record against the
 * ledger, validates the body for the records left to send, and makes one request of the valid ones. An
 * error inside one record (`transactions.3.amount`) makes that record invalid; an error about the body as
 * a whole makes every record to send invalid.
 */
export const planLine = (text: string, context: PlanContext): LinePlan => {
  const plan = planRecords(text, context)
  if (plan.kind === "records" && context.notSent !== undefined) {
    for (const { record, disposition } of plan.judged) {
      // The version this record put in `seen` (a duplicate or an in-run conflict put none) was not sent.
      if (disposition !== "send" && disposition !== "duplicate" && context.seen.get(record.identity) === record.content) context.notSent.add(record.identity)
    }
  }
  return plan
}

/** {@link planLine} but for the record of the versions it did not send. */
const planRecords = (text: string, context: PlanContext): LinePlan => {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (cause) {
    return unidentified(null, "unparseable", `Not JSON: ${(cause as Error).message}`)
  }
  const inferred = context.endpoint !== undefined ? { ok: true as const, endpoint: context.endpoint } : inferEndpoint(body)
  if (!inferred.ok) return unidentified(null, inferred.code, inferred.detail)
  const endpoint = inferred.endpoint
  if (!isPostEndpointId(endpoint)) return unidentified(endpoint, "unknown_endpoint", `${endpoint} is a status query, not data to send.`)
  const records = recordsOf(endpoint, body)?.map((record) => recognised(record, context))
  if (records === undefined) {
    const result = withExactNumbers(text, body, validatorOf(endpoint)(body, context.now === undefined ? {} : { now: context.now() }))
    const errors = result.ok ? [] : result.error.errors
    return unidentified(endpoint, "invalid", errors[0]?.detail ?? "The body names no record.", errors.length > 0 ? errors : undefined)
  }
  const dispositions = records.map((record) => judge(endpoint, body, record, context))
  const candidates = records.filter((_, i) => dispositions[i] === undefined)
  if (candidates.length === 0) {
    return { kind: "records", endpoint, judged: records.map((record, i) => ({ record, disposition: dispositions[i]! })) }
  }
  // A number JSON.parse has rounded makes its record invalid (inexact_number at its attr), as in validate.
  const result = withExactNumbers(text, body, validatorOf(endpoint)(body, context.now === undefined ? {} : { now: context.now() }))
  const items = naturalKeyOf(endpoint).items
  const errorsOf = byRecord(items, [...(result.ok ? [] : result.error.errors), ...(context.checkDocuments?.(endpoint, body) ?? [])])
  const warningsOf = byRecord(items, result.warnings)
  const whole = errorsOf.get(null)
  const judged = records.map((record, i): JudgedRecord => {
    if (dispositions[i] !== undefined) return { record, disposition: dispositions[i] }
    const own = whole ?? (record.index === null ? undefined : errorsOf.get(record.index))
    if (own !== undefined) return { record, disposition: "invalid", errors: own }
    const warnings = [...(warningsOf.get(null) ?? []), ...(record.index === null ? [] : warningsOf.get(record.index) ?? [])]
    if (warnings.length === 0) return { record, disposition: "send" }
    return context.failOnWarnings === true ? { record, disposition: "invalid", errors: warnings, warnings } : { record, disposition: "send", warnings }
  })
  const toSend = judged.filter((j) => j.disposition === "send").map((j) => j.record)
  if (toSend.length === 0) return { kind: "records", endpoint, judged }
  const indices = toSend.flatMap((r) => (r.index === null ? [] : [r.index]))
  return { kind: "records", endpoint, judged, request: { endpoint, body: bodyWith(endpoint, body, indices), records: toSend } }
}
