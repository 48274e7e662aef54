// (b) and (d) of bench/edifact.mjs: this package's EDIFACT reader over a file, read in the stream's chunks,
// as a process of its own. The reader is not part of the library's entry point: bench/edifact.mjs builds
// it from src/readers/edifact/ with esbuild (as tsup builds dist/) and passes the module's path. Prints
// the number of segments (records for `records`).
//   scanner   SegmentScanner: segments with elements, byte offset, segment number and raw text, a chunk at a time
//   segments  readSegments: the same, one segment per step of an async generator
//   messages  readMessages: segments with the UNB/UNZ and UNH/UNT envelopes checked, a message at a time
//   records   readEdifactRecords with the options map gives it (a file bench/edifact.mjs writes): the records `map` reads
import { createReadStream, readFileSync } from "node:fs"

const [module, file, mode = "scanner", optionsFile] = process.argv.slice(2)
const { SegmentScanner, readSegments, readMessages, readEdifactRecords } = await import(module)
const chunks = () => createReadStream(file)
let count = 0
if (mode === "scanner") {
  const scanner = new SegmentScanner()
  const out = []
  for await (const chunk of chunks()) {
    scanner.push(chunk, out)
    count += out.length
    out.length = 0
  }
  scanner.end(out)
  count += out.length
} else if (mode === "segments") {
  for await (const _ of readSegments(chunks())) count++
} else if (mode === "messages") {
  for await (const item of readMessages(chunks())) if (item.kind === "message") count += item.segments.length
} else {
  for await (const item of readEdifactRecords(chunks(), JSON.parse(readFileSync(optionsFile, "utf8")))) if (item.kind === "record") count++
}
console.log(count)
