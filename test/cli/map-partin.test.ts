/**
 * `data-import map` of PARTIN communication data sheets straight to the market participant endpoint, run
 * as a child process: examples/market-messages/partin-market-participants.mapping.json over the constructed
 * interchanges of test/fixtures/market-messages/constructed/partin (their README names the guide version
 * and the facts each reproduces). Every expected payload is worked out by hand from the segments of the
 * file; the payloads then pass `data-import validate`.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const MAPPING = join(ROOT, "examples", "market-messages", "partin-market-participants.mapping.json")
const FIXTURES = join(ROOT, "test", "fixtures", "market-messages", "constructed", "partin")
const dir = tempDir()
let runs = 0

const map = async (...inputs: ReadonlyArray<string>) => {
  const name = `run-${++runs}`
  const out = join(dir, `${name}.ndjson`)
  const rejects = join(dir, `${name}.rejects.ndjson`)
  const excluded = join(dir, `${name}.excluded.ndjson`)
  const result = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, "--excluded", excluded, ...inputs.map((i) => (i.includes("/") ? i : join(FIXTURES, i)))])
  return { ...result, out, payloads: lines(readFileSync(out, "utf8")), rejected: lines(readFileSync(rejects, "utf8")), excluded: lines(readFileSync(excluded, "utf8")) }
}

/** The payloads of a run pass the project's own check, as a user would run it. */
const validated = async (file: string, count: number) => {
  const result = await runCli(["validate", "-e", "market-participant", file])
  expect(result.stdout).toContain(`records ${count}  valid ${count}  invalid 0  unparseable 0`)
  expect(result.code).toBe(0)
}

const skipped = (run: { readonly excluded: ReadonlyArray<Record<string, unknown>> }) => run.excluded.map((e) => `${String((e["lines"] as Array<number>)[0])} ${String(e["reason"])}`)

const NORD = {
  code: 9900000000011,
  code_type: "BDEW",
  name: "Netzgesellschaft Nord GmbH",
  role: "NETWORK_OPERATOR",
  energy: "ELECTRICITY"
}

const ORDINARY = {
  ...NORD,
  contact_details: [
    { category: "Z10", name: "Marktkommunikation", email: "mako@netz-nord.example", phone: "+49 431 123456-100", valid_from: "2025-04-01T00:00:00+02:00" },
    { category: "Z17", name: "Netzabrechnung", email: "netzabrechnung@netz-nord.example", phone: "+49 431 123456-200", valid_from: "2025-04-01T00:00:00+02:00" }
  ]
}

const REPLACEMENT = {
  ...NORD,
  contact_details: [
    { category: "Z10", name: "Marktkommunikation", email: "marktkommunikation@netz-nord.example", phone: "+49 431 123456-150", valid_from: "2025-07-01T00:00:00+02:00" },
    { category: "Z17", name: "Netzabrechnung", email: "netzabrechnung@netz-nord.example", phone: "+49 431 123456-200", valid_from: "2025-07-01T00:00:00+02:00" }
  ]
}

