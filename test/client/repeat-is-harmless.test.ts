/**
 * `isRepeatHarmless`: which requests of unknown outcome may be sent again, by the service's rules as the
 * catalogue declares them per endpoint.
 */
import { describe, expect, it } from "vitest"
import { ENDPOINT_IDS, isRepeatHarmless } from "../../src/index.js"

const account = { import_supplier: "S", external_account_number: "1" }

describe("isRepeatHarmless", () => {
  it("holds for the reads and for market-participant, and for no other endpoint whatever the body", () => {
    const harmless = ENDPOINT_IDS.filter((id) => isRepeatHarmless(id, {}, { check_previously_added: false }))
    expect(harmless).toEqual([
      "account-transfer-status",
      "all-account-import-processes",
      "pending-account-import-processes",
      "imported-account-import-processes",
      "market-participant"
    ])
  })

  it("holds for notes only when every note gives created_at", () => {
    const note = { body: "Call back", created_at: "2024-05-01T10:00:00Z" }
    expect(isRepeatHarmless("notes", { ...account, notes: [note] })).toBe(true)
    expect(isRepeatHarmless("notes", { ...account, notes: [note, { body: "Again" }] })).toBe(false)
    expect(isRepeatHarmless("notes", { ...account, notes: [] })).toBe(false)
  })

  it("holds for transactions only with check_previously_added, which is the default", () => {
    expect(isRepeatHarmless("transactions", { ...account, transactions: [] })).toBe(true)
    expect(isRepeatHarmless("transactions", { ...account, transactions: [] }, { check_previously_added: false })).toBe(false)
    // Forcing into the open statement period comes after the check: a repeat is still already there.
    expect(isRepeatHarmless("transactions", { ...account, transactions: [] }, { force_add_to_current_statement: true })).toBe(true)
    expect(isRepeatHarmless("transactions", { ...account, transactions: [] }, { check_previously_added: false, force_add_to_current_statement: false })).toBe(false)
  })
})
