/**
 * `validatePayloadEffect`: the Effect form of `validatePayload`, with the same outcome.
 */
import { readFileSync } from "node:fs"
import { Cause, Effect, Exit, Option, Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  ENDPOINT_IDS,
  type EndpointId,
  PayloadValidationError,
  POST_ENDPOINT_IDS,
  validatePayload,
  validatePayloadEffect
} from "../../src/index.js"

const NOW = new Date("2030-01-01T00:00:00Z")
const PAYLOADS_DIR = new URL("../../examples/payloads/", import.meta.url)
const example = (id: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`${id}.json`, PAYLOADS_DIR), "utf8")) as Record<string, unknown>

const run = (id: EndpointId, input: unknown, options?: { readonly now: Date }) =>
  Effect.runSync(Effect.result(validatePayloadEffect(id, input, options)))

/** Invalid inputs for every endpoint: wrong root types, an empty object, undocumented fields. */
const invalidInputs: ReadonlyArray<unknown> = [null, [], "payload", 42, {}, { undocumented: true }, JSON.parse('{"__proto__": {"polluted": 1}}')]

describe("validatePayloadEffect", () => {
  it.each(POST_ENDPOINT_IDS)("%s: succeeds with the same value and warnings as validatePayload", (id) => {
    const input = example(id)
    const result = run(id, input, { now: NOW })
    const plain = validatePayload(id, input, { now: NOW })
    expect(plain.ok).toBe(true)
    expect(Result.isSuccess(result)).toBe(true)
    if (Result.isSuccess(result)) expect(result.success).toEqual(plain)
  })

  it.each(ENDPOINT_IDS)("%s: fails with PayloadValidationError carrying the body of validatePayload", (id) => {
    for (const input of invalidInputs) {
      const plain = validatePayload(id, input)
      expect(plain.ok).toBe(false)
      if (plain.ok) continue
      const result = run(id, input)
      expect(Result.isFailure(result)).toBe(true)
      if (!Result.isFailure(result)) continue
      const error = result.failure
      expect(error).toBeInstanceOf(PayloadValidationError)
      expect(error._tag).toBe("PayloadValidationError")
      expect(error.endpointId).toBe(id)
      expect(error.body).toEqual(plain.error)
      expect(error.body.code).toBe("payload_failed_validation")
      expect(error.warnings).toEqual(plain.warnings)
    }
  })

  it("passes the clock on: a transaction dated after `now` fails only under that clock", () => {
    const input = example("transactions")
    const transactions = input["transactions"] as Array<Record<string, unknown>>
    const first = transactions[0]
    if (first === undefined) throw new Error("the example has transactions")
    const date = first["transaction_date"] as string
    const dayBefore = new Date(`${date}T00:00:00Z`)
    dayBefore.setUTCDate(dayBefore.getUTCDate() - 2)
    const plain = validatePayload("transactions", input, { now: dayBefore })
    const failing = run("transactions", input, { now: dayBefore })
    expect(plain.ok).toBe(false)
    expect(Result.isFailure(failing)).toBe(true)
    if (Result.isFailure(failing) && !plain.ok) {
      expect(failing.failure.body).toEqual(plain.error)
      expect(failing.failure.body.errors).toContainEqual(
        expect.objectContaining({ attr: "transactions.0.transaction_date", code: "transaction_in_future" })
      )
    }
    expect(Result.isSuccess(run("transactions", input, { now: NOW }))).toBe(true)
  })

  it("runSyncExit: success is a successful exit, failure a failed exit whose error is the typed failure", () => {
    const ok = Effect.runSyncExit(validatePayloadEffect("payment-instruction", example("payment-instruction")))
    expect(Exit.isSuccess(ok)).toBe(true)
    const bad = { ...example("payment-instruction"), reference: "   " }
    const exit = Effect.runSyncExit(validatePayloadEffect("payment-instruction", bad))
    expect(Exit.isFailure(exit)).toBe(true)
    if (!Exit.isFailure(exit)) return
    const error = Option.getOrUndefined(Cause.findErrorOption(exit.cause))
    expect(error).toBeInstanceOf(PayloadValidationError)
    expect(error?.body.errors).toEqual([expect.objectContaining({ attr: "reference", code: "blank" })])
    // A validation failure is a typed failure, not a defect.
    expect(Cause.hasDies(exit.cause)).toBe(false)
  })

  it("can be handled with catchTag", () => {
    const body = Effect.runSync(
      validatePayloadEffect("notes", {}).pipe(
        Effect.map(() => undefined),
        Effect.catchTag("PayloadValidationError", (e) => Effect.succeed(e.body))
      )
    )
    const plain = validatePayload("notes", {})
    expect(plain.ok).toBe(false)
    if (!plain.ok) expect(body).toEqual(plain.error)
  })

  it("is lazy: nothing is read from the input until the effect runs, and each run validates again", () => {
    let reads = 0
    const count = { get: (...args: Parameters<typeof Reflect.get>) => (reads++, Reflect.get(...args)),
      getOwnPropertyDescriptor: (...args: Parameters<typeof Reflect.getOwnPropertyDescriptor>) => (reads++, Reflect.getOwnPropertyDescriptor(...args)) }
    const input: object = new Proxy({ import_supplier: "S" }, count)
    const effect = validatePayloadEffect("notes", input)
    expect(reads).toBe(0)
    Effect.runSync(Effect.result(effect))
    const afterFirst = reads
    expect(afterFirst).toBeGreaterThan(0)
    Effect.runSync(Effect.result(effect))
    expect(reads).toBeGreaterThan(afterFirst)
  })

  it("property: agrees with validatePayload on arbitrary JSON, for every endpoint", () => {
    const endpointId = fc.constantFrom(...ENDPOINT_IDS)
    const input = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(...POST_ENDPOINT_IDS).chain((id) =>
        fc.record({ key: fc.constantFrom(...Object.keys(example(id)), "extra"), value: fc.jsonValue() }).map(({ key, value }) => ({
          ...example(id),
          [key]: value
        }))
      )
    )
    fc.assert(
      fc.property(endpointId, input, (id, value) => {
        const plain = validatePayload(id, value, { now: NOW })
        const result = run(id, value, { now: NOW })
        if (plain.ok) {
          expect(Result.isSuccess(result)).toBe(true)
          if (Result.isSuccess(result)) expect(result.success).toEqual(plain)
        } else {
          expect(Result.isFailure(result)).toBe(true)
          if (Result.isFailure(result)) {
            expect(result.failure.body).toEqual(plain.error)
            expect(result.failure.warnings).toEqual(plain.warnings)
          }
        }
      }),
      { numRuns: 500, seed: 4 }
    )
  })
})
