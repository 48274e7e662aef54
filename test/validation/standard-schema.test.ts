/**
 * `standardSchema` through a consumer that knows only the Standard Schema interface (`@standard-schema/spec`),
 * the way tRPC, Hono or a form library use it: validate, then read values or issues by path.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec"
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ERROR_CODES, POST_ENDPOINT_IDS, standardSchema, validatePayload } from "../../src/index.js"
import { EnergyAmountRequest } from "../../src/schemas/energy-amount/energy-amount.js"
import { arbitraryInvalidPayload, arbitraryPayload } from "../../src/testing/index.js"
import { example } from "../cli/run-cli.js"

const NOW = new Date("2030-01-01T00:00:00Z")

type ConsumerResult<S extends StandardSchemaV1> =
  | { readonly ok: true; readonly value: StandardSchemaV1.InferOutput<S> }
  | { readonly ok: false; readonly fields: Record<string, Array<string>>; readonly issues: ReadonlyArray<StandardSchemaV1.Issue> }

/** What a consumer does with any Standard Schema: validate, and group the messages by field path ("" for the root). */
const consume = async <S extends StandardSchemaV1>(schema: S, input: unknown): Promise<ConsumerResult<S>> => {
  const result = await schema["~standard"].validate(input)
  if (result.issues === undefined) return { ok: true, value: result.value }
  const fields = new Map<string, Array<string>>()
  for (const issue of result.issues) {
    const key = (issue.path ?? []).map((step) => String(typeof step === "object" ? step.key : step)).join(".")
    fields.set(key, [...(fields.get(key) ?? []), issue.message])
  }
  return { ok: false, fields: Object.fromEntries(fields), issues: result.issues }
}

/** The README's energy amount: a German decimal, an unlisted unit (a warning only), an undocumented field. */
const readmeEnergyAmount = {
  import_supplier: "STADTWERKE_NORD",
  external_account_number: "KD-0045127",
  energy_amount: {
    malo_number: "51238696781",
    period_start_at: "2024-10-01T00:00:00+02:00",
    period_end_at: "2024-10-31T23:59:59+01:00",
    product_identifier: "1-1:1.8.0",
    product_identifier_type: "SRW",
    quantity: "1.263,42",
    quantity_unit: "kWh",
    zaehlernummer: "1ESY1160512345"
  }
}

describe("standardSchema through a Standard Schema consumer", () => {
  it("declares version 1 and the vendor, and validates synchronously", () => {
    const schema = standardSchema("energy-amount")
    expect(schema["~standard"].version).toBe(1)
    expect(schema["~standard"].vendor).toBe("data-import-payloads")
    expect(schema["~standard"].validate(example("energy-amount"))).not.toBeInstanceOf(Promise)
  })

  it.each(POST_ENDPOINT_IDS)("%s: the example payload comes back as the value", async (id) => {
    const input = example(id)
    const result = await consume(standardSchema(id, { now: NOW }), input)
    expect(result).toEqual({ ok: true, value: input })
  })

  it("the README's energy amount: messages by field, with our codes and attrs on the issues", async () => {
    const result = await consume(standardSchema("energy-amount"), readmeEnergyAmount)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(Object.keys(result.fields)).toEqual(["energy_amount.quantity", "energy_amount.zaehlernummer"])
    expect(result.issues.map((issue) => ({ path: issue.path, ...(issue as { code?: unknown; attr?: unknown }) })).map(({ path, code, attr }) => ({ path, code, attr })))
      .toEqual([
        { path: ["energy_amount", "quantity"], code: "invalid", attr: "energy_amount.quantity" },
        { path: ["energy_amount", "zaehlernummer"], code: "unknown_field", attr: "energy_amount.zaehlernummer" }
      ])
  })

  it("an error about the whole payload has no path; array indexes are numbers", async () => {
    const root = await consume(standardSchema("notes"), [])
    expect(root.ok).toBe(false)
    if (!root.ok) expect(root.issues.map((i) => [i.path, (i as { code?: string }).code])).toEqual([[undefined, "invalid"]])
    const notes = example("notes") as { notes: Array<Record<string, unknown>> }
    const blankBody = { ...notes, notes: [notes.notes[0], { ...notes.notes[0], body: " " }] }
    const result = await consume(standardSchema("notes"), blankBody)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.issues.map((i) => i.path)).toContainEqual(["notes", 1, "body"])
  })

  it("keeps a key with dots in it whole in the path", async () => {
    const input = { ...example("notes"), "a.b": 1 }
    const result = await consume(standardSchema("notes"), input)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.issues.map((i) => i.path)).toEqual([["a.b"]])
  })

  it("a GET endpoint checks its path parameters", async () => {
    const schema = standardSchema("account-transfer-status")
    expect(await consume(schema, { import_supplier_code: "S", external_account_number: "A" }))
      .toEqual({ ok: true, value: { import_supplier_code: "S", external_account_number: "A" } })
    const missing = await consume(schema, { import_supplier_code: "S" })
    expect(missing.ok).toBe(false)
    if (!missing.ok) expect(Object.keys(missing.fields)).toEqual(["external_account_number"])
  })

  it("property: the issues are validatePayload's errors, one each, with the code, attr and a path joining to the attr", async () => {
    for (const id of POST_ENDPOINT_IDS) {
      const schema = standardSchema(id, { now: NOW })
      await fc.assert(fc.asyncProperty(fc.oneof(arbitraryInvalidPayload(id, { now: NOW }).map((i) => i.payload), arbitraryPayload(id, { now: NOW })), async (payload) => {
        const expected = validatePayload(id, payload, { now: NOW })
        const result = await consume(schema, payload)
        expect(result.ok).toBe(expected.ok)
        if (result.ok || expected.ok) return
        expect(result.issues).toHaveLength(expected.error.errors.length)
        result.issues.forEach((issue, index) => {
          const error = expected.error.errors[index]!
          const { code, attr } = issue as { code?: string; attr?: string }
          expect({ message: issue.message, code, attr }).toEqual({ message: error.detail, code: error.code, attr: error.attr })
          expect(Object.hasOwn(ERROR_CODES, code ?? "")).toBe(true)
          expect(issue.path === undefined ? "non_field_errors" : issue.path.join(".")).toBe(error.attr)
        })
      }), { numRuns: 40, seed: 10 })
    }
  })
})

describe("the Effect schemas as Standard Schemas (Schema.toStandardSchemaV1)", () => {
  it("report the same paths as standardSchema, with Effect's messages", async () => {
    const effectSchema = Schema.toStandardSchemaV1(EnergyAmountRequest, { parseOptions: { errors: "all", onExcessProperty: "error" } })
    const ours = await consume(standardSchema("energy-amount"), readmeEnergyAmount)
    const theirs = await consume(effectSchema, readmeEnergyAmount)
    expect(ours.ok || theirs.ok).toBe(false)
    if (ours.ok || theirs.ok) return
    expect(Object.keys(theirs.fields).sort()).toEqual(Object.keys(ours.fields).sort())
    expect(await consume(effectSchema, example("energy-amount"))).toEqual({ ok: true, value: example("energy-amount") })
  })
})
