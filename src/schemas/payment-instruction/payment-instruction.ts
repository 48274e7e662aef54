/**
 * Payment instruction: `POST /v1/data-import/payment-instruction/create/` (endpoint id `payment-instruction`).
 * The service checks the instruction with the upstream payment vendor.
 *
 * @module
 */
import { Schema } from "effect"
import { AccountIdentificationFields, boundedString, NonBlankString, openEnum } from "../conventions.js"
import type { EndpointDefinition, ResourceDefinition } from "../endpoint-definition.js"
import { post, SERVICE_LEVEL_RESPONSES } from "../endpoint-parts.js"
import { UndocumentedBody, ValidationErrorBody } from "../errors.js"

/**
 * Request body of `payment-instruction`: vendor code, the vendor's reference, and the instruction type.
 *
 * @example
 * const body = { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", vendor: "STRIPE", reference: "pm_1P4xQ2LkdIwHu7ixJ0a8Z9bC", type: "CARD" }
 * Schema.is(Schemas.PaymentInstructionRequest)(body) // => true
 * Schema.is(Schemas.PaymentInstructionRequest)({ ...body, reference: "x".repeat(513) }) // => false
 *
 * @since 0.1.0
 */
export const PaymentInstructionRequest = Schema.Struct({
  ...AccountIdentificationFields,
  vendor: NonBlankString,
  reference: boundedString(512),
  type: openEnum(["CARD"])
}).annotate({ identifier: "PaymentInstructionRequest" })
/** Request body of `payment-instruction`. */
export type PaymentInstructionRequest = typeof PaymentInstructionRequest.Type

/**
 * 201 response of `payment-instruction`: the account's number and the instruction's reference.
 *
 * @example
 * Schema.is(Schemas.PaymentInstructionResponse)({ service_account_number: "A-1B2C3D4E", reference: "pm_1P4xQ2LkdIwHu7ixJ0a8Z9bC" }) // => true
 * Schema.is(Schemas.PaymentInstructionResponse)({ reference: "pm_1P4xQ2LkdIwHu7ixJ0a8Z9bC" }) // => false
 *
 * @since 0.1.0
 */
export const PaymentInstructionResponse = Schema.Struct({
  service_account_number: Schema.String,
  reference: Schema.String
}).annotate({ identifier: "PaymentInstructionResponse" })
/** 201 response of `payment-instruction`. */
export type PaymentInstructionResponse = typeof PaymentInstructionResponse.Type

/**
 * The catalogue's entry of `payment-instruction`: path, request and response schemas, retry advice, repeat rule,
 * what the reference service does, and the natural key of one record.
 */
const paymentInstructionEndpoints = {
  "payment-instruction": {
    ...post("payment-instruction", "/v1/data-import/payment-instruction/create/", "Create a payment instruction."),
    naturalKey: { account: true, fields: ["reference"] },
    documentName: "payment instruction",
    request: PaymentInstructionRequest,
    repeat: "never",
    service: { handler: "payment-instruction", stores: "payment_instructions" },
    responses: {
      201: { schema: PaymentInstructionResponse, description: "The account number and the instruction's reference." },
      400: {
        schema: ValidationErrorBody,
        description: "Validation errors or persistent trouble reaching the payment vendor: do not retry in the same form.",
        retry: "do-not-retry-unchanged"
      },
      500: {
        schema: UndocumentedBody,
        description: "Unexpected error, for instance intermittent vendor trouble: retry the same request as it is.",
        retry: "retry-as-is"
      },
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
  endpoints: paymentInstructionEndpoints,
  rules: [],
  warningRules: []
} as const satisfies ResourceDefinition
