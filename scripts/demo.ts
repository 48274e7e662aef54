/**
 * Validates the bundled example payloads and prints a readable report for each: the valid ones in
 * `examples/payloads/`, the deliberately broken ones in `examples/broken/` (named `<endpoint-id>.<case>.json`),
 * and maps the legacy CSV exports in `examples/mappings/` with their JSON mappings.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { parse } from "csv-parse/sync"
import { defineMapping, isEndpointId, mapRecords, type MappingSpec, validatePayload } from "../src/index.js"

const root = new URL("../examples/", import.meta.url).pathname

const report = (folder: string): void => {
  console.log(`\n${folder}/`)
  for (const file of readdirSync(join(root, folder)).filter((f) => f.endsWith(".json")).sort()) {
    const endpointId = file.split(".")[0] ?? ""
    if (!isEndpointId(endpointId)) {
      console.log(`  ${file}: no endpoint named ${endpointId}`)
      continue
    }
    const result = validatePayload(endpointId, JSON.parse(readFileSync(join(root, folder, file), "utf8")))
    console.log(`  ${result.ok ? "valid  " : "INVALID"}  ${file}  (${endpointId})`)
    if (!result.ok) {
      for (const e of result.error.errors) console.log(`           error    ${e.attr}  ${e.code}: ${e.detail}`)
    }
    for (const w of result.warnings) console.log(`           warning  ${w.attr}  ${w.code}: ${w.detail}`)
  }
}

report("payloads")
report("broken")

// Legacy CSV exports mapped to payloads with the JSON mappings beside them.
const mappingsDir = join(root, "mappings")
console.log("\nmappings/")
for (const file of readdirSync(mappingsDir).filter((f) => f.endsWith(".mapping.json")).sort()) {
  const name = file.replace(".mapping.json", "")
  const mapping = defineMapping(JSON.parse(readFileSync(join(mappingsDir, file), "utf8")) as MappingSpec)
  const rows = parse(readFileSync(join(mappingsDir, `${name}.csv`), "utf8"), {
    columns: true,
    delimiter: ";",
    skip_empty_lines: true
  }) as Array<Record<string, string>>
  const { payloads, rejected } = mapRecords(mapping, rows)
  console.log(`  ${name}.csv → ${mapping.endpoint}: ${rows.length} rows, ${payloads.length} payloads, ${rejected.length} rejected`)
  // CSV line numbers: the header is line 1, row 0 is line 2.
  for (const p of payloads) console.log(`    payload from lines ${p.sourceRows.map((i) => i + 2).join(", ")}: ${JSON.stringify(p.payload)}`)
  for (const r of rejected) {
    for (const e of r.errors) {
      const where = [e.column !== undefined ? `column ${e.column}` : "", e.attr ?? ""].filter((s) => s !== "").join(", ")
      console.log(`    REJECTED lines ${r.sourceRows.map((i) => i + 2).join(", ")}: ${where}  ${e.code}: ${e.detail}`)
    }
  }
}
