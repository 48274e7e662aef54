/**
 * The straight path for a mapping whose every payload is one row (no `groupBy`, no collections): a row is
 * read field by field and becomes one payload or one rejection, without the grouping machinery. It gives
 * exactly what the general path gives for a group of that one row.
 *
 * @module
 */
import { endpoints } from "../endpoints/catalogue.js"
import { compileValidator } from "../validation/compile-validator.js"
import { compact, isCompact } from "./compact.js"
import { setAt } from "./build-payload.js"
import { type CompiledNode, hasFunctionSources, readFieldSafely } from "./compile-mapping.js"
import type { Mapping } from "./define-mapping.js"
import type { LegacyRecord } from "./field-source.js"
import type { MappingError, MappingEvent } from "./mapping-result.js"

/**
 * How a mapping's payloads are checked. Payloads built from a mapping without functions are plain JSON
 * data: the validator may skip its descriptor walk, and one with nothing to compact need not be copied.
 */
interface PayloadCheck {
  readonly validate: ReturnType<typeof compileValidator>
  readonly plainData: boolean
}
const checks = new WeakMap<Mapping, PayloadCheck>()
const checkFor = (mapping: Mapping): PayloadCheck => {
  let check = checks.get(mapping)
  if (check === undefined) {
    const plainData = !hasFunctionSources(mapping)
    check = { validate: compileValidator(mapping.endpoint, plainData ? { input: "json" } : {}), plainData }
    checks.set(mapping, check)
  }
  return check
}

/** The event of a built payload of rows `used`: compacted and, when valid, the payload; otherwise its rows rejected with the API's errors. */
export const payloadEvent = (mapping: Mapping, value: Record<string, unknown>, used: ReadonlyArray<number>): MappingEvent => {
  const check = checkFor(mapping)
  // Compacting copies the whole payload: the usual one has nothing to remove.
  const payload = check.plainData && isCompact(value) ? value : compact(endpoints[mapping.endpoint].request, value)
  // The compiled validator gives validatePayload's answer, faster for the (usual) valid payload.
  const result = check.validate(payload)
  return result.ok
    ? { kind: "payload", payload, sourceRows: used }
    : { kind: "rejected", sourceRows: used, errors: result.error.errors.map((e) => ({ attr: e.attr, code: e.code, detail: e.detail })) }
}

/** Whether every payload of a mapping is built from one row: it has neither `groupBy` nor collections. */
export const isRowPerPayload = (mapping: Mapping): boolean => mapping.groupBy === undefined && (mapping.collections ?? []).length === 0

/**
 * Maps row `index` of a mapping that {@link isRowPerPayload}, read through its compiled `root` (call in
 * input order): every field is read, a field that cannot be read rejects the row with each such field's
 * reason, and otherwise the row is one payload (or, when invalid, rejected with the API's errors).
 */
export const mapRow = (mapping: Mapping, root: CompiledNode, index: number, record: LegacyRecord): MappingEvent => {
  const value: Record<string, unknown> = {}
  let errors: Array<MappingError> | undefined
  for (const field of root.fields) {
    const outcome = readFieldSafely(field.read, record)
    if (!outcome.ok) {
      ;(errors ??= []).push({ ...(outcome.column !== undefined ? { column: outcome.column } : {}), attr: field.path, code: outcome.code, detail: outcome.detail })
    } else if (outcome.value !== undefined && errors === undefined) setAt(value, field.path, outcome.value)
  }
  return errors !== undefined ? { kind: "rejected", sourceRows: [index], errors } : payloadEvent(mapping, value, [index])
}
