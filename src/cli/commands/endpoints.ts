/**
 * `data-import endpoints`: the endpoint catalogue as a table or JSON.
 *
 * @module
 */
import { ENDPOINT_IDS, endpoints } from "../../index.js"
import { EXIT, type ExitCode, Output } from "../../readers/index.js"
import { stylesFor, useColour } from "../terminal.js"

/** Prints the endpoints (id, method, path, summary). */
export const runEndpoints = async (options: { readonly format: "text" | "json" }): Promise<ExitCode> => {
  const rows = ENDPOINT_IDS.map((id) => ({ id, method: endpoints[id].method, path: endpoints[id].path, summary: endpoints[id].summary }))
  const out = new Output(process.stdout, "stdout")
  if (options.format === "json") {
    out.write(`${JSON.stringify(rows, null, 2)}\n`)
  } else {
    const s = stylesFor(useColour(process.stdout))
    const width = Math.max(...rows.map((r) => r.id.length))
    for (const r of rows) out.write(`${s.bold(r.id.padEnd(width))}  ${r.method.padEnd(4)}  ${r.path}\n${" ".repeat(width + 2)}${s.dim(r.summary)}\n`)
  }
  await out.close()
  return EXIT.ok
}
