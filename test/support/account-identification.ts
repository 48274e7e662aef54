import { describe, expect, it } from "vitest"
import { type PostEndpointId, validatePayload } from "../../src/index.js"
import { errorsOf, exampleWith, ofLength, setAt } from "./payloads.js"

/** The length limits of `import_supplier` (32) and `external_account_number` (128), shared by every post-import body. */
export const describeAccountIdentificationLimits = (id: PostEndpointId): void => {
  describe("limits of the account identification", () => {
    it("import_supplier of 33 and external_account_number of 129 characters → max_length", () => {
      const input = setAt(exampleWith(id, "import_supplier", ofLength(33)), "external_account_number", ofLength(129))
      expect(errorsOf(validatePayload(id, input))).toStrictEqual([
        ["import_supplier", "max_length"],
        ["external_account_number", "max_length"]
      ])
    })

    it("import_supplier of 32 and external_account_number of 128 characters are accepted", () => {
      const input = setAt(exampleWith(id, "import_supplier", ofLength(32)), "external_account_number", ofLength(128))
      expect(validatePayload(id, input).ok).toBe(true)
    })
  })
}
