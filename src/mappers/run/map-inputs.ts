/**
 * The inputs of one `map` run, as one list: the files named on the command line, every file inside a
 * folder named there, and the paths of a list file (`--files-from`), so that an archive of 10⁵ files
 * needs no command line of 10⁵ words (which the system's argument limit refuses). Whatever reads all
 * inputs of a run takes this list.
 *
 * @module
 */
import { statSync } from "node:fs"
import { readFile, readdir, stat } from "node:fs/promises"
import { join } from "node:path"
import { ioError, usageError } from "../../readers/exit-codes.js"

/** Reads a text from standard input whole. */
const readStdin = async (): Promise<string> => {
  const chunks: Array<Buffer> = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

/**
 * The paths of a list: one a line, as on the command line; LF or CRLF; blank lines skipped. A line is
 * the path as written (spaces included): a list is made by `find` or `ls`, not typed.
 *
 * @example
 * pathsOfList("a.edi\r\n\r\nold/b.edi\n") // ["a.edi", "old/b.edi"]
 */
export const pathsOfList = (text: string): Array<string> =>
  text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line)).filter((line) => line.trim() !== "")

/**
 * Whether `path` is a folder; anything that cannot be looked at is not (opening it as a file then says
 * why). Synchronous: a list of 10⁵ paths would otherwise wait 10⁵ times for the thread pool.
 */
const isDirectory = (path: string): boolean => {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true
  } catch {
    return false
  }
}

/** Code-unit order, the same on every machine and locale (not `localeCompare`). */
const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Every file inside `folder` and its subfolders (an archive kept by year or month), sorted by its path
 * below the folder. Symbolic links to files count as files; links to folders are not followed (a link
 * back up would never end).
 */
const filesInFolder = async (folder: string): Promise<Array<string>> => {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true })
  const files: Array<string> = []
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name)
    if (entry.isFile() || (entry.isSymbolicLink() && (await stat(path).then((s) => s.isFile(), () => false)))) files.push(path)
  }
  return files.sort(byPath)
}

/**
 * The inputs of a run, in order: each argument as given, a folder replaced by the files inside it
 * (recursively, sorted), then the paths listed in `filesFrom` (a file, or `-` for standard input), each
 * read the same way. A usage error when there are none, or a folder holds no file; an I/O error when the
 * list cannot be read.
 *
 * @example
 * await mapInputs(["-"], undefined) // ["-"]
 */
export const mapInputs = async (args: ReadonlyArray<string>, filesFrom: string | undefined): Promise<Array<string>> => {
  let listed: Array<string> = []
  if (filesFrom !== undefined) {
    if (filesFrom === "-" && args.includes("-")) throw usageError("--files-from - reads the list from stdin, which then cannot be an input too")
    let text: string
    try {
      text = filesFrom === "-" ? await readStdin() : await readFile(filesFrom, "utf8")
    } catch (cause) {
      throw ioError(`the list ${filesFrom} (--files-from) cannot be read: ${(cause as Error).message}`)
    }
    listed = pathsOfList(text)
    if (listed.length === 0) throw usageError(`the list ${filesFrom} (--files-from) names no file`)
  }
  const inputs: Array<string> = []
  for (const arg of [...args, ...listed]) {
    const isFolder = arg !== "-" && isDirectory(arg)
    if (!isFolder) {
      inputs.push(arg)
      continue
    }
    let files: Array<string>
    try {
      files = await filesInFolder(arg)
    } catch (cause) {
      throw ioError(`the folder ${arg} cannot be read: ${(cause as Error).message}`)
    }
    if (files.length === 0) throw usageError(`the folder ${arg} holds no file`)
    inputs.push(...files)
  }
  if (inputs.length === 0) throw usageError("map needs an input: a file, a folder, or --files-from LIST")
  return inputs
}
