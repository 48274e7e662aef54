/**
 * `data-import resolve`: records the service operators' answer on the records in doubt (`--stored FILE`,
 * `--not-stored FILE`: the in-doubt list of `report --in-doubt`, or a list of keys) in the campaign's
 * ledger, through the library's `resolveInDoubt`. Every key must name a record in doubt, or nothing is
 * written (exit 2, naming the keys).
 *
 * @module
 */
import { readFileSync } from "node:fs"
import { LedgerMismatchError, openLedger, readKeyList, resolveInDoubt, UnmatchedKeysError } from "../../index.js"
import { describeError, EXIT, type ExitCode, ioError, usageError } from "../../readers/index.js"
import { checkLedgerPath } from "../ledger-path.js"
import { plural } from "../terminal.js"

/** Options of `resolve`, as parsed. */
export interface ResolveCommandOptions {
  readonly journal: string
  readonly stored?: string | undefined
  readonly notStored?: string | undefined
}

/** Keys named in a refusal, at most. */
const NAMED = 20

const keysOf = (flag: string, file: string | undefined): ReadonlyArray<string> => {
  if (file === undefined) return []
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch (error) {
    throw ioError(`${flag} ${file}: ${describeError(error)}`)
  }
  try {
    return readKeyList(text)
  } catch (error) {
    if (error instanceof UnmatchedKeysError) throw usageError(`${flag} ${file}: ${error.message}`)
    throw error
  }
}

/** Runs `resolve`: exit 0 when the answer is recorded. */
export const runResolve = async (options: ResolveCommandOptions): Promise<ExitCode> => {
  if (options.stored === undefined && options.notStored === undefined) {
    throw usageError("give the operators' answer: --stored FILE, --not-stored FILE, or both (the in-doubt list of report --in-doubt, or its keys)")
  }
  checkLedgerPath(options.journal, { create: false })
  const stored = keysOf("--stored", options.stored)
  const notStored = keysOf("--not-stored", options.notStored)
  let ledger
  try {
    ledger = openLedger(options.journal)
  } catch (error) {
    if (error instanceof LedgerMismatchError) throw usageError(error.message)
    throw ioError(`the ledger ${options.journal}: ${describeError(error)}`)
  }
  try {
    const source = [options.stored, options.notStored].filter((f) => f !== undefined).join(", ")
    const settled = resolveInDoubt(ledger, { stored, notStored, source })
    const left = ledger.inDoubt().length
    process.stdout.write(
      `${plural(settled.stored.length, "record")} in doubt settled as stored; ${plural(settled.notStored.length, "record")} not stored, ` +
        `sent by the next run; ${plural(left, "record")} still in doubt (ledger ${options.journal})\n`
    )
    return EXIT.ok
  } catch (error) {
    if (error instanceof UnmatchedKeysError) {
      const named = error.keys.slice(0, NAMED).map((k) => `  ${k}\n`).join("")
      const more = error.keys.length > NAMED ? `  … and ${error.keys.length - NAMED} more\n` : ""
      throw usageError(`${error.message}; nothing was recorded (the in-doubt list: data-import report --journal ${options.journal} --in-doubt FILE):\n${named}${more}`.trimEnd())
    }
    throw error
  } finally {
    ledger.close()
  }
}
