// The baselines of bench/map-many-files.mjs, as a process of its own: this package's EDIFACT reader
// (built by bench/edifact.mjs from src/readers/edifact/ with esbuild, its path passed here) over every file
// of a list, one interchange a file, each read in its stream's chunks, with the options map gives the
// reader for the example mapping (a file bench/edifact.mjs writes): the records `map` reads.
//   records         counts the records; prints the count
//   records-json    writes JSON.stringify of every record to stdout, a line each, as map writes its
//                   payloads; prints the count on stderr
import { createReadStream, readFileSync, writeSync } from "node:fs"

const [module, listFile, mode = "records", optionsFile] = process.argv.slice(2)
const { readEdifactRecords } = await import(module)
const files = readFileSync(listFile, "utf8").split("\n").filter((line) => line !== "")
const options = JSON.parse(readFileSync(optionsFile, "utf8"))
let count = 0
let out = ""
const flush = () => {
  if (out !== "") writeSync(1, out)
  out = ""
}
for (const file of files) {
  for await (const item of readEdifactRecords(createReadStream(file), options)) {
    if (item.kind !== "record") continue
    count++
    if (mode === "records-json") {
      out += `${JSON.stringify(item.record)}\n`
      if (out.length > 1 << 20) flush()
    }
  }
}
flush()
if (mode === "records-json") process.stderr.write(`${count}\n`)
else console.log(count)
