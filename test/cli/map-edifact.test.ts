/**
 * `data-import map` of an EDIFACT interchange, for a mapping with `"source": "edifact"`: the real
 * German MSCONS sample (test/fixtures/market-messages) through examples/market-messages, run as a
 * child process.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { validatePayload } from "../../src/index.js"
import { ROOT, runCli, tempDir, write, WORKERS_ALWAYS } from "./run-cli.js"

const lines = (text: string): Array<Record<string, unknown>> =>
  text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>)

const MAPPING = join(ROOT, "examples", "market-messages", "mscons-energy-amounts.mapping.json")
// The sample is a redispatch interchange (PID 13022), which the example reader file skips whole
// (test/cli/map-exclusions.test.ts): read here as the load profile (13025) it is laid out like.
const sample = gunzipSync(readFileSync(join(ROOT, "test", "fixtures", "market-messages", "de-2024-redispatch-2.4b-two-malos.edi.gz"))).toString("latin1").replaceAll("RFF+Z13:13022'", "RFF+Z13:13025'")
const dir = tempDir()

/** Counted from the text alone: QTY segments per MaLo (the LOC+172 before them). */
const qtysPerMalo = (text: string): Map<string, number> => {
  const counts = new Map<string, number>()
  let malo = ""
  for (const segment of text.split("'")) {
    const s = segment.trim()
    if (s.startsWith("LOC+172+")) malo = s.slice(8).split(/[+:]/u)[0]!
    if (s.startsWith("QTY+")) counts.set(malo, (counts.get(malo) ?? 0) + 1)
  }
  return counts
}

