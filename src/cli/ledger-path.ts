/**
 * The `--journal` path, checked before SQLite opens it. SQLite answers a folder, or a new ledger in a
 * folder that does not exist, with "unable to open database file" or "disk I/O error", which does not
 * say what is wrong with the path; a ledger named from the wrong folder is a common mistake.
 *
 * @module
 */
import { realpathSync, type Stats, statSync } from "node:fs"
import { basename, dirname, join, resolve } from "node:path"
import { targetOf } from "../ledger/index.js"
import { ioError, usageError } from "../readers/index.js"

/** The file's stats, or `undefined` when nothing is there (any other problem is left to SQLite to report). */
const statOf = (path: string): Stats | "missing" | undefined => {
  try {
    return statSync(path)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : undefined
  }
}

/**
 * Throws for a `--journal` that is a folder (exit 3), or that does not exist where it must (`create: false`:
 * status, exit 3). Where a run may create it (`create: true`: send, map), a ledger that does not exist is a
 * new campaign, which is a deliberate act: refused (exit 2, naming the absolute path and where a symbolic
 * link leads) unless `newLedger` (`--new-ledger`); with it, a folder that does not exist is named (exit 3).
 * `report` checks its ledger in its own words (`is not a file`) when it opens it.
 *
 * @example
 * checkLedgerPath(":memory:", { create: true }) // => undefined
 */
export const checkLedgerPath = (path: string, options: { readonly create: boolean; readonly newLedger?: boolean | undefined }): void => {
  if (path === "" || path === ":memory:") return
  const stat = statOf(path)
  if (stat === "missing") {
    if (!options.create) throw ioError(`the ledger ${path} does not exist`)
    const absolute = resolve(path)
    const target = targetOf(path)
    if (options.newLedger !== true) {
      const link = target === absolute || target === realFolderPath(absolute) ? "" : ` (a symbolic link to ${target}, where nothing is yet)`
      throw usageError(
        `the ledger ${absolute} does not exist${link}: to start a new campaign there, run again with --new-ledger; ` +
          "to continue a campaign, give the path of its ledger (a new ledger would send again what the campaign's ledger holds as stored)"
      )
    }
    const folder = dirname(target)
    const parent = statOf(folder)
    if (parent === "missing" || (parent !== undefined && !parent.isDirectory())) {
      throw ioError(`the ledger ${path} cannot be created: the folder ${folder} does not exist`)
    }
  } else if (stat?.isDirectory() === true) {
    throw ioError(`the ledger ${path} is a folder, not a file: give the path of the campaign's ledger file`)
  }
}

/** `path` with its folder by its real path (a linked folder), when the folder exists. */
const realFolderPath = (path: string): string => {
  try {
    return join(realpathSync(dirname(path)), basename(path))
  } catch {
    return path
  }
}
