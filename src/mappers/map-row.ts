/**
 * The straight path for a mapping whose every payload is one row (no `groupBy`, no collections): a row is
 * read field by field and becomes one payload or one rejection, without the grouping machinery. It gives
 * exactly what the general path gives for a group of that one row.
 *
 * @module
 */
import { endpoints } from "../schemas/endpoints/catalogue.js"
import { compileValidator } from "../validation/compile-validator.js"
import { compact, isCompact } from "./compact.js"
import { setAtSteps } from "./path-steps.js"
import { type CompiledNode, hasFunctionSources, readFieldSafely } from "./compile-mapping.js"
import type { Mapping } from "./define-mapping.js"
import { type Converter, CONVERTERS } from "./converters.js"
import type { FieldSource, LegacyRecord } from "./field-source.js"
import type { MappingError, MappingEvent } from "./mapping-result.js"
import { isValueTableFile } from "./value-table.js"

/**
 * How a mapping's payloads are checked. Payloads built from a mapping without functions are plain JSON
 * data: the validator may skip its descriptor walk, and one with nothing to compact need not be copied.
 */
interface PayloadCheck {
  readonly validate: ReturnType<typeof compileValidator>
  readonly plainData: boolean
  /**
   * By field (in mapping order), whether its value must be looked at to know that a payload of one row
   * is compact as built: all but a `list` (which may give `[]`) and a constant that is not compact give
   * a compact value wherever it comes from (never a blank or empty one). The objects on a field's path
   * hold that field; a list made on the way may have holes, which compacting keeps as they are.
   */
  readonly mayNotBeCompact: ReadonlyArray<boolean>
}
// The mutants left in alwaysCompact answer false more often: a field not known compact only has its
// values looked at (the ones answering true more often fail map-row.test.ts).
// Stryker disable next-line ArrowFunction,BlockStatement: equivalent, see above
const alwaysCompact = (source: FieldSource): boolean => {
  // Stryker disable next-line BooleanLiteral: equivalent, see above
  if (typeof source === "string") return true
  // Stryker disable next-line ConditionalExpression: equivalent, see above (isCompact(undefined) is false)
  if ("value" in source) return isCompact(source.value)
  if ("values" in source && source.values !== undefined) {
    // A table's values (and its default) go into the payload as they are, or through the converter.
    // Of tables in turn, the last gives the field's value.
    const table = Array.isArray(source.values) ? source.values[source.values.length - 1] : source.values
    const values = table === undefined || isValueTableFile(table) ? [undefined] : [...Object.values(table), ...("default" in source ? [source.default] : [])]
    if (!values.every((v) => v === null || isCompact(v))) return false
    if (source.convert === undefined || source.lookup === "converted") return true
  }
  // Stryker disable next-line BooleanLiteral,StringLiteral: equivalent, a function's value is never taken as compact (payloadEvent compacts it), a column without a known converter is looked at
  const name = "from" in source ? undefined : source.convert ?? "string"
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BooleanLiteral: equivalent, see above
  return name !== undefined && Object.hasOwn(CONVERTERS, name) && (CONVERTERS[name] as Converter).neverEmpty === true
}

const checks = new WeakMap<Mapping, PayloadCheck>()
const checkFor = (mapping: Mapping): PayloadCheck => {
  let check = checks.get(mapping)
  // Stryker disable next-line ConditionalExpression: equivalent, a check made again is the same check
  if (check === undefined) {
    // Stryker disable next-line BooleanLiteral: equivalent where tried, a function's value is looked at and compacted in either case (mayNotBeCompact) and the compiled validator answers plain data alike in both modes
    const plainData = !hasFunctionSources(mapping)
    const mayNotBeCompact = Object.values(mapping.fields).map((source) => !alwaysCompact(source))
    // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent, the compiled validator answers JSON data alike in either mode (its differential test)
    check = { validate: compileValidator(mapping.endpoint, plainData ? { input: "json" } : {}), plainData, mayNotBeCompact }
    checks.set(mapping, check)
  }
  return check
}

/** The event of a built payload of rows `used`: compacted and, when valid, the payload; otherwise its rows rejected with the API's errors. */
export const payloadEvent = (mapping: Mapping, value: Record<string, unknown>, used: ReadonlyArray<number>): MappingEvent =>
  checkedEvent(mapping, checkFor(mapping), value, used, false)

const checkedEvent = (mapping: Mapping, check: PayloadCheck, value: Record<string, unknown>, used: ReadonlyArray<number>, compactAsBuilt: boolean): MappingEvent => {
  // Compacting copies the whole payload: the usual one has nothing to remove.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent where it compacts more often, compacting a compact payload gives an equal one
  const payload = compactAsBuilt || (check.plainData && isCompact(value)) ? value : compact(endpoints[mapping.endpoint].request, value)
  // The compiled validator gives validatePayload's answer, faster for the (usual) valid payload.
  const result = check.validate(payload)
  return result.ok
    ? result.warnings.length === 0
      ? { kind: "payload", payload, sourceRows: used }
      : { kind: "payload", payload, sourceRows: used, warnings: result.warnings.map((w) => ({ attr: w.attr, code: w.code, detail: w.detail })) }
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
  const check = checkFor(mapping)
  const value: Record<string, unknown> = {}
  let errors: Array<MappingError> | undefined
  // Compact as built unless a field whose value may not be compact gives one that is not (an empty
  // payload is compact as it is). A function's value is left to compact, as payloadEvent does.
  // Stryker disable next-line BooleanLiteral,ConditionalExpression: equivalent for the payload's JSON, compact only copies a function's plain value
  let compactAsBuilt = check.plainData
  for (let i = 0; i < root.fields.length; i++) {
    const field = root.fields[i]!
    const outcome = readFieldSafely(field.read, record)
    if (!outcome.ok) {
      ;(errors ??= []).push({ ...(outcome.column !== undefined ? { column: outcome.column } : {}), attr: field.path, code: outcome.code, detail: outcome.detail })
      continue
    }
    // Stryker disable next-line ConditionalExpression: equivalent, after a field's error the row is rejected whatever else is set
    if (outcome.value !== undefined && errors === undefined) {
      setAtSteps(value, field.steps, outcome.value)
      // Stryker disable next-line ConditionalExpression: equivalent, a value known compact that is looked at is found compact
      if (compactAsBuilt && check.mayNotBeCompact[i] === true) compactAsBuilt = isCompact(outcome.value)
    }
  }
  if (errors !== undefined) return { kind: "rejected", sourceRows: [index], errors }
  return checkedEvent(mapping, check, value, [index], compactAsBuilt)
}
