/**
 * Market participant time definitions: `POST /v1/data-import/market-participant-definitions/import/`
 * (endpoint id `market-participant-definitions`).
 *
 * @module
 */
import { Schema } from "effect"
import {
  type CrossFieldRule,
  IsoDate,
  IsoDateTime,
  NetworkOperatorCode,
  NonBlankString,
  nonEmptyArray
} from "../conventions.js"
import { ruleFilter, startNotAfterEndRule } from "../rules.js"
import type { EndpointDefinition, ResourceDefinition } from "../endpoint-definition.js"
import { post, SERVICE_LEVEL_RESPONSES, validation400 } from "../endpoint-parts.js"
import { UndocumentedBody } from "../errors.js"

/**
 * A register of a time definition.
 *
 * @example
 * Schema.is(Schemas.TimeDefinitionRegister)({ register_code: "1-1:1.8.2", low_load_capable: true }) // => true
 * Schema.is(Schemas.TimeDefinitionRegister)({ register_code: "1-1:1.8.2" }) // => false
 *
 * @since 0.1.0
 */
export const TimeDefinitionRegister = Schema.Struct({
  register_code: NonBlankString,
  low_load_capable: Schema.Boolean
}).annotate({ identifier: "TimeDefinitionRegister" })
/** A register of a time definition. */
export type TimeDefinitionRegister = typeof TimeDefinitionRegister.Type

/**
 * Overview of one time definition and its registers.
 *
 * @example
 * const definition = { valid_from: "2024-01-01", version_datetime: "2023-12-15T12:00:00+01:00", definition_type: "SCHALTZEIT", definition_code: "HT-NT-2024" }
 * Schema.is(Schemas.TimeDefinition)(definition) // => true
 * Schema.is(Schemas.TimeDefinition)({ ...definition, valid_from: "2024-01-01T00:00:00+01:00" }) // => false
 *
 * @since 0.1.0
 */
export const TimeDefinition = Schema.Struct({
  valid_from: IsoDate,
  version_datetime: IsoDateTime,
  status: Schema.optionalKey(NonBlankString),
  definition_type: NonBlankString,
  definition_code: NonBlankString,
  transmission_frequency: Schema.optionalKey(NonBlankString),
  registers: Schema.optionalKey(Schema.Array(TimeDefinitionRegister))
}).annotate({ identifier: "TimeDefinition" })
/** Overview of one time definition. */
export type TimeDefinition = typeof TimeDefinition.Type

/** An entry's `period_start` is not after its `period_end`. */
const entryPeriodInOrder = startNotAfterEndRule("period_start", "period_end", "datetime")

/**
 * One entry of a rolled-out definition: which register is active over a period.
 *
 * @example
 * const entry = { period_start: "2024-03-31T00:00:00+01:00", period_end: "2024-03-31T06:00:00+02:00", active_register_code: "1-1:1.8.2" }
 * Schema.is(Schemas.RolledOutDefinitionEntry)(entry) // => true
 * Schema.is(Schemas.RolledOutDefinitionEntry)({ ...entry, period_end: "2024-03-31T00:30:00+02:00" }) // => false
 *
 * @since 0.1.0
 */
export const RolledOutDefinitionEntry = Schema.Struct({
  period_start: IsoDateTime,
  period_end: IsoDateTime,
  active_register_code: NonBlankString
}).check(ruleFilter(entryPeriodInOrder)).annotate({ identifier: "RolledOutDefinitionEntry" })
/** One entry of a rolled-out definition. */
export type RolledOutDefinitionEntry = typeof RolledOutDefinitionEntry.Type

/** A rolled-out definition's `validity_period_start` is not after its `validity_period_end`. */
const validityInOrder = startNotAfterEndRule("validity_period_start", "validity_period_end", "datetime")

/**
 * A time definition rolled out over a validity period.
 *
 * @example
 * const entry = { period_start: "2024-03-31T00:00:00+01:00", period_end: "2024-03-31T06:00:00+02:00", active_register_code: "1-1:1.8.2" }
 * const rollout = { definition_type: "SCHALTZEIT", definition_code: "HT-NT-2024", version_datetime: "2023-12-15T12:00:00+01:00", validity_period_start: "2024-03-31T00:00:00+01:00", validity_period_end: "2024-04-01T00:00:00+02:00", entries: [entry] }
 * Schema.is(Schemas.RolledOutDefinition)(rollout) // => true
 * Schema.is(Schemas.RolledOutDefinition)({ ...rollout, entries: [] }) // => false
 *
 * @since 0.1.0
 */
