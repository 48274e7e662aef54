/**
 * `data-import map` of INVOIC (EDI@Energy 2.8e) to market participant invoices through
 * examples/market-messages/invoic-market-participant-invoices.{mapping,reader}.json, run as a child
 * process on the constructed interchanges of test/fixtures/market-messages/constructed/invoic (see its
 * README). The expected payloads are written out from the interchanges by hand; the sums are checked
 * against each other, as no converter's output exists for them.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const MAPPING = join(ROOT, "examples", "market-messages", "invoic-market-participant-invoices.mapping.json")
const FIXTURES = join(ROOT, "test", "fixtures", "market-messages", "constructed", "invoic")
const fixture = (name: string): string => join(FIXTURES, name)
const dir = tempDir()

/** The parties of every constructed invoice: NAD+MS and NAD+MR with their addresses. */
const PARTIES = {
  sender_id: 9900123456789,
  recipient_id: 9907654321098,
  sender_address: { name: "Stadtnetz GmbH", street: "Netzstrasse 1", city: "Musterstadt", postcode: "12345", country_code: "DE" },
  recipient_address: { name: "Lieferant AG", street: "Handelsweg 2", city: "Beispielstadt", postcode: "54321", country_code: "DE" }
}

/**
 * The NN invoice (PID 31002) of invoic-31002-nn.edi: October 2024 (DTM+155/156 303 in UTC, 22:00 and
 * 23:00 being Berlin's midnights), work 2634.175 kWh at 0.07998 EUR = 210.68, a base price 7.94, 19 %
 * VAT on 218.62 = 41.54, total 260.16. MaLo 51238696781 is KD-3003 in examples/market-messages/accounts.csv.
 */
const nn = (invoiceNumber: string, interchange: string) => ({
  import_supplier: "STADTWERKE_NORD",
  external_account_number: "KD-3003",
  market_participant_invoice: {
    invoice_type: "NETWORK_USAGE",
    invoice_sub_type: "ABR",
    invoice_document_type: "380",
    invoice_number: invoiceNumber,
    issued_at: "2024-11-05T10:00:00+01:00",
    due_at: "2024-11-20T00:00:00+01:00",
    malo_number: "51238696781",
    period_start_at: "2024-10-01T00:00:00+02:00",
    period_end_at: "2024-11-01T00:00:00+01:00",
    amount_total: 26016,
    amount_due: 26016,
    reference_document: "LS-2024-10-0042",
    interchange_reference: interchange,
    ...PARTIES,
    line_items: [
      {
        position: 1, article: "9990001000798", article_type: "Z09", quantity: "2634.175", quantity_unit: "KWH",
        period_start_at: "2024-10-01T00:00:00+02:00", period_end_at: "2024-11-01T00:00:00+01:00", amount_net: 21068, price: "0.07998", tax_rate: "19.00", tax_rate_type: "S"
      },
      {
        position: 2, article: "9990001000053", article_type: "Z09", quantity: "1", quantity_unit: "H87",
        period_start_at: "2024-10-01T00:00:00+02:00", period_end_at: "2024-11-01T00:00:00+01:00", amount_net: 794, price: "7.94", tax_rate: "19.00", tax_rate_type: "S"
      }
    ],
    tax_amounts: [{ tax_rate: "19.00", tax_rate_type: "S", tax_amount_assessment_basis: 21862, tax_amount: 4154 }]
  }
})

interface Invoice {
  readonly amount_total: number
  readonly line_items: ReadonlyArray<{ amount_net: number; quantity: string; price: string; tax_rate: string }>
  readonly tax_amounts: ReadonlyArray<{ tax_amount: number; tax_amount_assessment_basis: number; tax_rate: string }>
}

/** A decimal string as an exact fraction: digits and a power of ten. */
const exact = (text: string): { readonly digits: bigint; readonly scale: number } => {
  const [whole, fraction = ""] = text.split(".") as [string, string?]
  return { digits: BigInt(`${whole}${fraction}`), scale: fraction.length }
}
/** Cents of `a × b` (a in euros, b a factor), half away from zero, as an invoice rounds. */
const centsOf = (a: string, b: string, divisor = 1n): number => {
  const x = exact(a)
  const y = exact(b)
  const scale = 10n ** BigInt(x.scale + y.scale)
  const hundredths = x.digits * y.digits * 100n
  const denominator = scale * divisor
  return Number((hundredths * 2n + denominator) / (2n * denominator))
}

