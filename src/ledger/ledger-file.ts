/**
 * Which file a ledger's name stands for, and the one name every run and reader opens it by.
 *
 * SQLite keeps a ledger's write-ahead log (`-wal`, `-shm`) beside the name it is opened by, and a run's
 * lock (`-lock`) is kept there too. A ledger reached by two names (a symbolic link, made before or after
 * the ledger exists; a relative and an absolute path; a hard link) must be opened by one of them, or two
 * runs would take two locks, and a run through one name would not see the writes another left in the log
 * of the other. So:
 *
 * - a name is followed through its symbolic links, even when the last one leads nowhere yet (a link made
 *   before the first run), and its folder through linked folders: the path of the file it is, or will be;
 * - a ledger records, in its `meta` table, the path it was created under (`name`); a hard link to it is
 *   opened by that path, which is the same file (same device and inode);
 * - when that path is gone (the ledger was moved or renamed), the ledger is opened by the name given if it
 *   is its only name, and records it; a file with several names none of which it recorded is refused: no
 *   name can be chosen that every run would choose.
 *
 * @module
 */
import { readlinkSync, realpathSync, type Stats, statSync } from "node:fs"
import { basename, dirname, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { loadSqlite } from "./sqlite.js"
import { LedgerMismatchError } from "./ledger-types.js"

/** Links followed at most (the kernel's own limit is 40): a loop ends there, and SQLite then says what it finds. */
const MAX_LINKS = 40

/** The real path of `folder` (through linked folders), or `folder` when it does not exist. */
const realFolder = (folder: string): string => {
  try {
    return realpathSync(folder)
  } catch {
    return folder
  }
}

/**
 * The absolute path of the file `path` names: its symbolic links followed, the last one also when it
 * leads to nothing yet, and its folder by its real path.
 *
 * @example
 * // A ledger not created yet, in a folder not made yet: the absolute path it will have.
 * targetOf("/campaign-2025/../campaign-2025/nord.ledger") // => "/campaign-2025/nord.ledger"
 */
export const targetOf = (path: string): string => {
  let current = join(realFolder(dirname(resolve(path))), basename(resolve(path)))
  for (let hop = 0; hop < MAX_LINKS; hop++) {
    let link: string
    try {
      link = readlinkSync(current)
    } catch {
      break // not a symbolic link, or nothing there
    }
    const next = resolve(dirname(current), link)
    current = join(realFolder(dirname(next)), basename(next))
  }
  return current
}

/** A path SQLite opens as it is: no file, or a URI whose parameters are its own. */
const isVirtual = (path: string): boolean => path === "" || path === ":memory:" || path.startsWith("file:")

/**
 * The path recorded in the ledger at `file` as the one it was created under, read from the file alone
 * (immutable: no lock, no log; the path is checkpointed into the file when it is written). `undefined`
 * when the file holds none (older ledgers, another file, a file being created).
 */
const recordedName = (file: string): string | undefined => {
  const { DatabaseSync } = loadSqlite()
  // A page being checkpointed as it is read may read torn: read again.
  for (let attempt = 0; attempt < 3; attempt++) {
    let db: InstanceType<typeof DatabaseSync> | undefined
    try {
      db = new DatabaseSync(`${pathToFileURL(file).href}?immutable=1`, { readOnly: true })
      const row = db.prepare("SELECT value FROM meta WHERE key = 'name'").get() as { value: unknown } | undefined
      return typeof row?.value === "string" ? row.value : undefined
    } catch (error) {
      if (!/malformed|corrupt/iu.test(String(error))) return undefined
    } finally {
      db?.close()
    }
  }
  return undefined
}

const statOf = (path: string): Stats | undefined => {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/**
 * A ledger's name resolved: `file`, the path to open it by; `recorded`, the path the ledger records
 * (to be written when it differs from `file`, by a run that holds the lock).
 */
export interface LedgerFile {
  readonly file: string
  readonly recorded: string | undefined
}

/**
 * Resolves the ledger name `path` to the path every run and reader opens it by (see the module's notes).
 * Throws {@link LedgerMismatchError} for a file with several names none of which is the one it recorded.
 */
export const resolveLedgerFile = (path: string): LedgerFile => {
  if (isVirtual(path)) return { file: path, recorded: undefined }
  const target = targetOf(path)
  const stat = statOf(target)
  if (stat === undefined || !stat.isFile()) return { file: target, recorded: undefined }
  const recorded = recordedName(target)
  if (recorded === target) return { file: target, recorded }
  if (recorded !== undefined) {
    const there = statOf(recorded)
    if (there !== undefined && there.dev === stat.dev && there.ino === stat.ino) return { file: recorded, recorded }
  }
  if (stat.nlink > 1) {
    throw new LedgerMismatchError(
      `the ledger ${path} is one file with ${stat.nlink} names (hard links), and ${recorded === undefined ? "it records none of them as its own" : `the name it records, ${recorded}, is gone`}: ` +
        "runs through two names would not see each other's writes (SQLite keeps a ledger's log beside the name it is opened by). " +
        "Remove its other names so that one is left, then run again; a symbolic link may name it anywhere. The ledger itself is unharmed"
    )
  }
  return { file: target, recorded }
}

/**
 * The path the ledger named `path` is opened by: the file it leads to, by the name the ledger records
 * for itself. Every name of one ledger file gives the same path.
 *
 * @example
 * ledgerFileOf(":memory:") // => ":memory:"
 */
export const ledgerFileOf = (path: string): string => resolveLedgerFile(path).file
