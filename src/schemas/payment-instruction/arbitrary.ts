/**
 * Valid request bodies of payment-instruction: a vendor's payment instruction.
 *
 * @module
 */
import { PaymentInstructionRequest } from "./payment-instruction.js"
import type { PayloadArbitrary } from "../../testing/arbitrary-kit.js"

/** A payment-instruction request body. */
export const paymentInstruction: PayloadArbitrary = ({ account, atCodePointLimit, choice, compactObject, fc, oneof, record }, ctx) =>
  record({
    ...account,
    vendor: fc.constantFrom("STRIPE", "ADYEN", "GOCARDLESS", "PAYPAL"),
    reference: oneof(
      { weight: 8, arbitrary: fc.stringMatching(/^(?:pm|src|MD)_[A-Za-z0-9]{14,24}$/u) },
      { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(..."abcdef0123456789"), minLength: 400, maxLength: 512 }) },
      // At the 512-character limit, counted in code points.
      { weight: 1, arbitrary: atCodePointLimit(512) }
    ),
    type: choice(PaymentInstructionRequest.fields.type, ctx)
  }).map(compactObject)
