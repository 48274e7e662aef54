/**
 * Value tables in turn (`"values": [table, table, …]`): the cell is looked up in the first table, its value
 * in the next, and so on, so one table can be shared by mappings whose sources write other codes: the PARTIN
 * example translates a PID into a market role, and the market role through the table the BO4E example reads.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { mappingProblems } from "../../src/mappers/define-mapping.js"
import { readField } from "../../src/mappers/field-source.js"
import { resolveValueTables } from "../../src/readers/lookup/value-table-files.js"

const PIDS = { "37000": "LF", "37001": "NB", "37005": "UENB", "37009": "NB" }
const ROLES = { NB: "NETWORK_OPERATOR", UENB: "NETWORK_OPERATOR" }

describe("value tables in turn", () => {
  it("translate the cell through each table, rejecting a code any of them does not know, naming the table", () => {
    const source = { column: "PID", values: [PIDS, ROLES] }
    expect(readField(source, { PID: " 37001 " })).toEqual({ ok: true, value: "NETWORK_OPERATOR", stated: true })
    expect(readField(source, { PID: "37005" })).toEqual({ ok: true, value: "NETWORK_OPERATOR", stated: true })
    expect(readField(source, { PID: "37099" })).toMatchObject({ ok: false, code: "unknown_value", detail: 'PID "37099" is not in the value table (known: "37000", "37001", "37005", "37009")' })
    expect(readField(source, { PID: "37000" })).toMatchObject({ ok: false, code: "unknown_value", detail: 'PID through value table 2: "LF" is not in the value table (known: "NB", "UENB")' })
    expect(readField(source, { PID: "" })).toEqual({ ok: true, value: undefined, stated: false })
  })

  it("refuse a value at whichever step it comes, and give the default for a code unknown at any step", () => {
    const refusing = { column: "PID", values: [PIDS, ROLES], refuse: { LF: "a supplier: the API's role has no value for it" } }
    expect(readField(refusing, { PID: "37000" })).toMatchObject({ ok: false, code: "refused_value", detail: 'PID "LF" is refused: a supplier: the API\'s role has no value for it' })
    const defaulting = { column: "PID", values: [PIDS, ROLES], default: "OTHER" }
    expect(readField(defaulting, { PID: "37000" })).toEqual({ ok: true, value: "OTHER", stated: true })
    expect(readField(defaulting, { PID: "1" })).toEqual({ ok: true, value: "OTHER", stated: true })
    // null at a step leaves the field out; the tables after it are not asked.
    expect(readField({ column: "PID", values: [{ "37001": null }, ROLES] }, { PID: "37001" })).toEqual({ ok: true, value: undefined, stated: true })
  })

  it("property: a chain gives what looking up each table by hand gives", () => {
    const code = fc.constantFrom("a", "b", "c", "d")
    const table = fc.dictionary(code, code, { maxKeys: 4 })
    fc.assert(
      fc.property(fc.array(table, { minLength: 1, maxLength: 4 }), code, (tables, cell) => {
        let key: string | undefined = cell
        for (const t of tables) key = key !== undefined && Object.hasOwn(t, key) ? t[key] : undefined
        const out = readField({ column: "X", values: tables }, { X: cell })
        if (key === undefined) expect(out).toMatchObject({ ok: false, code: "unknown_value" })
        else expect(out).toEqual({ ok: true, value: key, stated: true })
      })
    )
  })

  it("read each table of a chain from its file, and check each table's keys", async () => {
    const files: Record<string, string> = { "pids.json": JSON.stringify(PIDS), "roles.csv": "from;to\nNB;NETWORK_OPERATOR\nUENB;NETWORK_OPERATOR\n" }
    const { spec, problems } = await resolveValueTables({ endpoint: "market-participant", fields: { role: { column: "PID", values: [{ file: "pids.json" }, { file: "roles.csv" }] } } }, (f) => files[f]!)
    expect(problems).toEqual([])
    expect(spec).toEqual({ endpoint: "market-participant", fields: { role: { column: "PID", values: [PIDS, ROLES] } } })
    expect(mappingProblems({ endpoint: "market-participant", fields: { role: { column: "PID", values: [PIDS, { "NB ": "NETWORK_OPERATOR" }] } } })).toEqual([
      { at: "fields.role", code: "invalid_mapping", detail: 'the value table 2: the key "NB " is "NB" with space around it: cells are trimmed before the look-up, so it is never found' }
    ])
    expect(mappingProblems({ endpoint: "market-participant", fields: { role: { column: "PID", values: [] } } })).not.toEqual([])
  })
})