export const RolledOutDefinition = Schema.Struct({
  definition_type: NonBlankString,
  definition_code: NonBlankString,
  version_datetime: IsoDateTime,
  validity_period_start: IsoDateTime,
  validity_period_end: IsoDateTime,
  recurrence: Schema.optionalKey(NonBlankString),
  entries: nonEmptyArray(RolledOutDefinitionEntry)
}).check(ruleFilter(validityInOrder)).annotate({ identifier: "RolledOutDefinition" })
/** A time definition rolled out over a validity period. */
export type RolledOutDefinition = typeof RolledOutDefinition.Type

/** At least one of `definitions` and `rolled_out_definitions` holds an item. */
const definitionsRequired = {
  name: "definitions_required",
  description: "Time definitions with neither `definitions` nor `rolled_out_definitions`.",
  fields: ["definitions", "rolled_out_definitions"],
  // Exact: one of the two lists, present and not empty.
  jsonSchema: {
    anyOf: [
      { type: "object", required: ["definitions"], properties: { definitions: { type: "array", minItems: 1 } } },
      { type: "object", required: ["rolled_out_definitions"], properties: { rolled_out_definitions: { type: "array", minItems: 1 } } }
    ]
  },
  check: (body) =>
    (body.definitions?.length ?? 0) > 0 || (body.rolled_out_definitions?.length ?? 0) > 0
      ? []
      : [{ path: [], code: "definitions_required", detail: "At least one of definitions and rolled_out_definitions is required." }],
  // neither list, or both empty
  breaker: (body, variant) => {
    const { definitions: _definitions, rolled_out_definitions: _rolledOut, ...rest } = body
    return variant % 2 === 0
      ? { value: rest, at: [], detail: "neither definitions nor rolled_out_definitions" }
      : { value: { ...rest, definitions: [], rolled_out_definitions: [] }, at: [], detail: "definitions and rolled_out_definitions both empty" }
  }
} as const satisfies CrossFieldRule<{ readonly definitions?: ReadonlyArray<unknown>; readonly rolled_out_definitions?: ReadonlyArray<unknown> }>

/** The cross-field rules of time definitions, for the list of error codes. */
const timeDefinitionsRules = [entryPeriodInOrder, validityInOrder, definitionsRequired] as const

/**
 * Request body of `market-participant-definitions`: at least one of the two lists must hold an item.
 *
 * @example
 * const definition = { valid_from: "2024-01-01", version_datetime: "2023-12-15T12:00:00+01:00", definition_type: "SCHALTZEIT", definition_code: "HT-NT-2024" }
 * Schema.is(Schemas.MarketParticipantDefinitionsRequest)({ network_operator_code: "9900123456789", definitions: [definition] }) // => true
 * Schema.is(Schemas.MarketParticipantDefinitionsRequest)({ network_operator_code: "9900123456789", definitions: [] }) // => false
 *
 * @since 0.1.0
 */
export const MarketParticipantDefinitionsRequest = Schema.Struct({
  network_operator_code: NetworkOperatorCode,
  definitions: Schema.optionalKey(Schema.Array(TimeDefinition)),
  rolled_out_definitions: Schema.optionalKey(Schema.Array(RolledOutDefinition))
}).check(
  ruleFilter(definitionsRequired)
).annotate({ identifier: "MarketParticipantDefinitionsRequest" })
/** Request body of `market-participant-definitions`. */
export type MarketParticipantDefinitionsRequest = typeof MarketParticipantDefinitionsRequest.Type

/**
 * The catalogue's entry of `market-participant-definitions`: path, request and response schemas, retry advice, repeat rule,
 * what the reference service does, and the natural key of one record.
 */
const timeDefinitionsEndpoints = {
  "market-participant-definitions": {
    ...post("market-participant-definitions", "/v1/data-import/market-participant-definitions/import/", "Import time definitions."),
    naturalKey: { account: false, fields: ["network_operator_code", "definitions[].definition_type", "definitions[].definition_code", "definitions[].valid_from", "rolled_out_definitions[].definition_type", "rolled_out_definitions[].definition_code", "rolled_out_definitions[].validity_period_start", "rolled_out_definitions[].validity_period_end"], instants: ["rolled_out_definitions[].validity_period_start", "rolled_out_definitions[].validity_period_end"] },
    documentName: "set of time definitions",
    request: MarketParticipantDefinitionsRequest,
    repeat: "never",
    service: { handler: "market-participant-definitions", stores: "time_definitions" },
    responses: {
      201: { schema: UndocumentedBody, description: "Imported." },
      400: validation400,
      ...SERVICE_LEVEL_RESPONSES
    }
  }
} as const satisfies Record<string, EndpointDefinition>

/**
 * The resource as the registry (`src/schemas/registry.ts`) takes it: its endpoints, and the rules its
 * schemas carry, from which the code lists are built. A default export, so that the registry's
 * `export *` of the module's schemas (the public `Schemas`) leaves it out.
 */
export default {
  endpoints: timeDefinitionsEndpoints,
  rules: timeDefinitionsRules,
  warningRules: []
} as const satisfies ResourceDefinition
