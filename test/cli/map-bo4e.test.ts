/**
 * `data-import map` of BO4E JSON, for a mapping with `"source": "bo4e"`: the real BO4E samples
 * (test/fixtures/bo4e) through examples/market-messages/bo4e-energiemenge.mapping.json, run as a child
 * process.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { ROOT, runCli, tempDir, write } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const MAPPING = join(ROOT, "examples", "market-messages", "bo4e-energiemenge.mapping.json")
const FIXTURES = join(ROOT, "test", "fixtures", "bo4e")
const dir = tempDir()

const run = async (name: string, input: string) => {
  const out = join(dir, `${name}.ndjson`)
  const rejects = join(dir, `${name}.rejects.ndjson`)
  const result = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, input])
  return { ...result, payloads: lines(readFileSync(out, "utf8")), rejected: lines(readFileSync(rejects, "utf8")) }
}

/** Thousandths as a bigint, from a plain decimal text: an exact sum with no float in it. */
const milli = (text: string): bigint => {
  const [whole, fraction = ""] = text.split(".")
  return BigInt(whole!) * 1000n + BigInt((fraction + "000").slice(0, 3))
}

describe("data-import map with a BO4E mapping", () => {
  it("maps each Verbrauch of the real plausibility sample to a valid energy amount; the quantities add up", async () => {
    const input = join(FIXTURES, "energiemenge-plausibility-testcase.json")
    // Counted apart from the reader: the sample's two Energiemengen sit under "reference" and "other".
    const sample = JSON.parse(readFileSync(input, "utf8")) as Record<string, { energieverbrauch: Array<{ wert: number }> }>
    const expected = [...sample["reference"]!.energieverbrauch, ...sample["other"]!.energieverbrauch]
    const result = await run("plausibility", input)
    expect(result.code).toBe(0)
    expect(result.rejected).toEqual([])
    expect(result.payloads.length).toBe(expected.length)
    for (const payload of result.payloads) {
      expect(validatePayload("energy-amount", payload).ok).toBe(true)
      expect(payload["external_account_number"]).toBe("KD-5005")
    }
    const quantities = result.payloads.map((p) => (p["energy_amount"] as Record<string, string>)["quantity"]!)
    // The numbers keep the text of the document (10000.0, not 10000).
    expect(quantities).toEqual(["10000.0", "9500.0"])
    expect(quantities.map(milli).reduce((a, b) => a + b, 0n)).toBe(BigInt(expected.reduce((a, v) => a + v.wert, 0)) * 1000n)
  })

  it("reads a quantity of three decimals exactly, as a JSON number or as pydantic's Decimal text", async () => {
    // 12.345 kWh could be 12345 in German notation; in JSON it is only ever 12.345. A comma in a string
    // is no JSON number notation, so that Verbrauch is rejected, never read 1000 times off.
    const sample = JSON.parse(readFileSync(join(FIXTURES, "energiemenge-plausibility-testcase.json"), "utf8")) as Record<string, { energieverbrauch: Array<Record<string, unknown>> }>
    const reference = sample["reference"]!.energieverbrauch[0]!
    sample["reference"]!.energieverbrauch = [{ ...reference, wert: 12.345 }, { ...reference, obiskennzahl: "1-2-3-5", wert: "1.250" }]
    sample["other"]!.energieverbrauch[0]!["wert"] = "0,125"
    const text = JSON.stringify(sample)
    const result = await run("three-decimals", write(tempDir(), "three-decimals.json", text))
    const quantities = result.payloads.map((p) => (p["energy_amount"] as Record<string, string>)["quantity"])
    expect(quantities).toEqual(["12.345", "1.250"])
    expect(result.rejected.length).toBe(1)
    expect(JSON.stringify(result.rejected)).toContain("0,125")
  })

  it("rejects the zone-less datetimes of the kwLoad sample, each naming its document", async () => {
    const result = await run("kwload", join(FIXTURES, "energiemenge-kwload-testcase.json"))
    expect(result.code).not.toBe(0)
    expect(result.payloads).toEqual([])
    expect(result.rejected.length).toBe(2)
    expect(JSON.stringify(result.rejected)).toContain("period_start_at")
  })

  it("looks a zone-less startdatum up as wall time in the reader's zone, whatever the machine's zone", async () => {
    // Midnight of 1 January 2024 in Berlin is 2023-12-31T23:00Z: read with the machine's zone, "2024-01-01T00:00:00"
    // was still KD-OLD in Tokyo, and "2023-12-31T23:30:00" already KD-NEW in UTC.
    const zoned = tempDir()
    write(zoned, "accounts.csv", "malo;account;valid_from;valid_to\n123456789;KD-OLD;2023-01-01;2024-01-01\n123456789;KD-NEW;2024-01-01;\n")
    write(zoned, "reader.json", JSON.stringify({
      source: "bo4e", types: ["ENERGIEMENGE"], objects: [""], records: "energieverbrauch[]", zone: "Europe/Berlin",
      accounts: { table: "accounts.csv", location: "lokationsId", at: "energieverbrauch[].startdatum", into: "@account" }
    }))
    // The example's value tables of messwertstatus and of the statuses lie beside it.
    for (const table of ["bo4e-messwertstatus.json", "bo4e-status.json"]) write(zoned, table, readFileSync(join(ROOT, "examples", "market-messages", table), "utf8"))
    const wall = { convert: "datetime", options: { format: "yyyy-MM-ddTHH:mm:ss", timeZone: "Europe/Berlin", ambiguous: "reject" } }
    const example = JSON.parse(readFileSync(MAPPING, "utf8")) as { fields: Record<string, unknown> }
    const mapping = write(zoned, "zone-less.mapping.json", JSON.stringify({
      ...example,
      reader: "reader.json",
      fields: {
        ...example.fields,
        "energy_amount.period_start_at": { column: "energieverbrauch[].startdatum", ...wall },
        "energy_amount.period_end_at": { column: "energieverbrauch[].enddatum", ...wall }
      }
    }))
    const starts = [
      "2024-01-01T00:00:00", "2023-12-31T23:30:00",
      // A spring gap, an autumn repeat and texts only Date.parse's leniency reads: rejected, not guessed.
      "2024-03-31T02:30:00", "2024-10-27T02:30:00", "2024-1-1", "01/02/2024"
    ]
    const input = write(zoned, "zone-less.ndjson", starts.map((startdatum) => JSON.stringify({
      boTyp: "ENERGIEMENGE", lokationsId: "123456789",
      energieverbrauch: [{ startdatum, enddatum: "2024-12-31T00:00:00", obiskennzahl: "1-0:1.8.0", einheit: "KWH", wert: 1 }]
    })).join("\n") + "\n")
    for (const TZ of ["UTC", "Asia/Tokyo", "America/New_York"]) {
      const out = join(zoned, `${TZ.replace("/", "-")}.ndjson`)
      const rejects = join(zoned, `${TZ.replace("/", "-")}.rejects.ndjson`)
      const result = await runCli(["map", "-m", mapping, "-o", out, "-r", rejects, input], { env: { TZ } })
      const payloads = lines(readFileSync(out, "utf8"))
      expect(payloads.map((p) => [p["external_account_number"], (p["energy_amount"] as Record<string, string>)["period_start_at"]]), TZ).toEqual([
        ["KD-NEW", "2024-01-01T00:00:00+01:00"],
        ["KD-OLD", "2023-12-31T23:30:00+01:00"]
      ])
      const rejected = lines(readFileSync(rejects, "utf8")).map((r) => (r["errors"] as Array<{ detail: string }>).map((e) => e.detail).join("\n"))
      expect(rejected, TZ).toHaveLength(4)
      rejected.forEach((detail, i) => {
        expect(detail, TZ).toContain(`document ${i + 3} (line ${i + 3}), energieverbrauch[0]: unreadable_time:`)
        expect(detail, TZ).toContain(`energieverbrauch[].startdatum ${JSON.stringify(starts[i + 2])}`)
      })
      expect(rejected[0]).toContain("does not exist in Europe/Berlin")
      expect(rejected[1]).toContain("occurs twice in Europe/Berlin")
      expect(result.code).not.toBe(0)
    }
  })

  it("a BOneyComb without Energiemenge maps nothing: each of its BOs is a located warning, the run fails as empty", async () => {
    const input = join(FIXTURES, "boneycomb-invoic-31002-netznutzungsrechnung-gas.json")
    const bos = (JSON.parse(readFileSync(input, "utf8")) as { stammdaten: Array<unknown> }).stammdaten.length
    const result = await run("boneycomb", input)
    expect(result.code).not.toBe(0)
    expect(result.payloads).toEqual([])
    expect(result.stderr.match(/document 1 \(line 1\), stammdaten\[\d+\]: other_type/gu)?.length).toBe(bos)
    expect(result.stderr).toContain("no rows")
  })

  it("NDJSON: a line that is not JSON and one that is not BO4E cost themselves; the others map", async () => {
    const bo = (wert: string) => `{"boTyp":"ENERGIEMENGE","lokationsId":"123456789","energieverbrauch":[{"startdatum":"2018-04-30T22:00:00Z","enddatum":"2018-05-31T22:00:00Z","obiskennzahl":"1-0:1.8.0","einheit":"KWH","wert":${wert}}]}`
    const input = write(dir, "mixed-input.ndjson", [bo("0.1"), "{not json", `{"name":"no bo"}`, bo("12345678901234567890.123")].join("\n") + "\n")
    const result = await run("mixed", input)
    expect(result.code).not.toBe(0)
    expect(result.payloads.map((p) => (p["energy_amount"] as Record<string, string>)["quantity"])).toEqual(["0.1", "12345678901234567890.123"])
    expect(result.rejected.length).toBe(2)
    const text = JSON.stringify(result.rejected)
    expect(text).toContain("mixed-input.ndjson: document 2 (line 2), $: not_json")
    expect(text).toContain("mixed-input.ndjson: document 3 (line 3), $: not_bo4e")
  })

  it("a document nested thousands of levels deep is too_deep, in an array, a single document or NDJSON; the others map", async () => {
    const bo = (wert: string) => `{"boTyp":"ENERGIEMENGE","lokationsId":"123456789","energieverbrauch":[{"startdatum":"2018-04-30T22:00:00Z","enddatum":"2018-05-31T22:00:00Z","obiskennzahl":"1-0:1.8.0","einheit":"KWH","wert":${wert}}]}`
    const deep = (depth: number) => `{"boTyp":"ENERGIEMENGE","lokationsId":"1","x":${'{"b":'.repeat(depth)}1${"}".repeat(depth)},"energieverbrauch":[{"wert":1}]}`
    for (const depth of [300, 3_000, 100_000]) {
      const array = await run(`deep-array-${depth}`, write(dir, `deep-${depth}.json`, `[${bo("0.1")},${deep(depth)},${bo("0.2")}]`))
      expect(array.code, String(depth)).not.toBe(0)
      expect(array.stderr).not.toContain("Maximum call stack")
      expect(array.payloads.map((p) => (p["energy_amount"] as Record<string, string>)["quantity"])).toEqual(["0.1", "0.2"])
      expect(array.rejected.length).toBe(1)
      expect(JSON.stringify(array.rejected)).toContain(`deep-${depth}.json: document 2, $: too_deep`)

      const single = await run(`deep-single-${depth}`, write(dir, `deep-single-${depth}.json`, deep(depth)))
      expect(single.payloads).toEqual([])
      expect(single.rejected.length).toBe(1)
      expect(JSON.stringify(single.rejected)).toContain(`deep-single-${depth}.json: document 1 (line 1), $: too_deep`)

      const ndjson = await run(`deep-lines-${depth}`, write(dir, `deep-${depth}.ndjson`, `${bo("0.1")}\n${deep(depth)}\n${bo("0.2")}\n`))
      expect(ndjson.payloads.map((p) => (p["energy_amount"] as Record<string, string>)["quantity"])).toEqual(["0.1", "0.2"])
      expect(ndjson.rejected.length).toBe(1)
      expect(JSON.stringify(ndjson.rejected)).toContain(`deep-${depth}.ndjson: document 2 (line 2), $: too_deep`)
    }
  })

  it("maps the real Marktteilnehmer sample to a valid market participant; BOneyComb ones without a role are rejected with their path", async () => {
    const mapping = join(ROOT, "examples", "market-messages", "bo4e-marktteilnehmer.mapping.json")
    const mapWith = async (name: string, input: string) => {
      const out = join(dir, `${name}.ndjson`)
      const rejects = join(dir, `${name}.rejects.ndjson`)
      const result = await runCli(["map", "-m", mapping, "-o", out, "-r", rejects, input])
      return { ...result, payloads: lines(readFileSync(out, "utf8")), rejected: lines(readFileSync(rejects, "utf8")) }
    }
    const single = join(FIXTURES, "marktteilnehmer-testcase.json")
    const bo = (JSON.parse(readFileSync(single, "utf8")) as { input: Record<string, string> }).input
    const one = await mapWith("marktteilnehmer", single)
    expect(one.code).toBe(0)
    expect(one.payloads).toEqual([{ code: Number(bo["rollencodenummer"]), code_type: bo["rollencodetyp"], name: bo["name1"], role: "NETWORK_OPERATOR", energy: "ELECTRICITY" }])
    expect(validatePayload("market-participant", one.payloads[0]).ok).toBe(true)

    const comb = join(FIXTURES, "boneycomb-invoic-31002-netznutzungsrechnung-gas.json")
    const stammdaten = (JSON.parse(readFileSync(comb, "utf8")) as { stammdaten: Array<Record<string, unknown>> }).stammdaten
    const withoutRole = stammdaten.flatMap((b, i) => (String(b["boTyp"]).toUpperCase() === "MARKTTEILNEHMER" && b["marktrolle"] === undefined ? [`stammdaten[${i}]`] : []))
    const many = await mapWith("comb-participants", comb)
    expect(many.code).not.toBe(0)
    expect(many.payloads).toEqual([])
    expect(many.rejected.map((r) => (r["rows"] as Array<Record<string, string>>)[0]!["@path"])).toEqual(withoutRole)
    expect(JSON.stringify(many.rejected)).toContain("role")
  })
})
