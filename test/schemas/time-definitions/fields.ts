/**
 * What the tests know of `market-participant-definitions`'s request from contract-decisions.md: its field table, as attrs of
 * its example payload (examples/payloads/market-participant-definitions.json), and the error codes that apply to it.
 */
import type { FieldTable } from "../fields.js"
import { COMMON } from "../../support/applicable-codes.js"

/** Which fields are required, optional and not nullable, not null as items, and not blank. */
export const FIELDS = {
  "market-participant-definitions": (() => {
    const DEF = "definitions.0"
    const ROLLED = "rolled_out_definitions.0"
    const entry = (i: number) => `${ROLLED}.entries.${i}`
    /** contract-decisions.md: the operator code; four fields per definition, two per register, six per rolled-out definition, three per entry. */
    const REQUIRED = [
      "network_operator_code",
      ...["valid_from", "version_datetime", "definition_type", "definition_code"].map((f) => `${DEF}.${f}`),
      ...[0, 1].flatMap((i) => ["register_code", "low_load_capable"].map((f) => `${DEF}.registers.${i}.${f}`)),
      ...["definition_type", "definition_code", "version_datetime", "validity_period_start", "validity_period_end", "entries"].map(
        (f) => `${ROLLED}.${f}`
      ),
      ...[0, 1, 2].flatMap((i) => ["period_start", "period_end", "active_register_code"].map((f) => `${entry(i)}.${f}`))
    ]
    const OPTIONAL = [
      "definitions",
      "rolled_out_definitions",
      DEF,
      ROLLED,
      `${DEF}.status`,
      `${DEF}.transmission_frequency`,
      `${DEF}.registers`,
      `${DEF}.registers.0`,
      `${ROLLED}.recurrence`,
      entry(0)
    ]
    const STRINGS = [
      "network_operator_code",
      `${DEF}.valid_from`,
      `${DEF}.version_datetime`,
      `${DEF}.status`,
      `${DEF}.definition_type`,
      `${DEF}.definition_code`,
      `${DEF}.transmission_frequency`,
      `${DEF}.registers.0.register_code`,
      `${ROLLED}.definition_type`,
      `${ROLLED}.definition_code`,
      `${ROLLED}.recurrence`,
      `${ROLLED}.validity_period_start`,
      `${entry(0)}.active_register_code`,
      `${entry(0)}.period_end`
    ]
    return { required: REQUIRED, optional: OPTIONAL, notNull: [], strings: STRINGS }
  })()
} as const satisfies Readonly<Record<string, FieldTable>>

/**
 * The error codes that apply to it, read from contract-decisions.md (not from the schemas): which
 * fields its request has (lists, required non-empty lists, document paths, phone numbers, ordered pairs)
 * and which cross-field rules. arbitrary-invalid-payload.test.ts checks that its broken payloads cover
 * exactly these.
 */
export const APPLICABLE = {
  "market-participant-definitions": [...COMMON, "not_a_list", "empty", "start_date_later_than_end_date", "definitions_required"]
} as const satisfies Readonly<Record<string, ReadonlyArray<string>>>