describe("data-import map with an EDIFACT mapping", () => {
  it("maps every QTY of the real MSCONS sample to a valid energy amount of the right account", async () => {
    const input = write(dir, "sample.edi", Buffer.from(sample, "latin1"))
    const out = join(dir, "sample.ndjson")
    const rejects = join(dir, "sample.rejects.ndjson")
    const run = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, input])
    expect(run.code).toBe(0)
    const payloads = lines(readFileSync(out, "utf8"))
    const expected = qtysPerMalo(sample)
    expect(payloads.length).toBe([...expected.values()].reduce((a, b) => a + b, 0))
    expect(lines(readFileSync(rejects, "utf8"))).toEqual([])
    const perMalo = new Map<string, number>()
    for (const payload of payloads) {
      expect(validatePayload("energy-amount", payload).ok).toBe(true)
      const amount = payload["energy_amount"] as Record<string, string>
      perMalo.set(amount["malo_number"]!, (perMalo.get(amount["malo_number"]!) ?? 0) + 1)
      // accounts.csv: 51481308448 moves from KD-1001 to KD-2002 on 15 March 2022 (Berlin midnight).
      if (amount["malo_number"] === "51481308448") {
        expect(payload["external_account_number"]).toBe(amount["period_start_at"]! < "2022-03-15T00:00:00+01:00" ? "KD-1001" : "KD-2002")
      }
    }
    expect(perMalo).toEqual(expected)
  })

  it("rejects the QTYs of a damaged message naming file, message and segment; the other message still maps", async () => {
    // The first message's UNT count is made wrong: its QTYs are rejected, the second message's are not.
    const damaged = sample.replace(/UNT\+(\d+)\+1'/u, (_, n: string) => `UNT+${Number(n) + 1}+1'`)
    expect(damaged).not.toBe(sample)
    const firstMessage = damaged.slice(0, damaged.indexOf("UNH+2+"))
    const input = write(dir, "damaged.edi", Buffer.from(damaged, "latin1"))
    const out = join(dir, "damaged.ndjson")
    const rejects = join(dir, "damaged.rejects.ndjson")
    const run = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, input])
    expect(run.code).not.toBe(0)
    const rejected = lines(readFileSync(rejects, "utf8"))
    const inFirst = [...qtysPerMalo(firstMessage).values()].reduce((a, b) => a + b, 0)
    const all = [...qtysPerMalo(damaged).values()].reduce((a, b) => a + b, 0)
    expect(rejected.length).toBe(inFirst)
    expect(lines(readFileSync(out, "utf8")).length).toBe(all - inFirst)
    expect(JSON.stringify(rejected[0])).toContain("damaged.edi: message \\\"1\\\" (#1), segment")
    expect(JSON.stringify(rejected[0])).toContain("segment_count_mismatch")
  })

  it("maps several files in one run, each payload's lineage naming its file; a payload repeated in a later file is a duplicate", async () => {
    // The sample's two messages as two interchanges of their own.
    const head = sample.slice(0, sample.indexOf("UNH+"))
    const second = sample.indexOf("UNH+2+")
    const interchanges = [sample.slice(sample.indexOf("UNH+"), second), sample.slice(second, sample.indexOf("UNZ+"))].map((m) => `${head}${m}UNZ+1+E-121808993A'`)
    const inputs = interchanges.map((text, i) => write(dir, `part-${i + 1}.edi`, Buffer.from(text, "latin1")))
    const out = join(dir, "parts.ndjson")
    const lineage = join(dir, "parts.lineage.ndjson")
    const run = await runCli(["map", "-m", MAPPING, "-o", out, "--lineage", lineage, ...inputs])
    expect(run.code).toBe(0)
    const payloads = lines(readFileSync(out, "utf8"))
    const entries = lines(readFileSync(lineage, "utf8")) as Array<{ payload: number; file: string; lines: Array<number> }>
    expect(payloads.length).toBe([...qtysPerMalo(sample).values()].reduce((a, b) => a + b, 0))
    expect(entries.map((e) => e.payload)).toEqual(payloads.map((_, i) => i))
    // Each payload's line is a QTY of the file named, whose quantity is the payload's.
    interchanges.forEach((text, i) => {
      const segments = text.split(/(?<!\?)'/u)
      const mine = entries.filter((e) => e.file === inputs[i])
      expect(mine.length).toBe([...qtysPerMalo(text).values()].reduce((a, b) => a + b, 0))
      for (const e of mine) {
        const segment = segments[e.lines[0]! - 1]!
        expect(segment.startsWith("QTY+")).toBe(true)
        expect((payloads[e.payload]!["energy_amount"] as Record<string, string>)["quantity"]).toBe(segment.split(/[+:]/u)[2])
      }
    })
    expect(entries.every((e) => inputs.includes(e.file))).toBe(true)
    expect(run.stderr).toContain(`${inputs[0]}: `)
    expect(run.stderr).toContain(`${inputs[1]}: `)

    // The same file twice: every payload of the second is a repeat, naming the first file's line.
    const rejects = join(dir, "twice.rejects.ndjson")
    const twice = await runCli(["map", "-m", MAPPING, "-o", join(dir, "twice.ndjson"), "-r", rejects, inputs[0]!, inputs[0]!])
    expect(twice.code).toBe(1)
    const rejected = lines(readFileSync(rejects, "utf8"))
    expect(rejected.length).toBe(entries.filter((e) => e.file === inputs[0]).length)
    const first = entries.find((e) => e.file === inputs[0])!.lines[0]!
    expect(JSON.stringify(rejected[0])).toContain(`identical to the one from line ${first} of ${inputs[0]}`)
  })

  it("gives every QTY of a damaged archive file one outcome, the same with --jobs 1 and --jobs 2", async () => {
    // Built here, with what each QTY must become known as it is written: a payload with this quantity,
    // or a reject with this code. Quarter hours from 1 October 2022 (UTC), one per QTY, so no payload repeats.
    const expected: Array<{ readonly quantity?: string; readonly code?: string }> = []
    let quarter = 0
    const dtm = (): string => {
      const at = new Date(Date.UTC(2022, 9, 1) + quarter++ * 15 * 60_000)
      const text = (d: Date) => d.toISOString().slice(0, 16).replace(/[-T:]/gu, "")
      return `DTM+163:${text(at)}?+00:303'DTM+164:${text(new Date(at.getTime() + 15 * 60_000))}?+00:303'`
    }
    const qty = (written: string, outcome: { readonly quantity?: string; readonly code?: string }): string => {
      expected.push(outcome)
      return `QTY+220:${written}:KWH'${dtm()}`
    }
    const message = (ref: string, header: string, body: string, unt = true): string => {
      const text = `UNH+${ref}+MSCONS:D:04B:UN:2.4c'BGM+7+MSI${ref}+9'RFF+Z13:13025'${header}UNS+D'NAD+DP+++M\u00fcller'LOC+172+51238696781'LIN+1'PIA+5+1-1?:1.29.1:SRW'${body}`
      return unt ? `${text}UNT+${text.split("'").length}+${ref}'` : text
    }
    const many = (n: number, value: (i: number) => [string, string]): string =>
      Array.from({ length: n }, (_, i) => value(i)).map(([written, quantity]) => qty(written, { quantity })).join("")
    // Interchange 1 (decimal point, CR LF after each segment): a clean message of 1200 QTYs (three decimals
    // included); a message whose 400 QTYs are rejected for one damaged QTY among them; a message with a QTY
    // before its UNS and one number that is not one.
    const m1 = message("1", "", many(1200, (i) => [`${i}.${String(i % 1000).padStart(3, "0")}`, `${i}.${String(i % 1000).padStart(3, "0")}`]))
    const m2Body = Array.from({ length: 400 }, (_, i) => qty(i === 200 ? "5?x" : String(i), { code: "invalid_release" })).join("")
    const m2 = message("2", "", m2Body)
    const m3Header = qty("9", { code: "record_before_uns" })
    const m3 = message("3", m3Header, `${many(5, (i) => [String(i), String(i)])}${qty("1,234", { code: "invalid_number" })}${many(5, (i) => [`-${i}.5`, `-${i}.5`])}`)
    const first = `UNA:+.? 'UNB+UNOC:3+4012345678901:14+4012345678901:14+221001:1200+IC1'${m1}${m2}${m3}UNZ+3+IC1'`.replaceAll("'", "'\r\n")
    // Interchange 2 (decimal comma, indented, a wrong UNZ count): a message of 300 QTYs; then a message
    // without UNT, cut off by the UNZ, whose 3 QTYs are rejected; then DOS's end-of-file mark, a warning.
    const m4 = message("4", "", many(300, (i) => [`${i},25`, `${i}.25`]))
    const m5 = message("5", "", Array.from({ length: 3 }, (_, i) => qty(String(i), { code: "message_not_closed" })).join(""), false)
    const second = `UNA:+,? 'UNB+UNOC:3+4012345678901:14+4012345678901:14+221001:1200+IC2'${m4}${m5}UNZ+9+IC2'`.replaceAll("'", "'\n  ")
    const text = `${first}${second}\u001a`
    const input = write(dir, "archive.edi", Buffer.from(text, "latin1"))
    const payloads = expected.filter((e) => e.quantity !== undefined)
    // A run with versions maps in the main thread whatever --jobs (it read its inputs into the spool); the
    // same reader file without versions, whose values here all differ, sends its batches to the workers.
    const reader = JSON.parse(readFileSync(join(ROOT, "examples", "market-messages", "mscons-energy-amounts.reader.json"), "utf8")) as Record<string, unknown>
    delete reader["versions"]
    reader["accounts"] = { ...(reader["accounts"] as Record<string, unknown>), table: join(ROOT, "examples", "market-messages", "accounts.csv") }
    const unversioned = write(dir, "unversioned.mapping.json", JSON.stringify({ ...JSON.parse(readFileSync(MAPPING, "utf8")) as Record<string, unknown>, reader: write(dir, "unversioned.reader.json", JSON.stringify(reader)) }))
    const runs = await Promise.all(([[1, MAPPING], [2, MAPPING], [2, unversioned]] as const).map(async ([jobs, mapping], k) => {
      const out = join(dir, `archive-${k}.ndjson`)
      const rejects = join(dir, `archive-${k}.rejects.ndjson`)
      const run = await runCli(["map", "-m", mapping, "-o", out, "-r", rejects, "--jobs", String(jobs), input], { env: WORKERS_ALWAYS })
      return { run, out: readFileSync(out), rejects: readFileSync(rejects) }
    }))
    const [one, ...twos] = runs as [typeof runs[0], typeof runs[0], typeof runs[0]]
    expect(one.run.code).toBe(1)
    // Conservation: every QTY is a row, in a payload or rejected.
    const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/gu, ",")
    expect(one.run.stderr).toContain(`archive.edi: ${grouped(expected.length)} rows read = ${grouped(payloads.length)} in ${grouped(payloads.length)} payloads (energy-amount) + ${grouped(expected.length - payloads.length)} rejected`)
    expect(one.run.stderr).toContain("message_count_mismatch: UNZ says the interchange has 9 messages; it has 2")
    expect(one.run.stderr).toContain(`archive.edi: segment ${text.split("'").length} at byte ${text.length - 1}: trailing_padding: the input ends with a byte of padding`)
    const mapped = lines(one.out.toString("utf8"))
    expect(mapped.map((p) => (p["energy_amount"] as Record<string, string>)["quantity"])).toEqual(payloads.map((e) => e.quantity))
    for (const payload of mapped) expect(validatePayload("energy-amount", payload).ok).toBe(true)
    const rejected = lines(one.rejects.toString("utf8")).map((r) => JSON.stringify(r["errors"]))
    const codes = expected.filter((e) => e.code !== undefined).map((e) => e.code!)
    expect(rejected).toHaveLength(codes.length)
    codes.forEach((code, i) => expect(rejected[i]).toContain(`: ${code}: `))
    // Byte for byte the same with two jobs, in the main thread and at the workers.
    for (const two of twos) {
      expect(two.run.code).toBe(one.run.code)
      expect(two.run.stderr).toBe(one.run.stderr)
      expect(two.out.equals(one.out)).toBe(true)
      expect(two.rejects.equals(one.rejects)).toBe(true)
    }
  })

  it("refuses a reader file whose zone is not a time zone before reading, even without an account table", async () => {
    // Without the check, every DTM stays as written and every QTY is rejected for a date that is not the file's fault.
    const mapping = JSON.parse(readFileSync(MAPPING, "utf8")) as { fields: Record<string, unknown> }
    mapping.fields["external_account_number"] = { value: "KD-1" }
    const reader = JSON.parse(readFileSync(join(ROOT, "examples", "market-messages", "mscons-energy-amounts.reader.json"), "utf8")) as Record<string, unknown>
    delete reader["accounts"]
    const mappingPath = write(dir, "zone.mapping.json", JSON.stringify(mapping))
    write(dir, "mscons-energy-amounts.reader.json", JSON.stringify({ ...reader, zone: "Europe/Berln" }))
    const input = write(dir, "zone.edi", Buffer.from(sample, "latin1"))
    const run = await runCli(["map", "-m", mappingPath, "-o", join(dir, "zone.ndjson"), input])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`zone: the time zone "Europe/Berln" is not known`)
    // The same reader file with its zone right maps.
    write(dir, "mscons-energy-amounts.reader.json", JSON.stringify(reader))
    expect((await runCli(["map", "-m", mappingPath, "-o", join(dir, "zone.ndjson"), input])).code).toBe(0)
  })

  it("refuses several inputs for a mapping of a CSV export", async () => {
    const csv = write(dir, "one.csv", "a;b\n1;2\n")
    const run = await runCli(["map", "-m", join(ROOT, "examples", "mappings", "energy-amounts.mapping.json"), csv, csv])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("several inputs")
  })

  describe("a segment longer than 1 MiB", () => {
    const run = async (name: string, text: string) => {
      const input = write(dir, `${name}.edi`, Buffer.from(text, "latin1"))
      const out = join(dir, `${name}.ndjson`)
      const rejects = join(dir, `${name}.rejects.ndjson`)
      const result = await runCli(["map", "-m", MAPPING, "-o", out, "-r", rejects, input])
      return { ...result, input, payloads: lines(readFileSync(out, "utf8")), rejected: lines(readFileSync(rejects, "utf8")) }
    }
    const secondUnh = sample.indexOf("UNH+2+")
    const [whole] = [qtysPerMalo(sample)]
    const all = [...whole.values()].reduce((a, b) => a + b, 0)
    const secondOnly = [...qtysPerMalo(sample.slice(secondUnh)).values()].reduce((a, b) => a + b, 0)

    it("costs its message alone, located at its byte; the other message maps", async () => {
      // A 3 MB free text in message 1, terminated: message 1 is rejected, message 2 maps.
      const at = sample.indexOf("'", sample.indexOf("BGM+")) + 1
      const text = `${sample.slice(0, at)}FTX+AAI+++${"x".repeat(3_000_000)}'${sample.slice(at)}`
      const result = await run("long-segment", text)
      expect(result.code).toBe(1)
      expect(result.payloads.length).toBe(secondOnly)
      expect(result.payloads.length).toBeLessThan(all)
      const detail = result.rejected.flatMap((r) => (r["errors"] as Array<{ detail: string }>).map((e) => e.detail)).join("\n")
      // Each record of message 1 is rejected, naming the segment that cost the message.
      expect(detail).toContain(`${result.input}: message "1" (#1), segment `)
      expect(detail).toContain(`segment_too_long: the segment "FTX+AAI+++xx…" (number 5, at byte ${at}) is longer than 1048576 bytes`)
      expect(detail.length).toBeLessThan(all * 2_000)
    })

    it("60 MB without a terminator: refused once it passes the bound, the messages before it map, the run ends", async () => {
      const text = `${sample}UNB+UNOC:3+4041407000008:14+9903100000006:500+240202:1250+X'UNH+9+MSCONS:D:04B:UN:2.4b'FTX+AAI+++${"y".repeat(60_000_000)}`
      const result = await run("no-terminator", text)
      expect(result.code).toBe(1)
      expect(result.payloads.length).toBe(all)
      const detail = result.rejected.flatMap((r) => (r["errors"] as Array<{ detail: string }>).map((e) => e.detail)).join("\n")
      expect(JSON.stringify(result.rejected)).not.toContain("yyyyyyyyyy".repeat(20))
      // Its segments: the sample's (one per terminator, the UNA's included), then UNB, UNH and the FTX.
      const number = sample.split("'").length - 1 + 3
      expect(detail).toContain(`segment_too_long: the segment "FTX+AAI+++yy…" (number ${number}, at byte ${sample.length + 87}) is longer than 1048576 bytes`)
      expect(result.stderr.length).toBeLessThan(5_000)
    })
  })
})
