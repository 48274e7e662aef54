/**
 * `data-import map` of PRICAT price catalogues to price sheets (`market-participant-fees`), run as a child
 * process: examples/market-messages/pricat-market-participant-fees.{mapping,reader}.json on the constructed
 * interchanges of test/fixtures/market-messages/constructed/pricat (PRICAT MIG and AHB 2.0c, PIDs 27002 and
 * 27003; its README names what each file reproduces) and on the synthetic mako sample. Every expected
 * payload is worked out by hand from the interchange: a `PRI+CAL` price is in EUR (`CUX+2:EUR:8`), so its
 * cents are the price with the point moved two places (0.0712 EUR → "7.12").
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const MAPPING = join(ROOT, "examples", "market-messages", "pricat-market-participant-fees.mapping.json")
const FIXTURES = join(ROOT, "test", "fixtures", "market-messages", "constructed", "pricat")
const fixture = (name: string): string => join(FIXTURES, name)
const dir = tempDir()

const map = async (name: string, ...inputs: Array<string>) => {
  const out = join(dir, `${name}.ndjson`)
  const rejects = join(dir, `${name}.rejects.ndjson`)
  const excluded = join(dir, `${name}.excluded.ndjson`)
  const lineage = join(dir, `${name}.lineage.ndjson`)
  const result = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, "--excluded", excluded, "--lineage", lineage, ...inputs])
  return {
    ...result,
    out,
    payloads: lines(readFileSync(out, "utf8")),
    rejected: lines(readFileSync(rejects, "utf8")),
    excluded: lines(readFileSync(excluded, "utf8")),
    lineage: lines(readFileSync(lineage, "utf8"))
  }
}

// NN-2024-0001: the grid-usage sheet (BGM+Z64) of grid operator 9900123000003, valid from
// DTM+157 202312312300+00 = 1 January 2024 00:00 in Berlin; four articles, one price each.
const Z64 = {
  market_participant_code: 9900123000003,
  price_sheet_type: "Z64",
  document_number: "NN-2024-0001",
  is_price_sheet_unused: false,
  active_from: "2024-01-01T00:00:00+01:00",
  article_prices: [
    { article_id: "1-01-6-005", price_cents: "7.12" }, // 0.0712 EUR
    { article_id: "1-01-9-001", price_cents: "6125" }, // 61.25 EUR
    { article_id: "1-02-0-015", price_cents: "15.63" }, // 0.1563 EUR
    { article_id: "1-03-8-001", price_cents: "1150.4" } // 11.504 EUR
  ]
}

// NN-2024-0002: the concession-levy sheet (BGM+Z70, PGI+Z01) of the same operator: two zones of one
// group article (RNG+10+KWH: 0–2500.5 and 2500.5–50000 kWh) and one article without zones.
const Z70 = {
  market_participant_code: 9900123000003,
  price_sheet_type: "Z70",
  document_number: "NN-2024-0002",
  is_price_sheet_unused: false,
  active_from: "2024-01-01T00:00:00+01:00",
  article_prices: [
    { article_id: "1-05-1-09162000-01-1", price_cents: "2.39", interval_zone: { lower_bound: 0, upper_bound: 2500.5 } }, // 0.0239 EUR
    { article_id: "1-05-1-09162000-01-2", price_cents: "1.99", interval_zone: { lower_bound: 2500.5, upper_bound: 50000 } }, // 0.0199 EUR
    { article_id: "1-05-1-09162000-02", price_cents: "0.11" } // 0.0011 EUR
  ]
}

/**
 * The records of the two priced sheets of the ordinary interchange, by segment number (UNA is 1): each
 * message's BGM (its header), then its LINs.
 */
const ORDINARY_LINES = [[4, 14, 16, 18, 20], [24, 32, 35, 38]]

/** NN-2024-0003 (BGM+Z67+…+++11, segment 42): a sheet not used, no article; the API wants at least one. */
const UNUSED = { lines: [42], errors: [{ attr: "price_sheets.0.article_prices", code: "empty", detail: "This list may not be empty." }] }
const unusedIn = (file: string) => expect.objectContaining({ file, ...UNUSED })

