// Baseline of the map benchmark: csv-parse (the same options as `data-import map`) and JSON.stringify
// of every row, written to stdout like the payloads. Prints nothing else.
import { createReadStream } from "node:fs"
import { parse } from "csv-parse"

let out = ""
for await (const row of createReadStream(process.argv[2]).pipe(parse({ columns: true, delimiter: ";", bom: true, skip_empty_lines: true }))) {
  out += `${JSON.stringify(row)}\n`
  if (out.length >= 1 << 16) {
    if (!process.stdout.write(out)) await new Promise((resolve) => process.stdout.once("drain", resolve))
    out = ""
  }
}
process.stdout.write(out)
