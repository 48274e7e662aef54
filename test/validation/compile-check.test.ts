/**
 * The accept-only checks compiled from the schemas: one for every endpoint, the clock only where a rule
 * needs it, compiled once; where the runtime makes no code from strings, none, and `compileValidator`
 * answers through the reporter alone. And the code point count of a length check, on its own.
 */
import { describe, expect, it, vi } from "vitest"
import { ENDPOINT_IDS, endpoints } from "../../src/index.js"
import { compileCheck } from "../../src/validation/compile-check.js"
import { countCodePointsUpTo } from "../../src/validation/compile/check-helpers.js"

describe("compileValidator where code cannot be made from strings", () => {
  // Modules of their own: a compiled check (or none) is kept per schema.
  const fresh = async () => {
    vi.resetModules()
    return {
      ...(await import("../../src/index.js")),
      ...(await import("../../src/validation/compile-check.js"))
    }
  }

  it("has no check, and answers every input through validatePayload", async () => {
    const { compileCheck, compileValidator, endpoints, validatePayload } = await fresh()
    const ast = endpoints["payment-instruction"].request.ast
    // As under --disallow-code-generation-from-strings or a content security policy.
    vi.stubGlobal("Function", function () {
      throw new EvalError("Code generation from strings disallowed for this context")
    })
    try {
      expect(compileCheck(ast)).toBeUndefined()
      const validate = compileValidator("payment-instruction")
      const valid = { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", vendor: "Adyen", reference: "R-1", type: "CARD" }
      for (const input of [valid, { ...valid, type: "SEPA" }, { ...valid, vendor: "" }, 5]) {
        expect(validate(input)).toEqual(validatePayload("payment-instruction", input))
      }
      expect(validate(valid).ok).toBe(true)
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it("passes on any other failure to compile", async () => {
    const { compileCheck, endpoints } = await fresh()
    vi.stubGlobal("Function", function () {
      throw new SyntaxError("Unexpected token")
    })
    try {
      expect(() => compileCheck(endpoints["account-transfer-status"].request.ast)).toThrow(SyntaxError)
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe("compileCheck", () => {
  it("compiles a check for every endpoint, once per schema", () => {
    for (const id of ENDPOINT_IDS) {
      const compiled = compileCheck(endpoints[id].request.ast)
      expect(compiled, id).toBeDefined()
      expect(compileCheck(endpoints[id].request.ast)).toBe(compiled)
    }
  })

  it("needs the clock only where a rule does (transactions)", () => {
    expect(ENDPOINT_IDS.filter((id) => compileCheck(endpoints[id].request.ast)!.clock)).toEqual(["transactions"])
  })
})

describe("countCodePointsUpTo", () => {
  it("counts code points, not UTF-16 units, and stops at the limit", () => {
    expect(countCodePointsUpTo("", 5)).toBe(0)
    expect(countCodePointsUpTo("a😀b", 10)).toBe(3)
    expect(countCodePointsUpTo("abcdef", 3)).toBe(3)
    expect(countCodePointsUpTo("abcdef", 6)).toBe(6)
    expect(countCodePointsUpTo("abcdef", 7)).toBe(6)
  })
})
