// Baseline (c) of the validate benchmark: a plain Node script that reads, splits and parses the NDJSON
// file like parse-only.mjs and validates each record with ajv, compiled from the library's
// toJsonSchema("energy-amount") (draft 2020-12, formats asserted by ajv-formats). Prints the counts.
import { createReadStream } from "node:fs"
import { Ajv2020 } from "ajv/dist/2020.js"
import addFormats from "ajv-formats"
import { toJsonSchema } from "../dist/index.js"

const ajv = new Ajv2020({ allErrors: false, strict: false })
addFormats(ajv)
const validate = ajv.compile(toJsonSchema(process.argv[3] ?? "energy-amount"))

let valid = 0
let invalid = 0
const check = (line) => {
  if (validate(JSON.parse(line))) valid++
  else invalid++
}
let rest = ""
for await (const chunk of createReadStream(process.argv[2], { highWaterMark: 1 << 20 })) {
  const text = rest + chunk.toString("utf8")
  let start = 0
  for (let newline = text.indexOf("\n"); newline >= 0; newline = text.indexOf("\n", start)) {
    if (newline > start) check(text.slice(start, newline))
    start = newline + 1
  }
  rest = text.slice(start)
}
if (rest.trim() !== "") check(rest)
console.log(JSON.stringify({ records: valid + invalid, valid, invalid }))
