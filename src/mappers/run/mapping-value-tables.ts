/**
 * The value tables a JSON mapping keeps in files (`"values": { "file": "codes/art.csv" }`), read from
 * beside the mapping into it: a file that cannot be read or parsed makes the mapping unusable (exit 2),
 * with the file and line named.
 *
 * @module
 */
import { readFile } from "node:fs/promises"
import { dirname, resolve } from "node:path"
import { formatMappingProblem } from "../define-mapping.js"
import { resolveValueTables } from "../../readers/lookup/value-table-files.js"
import { usageError } from "../../readers/exit-codes.js"

/** `spec` (read from `mappingPath`) with its value table files read, paths relative to the mapping. */
export const withValueTables = async (spec: unknown, mappingPath: string): Promise<unknown> => {
  const base = dirname(resolve(mappingPath))
  const resolved = await resolveValueTables(spec, (file) => readFile(resolve(base, file), "utf8"))
  if (resolved.problems.length > 0) {
    throw usageError(`the mapping ${mappingPath} is not usable:\n${resolved.problems.map((p) => `  ${formatMappingProblem(p)}`).join("\n")}`)
  }
  return resolved.spec
}
