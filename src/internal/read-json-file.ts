/**
 * Reads a JSON file the user named (a mapping, a seed): unreadable is an I/O error (exit 3), not JSON is a
 * usage error (exit 2) that says where the syntax breaks.
 *
 * @module
 */
import { readFile } from "node:fs/promises"
import { describeError, ioError, usageError } from "./exit-codes.js"
import { findJsonSyntaxError, lineAndColumn } from "./json-syntax-error.js"

/** The parsed content of a JSON file; `what` names it in messages ("the mapping", "the seed"). */
export const readJsonFile = async (path: string, what: string): Promise<unknown> => {
  let text: string
  try {
    text = await readFile(path, "utf8")
  } catch (cause) {
    throw ioError(`cannot read ${what} ${path}: ${describeError(cause)}`)
  }
  try {
    return JSON.parse(text) as unknown
  } catch {
    const found = findJsonSyntaxError(text)
    const at = lineAndColumn(text, found?.offset ?? 0)
    throw usageError(`${what} ${path} is not valid JSON: ${found?.message ?? "syntax error"} at line ${at.line} column ${at.column}`)
  }
}