describe("data-import map: PRICAT to price sheets", () => {
  it("maps each price catalogue to one price sheet with every article price of it, in cents, exactly", async () => {
    const result = await map("ordinary", fixture("ordinary-27003.edi"))
    expect(result.excluded).toEqual([])
    expect(result.payloads).toEqual([{ price_sheets: [Z64] }, { price_sheets: [Z70] }])
    // Nothing lost: each BGM and LIN is in exactly one payload, or the sheet not used is refused, located.
    expect(result.lineage.map((l) => l["lines"])).toEqual(ORDINARY_LINES)
    expect(result.rejected).toEqual([unusedIn(fixture("ordinary-27003.edi"))])
    expect(result.stderr).toContain("10 rows read = 9 in 2 payloads (market-participant-fees) + 1 rejected")
    for (const payload of result.payloads) expect(validatePayload("market-participant-fees", payload).ok).toBe(true)
    // The project's own check of what map wrote.
    const validated = await runCli(["validate", "--endpoint", "market-participant-fees", result.out])
    expect(validated.code).toBe(0)
    expect(validated.stdout + validated.stderr).toContain("records 2  valid 2  invalid 0")
  })

  it("gives the same payloads for the same interchange written with a decimal comma (UNA:+,? ')", async () => {
    const point = await map("point", fixture("ordinary-27003.edi"))
    const comma = await map("comma", fixture("decimal-comma-27003.edi"))
    expect(comma.rejected).toEqual([unusedIn(fixture("decimal-comma-27003.edi"))])
    expect(comma.payloads).toEqual(point.payloads)
    expect(comma.payloads).toEqual([{ price_sheets: [Z64] }, { price_sheets: [Z70] }])
  })

  it("a replacement is a price sheet of its own that names the one it replaces (RFF+ACW)", async () => {
    const result = await map("replacement", fixture("ordinary-27003.edi"), fixture("replacement-27003.edi"))
    expect(result.rejected).toEqual([unusedIn(fixture("ordinary-27003.edi"))])
    // NN-2024-0004 (DTM+137 20 January 2024) replaces NN-2024-0001 for the same validity; only the
    // price of 1-01-9-001 changed, 61.25 → 63.1 EUR. Both go out (natural key: participant and document
    // number); the platform learns the order from preceding_document_number.
    expect(result.payloads).toEqual([
      { price_sheets: [Z64] },
      { price_sheets: [Z70] },
      {
        price_sheets: [{
          ...Z64,
          document_number: "NN-2024-0004",
          preceding_document_number: "NN-2024-0001",
          article_prices: [
            { article_id: "1-01-6-005", price_cents: "7.12" },
            { article_id: "1-01-9-001", price_cents: "6310" },
            { article_id: "1-02-0-015", price_cents: "15.63" },
            { article_id: "1-03-8-001", price_cents: "1150.4" }
          ]
        }]
      }
    ])
  })

  it("the same document sent twice is one price sheet: the copy is a duplicate, never sent twice", async () => {
    const copy = write(dir, "copy-of-replacement.edi", readFileSync(fixture("replacement-27003.edi")))
    const result = await map("twice", fixture("replacement-27003.edi"), copy)
    expect(result.payloads.length).toBe(1)
    expect(result.rejected.length).toBe(1)
    expect(result.rejected[0]!["file"]).toBe(copy)
    expect(JSON.stringify(result.rejected[0]!["errors"])).toContain("duplicate_payload")
  })

  it("a damaged message costs only itself: each of its articles is rejected, located, and the intact sheet beside it maps", async () => {
    const input = fixture("damaged-beside-intact.edi")
    const text = readFileSync(input, "latin1")
    const result = await map("damaged", input)
    expect(result.code).not.toBe(0)
    // MSB0042B: the metering operator's sheet (BGM+Z32, PID 27002) of 9900789000002.
    expect(result.payloads).toEqual([{
      price_sheets: [{
        market_participant_code: 9900789000002,
        price_sheet_type: "Z32",
        document_number: "MSB-2024-0007",
        is_price_sheet_unused: false,
        active_from: "2024-01-01T00:00:00+01:00",
        article_prices: [
          { article_id: "2-01-7-001", price_cents: "4.11" }, // 0.0411 EUR
          { article_id: "2-01-7-002", price_cents: "10.96" } // 0.1096 EUR
        ]
      }]
    }])
    // MSB0042A says 99 segments in its UNT and has 14: its BGM and its two LINs (segments 4, 12 and 14)
    // are rejected.
    expect(result.rejected.map((r) => r["lines"])).toEqual([[4], [12], [14]])
    const count = "segment_count_mismatch: UNT says the message has 99 segments; it has 14 (UNH to UNT)"
    expect(result.rejected.map((r) => (r["errors"] as Array<Record<string, unknown>>)[0]!["detail"])).toEqual([
      `${input}: message "MSB0042A" (#1), segment 4 at byte ${text.indexOf("BGM+Z77")}: ${count}`,
      `${input}: message "MSB0042A" (#1), segment 12 at byte ${text.indexOf("LIN+1++9991000000044-01")}: ${count}`,
      `${input}: message "MSB0042A" (#1), segment 14 at byte ${text.indexOf("LIN+2++9991000000044-02")}: ${count}`
    ])
  })

  it("a sheet is whole or not at all: a price that cannot be read rejects every article of its sheet, and the next sheet maps", async () => {
    const input = fixture("one-price-unreadable.edi")
    const text = readFileSync(input, "latin1")
    const result = await map("one-price-unreadable", input)
    expect(result.code).not.toBe(0)
    // PRC0009B: the metering sheet (BGM+Z32, PID 27002), valid from 202403312200+00 = 1 April 2024 00:00
    // in Berlin (summer time); 12.5 EUR is 1250 cents.
    expect(result.payloads).toEqual([{
      price_sheets: [{
        market_participant_code: 9900123000003,
        price_sheet_type: "Z32",
        document_number: "MSB-2024-0009",
        is_price_sheet_unused: false,
        active_from: "2024-04-01T00:00:00+02:00",
        article_prices: [{ article_id: "2-01-7-001", price_cents: "1250" }]
      }]
    }])
    // PRC0009A writes 0,0800 under a UNA whose decimal mark is ".": its LIN 2 (segment 14) is refused, and
    // with it the sheet's BGM (4) and LIN 1 (12), whose price alone would be a sheet short of an article.
    expect(result.rejected.map((r) => r["lines"])).toEqual([[4], [12], [14]])
    const details = result.rejected.map((r) => (r["errors"] as Array<Record<string, unknown>>)[0]!["detail"] as string)
    const incomplete = "document_incomplete: the message is one document, and its segment 14 was rejected (invalid_number)"
    expect(details[0]).toBe(`${input}: message "PRC0009A" (#1), segment 4 at byte ${text.indexOf("BGM+Z64")}: ${incomplete}`)
    expect(details[1]).toBe(`${input}: message "PRC0009A" (#1), segment 12 at byte ${text.indexOf("LIN+1++1-01-6-005")}: ${incomplete}`)
    expect(details[2]).toContain(`segment 14 at byte ${text.indexOf("LIN+2++1-01-9-001")}: invalid_number: PRI+CAL.1.2[] "0,0800" (segment 15)`)
    expect(result.stderr).toContain("5 rows read = 2 in 1 payload (market-participant-fees) + 3 rejected")
  })

  it("a zone open at the top (the AHB's last zone has no upper bound) cannot be an interval zone: its sheet is refused, located", async () => {
    const result = await map("open-zone", fixture("open-zone-z70.edi"))
    expect(result.code).not.toBe(0)
    expect(result.payloads).toEqual([])
    // One sheet, one document: its BGM and both of its LINs (segments 4, 12 and 15) are refused together,
    // naming the second LIN's missing upper bound.
    expect(result.rejected.length).toBe(1)
    expect(result.rejected[0]!["lines"]).toEqual([4, 12, 15])
    expect(result.rejected[0]!["errors"]).toEqual([expect.objectContaining({ attr: "price_sheets.0.article_prices.1.interval_zone.upper_bound", code: "required" })])
  })

  it("a price in another currency, or a second price of one article, refuses its sheet: never taken as euros, never dropped", async () => {
    const ordinary = readFileSync(fixture("ordinary-27003.edi"), "latin1")
    // NN-2024-0001 in Swiss francs; NN-2024-0002 with a second PRI+CAL after its third article's.
    const changed = ordinary.replace("CUX+2:EUR:8'\nPGI+9'", "CUX+2:CHF:8'\nPGI+9'").replace("PRI+CAL:0.0011'\n", "PRI+CAL:0.0011'\nPRI+CAL:0.0012'\n").replace("UNT+18+PRC0001B'", "UNT+19+PRC0001B'")
    expect(changed).not.toBe(ordinary)
    const result = await map("currency", write(dir, "chf-and-two-prices.edi", changed))
    expect(result.payloads).toEqual([])
    // The sheet not used comes one segment later (43), after the added PRI.
    expect(result.rejected.map((r) => r["lines"])).toEqual([...ORDINARY_LINES, [43]])
    const codes = result.rejected.map((r) => (r["errors"] as Array<Record<string, unknown>>).map((e) => e["code"]))
    expect(codes[0]).toEqual(["unmatched_row", "unmatched_row", "unmatched_row", "unmatched_row"])
    expect(JSON.stringify(result.rejected[1]!["errors"])).toContain("0.0011;0.0012")
  })

  it("balancing-energy prices (PID 27001) are no fee price sheet: skipped, counted and listed by PID", async () => {
    const result = await map("balancing", fixture("balancing-27001.edi"))
    expect(result.payloads).toEqual([])
    expect(result.rejected).toEqual([])
    // Its BGM (segment 4) and its two LINs.
    expect(result.excluded.map((e) => [e["lines"], e["outcome"], e["reason"]])).toEqual([[[4], "skipped", "PID 27001"], [[14], "skipped", "PID 27001"], [[16], "skipped", "PID 27001"]])
    expect(result.stderr).toContain("3 rows read = 0 in 0 payloads (market-participant-fees) + 0 rejected + 3 excluded")
    // Each named with the PID's name in the AHB.
    for (const e of result.excluded) expect(e["detail"]).toContain("PID 27001 (Übermittlung der Ausgleichsenergiepreise) is not among the PIDs the reader file takes (27002, 27003)")
  })

  it("the synthetic mako sample (PIA+5 with SRW, no DTM+157) is refused, naming the missing article id and validity", async () => {
    const result = await map("mako", join(ROOT, "test", "fixtures", "market-messages", "mako-pricat-pid_27002.edi"))
    expect(result.code).not.toBe(0)
    expect(result.payloads).toEqual([])
    expect(result.rejected.length).toBe(1)
    // Its BGM (segment 3, no UNA) and its one LIN+1' (segment 10), which carries no article id in LIN C212;
    // PIA+5+TARIF001:SRW is an MSCONS-style product id, not the AHB's place for one. It has no DTM+157
    // (validity start) either.
    expect(result.rejected[0]!["lines"]).toEqual([3, 10])
    const errors = result.rejected[0]!["errors"] as Array<Record<string, unknown>>
    expect(errors.map((e) => [e["attr"], e["code"]]).sort()).toEqual([
      ["price_sheets.0.active_from", "required"],
      ["price_sheets.0.article_prices.0.article_id", "required"]
    ])
  })
})

