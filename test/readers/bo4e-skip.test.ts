/**
 * The BO4E reader's `skip`: a record whose cell has one of the named values is left out on purpose, as an
 * exclusion counted by the cell's name and the value, never a record nor a reject; every element still ends
 * in exactly one item.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { readBo4eRecords } from "../../src/readers/bo4e/records.js"

const energiemenge = (statuses: ReadonlyArray<string | undefined>): string => JSON.stringify({
  _typ: "Energiemenge",
  _version: "v202401.4.0",
  lokationsId: "51238696781",
  energieverbrauch: statuses.map((status, i) => ({ wert: i, obisKennzahl: "1-1:1.29.0", ...(status !== undefined ? { messwertstatus: status } : {}) }))
})

const SKIP = [{ cell: "energieverbrauch[].messwertstatus", values: ["PROGNOSEWERT", "FEHLT"] }]

describe("readBo4eRecords: skip", () => {
  it("leaves out the elements whose status is skipped, each located, and reads the others", () => {
    const items = readBo4eRecords(energiemenge(["ABGELESEN", "PROGNOSEWERT", undefined, "FEHLT"]), { records: "energieverbrauch[]", skip: SKIP })
    expect(items.map((i) => i.kind)).toEqual(["record", "exclusion", "record", "exclusion"])
    expect(items[1]).toEqual({
      kind: "exclusion",
      code: "skipped",
      reason: "messwertstatus PROGNOSEWERT",
      detail: "energieverbrauch[].messwertstatus is \"PROGNOSEWERT\", which the reader file skips",
      at: { document: 1, line: 1, path: "energieverbrauch[1]" },
      raw: "{\"wert\":1,\"obisKennzahl\":\"1-1:1.29.0\",\"messwertstatus\":\"PROGNOSEWERT\"}"
    })
    expect(items[3]).toMatchObject({ kind: "exclusion", reason: "messwertstatus FEHLT", at: { path: "energieverbrauch[3]" } })
  })

  it("reads a skip cell the mapping does not ask for, and skips a whole BO by a cell of its context", () => {
    const items = readBo4eRecords(energiemenge(["PROGNOSEWERT"]), { records: "energieverbrauch[]", skip: SKIP, columns: ["energieverbrauch[].wert"] })
    expect(items.map((i) => i.kind)).toEqual(["exclusion"])
    const bo = readBo4eRecords(JSON.stringify({ boTyp: "MARKTTEILNEHMER", marktrolle: "DP" }), { skip: [{ cell: "marktrolle", values: ["DP"] }] })
    expect(bo).toMatchObject([{ kind: "exclusion", reason: "marktrolle DP", at: { path: "$" } }])
  })

  it("property: every element is one record or one exclusion, and exactly the skipped statuses are excluded", () => {
    const status = fc.constantFrom(undefined, "ABGELESEN", "ERSATZWERT", "PROGNOSEWERT", "FEHLT", "VORLAEUFIGERWERT")
    fc.assert(fc.property(fc.array(status, { minLength: 1, maxLength: 30 }), (statuses) => {
      const items = readBo4eRecords(energiemenge(statuses), { records: "energieverbrauch[]", skip: SKIP })
      expect(items.length).toBe(statuses.length)
      items.forEach((item, i) => {
        const skipped = statuses[i] === "PROGNOSEWERT" || statuses[i] === "FEHLT"
        expect(item.kind).toBe(skipped ? "exclusion" : "record")
        expect(item.kind === "record" ? item.record["@path"] : item.at.path).toBe(`energieverbrauch[${i}]`)
      })
    }))
  })
})
