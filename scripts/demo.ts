/**
 * Validates the bundled example payloads and prints a readable report for each: the valid ones in
 * `examples/payloads/`, and the deliberately broken ones in `examples/broken/` (named `<endpoint-id>.<case>.json`).
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { isEndpointId, validatePayload } from "../src/index.js"

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
