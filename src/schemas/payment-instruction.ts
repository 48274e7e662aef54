/**
 * Payment instruction: `POST /v1/data-import/payment-instruction/create/` (endpoint id `payment-instruction`).
 * The service checks the instruction with the upstream payment vendor.
 *
 * @module
 */
import { Schema } from "effect"
import { AccountIdentificationFields, boundedString, NonBlankString, openEnum } from "./conventions.js"

/** Request body of `payment-instruction`: vendor code, the vendor's reference, and the instruction type. */
export const PaymentInstructionRequest = Schema.Struct({
  ...AccountIdentificationFields,
  vendor: NonBlankString,
  reference: boundedString(512),
  type: openEnum(["CARD"])
}).annotate({ identifier: "PaymentInstructionRequest" })
/** Request body of `payment-instruction`. */
export type PaymentInstructionRequest = typeof PaymentInstructionRequest.Type

/** 201 response of `payment-instruction`: the account's number and the instruction's reference. */
export const PaymentInstructionResponse = Schema.Struct({
  service_account_number: Schema.String,
  reference: Schema.String
}).annotate({ identifier: "PaymentInstructionResponse" })
/** 201 response of `payment-instruction`. */
export type PaymentInstructionResponse = typeof PaymentInstructionResponse.Type
