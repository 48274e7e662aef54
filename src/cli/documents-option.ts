/**
 * `--documents DIR` of validate, send and serve: a local folder laid out like the file store's root.
 * A folder that cannot be read is a usage error (exit 2), found before any record is read.
 *
 * @module
 */
import { fileStoreFolder, type FileStoreFolder, folderProblem } from "../validation/run/index.js"
import { usageError } from "../readers/index.js"

/** The folder of `--documents`, checked; `undefined` without the option. */
export const documentsFolder = (dir: string | undefined): FileStoreFolder | undefined => {
  if (dir === undefined) return undefined
  const problem = folderProblem(dir)
  if (problem !== undefined) throw usageError(`--documents: ${problem}`)
  return fileStoreFolder(dir)
}

/** At most this many unreferenced files are named; the rest are counted. */
const LISTED_FILES = 20

/**
 * The information line about files of the folder that no record names (never an error: a folder may
 * hold the documents of a later run), or `undefined` when every file is named.
 */
export const unreferencedFilesNote = (dir: string, unreferenced: ReadonlyArray<string>): string | undefined => {
  if (unreferenced.length === 0) return undefined
  const listed = unreferenced.slice(0, LISTED_FILES).map((f) => `  ${f}`).join("\n")
  const more = unreferenced.length > LISTED_FILES ? `\n  … and ${unreferenced.length - LISTED_FILES} more` : ""
  return `data-import: information: ${unreferenced.length} file${unreferenced.length === 1 ? "" : "s"} in ${dir} named by no record:\n${listed}${more}\n`
}

/**
 * The information line about links to folders outside the folder, which are not read (a folder's files
 * are its own; `etc → /etc` or `root → /` would list a machine), or `undefined` when there are none.
 */
export const linksOutsideNote = (dir: string, links: ReadonlyArray<string>): string | undefined => {
  if (links.length === 0) return undefined
  const listed = links.slice(0, LISTED_FILES).join(", ")
  const more = links.length > LISTED_FILES ? ` … and ${links.length - LISTED_FILES} more` : ""
  return `data-import: information: ${links.length} link${links.length === 1 ? "" : "s"} to folders outside ${dir}: not read: ${listed}${more}\n`
}

/** The files of a `--documents` folder that no record has named yet. */
export class DocumentsReport {
  private readonly unnamed: Set<string>
  private readonly linksOutside: ReadonlyArray<string>

  constructor(readonly folder: FileStoreFolder) {
    const listing = folder.listing()
    this.unnamed = new Set(listing.files)
    this.linksOutside = listing.linksOutside
  }

  /** Paths records named. */
  take(paths: ReadonlyArray<string> | undefined): void {
    for (const path of paths ?? []) this.unnamed.delete(path)
  }

  /** The information about the links not read and the files never named (see {@link linksOutsideNote}, {@link unreferencedFilesNote}). */
  note(): string | undefined {
    const notes = [linksOutsideNote(this.folder.root, this.linksOutside), unreferencedFilesNote(this.folder.root, [...this.unnamed])].filter((n) => n !== undefined)
    return notes.length === 0 ? undefined : notes.join("")
  }
}

/** The report of `--documents DIR` (checked first: a usage error when it is no readable folder); `undefined` without the option. */
export const documentsReport = (dir: string | undefined): DocumentsReport | undefined => {
  const folder = documentsFolder(dir)
  return folder === undefined ? undefined : new DocumentsReport(folder)
}