/** The cross-checks where no converter's output exists: lines and taxes add up to the total, each line is quantity × price, each tax rate × basis. */
const crossCheck = (invoice: Invoice): void => {
  const lines = invoice.line_items.reduce((sum, line) => sum + line.amount_net, 0)
  const taxes = invoice.tax_amounts.reduce((sum, tax) => sum + tax.tax_amount, 0)
  expect(lines + taxes).toBe(invoice.amount_total)
  expect(invoice.tax_amounts.reduce((sum, tax) => sum + tax.tax_amount_assessment_basis, 0)).toBe(lines)
  for (const line of invoice.line_items) expect(line.amount_net).toBe(centsOf(line.quantity, line.price))
  for (const tax of invoice.tax_amounts) expect(tax.tax_amount).toBe(centsOf(String(tax.tax_amount_assessment_basis / 100), tax.tax_rate, 100n))
}

/** The advance payment invoice (PID 31001) of invoic-31001-31004-storno.edi: March 2024 (29 Feb 23:00 and 31 Mar 22:00 UTC), 120.50 net, 19 % VAT 22.895 rounded to 22.90. */
const ADVANCE_PAYMENT = {
    import_supplier: "STADTWERKE_NORD",
    external_account_number: "KD-3003",
    market_participant_invoice: {
      invoice_type: "ADVANCE_PAYMENT",
      invoice_sub_type: "ABS",
      invoice_document_type: "380",
      invoice_number: "ABS-2024-03-0007",
      issued_at: "2024-03-01T10:00:00+01:00",
      due_at: "2024-03-15T00:00:00+01:00",
      malo_number: "51238696781",
      period_start_at: "2024-03-01T00:00:00+01:00",
      period_end_at: "2024-04-01T00:00:00+02:00",
      amount_total: 14340,
      amount_due: 14340,
      interchange_reference: "AB20240320",
      ...PARTIES,
      line_items: [{
        position: 1, article: "9990001000412", article_type: "Z09", quantity: "1", quantity_unit: "H87",
        period_start_at: "2024-03-01T00:00:00+01:00", period_end_at: "2024-04-01T00:00:00+02:00", amount_net: 12050, price: "120.50", tax_rate: "19.00", tax_rate_type: "S"
      }],
      tax_amounts: [{ tax_rate: "19.00", tax_rate_type: "S", tax_amount_assessment_basis: 12050, tax_amount: 2290 }]
    }
  }

/** The interchange of an invoice and its Storno, and each message alone in an interchange of its own (the same sender). */
const STORNO = fixture("invoic-31001-31004-storno.edi")
const STORNO_TEXT = readFileSync(STORNO, "latin1")
const SECOND = STORNO_TEXT.indexOf("UNH+2+")
const ABS_ALONE = write(dir, "abs-alone.edi", `${STORNO_TEXT.slice(0, SECOND)}UNZ+1+AB20240320'\n`)
const STORNO_ALONE_TEXT = `${STORNO_TEXT.slice(0, STORNO_TEXT.indexOf("UNH+1+"))}${STORNO_TEXT.slice(SECOND).replace("UNZ+2+", "UNZ+1+")}`.replaceAll("AB20240320", "AB20240321")
const STORNO_ALONE = write(dir, "storno-alone.edi", STORNO_ALONE_TEXT)

const map = async (input: string, name: string, extra: ReadonlyArray<string> = []) => {
  const out = join(dir, `${name}.ndjson`)
  const rejects = join(dir, `${name}.rejects.ndjson`)
  const excluded = join(dir, `${name}.excluded.ndjson`)
  const run = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, "--excluded", excluded, ...extra, input])
  return { run, out, payloads: lines(readFileSync(out, "utf8")), rejects: lines(readFileSync(rejects, "utf8")), excluded: lines(readFileSync(excluded, "utf8")) }
}

