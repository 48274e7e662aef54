/**
 * A generated validators file that no longer fits the schemas (before `npm run generate` is run again,
 * say) is not used: `compileValidator` then answers through `validatePayload` alone. Here the generated
 * module is replaced by one whose checks accept anything, with refs that no longer match the schemas.
 */
import { describe, expect, it, vi } from "vitest"
import { compileValidator, type EndpointId, validatePayload } from "../../src/index.js"
import type { GeneratedValidator } from "../../src/validation/generated-runtime.js"

vi.mock("../../src/validation/generated/validators.js", async (importOriginal) => {
  const { GENERATED_VALIDATORS: real } = await importOriginal<typeof import("../../src/validation/generated/validators.js")>()
  /** The endpoint's generated validator with `refs` instead of its own, whose check accepts anything. */
  const stale = (id: string, refs: (own: ReadonlyArray<string>) => ReadonlyArray<string>): GeneratedValidator => {
    const own = real[id]!
    return { ...own, refs: refs(own.refs), make: () => () => true }
  }
  const GENERATED_VALIDATORS: Record<string, GeneratedValidator | undefined> = {
    ...real,
    // None for this endpoint.
    "energy-amount": undefined,
    // A ref more than the schemas give (the others match).
    notes: stale("notes", (own) => [...own, "rule added(field)"]),
    // The refs of the schemas, one relabelled.
    transactions: stale("transactions", (own) => own.map((label, i) => (i === 2 ? "rule renamed(field)" : label))),
    // The schemas' refs exactly: this stale check is used, as the test of the file would say it is current.
    "delivery-note": stale("delivery-note", (own) => own)
  }
  return { GENERATED_VALIDATORS }
})

const BROKEN = { import_supplier: 5 }

describe("compileValidator with a generated file that does not fit the schemas", () => {
  for (const id of ["energy-amount", "notes", "transactions"] as const satisfies ReadonlyArray<EndpointId>) {
    it(`answers ${id} through validatePayload, not the generated check`, () => {
      const result = compileValidator(id)(BROKEN)
      expect(result).toEqual(validatePayload(id, BROKEN))
      expect(result.ok).toBe(false)
    })
  }

  it("(control) uses a generated check whose refs match the schemas: here the replaced one, which accepts anything", () => {
    expect(compileValidator("delivery-note")(BROKEN).ok).toBe(true)
  })
})
