/**
 * The `--journal` path, checked before SQLite opens it. SQLite answers a folder, or a new ledger in a
 * folder that does not exist, with "unable to open database file" or "disk I/O error", which does not
 * say what is wrong with the path; a ledger named from the wrong folder is a common mistake.
 *
 * @module
 */
import { type Stats, statSync } from "node:fs"
import { dirname } from "node:path"
import { ioError } from "../internal/exit-codes.js"

/** The file's stats, or `undefined` when nothing is there (any other problem is left to SQLite to report). */
const statOf = (path: string): Stats | "missing" | undefined => {
  try {
    return statSync(path)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : undefined
  }
}

/**
 * Throws an I/O error (exit 3) for a `--journal` that is a folder, or that does not exist where it must
 * (`create: false`: status) or cannot be created (`create: true`: send, map; its folder is missing).
 * `report` checks its ledger in its own words (`is not a file`) when it opens it.
 */
export const checkLedgerPath = (path: string, options: { readonly create: boolean }): void => {
  if (path === "" || path === ":memory:") return
  const stat = statOf(path)
  if (stat === "missing") {
    if (!options.create) throw ioError(`the ledger ${path} does not exist`)
    const folder = dirname(path)
    const parent = statOf(folder)
    if (parent === "missing" || (parent !== undefined && !parent.isDirectory())) {
      throw ioError(`the ledger ${path} cannot be created: the folder ${folder} does not exist`)
    }
  } else if (stat?.isDirectory() === true) {
    throw ioError(`the ledger ${path} is a folder, not a file: give the path of the campaign's ledger file`)
  }
}
