/**
 * Reads a JSON file the user named (a mapping, a reader, a seed): unreadable is an I/O error (exit 3), not
 * JSON is a usage error (exit 2) that says where the syntax breaks, and so is a key written twice in one
 * object (which of its values is meant is not known).
 *
 * @module
 */
import { readFile } from "node:fs/promises"
import { describeError, ioError, usageError } from "../exit-codes.js"
import { findJsonSyntaxError, lineAndColumn } from "./json-syntax-error.js"
import { repeatedJsonKeys } from "./repeated-json-keys.js"

/** The parsed content of a JSON file; `what` names it in messages ("the mapping", "the seed"). */
export const readJsonFile = async (path: string, what: string): Promise<unknown> => {
  let text: string
  try {
    text = await readFile(path, "utf8")
  } catch (cause) {
    throw ioError(`cannot read ${what} ${path}: ${describeError(cause)}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text) as unknown
  } catch {
    const found = findJsonSyntaxError(text)
    const at = lineAndColumn(text, found?.offset ?? 0)
    throw usageError(`${what} ${path} is not valid JSON: ${found?.message ?? "syntax error"} at line ${at.line} column ${at.column}`)
  }
  // JSON.parse keeps the last value of a key written twice: an inline value table would translate a code
  // to whichever value came last, a field would come from whichever source came last, without a word.
  const repeated = repeatedJsonKeys(text)[0]
  if (repeated !== undefined) {
    throw usageError(`${what} ${path} writes the key ${JSON.stringify(repeated.key)} twice in one object: which value is meant is not known (JSON would keep the last)`)
  }
  return parsed
}