/**
 * The article prices of an interchange, read without the library: for each message (UNH), its document
 * number (BGM 1004) and, for each LIN, its article id (C212 7140) with its PRI+CAL price as cents, the
 * point moved two places on the digits as written (the decimal mark the UNA names).
 */
const articlePricesOf = (text: string): Array<{ document: string; article: string; cents: string }> => {
  const mark = text.startsWith("UNA") ? text[5]! : "."
  const segments = text.slice(text.startsWith("UNA") ? 9 : 0).split("'").map((s) => s.trim()).filter((s) => s !== "")
  const out: Array<{ document: string; article: string; cents: string }> = []
  let document = ""
  let article: string | undefined
  for (const segment of segments) {
    const elements = segment.split("+")
    if (elements[0] === "BGM") document = elements[2]!
    if (elements[0] === "LIN") article = elements[3]!.split(":")[0]!
    if (elements[0] === "PRI" && article !== undefined) {
      const [whole, fraction = ""] = elements[1]!.split(":")[1]!.split(mark)
      const digits = `${whole}${fraction.padEnd(2, "0")}`
      const point = whole!.length + 2
      const cents = `${digits.slice(0, point).replace(/^0+(?=[0-9])/u, "")}${digits.length > point ? `.${digits.slice(point)}` : ""}`
      out.push({ document, article, cents })
      article = undefined
    }
  }
  return out
}

describe("cross-check: every article price of the sample is in its sheet", () => {
  for (const name of ["ordinary-27003.edi", "decimal-comma-27003.edi", "replacement-27003.edi"]) {
    it(`${name}: each LIN's price, in cents, is an article price of the sheet of its message, and nothing else is`, async () => {
      const expected = articlePricesOf(readFileSync(fixture(name), "latin1"))
      const result = await map(`cross-${name}`, fixture(name))
      const sheets = result.payloads.flatMap((p) => p["price_sheets"] as Array<Record<string, unknown>>)
      const found = sheets.flatMap((sheet) =>
        (sheet["article_prices"] as Array<Record<string, unknown>>).map((a) => ({ document: sheet["document_number"], article: a["article_id"], cents: a["price_cents"] })))
      expect(expected.length).toBeGreaterThan(0)
      expect(found).toEqual(expected)
    })
  }
})
