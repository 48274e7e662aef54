/**
 * Throughput of the EDIFACT reader on a large generated MSCONS (the real German sample's messages
 * repeated), against npm edifact's parser in the same run, and of mapping its QTYs to energy amounts.
 * Run: npx tsx bench/edifact-reader.ts [copies]
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { gunzipSync } from "node:zlib"
import { defineMapping, type MappingSpec, mapRecords } from "../src/index.js"
import { mappingColumns } from "../src/mappers/compile-mapping.js"
import { readEdifactRecords } from "../src/readers/edifact/records.js"
import { readSegments } from "../src/readers/edifact/segments.js"

const require = createRequire(import.meta.url)
const Parser = require("edifact/parser.js") as new () => { encoding(l: string): void; on(e: string, f: (d: string) => void): void; write(c: string): void; end(): void }

const copies = Number(process.argv[2] ?? 50)
const sample = gunzipSync(readFileSync(new URL("../test/fixtures/market-messages/de-2024-redispatch-2.4b-two-malos.edi.gz", import.meta.url))).toString("latin1")
const head = sample.slice(0, sample.indexOf("UNH+"))
const body = sample.slice(sample.indexOf("UNH+"), sample.indexOf("UNZ+"))
const text = `${head}${body.repeat(copies)}UNZ+${2 * copies}+E-121808993A'`
const bytes = Buffer.from(text, "latin1")
const chunks: Array<Uint8Array> = []
for (let i = 0; i < bytes.length; i += 65536) chunks.push(bytes.subarray(i, i + 65536))
const mb = bytes.length / 1e6

const time = async (name: string, f: () => Promise<number>): Promise<number> => {
  await f()
  const start = performance.now()
  const n = await f()
  const s = (performance.now() - start) / 1000
  console.log(`${name.padEnd(34)} ${(mb / s).toFixed(1).padStart(6)} MB/s  (${n} items, ${s.toFixed(2)} s)`)
  return mb / s
}

console.log(`input: ${mb.toFixed(1)} MB, ${2 * copies} messages`)
const ours = await time("readSegments (ours)", async () => {
  let n = 0
  for await (const _ of readSegments(chunks)) n++
  return n
})
const theirs = await time("edifact Parser (npm)", async () => {
  let n = 0
  const parser = new Parser()
  parser.encoding("UNOC")
  parser.on("opensegment", () => n++)
  for (const c of chunks) parser.write(Buffer.from(c).toString("latin1"))
  parser.end()
  return n
})
const options = { record: "QTY", groups: ["NAD", "LOC", "LIN", "QTY"], messages: ["MSCONS:D:04B"] }
const records = await time("readEdifactRecords (all cells)", async () => {
  let n = 0
  for await (const _ of readEdifactRecords(chunks, options)) n++
  return n
})
const spec = JSON.parse(readFileSync(new URL("../examples/market-messages/mscons-energy-amounts.mapping.json", import.meta.url), "utf8")) as MappingSpec<"energy-amount">
const mapping = defineMapping({ ...spec, fields: { ...spec.fields, external_account_number: { value: "KD-1" } } })
// As `map` reads: only the cells the mapping reads.
const columns = { ...options, columns: mappingColumns(mapping) }
const mapped = await time("records + mapRecords (payloads)", async () => {
  const rows = async function*() {
    for await (const item of readEdifactRecords(chunks, columns)) if (item.kind === "record") yield item.record
  }
  let n = 0
  for await (const event of mapRecords(mapping, rows())) if (event.kind === "payload") n++
  return n
})
console.log(`reader vs edifact: ${(ours / theirs).toFixed(2)}x; map vs reader alone: ${(mapped / ours).toFixed(2)}x (vs records: ${(mapped / records).toFixed(2)}x)`)
