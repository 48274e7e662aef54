/**
 * Type tests of the public API (checked by the compiler through vitest's typecheck): error and warning
 * codes as unions, `mapRecords` payloads typed by the mapping's endpoint, and `standardSchema` as a
 * Standard Schema whose output is the endpoint's request.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec"
import { describe, expectTypeOf, it } from "vitest"
import type registry from "../../src/schemas/registry.js"
import {
  defineMapping,
  type ErrorCode,
  mapRecords,
  type MappedPayload,
  type MappingEvent,
  type PayloadValidationError,
  type RequestOf,
  standardSchema,
  validatePayload,
  validateResponse,
  type WarningCode
} from "../../src/index.js"

describe("codes", () => {
  it("errors[].code is ErrorCode and warnings[].code is WarningCode, not string", () => {
    const result = validatePayload("notes", {})
    expectTypeOf(result.warnings[0]!.code).toEqualTypeOf<WarningCode>()
    if (!result.ok) {
      expectTypeOf(result.error.code).toEqualTypeOf<"payload_failed_validation">()
      expectTypeOf(result.error.errors[0]!.code).toEqualTypeOf<ErrorCode>()
      expectTypeOf(result.error.errors[0]!.code).not.toEqualTypeOf<string>()
      expectTypeOf<"required">().toExtend<typeof result.error.errors[number]["code"]>()
      expectTypeOf<"no_such_code">().not.toExtend<typeof result.error.errors[number]["code"]>()
    }
    const response = validateResponse("notes", 201, [])
    if (!response.ok) expectTypeOf(response.error.errors[0]!.code).toEqualTypeOf<ErrorCode>()
    expectTypeOf<PayloadValidationError["body"]["errors"][number]["code"]>().toEqualTypeOf<ErrorCode>()
    expectTypeOf<PayloadValidationError["warnings"][number]["code"]>().toEqualTypeOf<WarningCode>()
  })

  it("ErrorCode and WarningCode are the codes of the field checks and of the registered rules, each a literal", () => {
    // The codes the resources' rules add, as the registry declares them (a rule that `reports` existing codes adds none).
    type RegisteredRule = (typeof registry.rules.crossField)[number]
    type RuleCode = Exclude<RegisteredRule, { readonly reports: ReadonlyArray<string> }>["name"]
    type RuleWarning = (typeof registry.rules.warning)[number]["code"]
    expectTypeOf<ErrorCode>().toEqualTypeOf<
      | "required" | "null" | "blank" | "null_characters_not_allowed" | "invalid" | "not_a_list" | "empty" | "invalid_choice" | "unknown_field" | "max_length"
      | "min_value" | "max_value" | "max_digits" | "max_decimal_places" | "invalid_document_path" | "invalid_phone_number"
      | "path_does_not_exist_in_file_store" | "inexact_number"
      | RuleCode
    >()
    expectTypeOf<WarningCode>().toEqualTypeOf<"unknown_choice" | "empty_optional" | RuleWarning>()
    // Each a literal: no string beyond them, and the rules' own codes among them.
    expectTypeOf<string>().not.toExtend<ErrorCode>()
    expectTypeOf<string>().not.toExtend<WarningCode>()
    expectTypeOf<"transaction_in_future" | "duplicate_statement_ids" | "definitions_required">().toExtend<ErrorCode>()
    expectTypeOf<"supply_charge_fields">().not.toExtend<ErrorCode>()
    expectTypeOf<"unpin_at_without_pin" | "invoice_totals_mismatch">().toExtend<WarningCode>()
  })
})

describe("mapRecords", () => {
  const notes = defineMapping({
    endpoint: "notes",
    groupBy: ["account"],
    fields: { import_supplier: { value: "S" }, external_account_number: "account" },
    collections: [{ path: "notes", fields: { body: "text" } }]
  })

  it("types the payloads of a list as the mapping endpoint's request", () => {
    const result = mapRecords(notes, [{ account: "A", text: "x" }])
    expectTypeOf(result.payloads[0]!.payload).toEqualTypeOf<RequestOf<"notes">>()
    expectTypeOf(result.payloads[0]!.payload.notes[0]!.body).toEqualTypeOf<string | undefined>()
    expectTypeOf(result.payloads[0]!.payload).not.toEqualTypeOf<RequestOf<"transactions">>()
  })

  it("types the payload events of a stream the same way", () => {
    async function* rows(): AsyncGenerator<unknown> {
      yield { account: "A", text: "x" }
    }
    const events = mapRecords(notes, rows())
    expectTypeOf(events).toEqualTypeOf<AsyncGenerator<MappingEvent<RequestOf<"notes">>>>()
  })

  it("a mapping whose endpoint is not known statically gives payloads of any POST endpoint", () => {
    expectTypeOf<MappedPayload["payload"]>().toEqualTypeOf<unknown>()
  })
})

describe("standardSchema", () => {
  const schema = standardSchema("energy-amount")

  it("is a Standard Schema (v1) as @standard-schema/spec declares it", () => {
    expectTypeOf(schema).toExtend<StandardSchemaV1>()
    expectTypeOf(schema).toExtend<StandardSchemaV1<RequestOf<"energy-amount">, RequestOf<"energy-amount">>>()
  })

  it("infers the endpoint's request as input and output", () => {
    expectTypeOf<StandardSchemaV1.InferOutput<typeof schema>>().toEqualTypeOf<RequestOf<"energy-amount">>()
    expectTypeOf<StandardSchemaV1.InferInput<typeof schema>>().toEqualTypeOf<RequestOf<"energy-amount">>()
  })

  it("validates synchronously, with our codes on the issues", () => {
    const result = schema["~standard"].validate({})
    expectTypeOf(result).not.toExtend<Promise<unknown>>()
    if (result.issues !== undefined) {
      expectTypeOf(result.issues[0]!.code).toEqualTypeOf<ErrorCode>()
      expectTypeOf(result.issues[0]!.path).toEqualTypeOf<ReadonlyArray<string | number> | undefined>()
    } else {
      expectTypeOf(result.value).toEqualTypeOf<RequestOf<"energy-amount">>()
    }
  })

  it("takes only endpoint ids", () => {
    // @ts-expect-error not an endpoint id
    standardSchema("energy-amounts")
  })
})
