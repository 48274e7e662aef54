// Baseline (a) of the validate benchmark: read an NDJSON file, split it into lines and JSON.parse each
// line; nothing else. Prints the number of records.
import { createReadStream } from "node:fs"

let records = 0
let rest = ""
for await (const chunk of createReadStream(process.argv[2], { highWaterMark: 1 << 20 })) {
  const text = rest + chunk.toString("utf8")
  let start = 0
  for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", start)) {
    if (newline > start) {
      JSON.parse(text.slice(start, newline))
      records++
    }
    start = newline + 1
  }
  rest = text.slice(start)
}
if (rest.trim() !== "") {
  JSON.parse(rest)
  records++
}
console.log(JSON.stringify({ records }))
