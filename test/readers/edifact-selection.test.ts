/**
 * The reader file's selection by PID and qualifier (src/readers/edifact/selection.ts) and the shipped
 * table of MSCONS codes it names them with: every record is taken or skipped with exactly one reason, the
 * PID before the qualifier; the table printed in docs/market-messages.md is the shipped one.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { MSCONS_DOCUMENT_TYPES, MSCONS_PIDS, MSCONS_QTY_QUALIFIERS } from "../../src/readers/edifact/mscons-codes.js"
import { PARTIN_PIDS } from "../../src/readers/edifact/partin-codes.js"
import type { EdifactRecord } from "../../src/readers/edifact/records.js"
import { DOCUMENT_TYPE_CELL, PID_CELL, QUALIFIER_CELL, recordSelection, selectionColumns, selectionProblems } from "../../src/readers/edifact/selection.js"

const ROOT = new URL("../../", import.meta.url).pathname
const at = { offset: 10, segment: 3, message: 1, messageReference: "M1" }
const record = (pid: string | undefined, qualifier: string): EdifactRecord => ({
  kind: "record",
  record: { ...(pid !== undefined ? { [PID_CELL]: pid } : {}), [QUALIFIER_CELL]: qualifier },
  at,
  raw: `QTY+${qualifier}:1'`
})

describe("the selection of records by PID and qualifier", () => {
  it("takes everything when neither pids nor qualifiers is set", () => {
    expect(recordSelection({})).toBeUndefined()
  })

  it("property: a record is skipped exactly when its PID or its qualifier is not selected, for the PID first", () => {
    const codes = fc.constantFrom("13002", "13006", "13007", "13019", "13022", "13025", "99999")
    const qualifiers = fc.constantFrom(...Object.keys(MSCONS_QTY_QUALIFIERS), "Z99")
    fc.assert(
      fc.property(
        fc.option(fc.uniqueArray(codes, { minLength: 1 }), { nil: undefined }),
        fc.option(fc.uniqueArray(qualifiers, { minLength: 1 }), { nil: undefined }),
        fc.option(codes, { nil: undefined }),
        qualifiers,
        (pids, taken, pid, qualifier) => {
          const select = recordSelection({ pids, qualifiers: taken })
          const item = record(pid, qualifier)
          const out = select?.(item)
          const pidOut = pids !== undefined && (pid === undefined || !pids.includes(pid))
          const qualifierOut = taken !== undefined && !taken.includes(qualifier)
          if (!pidOut && !qualifierOut) return out === undefined
          expect(out).toMatchObject({ kind: "exclusion", code: "skipped", at, raw: item.raw, record: item.record })
          const reason = pidOut ? (pid === undefined ? "no PID" : `PID ${pid}`) : `qualifier ${qualifier}`
          expect(out!.reason).toBe(reason)
          const table = pidOut ? MSCONS_PIDS : MSCONS_QTY_QUALIFIERS
          const code = pidOut ? pid : qualifier
          if (code !== undefined && Object.hasOwn(table, code)) expect(out!.detail).toContain(`${code} (${table[code]})`)
          return true
        }
      )
    )
  })

  it("property: by PID, then document type (BGM 1001), then qualifier, each skip naming the first that is not taken", () => {
    const pidCodes = fc.constantFrom("13006", "13016", "13019", "13025")
    const types = fc.constantFrom(...Object.keys(MSCONS_DOCUMENT_TYPES), "", "Z99")
    const qualifiers = fc.constantFrom("220", "Z31", "187")
    fc.assert(
      fc.property(fc.uniqueArray(pidCodes, { minLength: 1 }), fc.uniqueArray(types.filter((t) => t !== ""), { minLength: 1 }), fc.option(fc.uniqueArray(qualifiers, { minLength: 1 }), { nil: undefined }), pidCodes, types, qualifiers, (pids, documentTypes, taken, pid, type, qualifier) => {
        const item: EdifactRecord = { kind: "record", record: { [PID_CELL]: pid, ...(type !== "" ? { [DOCUMENT_TYPE_CELL]: type } : {}), [QUALIFIER_CELL]: qualifier }, at, raw: `QTY+${qualifier}:1'` }
        const out = recordSelection({ pids, documentTypes, qualifiers: taken })!(item)
        const expected = !pids.includes(pid)
          ? `PID ${pid}`
          : !documentTypes.includes(type)
          ? `document type ${type === "" ? "(none)" : type}`
          : taken !== undefined && !taken.includes(qualifier)
          ? `qualifier ${qualifier}`
          : undefined
        expect(out?.reason).toBe(expected)
        if (expected?.startsWith("document type") === true && Object.hasOwn(MSCONS_DOCUMENT_TYPES, type)) {
          expect(out!.detail).toBe(`document type ${type} (${MSCONS_DOCUMENT_TYPES[type]}) is not among the document types the reader file takes (${documentTypes.join(", ")})`)
        }
      })
    )
  })

  it("tells a Lieferschein from an energy quantity of the same PID by its document type", () => {
    const select = recordSelection({ pids: ["13006", "13016", "13019"], documentTypes: ["Z41", "Z42", "270"] })!
    const of = (pid: string, type: string): EdifactRecord => ({ kind: "record", record: { [PID_CELL]: pid, [DOCUMENT_TYPE_CELL]: type, [QUALIFIER_CELL]: "Z31" }, at, raw: "QTY+Z31:1'" })
    expect(select(of("13019", "Z41"))).toBeUndefined()
    expect(select(of("13016", "Z42"))).toBeUndefined()
    expect(select(of("13019", "7"))).toMatchObject({ code: "skipped", reason: "document type 7", detail: "document type 7 (Prozessdatenbericht) is not among the document types the reader file takes (Z41, Z42, 270)" })
    expect(select(of("13016", "Z28"))?.detail).toBe("document type Z28 (Energiemenge und Leistungsmaximum) is not among the document types the reader file takes (Z41, Z42, 270)")
  })

  it("names a record with no qualifier as such", () => {
    expect(recordSelection({ qualifiers: ["220"] })!(record("13025", ""))).toMatchObject({ reason: "qualifier (none)", detail: "qualifier (none) is not among the qualifiers the reader file takes (220)" })
  })

  it("docs/market-messages.md prints the shipped table of PIDs and qualifiers, no more, no less", () => {
    const page = readFileSync(join(ROOT, "docs", "market-messages.md"), "utf8")
    const pidRows = [...page.matchAll(/^\| (13\d{3}) \| ([^|]+) \| (?:taken|skipped) \|$/gmu)].map((m) => [m[1], m[2]!.trim()])
    const qualifierRows = [...page.matchAll(/^\| `(\w+)` \| ([^|]+) \| (?:taken|skipped) \|$/gmu)].map((m) => [m[1], m[2]!.trim()])
    // Compared by code: an object's integer-like keys ("220", "67") do not keep the BDEW's order the page keeps.
    const byCode = (rows: ReadonlyArray<ReadonlyArray<string | undefined>>) => [...rows].sort((x, y) => (x[0]! < y[0]! ? -1 : 1))
    expect(byCode(pidRows)).toEqual(byCode(Object.entries(MSCONS_PIDS)))
    expect(byCode(qualifierRows)).toEqual(byCode(Object.entries(MSCONS_QTY_QUALIFIERS)))
  })

  it("docs/market-messages.md prints the shipped table of document types, and the delivery-note example reads those marked read", () => {
    const page = readFileSync(join(ROOT, "docs", "market-messages.md"), "utf8")
    const rows = [...page.matchAll(/^\| `(\w+)` \| ([^|]+) \| (read|left out) \|$/gmu)]
    expect(Object.fromEntries(rows.map((m) => [m[1], m[2]!.trim()]))).toEqual(MSCONS_DOCUMENT_TYPES)
    const reader = JSON.parse(readFileSync(join(ROOT, "examples", "market-messages", "mscons-delivery-notes.reader.json"), "utf8")) as { documentTypes: Array<string> }
    expect(rows.filter((m) => m[3] === "read").map((m) => m[1]).sort()).toEqual([...reader.documentTypes].sort())
  })

  it("the example reader file takes what docs/market-messages.md says it takes", () => {
    const reader = JSON.parse(readFileSync(join(ROOT, "examples", "market-messages", "mscons-energy-amounts.reader.json"), "utf8")) as { pids: Array<string>; qualifiers: Array<string> }
    const page = readFileSync(join(ROOT, "docs", "market-messages.md"), "utf8")
    const taken = (pattern: RegExp) => [...page.matchAll(pattern)].filter((m) => m[2] === "taken").map((m) => m[1]).sort()
    expect(taken(/^\| (13\d{3}) \| [^|]+ \| (taken|skipped) \|$/gmu)).toEqual([...reader.pids].sort())
    expect(taken(/^\| `(\w+)` \| [^|]+ \| (taken|skipped) \|$/gmu)).toEqual([...reader.qualifiers].sort())
    // Cancellations stay accepted; the kinds the example must skip are not taken.
    expect(reader.pids).toContain("13006")
    for (const pid of ["13007", "13022", "13023"]) expect(reader.pids).not.toContain(pid)
    for (const qualifier of ["187", "20", "Z30", "201", "Z31"]) expect(reader.qualifiers).not.toContain(qualifier)
  })
})

describe("records skipped by the value of a cell (skip)", () => {
  const contact = (tag: string, nad: string, extra: Record<string, string> = {}): EdifactRecord => ({
    kind: "record",
    record: { "@record": tag, "NAD.1.1": nad, ...extra },
    at,
    raw: `${tag}+IC'`
  })
  const rules = [
    { cell: "BGM.5.1", values: { "11": "the data sheet is withdrawn" } },
    { record: "CTA", cell: "NAD.1.1", values: { MS: "the sender's contact for the exchange", DDM: "the company's own contact" } }
  ]

  it("leaves out the records a rule names, with the rule's reason, and takes the others", () => {
    const select = recordSelection({ skip: rules })!
    expect(select(contact("CTA", "MS"))).toMatchObject({
      kind: "exclusion",
      code: "skipped",
      reason: "CTA with NAD.1.1 MS",
      detail: "the CTA with NAD.1.1 \"MS\" is left out: the sender's contact for the exchange",
      record: { "@record": "CTA", "NAD.1.1": "MS" }
    })
    // A rule for CTA records leaves the NAD of the same qualifier alone.
    expect(select(contact("NAD", "MS"))).toBeUndefined()
    expect(select(contact("CTA", "Z10"))).toBeUndefined()
    // A rule without record looks at every record; the cell is compared trimmed.
    expect(select(contact("NAD", "MS", { "BGM.5.1": " 11 " }))).toMatchObject({ reason: "record with BGM.5.1 11", detail: "the NAD with BGM.5.1 \"11\" is left out: the data sheet is withdrawn" })
  })

  it("checks the PID first", () => {
    const select = recordSelection({ pids: ["37001"], skip: rules })!
    expect(select(contact("CTA", "MS", { [PID_CELL]: "37000" }))).toMatchObject({ reason: "PID 37000", detail: "PID 37000 (Kommunikationsdaten des LF Strom) is not among the PIDs the reader file takes (37001)" })
    expect(select(contact("CTA", "MS", { [PID_CELL]: "37001" }))?.reason).toBe("CTA with NAD.1.1 MS")
  })

  it("property: a record is skipped by the first rule that names its tag and value, else taken", () => {
    const tag = fc.constantFrom("NAD", "CTA", "LIN")
    const value = fc.constantFrom("MS", "MR", "DDM", "Z10", "11", "")
    const rule = fc.record({ record: fc.option(tag, { nil: undefined }), cell: fc.constantFrom("NAD.1.1", "BGM.5.1"), values: fc.dictionary(value.filter((v) => v !== ""), fc.constantFrom("why", "because"), { minKeys: 1 }) })
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 4 }), tag, value, value, (skip, t, nad, bgm) => {
        const item = contact(t, nad, { "BGM.5.1": bgm })
        const first = skip.find((r) => (r.record === undefined || r.record === t) && Object.hasOwn(r.values, r.cell === "NAD.1.1" ? nad : bgm))
        const out = recordSelection({ skip })!(item)
        if (first === undefined) expect(out).toBeUndefined()
        else expect(out?.reason).toBe(`${first.record ?? "record"} with ${first.cell} ${first.cell === "NAD.1.1" ? nad : bgm}`)
      })
    )
  })

  it("reads the cells of its rules, and refuses a rule that could never skip anything or is misspelt", () => {
    expect(selectionColumns({ skip: rules })).toEqual(["BGM.5.1", "NAD.1.1"])
    expect(selectionProblems({ skip: rules })).toEqual([])
    expect(selectionProblems({ skip: [] })).toHaveLength(1)
    expect(selectionProblems({ skip: [{ cell: "NAD.1.1", values: { " MS": "why" } }, { cel: "NAD.1.1", values: { MS: "" } }] })).toEqual([
      "skip[0].values: the values that leave a record out, each with why ({ \"MS\": \"the sender's contact\" }); no blank value, no space around one",
      "skip[1]: unknown key \"cel\" (known: record, cell, values)",
      "skip[1].cell: the cell looked at (\"NAD.1.1\")",
      "skip[1].values: the values that leave a record out, each with why ({ \"MS\": \"the sender's contact\" }); no blank value, no space around one"
    ])
  })

  it("names every PARTIN PID of AHB 1.0e and 1.0f", () => {
    expect(Object.keys(PARTIN_PIDS)).toEqual(["37000", "37001", "37002", "37003", "37004", "37005", "37006", "37008", "37009", "37010", "37011", "37012", "37013", "37014"])
  })
})
