/**
 * Payment instruction: `POST /v1/data-import/payment-instruction/create/` (endpoint id `payment-instruction`).
 * The service checks the instruction with the upstream payment vendor.
 *
 * @module
 */
import { Schema } from "effect"
import { AccountIdentificationFields, boundedString, NonBlankString, openEnum } from "./conventions.js"

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