/** `data-import validate` on a file of payloads: every one valid. */
const validates = async (file: string, count: number): Promise<void> => {
  const checked = await runCli(["validate", "--endpoint", "market-participant-invoice", "--format", "json", file])
  expect(checked.code).toBe(0)
  expect(JSON.parse(checked.stdout)).toMatchObject({ ok: true, totals: { records: count, valid: count, invalid: 0 } })
}

describe("data-import map: INVOIC to market participant invoices", () => {
  it("maps an NN invoice with its lines, taxes and totals in cents, the sums adding up, and validate takes it", async () => {
    const { run, out, payloads, rejects, excluded } = await map(fixture("invoic-31002-nn.edi"), "nn")
    expect(run.code).toBe(0)
    expect(payloads).toEqual([nn("NNR-2024-10-558213", "NN20241105")])
    expect(rejects).toEqual([])
    expect(excluded).toEqual([])
    // Two lines, each with its TAX, and the summary's TAX: five records, no warning (the two lines' TAX segments are alike).
    expect(run.stderr).toContain("5 rows read = 5 in 1 payload (market-participant-invoice) + 0 rejected\n")
    expect(run.stderr).not.toContain("warning")
    crossCheck(payloads[0]!["market_participant_invoice"] as Invoice)
    await validates(out, 1)
  })

  it("reads a street's house number from NAD C059's third 3042 (the MIG's Teststraße::123), with or without one", async () => {
    // The NN invoice with the sender's number where the MIG's example writes it, and the recipient's street
    // without a number: the same invoice, its streets "Netzstrasse 1" and "Handelsweg".
    const text = readFileSync(fixture("invoic-31002-nn.edi"), "latin1").replace("+Netzstrasse 1+", "+Netzstrasse::1+").replace("+Handelsweg 2+", "+Handelsweg+")
    const { run, payloads } = await map(write(dir, "house-number.edi", text), "house-number")
    expect(run.code).toBe(0)
    const invoice = payloads[0]!["market_participant_invoice"] as Record<string, Record<string, unknown>>
    expect(invoice["sender_address"]).toEqual(PARTIES.sender_address)
    expect(invoice["recipient_address"]).toEqual({ ...PARTIES.recipient_address, street: "Handelsweg" })
  })

  it("gives the same payloads for the decimal comma (UNA:+,? ') as for the point", async () => {
    const point = await map(fixture("invoic-31002-nn.edi"), "point")
    const comma = await map(fixture("invoic-31002-nn-comma.edi"), "comma")
    expect(comma.run.code).toBe(0)
    expect(comma.payloads).toEqual(point.payloads)
  })

  it("maps an advance payment invoice (31001) alone", async () => {
    const { run, out, payloads, rejects, excluded } = await map(ABS_ALONE, "abs")
    expect(run.code).toBe(0)
    expect(payloads).toEqual([ADVANCE_PAYMENT])
    crossCheck(payloads[0]!["market_participant_invoice"] as Invoice)
    expect(rejects).toEqual([])
    expect(excluded).toEqual([])
    await validates(out, 1)
  })

  it("leaves out an invoice its Storno (31004, RFF+OI) cancels in the run as cancelled, and lists the Storno", async () => {
    // One interchange with both: the invoice's LIN (16) and TAXes (22, 26) are cancelled, the Storno's summary TAX (48) with it.
    const { run, payloads, rejects, excluded } = await map(STORNO, "storno")
    expect(run.code).toBe(0)
    expect(payloads).toEqual([])
    expect(rejects).toEqual([])
    expect(excluded.map((e) => [e["file"], e["lines"], e["outcome"], e["reason"]])).toEqual([
      [STORNO, [16], "cancelled", "cancelled"],
      [STORNO, [22], "cancelled", "cancelled"],
      [STORNO, [26], "cancelled", "cancelled"],
      [STORNO, [48], "cancelled", "in a cancellation"]
    ])
    for (const e of excluded.slice(0, 3)) {
      expect(e["detail"]).toContain(`cancelled by message "2" (#2) of ${STORNO} (BGM "STO-2024-03-0001", DTM+137 2024-03-20T10:00:00+01:00), which names document "ABS-2024-03-0007" in RFF+OI`)
    }
    expect(excluded[3]!["detail"]).toContain(`${STORNO}: message "2" (#2), segment 48`)
    expect(excluded[3]!["raw"]).toBe("TAX+7+VAT+++:::19+S'MOA+125:-120,50'MOA+161:-22,90'")
    expect(run.stderr).toContain("4 rows read = 0 in 0 payloads (market-participant-invoice) + 0 rejected + 4 excluded\n")
    expect(run.stderr).not.toContain("warning")
  })

  it("cancels the invoice whichever file of the run holds it, in either order", async () => {
    // The invoice alone (UNA, UNB, then its message: LIN 16, TAX 22 and 26); the Storno alone (its summary TAX is segment 21).
    const storno = `cancelled by message "2" (#1) of ${STORNO_ALONE} (BGM "STO-2024-03-0001", DTM+137 2024-03-20T10:00:00+01:00), which names document "ABS-2024-03-0007" in RFF+OI`
    for (const [name, inputs] of [["abs-storno", [ABS_ALONE, STORNO_ALONE]], ["storno-abs", [STORNO_ALONE, ABS_ALONE]]] as const) {
      // map() gives its extra arguments before its input: the run reads inputs[0], then inputs[1].
      const { run, payloads, rejects, excluded } = await map(inputs[1], name, [inputs[0]])
      expect(run.code).toBe(0)
      expect(payloads).toEqual([])
      expect(rejects).toEqual([])
      const invoice = [[ABS_ALONE, [16], "cancelled", "cancelled"], [ABS_ALONE, [22], "cancelled", "cancelled"], [ABS_ALONE, [26], "cancelled", "cancelled"]]
      const cancellation = [[STORNO_ALONE, [21], "cancelled", "in a cancellation"]]
      expect(excluded.map((e) => [e["file"], e["lines"], e["outcome"], e["reason"]])).toEqual(inputs[0] === ABS_ALONE ? [...invoice, ...cancellation] : [...cancellation, ...invoice])
      for (const e of excluded.filter((x) => x["file"] === ABS_ALONE)) expect(e["detail"]).toContain(storno)
      expect(run.stderr).not.toContain("warning")
    }
  })

  it("warns, located at its RFF+OI, of a Storno whose invoice is in no input of the run", async () => {
    const { run, payloads, rejects, excluded } = await map(STORNO_ALONE, "storno-alone")
    // A file of cancellations alone is no empty export.
    expect(run.code).toBe(0)
    expect(payloads).toEqual([])
    expect(rejects).toEqual([])
    expect(excluded.map((e) => [e["lines"], e["outcome"], e["reason"]])).toEqual([[[21], "cancelled", "in a cancellation"]])
    // UNA 1, UNB 2, UNH 3, BGM 4, DTM 5, IMD 6, RFF+Z13 7, RFF+OI 8.
    const offset = Buffer.byteLength(STORNO_ALONE_TEXT.slice(0, STORNO_ALONE_TEXT.indexOf("RFF+OI")), "latin1")
    expect(run.stderr).toContain(
      `warning: ${STORNO_ALONE}: message "2" (#1), segment 8 at byte ${offset}: orphan_cancellation: the cancellation (BGM "STO-2024-03-0001", DTM+137 2024-03-20T10:00:00+01:00) names document "ABS-2024-03-0007" of sender "9900123456789", which is in no input of this run: nothing is cancelled\n`
    )
  })

  it("warns that a Storno cancels an invoice an earlier run mapped (map --journal), located at its RFF+OI", async () => {
    const ledger = join(dir, "storno.ledger")
    const first = await runCli(["map", "-m", MAPPING, "-o", join(dir, "journal-1.ndjson"), "--journal", ledger, "--new-ledger", ABS_ALONE])
    expect(first.code).toBe(0)
    expect(lines(readFileSync(join(dir, "journal-1.ndjson"), "utf8"))).toEqual([ADVANCE_PAYMENT])
    const second = await runCli(["map", "-m", MAPPING, "-o", join(dir, "journal-2.ndjson"), "--journal", ledger, STORNO_ALONE])
    expect(second.code).toBe(0)
    const offset = Buffer.byteLength(STORNO_ALONE_TEXT.slice(0, STORNO_ALONE_TEXT.indexOf("RFF+OI")), "latin1")
    const warnings = second.stderr.split("\n").filter((l) => l.startsWith("warning: "))
    expect(warnings).toEqual([
      `warning: ${STORNO_ALONE}: message "2" (#1), segment 8 at byte ${offset}: cancels_mapped_document: the cancellation (BGM "STO-2024-03-0001", DTM+137 2024-03-20T10:00:00+01:00) cancels document "ABS-2024-03-0007" of sender "9900123456789", whose values were mapped in run 1 from ${ABS_ALONE}: the API has no update, so cancel those amounts in the platform`
    ])
  })

  it("rejects the records of a damaged invoice, located, and maps the intact one beside it", async () => {
    const input = fixture("invoic-damaged-beside-intact.edi")
    const { run, payloads, rejects } = await map(input, "damaged")
    expect(run.code).toBe(1)
    expect(payloads).toEqual([nn("NNR-2024-10-558215", "NN20241106")])
    // The first message's UNT counts 36 segments for 35: each of its LINs and TAXes (segments 17, 23, 24, 30, 34) is rejected.
    expect(rejects.map((r) => [r["lines"], (r["errors"] as Array<{ code: string }>).map((e) => e.code)])).toEqual([[[17], ["invalid"]], [[23], ["invalid"]], [[24], ["invalid"]], [[30], ["invalid"]], [[34], ["invalid"]]])
    rejects.forEach((r, i) => {
      const segment = [17, 23, 24, 30, 34][i]!
      expect((r["errors"] as Array<{ detail: string }>)[0]!.detail).toMatch(new RegExp(`invoic-damaged-beside-intact\\.edi: message "1" \\(#1\\), segment ${segment} at byte \\d+: segment_count_mismatch: UNT says the message has 36 segments; it has 35 \\(UNH to UNT\\)$`, "u"))
    })
    expect(rejects.map((r) => r["raw"])).toEqual([["LIN+1++9990001000798:Z09'"], ["TAX+7+VAT+++:::19+S'"], ["LIN+2++9990001000053:Z09'"], ["TAX+7+VAT+++:::19+S'"], ["TAX+7+VAT+++:::19+S'"]])
    expect(run.stderr).toContain("10 rows read = 5 in 1 payload (market-participant-invoice) + 5 rejected\n")
  })

  it("rejects an invoice without its totals whole, naming what is missing", async () => {
    const text = readFileSync(fixture("invoic-31002-nn.edi"), "latin1").replace("MOA+77:260.16'\n", "").replace("MOA+9:260.16'\n", "").replace("UNT+35+1", "UNT+33+1")
    const { run, payloads, rejects } = await map(write(dir, "no-totals.edi", text), "no-totals")
    expect(run.code).toBe(1)
    expect(payloads).toEqual([])
    // The invoice's records are rejected together (whole or not at all), naming the missing totals and the cells they come from.
    expect(rejects.map((r) => [r["lines"], r["errors"]])).toEqual([[
      [17, 23, 24, 30, 32],
      [
        { attr: "market_participant_invoice.amount_total", code: "required", detail: "This field is required.", column: "MOA+77.1.2" },
        { attr: "market_participant_invoice.amount_due", code: "required", detail: "This field is required.", column: "MOA+9.1.2" }
      ]
    ]])
  })

  it("rejects an invoice whole when the reader refuses one of its records: never an invoice short of a line", async () => {
    // The second line's amount written with a thousands separator, not a number as EDIFACT writes it: the line and
    // its tax (which has the line's cells) are rejected for it, the rest of the invoice as incomplete.
    const text = readFileSync(fixture("invoic-31002-nn.edi"), "latin1").replace("MOA+203:7.94'", "MOA+203:1,007.94'")
    const { run, payloads, rejects } = await map(write(dir, "bad-number.edi", text), "bad-number")
    expect(run.code).toBe(1)
    expect(payloads).toEqual([])
    const codes = rejects.map((r) => [r["lines"], String((r["errors"] as Array<{ detail: string }>)[0]!.detail).match(/: (invalid_number|document_incomplete):/u)?.[1]])
    expect(codes).toEqual([[[17], "document_incomplete"], [[23], "document_incomplete"], [[24], "invalid_number"], [[30], "invalid_number"], [[34], "document_incomplete"]])
  })

  it("rejects an invoice whose lines cover different periods whole, never giving it one line's period", async () => {
    const text = readFileSync(fixture("invoic-31002-nn.edi"), "latin1")
    const second = text.indexOf("LIN+2")
    const moved = text.slice(0, second) + text.slice(second).replace("DTM+155:202409302200?+00:303", "DTM+155:202410142200?+00:303")
    const { run, payloads, rejects } = await map(write(dir, "periods.edi", moved), "periods")
    expect(run.code).toBe(1)
    expect(payloads).toEqual([])
    expect(rejects.map((r) => r["lines"])).toEqual([[17, 23, 24, 30, 34]])
    expect(rejects[0]!["errors"]).toContainEqual(expect.objectContaining({
      attr: "market_participant_invoice.period_start_at",
      code: "inconsistent_group",
      detail: `"2024-10-15T00:00:00+02:00" in line 24 differs from "2024-10-01T00:00:00+02:00" in line 17 of the same payload`
    }))
  })

  it("lists the records of the published synthetic INVOIC as skipped: its RFF+Z13 names no PID", async () => {
    // hupe1980/mako, MIT OR Apache-2.0 (see the fixtures' README): not AHB-conformant, it has no totals,
    // a UNS+D before its detail and the PID "REF001".
    const input = fixture("mako-invoic-pid_31001.edi")
    const { run, payloads, rejects, excluded } = await map(input, "mako", ["--allow-empty"])
    expect(payloads).toEqual([])
    expect(rejects).toEqual([])
    expect(excluded.map((e) => [e["lines"], e["outcome"], e["reason"]])).toEqual([[[16], "skipped", "PID REF001"], [[20], "skipped", "PID REF001"]])
    expect(run.stderr).toContain("2 rows read = 0 in 0 payloads (market-participant-invoice) + 0 rejected + 2 excluded\n")
  })

  it("rejects the synthetic INVOIC read as the PID its name gives, each record located with the reason", async () => {
    // With RFF+Z13:31001 and an account for its MeLo, its line and tax come after its UNS+D, where an
    // invoice has only its summary: neither a line nor a summary tax, each is a located reject.
    const text = readFileSync(fixture("mako-invoic-pid_31001.edi"), "latin1").replace("RFF+Z13:REF001", "RFF+Z13:31001")
    const own = join(dir, "mako")
    write(dir, "mako-accounts.csv", "malo;account;valid_from;valid_to\nDE00056266802AO6G56M11SN51G;KD-5005;2020-01-01;\n")
    const reader = JSON.parse(readFileSync(MAPPING.replace(".mapping.json", ".reader.json"), "utf8")) as Record<string, unknown>
    write(dir, "invoic-market-participant-invoices.reader.json", JSON.stringify({ ...reader, accounts: { ...(reader["accounts"] as object), table: "mako-accounts.csv" } }))
    const mapping = write(dir, "invoic.mapping.json", readFileSync(MAPPING))
    const out = `${own}.ndjson`
    const run = await runCli(["map", "-m", mapping, "-o", out, write(dir, "mako-31001.edi", text)])
    expect(run.code).toBe(1)
    expect(readFileSync(out, "utf8")).toBe("")
    expect(run.stderr).toContain(`mako-31001.edi:16 unmatched_row: This row carries data for a list but matches none of them (UNS.1.1 = "", UNS.1.1 = "S"): its data would be lost.`)
    expect(run.stderr).toContain(`mako-31001.edi:20 unmatched_row:`)
  })
})