describe("data-import map: PARTIN to a market participant", () => {
  it("maps an ordinary data sheet of a network operator to one payload with its contacts; the rest is listed", async () => {
    const run = await map("a-ordinary.edi")
    expect(run.code).toBe(0)
    expect(run.payloads).toEqual([ORDINARY])
    expect(run.rejected).toEqual([])
    expect(skipped(run)).toEqual(["9 CTA with NAD.1.1 MS", "15 CTA with NAD.1.1 DDM", "17 NAD with NAD.1.1 Z10", "21 NAD with NAD.1.1 Z17", "25 NAD with NAD.1.1 Z33"])
    expect(run.excluded[0]!["detail"]).toBe(
      `${join(FIXTURES, "a-ordinary.edi")}: message \"PTN1\" (#1), segment 9 at byte 231: the CTA with NAD.1.1 \"MS\" is left out: the contact of the message's sender for this exchange (SG3): the API's contact has no category for it`
    )
    expect(run.stderr).toContain("a-ordinary.edi: 10 rows read = 5 in 1 payload (market-participant) + 0 rejected + 5 excluded")
    await validated(run.out, 1)
  })

  it("gives the same payload with a decimal comma in UNA: PARTIN carries no number", async () => {
    const run = await map("b-ordinary-comma.edi")
    expect(run.code).toBe(0)
    expect(run.payloads).toEqual([ORDINARY])
    expect(run.excluded).toHaveLength(5)
  })

  it("skips a supplier's data sheet by its PID, naming the role, and makes no payload", async () => {
    const run = await map("c-supplier.edi")
    expect(run.code).toBe(0)
    expect(run.payloads).toEqual([])
    expect(run.rejected).toEqual([])
    expect(skipped(run)).toEqual(["8 PID 37000", "9 PID 37000", "11 PID 37000", "12 PID 37000", "13 PID 37000"])
    for (const e of run.excluded) expect(e["detail"]).toContain("PID 37000 (Kommunikationsdaten des LF Strom) is not among the PIDs the reader file takes (37001, 37005, 37009, 37012)")
  })

  it("maps a gas network operator's sheet of PARTIN 1.0f, its DVGW code and GAS each a warning", async () => {
    const run = await map("d-gas-1.0f.edi")
    expect(run.code).toBe(0)
    expect(run.payloads).toEqual([{
      code: 9870000000017,
      code_type: "DVGW",
      name: "Gasnetz Foerde GmbH",
      role: "NETWORK_OPERATOR",
      energy: "GAS",
      contact_details: [
        { category: "Z10", name: "Datenaustausch Gas", email: "edi@gasnetz-foerde.example", phone: "+49 4331 7788-10", valid_from: "2026-05-01T00:00:00+02:00" },
        { category: "Z14", name: "Stammdaten", email: "stammdaten@gasnetz-foerde.example", valid_from: "2026-05-01T00:00:00+02:00" }
      ]
    }])
    expect(skipped(run)).toEqual(["12 NAD with NAD.1.1 Z10", "16 NAD with NAD.1.1 Z14"])
    expect(run.stderr).toContain("code_type unknown_choice \"DVGW\" is not among the values the spec lists (BDEW).")
    expect(run.stderr).toContain("energy unknown_choice \"GAS\" is not among the values the spec lists (ELECTRICITY).")
    await validated(run.out, 1)
  })

  it("maps a replacement as a payload of its own; given with its predecessor, the later sheet alone goes out", async () => {
    const run = await map("e-replacement.edi")
    expect(run.code).toBe(0)
    expect(run.payloads).toEqual([REPLACEMENT])
    expect(skipped(run)).toEqual(["10 CTA with NAD.1.1 MS", "15 NAD with NAD.1.1 Z10", "19 NAD with NAD.1.1 Z17"])
    await validated(run.out, 1)
    // The API keeps the first data sheet of a code it gets (200, no change): the reader file's
    // versions.documents (participant and PID) leaves every sheet but the latest (DTM+137) out, whichever
    // file comes first. The earlier sheet's records are superseded, each naming the sheet that replaces it;
    // those skipped for what they are stay skipped as such.
    const earlierRecords = ["8 superseded", "9 CTA with NAD.1.1 MS", "11 superseded", "13 superseded", "15 CTA with NAD.1.1 DDM", "17 NAD with NAD.1.1 Z10", "18 superseded", "21 NAD with NAD.1.1 Z17", "22 superseded", "25 NAD with NAD.1.1 Z33"]
    const both = await map("a-ordinary.edi", "e-replacement.edi")
    expect(both.code).toBe(0)
    expect(both.payloads).toEqual([REPLACEMENT])
    expect(skipped(both)).toEqual([...earlierRecords, ...skipped(run)])
    for (const e of both.excluded.filter((e) => e["reason"] === "superseded")) {
      expect(String(e["detail"])).toContain('message "PTN7" (#1) of ')
      expect(String(e["detail"])).toContain('BGM "PTN-NN-2025-002"')
    }
    const reversed = await map("e-replacement.edi", "a-ordinary.edi")
    expect(reversed.payloads).toEqual([REPLACEMENT])
    expect(skipped(reversed)).toEqual([...skipped(run), ...earlierRecords])
  })

  it("through one ledger: an older sheet in a later run is superseded, a newer one a conflict naming both", async () => {
    const journalled = async (ledger: string, file: string, fresh: boolean) => {
      const name = `run-${++runs}`
      const out = join(dir, `${name}.ndjson`)
      const rejects = join(dir, `${name}.rejects.ndjson`)
      const excluded = join(dir, `${name}.excluded.ndjson`)
      const result = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, "--excluded", excluded, "--journal", ledger, ...(fresh ? ["--new-ledger"] : []), join(FIXTURES, file)])
      return { ...result, payloads: lines(readFileSync(out, "utf8")), rejected: lines(readFileSync(rejects, "utf8")), excluded: lines(readFileSync(excluded, "utf8")) }
    }
    // The replacement first: the older sheet mapped later is left out, record by record, the skips as before.
    const newerFirst = join(dir, "newer-first.ledger")
    expect((await journalled(newerFirst, "e-replacement.edi", true)).payloads).toEqual([REPLACEMENT])
    const older = await journalled(newerFirst, "a-ordinary.edi", false)
    expect(older.code).toBe(0)
    expect(older.payloads).toEqual([])
    expect(older.rejected).toEqual([])
    expect(skipped(older)).toEqual(["8 superseded", "9 CTA with NAD.1.1 MS", "11 superseded", "13 superseded", "15 CTA with NAD.1.1 DDM", "17 NAD with NAD.1.1 Z10", "18 superseded", "21 NAD with NAD.1.1 Z17", "22 superseded", "25 NAD with NAD.1.1 Z33"])
    expect(String(older.excluded[0]!["detail"])).toContain("superseded by the version mapped in run 1 from ")
    // The older sheet first (it may have been sent: the API keeps it): the replacement is refused, naming both.
    const olderFirst = join(dir, "older-first.ledger")
    expect((await journalled(olderFirst, "a-ordinary.edi", true)).payloads).toEqual([ORDINARY])
    const newer = await journalled(olderFirst, "e-replacement.edi", false)
    expect(newer.code).toBe(1)
    expect(newer.payloads).toEqual([])
    // The sheet's five records outside the skips (NAD+MS, NAD+MR, NAD+DDM and the two CTAs) are rejected together.
    expect(newer.rejected.flatMap((r) => r["lines"] as Array<number>)).toEqual([9, 12, 14, 16, 20])
    const detail = JSON.stringify(newer.rejected)
    expect(detail).toContain("version_conflict")
    expect(detail).toContain('document PTN-NN-2025-002 of 9900000000011')
    expect(detail).toContain('document PTN-NN-2025-001 of 9900000000011')
  })

  it("skips every record of a withdrawn data sheet (BGM 1373 11) with why", async () => {
    const run = await map("f-withdrawal.edi")
    expect(run.code).toBe(0)
    expect(run.payloads).toEqual([])
    expect(skipped(run)).toEqual(["8 record with BGM.5.1 11", "9 record with BGM.5.1 11"])
    expect(run.excluded[0]!["detail"]).toContain("the NAD with BGM.5.1 \"11\" is left out: the communication data sheet is withdrawn (BGM 1373 11, Dokument nicht verfügbar)")
  })

  it("a damaged message costs itself alone: its records are rejected, located; the intact one maps", async () => {
    const run = await map("g-damaged.edi")
    expect(run.code).toBe(1)
    expect(run.payloads).toEqual([{
      code: 9900000000059,
      code_type: "BDEW",
      name: "Uebertragungsnetz Mitte GmbH",
      role: "NETWORK_OPERATOR",
      energy: "ELECTRICITY",
      contact_details: [{ category: "Z21", name: "Bilanzkreismanagement", email: "bkm@uenb-mitte.example", phone: "+49 561 9900-21", valid_from: "2025-11-01T00:00:00+01:00" }]
    }])
    expect(skipped(run)).toEqual(["12 NAD with NAD.1.1 Z21"])
    expect(run.rejected.map((r) => r["lines"])).toEqual([[22], [23], [25], [26], [27]])
    expect(run.rejected.map((r) => r["raw"])).toEqual([
      ["NAD+MS+9900000000059::293'"], ["NAD+MR+9900000000066::293'"],
      ["NAD+Z31+9900000000059::293++Uebertragungsnetz Mitte GmbH:::::Z02+Leitungsallee 1+Kassel++34117+DE'"],
      ["NAD+Z21+9900000000059::293++Uebertragungsnetz Mitte GmbH:::::Z02+Leitungsallee 1+Kassel++34117+DE'"],
      // A record of a damaged message is rejected as its record segment, not read further.
      ["CTA+IC+:Bilanzkreismanagement'"]
    ])
    for (const r of run.rejected) {
      const [error] = r["errors"] as Array<{ readonly detail: string }>
      expect(error!.detail).toMatch(/g-damaged\.edi: message "U2" \(#2\), segment \d+ at byte \d+: segment_count_mismatch: UNT says the message has 15 segments; it has 14 \(UNH to UNT\)$/u)
    }
    await validated(run.out, 1)
  })

  it("refuses a data sheet whole when a phone number is national, naming the number", async () => {
    const national = readFileSync(join(FIXTURES, "a-ordinary.edi"), "latin1").replace("COM+?+49 431 123456-200:TE", "COM+0431 123456-200:TE")
    const run = await map(write(dir, "national.edi", national))
    expect(run.code).toBe(1)
    expect(run.payloads).toEqual([])
    const text = JSON.stringify(run.rejected)
    expect(text).toContain("0431 123456-200")
    expect(text).toContain("invalid_phone_number")
    expect(text).toContain("document_incomplete")
    // Every row of the document is rejected, none lost: 5 rows of the payload, 5 skipped as before.
    expect(run.rejected.flatMap((r) => r["lines"] as Array<number>).sort((a, b) => a - b)).toEqual([8, 11, 13, 18, 22])
    expect(run.excluded).toHaveLength(5)
  })

  it("cross-check: every person under a contact category is one contact, every record one outcome, over all fixtures", async () => {
    const files = ["a-ordinary.edi", "c-supplier.edi", "d-gas-1.0f.edi", "e-replacement.edi", "f-withdrawal.edi", "g-damaged.edi"]
    const run = await map(...files)
    // Counted from the segments, apart from the reader: the CTAs under NAD+Z10…Z33 of the messages the
    // example takes (PIDs 37001, 37005, 37009, 37012), not withdrawn, not damaged (g's second message).
    // A later sheet of the same participant (NAD+MS) and PID replaces an earlier one (DTM+137, written as
    // YYYYMMDDHHMM, so text order is time order): only the latest of each is counted.
    const sheets: Array<{ readonly key: string; readonly dated: string; readonly contacts: number; readonly taken: boolean; readonly others: number }> = []
    let records = 0
    for (const file of files) {
      const text = readFileSync(join(FIXTURES, file), "latin1").replace(/^UNA....../u, "")
      const messages = text.split(/'(?=UNH\+)/u).slice(1)
      messages.forEach((message, i) => {
        const segments = message.split(/(?<!\?)'/u)
        records += segments.filter((s) => /^(?:NAD|CTA)\+/u.test(s)).length
        const pid = /RFF\+Z13:(\d+)/u.exec(message)![1]!
        const taken = ["37001", "37005", "37009", "37012"].includes(pid) && !/^BGM\+10\+[^+']*\+\+\+11/mu.test(message) && !(file === "g-damaged.edi" && i === 1)
        let nad = ""
        let contacts = 0
        for (const s of segments) {
          if (s.startsWith("NAD+")) nad = s.slice(4, 7)
          if (s.startsWith("CTA+") && taken && /^Z(?:1[0-9]|2[01]|33)$/u.test(nad)) contacts++
        }
        const key = `${/NAD\+MS\+(\d+)/u.exec(message)?.[1] ?? ""} ${pid}`
        sheets.push({ key, dated: /DTM\+137:(\d+)/u.exec(message)?.[1] ?? "", contacts, taken, others: 0 })
      })
    }
    const latest = sheets.filter((a) => a.taken && !sheets.some((b) => b.taken && b.key === a.key && b.dated > a.dated))
    const contacts = latest.reduce((sum, sheet) => sum + sheet.contacts, 0)
    const made = run.payloads.flatMap((p) => p["contact_details"] as Array<unknown>).length
    expect(made).toBe(contacts)
    expect(contacts).toBe(5)
    // a-ordinary's sheet is replaced by e-replacement's: its NAD+MS, NAD+MR, NAD+DDM and two CTAs.
    expect(run.excluded.filter((e) => e["reason"] === "superseded")).toHaveLength(5)
    const inPayloads = 5 + 5 + 4
    expect(inPayloads + run.rejected.length + run.excluded.length).toBe(records)
    expect(run.rejected).toHaveLength(5)
  })

  it("property: a data sheet with N contact categories of one person each maps to one payload with N contacts", async () => {
    const categories = ["Z10", "Z11", "Z12", "Z13", "Z14", "Z16", "Z17", "Z18", "Z19", "Z20", "Z21", "Z33"]
    const sheets = fc.sample(fc.uniqueArray(fc.constantFrom(...categories), { minLength: 0, maxLength: 12 }), { numRuns: 12, seed: 43 })
    const message = (n: number, chosen: ReadonlyArray<string>) => {
      const segments = [
        `UNH+M${n}+PARTIN:D:20B:UN:1.0e`, `BGM+10+DOC-${n}`, "DTM+137:202503120815?+00:303", "RFF+Z13:37001", "DTM+157:202503312200?+00:303",
        // Each its own participant: sheets of one participant and PID replace each other.
        `NAD+MS+${9900000000100 + n}::293`, "NAD+MR+9900000000028::293", "UNS+D", `NAD+DDM+9900000000011::293++Netz ${n} GmbH:::::Z02+Weg 1+Kiel++24103+DE`,
        ...chosen.flatMap((c) => [`NAD+${c}+9900000000011::293++Netz ${n} GmbH`, `CTA+IC+:Team ${c}`, `COM+${c.toLowerCase()}-${n}@netz.example:EM`])
      ]
      return `${segments.join("'")}'UNT+${segments.length + 1}+M${n}'`
    }
    const text = `UNA:+.? 'UNB+UNOC:3+9900000000011:500+9900000000028:500+250312:0815+P1'${sheets.map((s, n) => message(n, s)).join("")}UNZ+${sheets.length}+P1'`
    const run = await map(write(dir, "generated.edi", text))
    expect(run.rejected).toEqual([])
    expect(run.payloads.map((p) => p["name"])).toEqual(sheets.map((_, n) => `Netz ${n} GmbH`))
    run.payloads.forEach((p, n) => {
      expect(p["contact_details"] ?? []).toEqual(sheets[n]!.map((c) => ({ category: c, name: `Team ${c}`, email: `${c.toLowerCase()}-${n}@netz.example`, valid_from: "2025-04-01T00:00:00+02:00" })))
    })
    expect(run.excluded).toHaveLength(sheets.reduce((sum, s) => sum + s.length, 0))
    await validated(run.out, sheets.length)
  })
})
