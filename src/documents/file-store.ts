/**
 * Document paths against a local folder laid out like the file store's root (spec: document path
 * convention): which paths a payload names (`notes.N.document_paths.M.document_path`,
 * `statements.N.statement_path`), which of them name no file there (`path_does_not_exist_in_file_store`,
 * as the real API answers), and which files of the folder no payload names.
 *
 * A path that breaks the safety rules (`invalid_document_path`) is left to validation: it is never
 * looked up, so no path can reach outside the folder.
 *
 * @module
 */
import { readdirSync, statSync } from "node:fs"
import { join, sep } from "node:path"
import { DOCUMENT_PATH_RE, NON_BLANK_RE } from "../schemas/patterns.js"
import type { ErrorCode } from "../validation/codes.js"
import type { PayloadError } from "../validation/result.js"
import { isRecord } from "../schemas/is-record.js"

/** The code of a document path that names no file in the file store (the real API's code). */
export const PATH_DOES_NOT_EXIST_IN_FILE_STORE = "path_does_not_exist_in_file_store" satisfies ErrorCode

/** A document path of a payload and where it is (`attr`, as errors name it). */
export interface DocumentReference {
  readonly attr: string
  readonly path: string
}


/** A path the safety rules accept: only those are looked up. */
export const isSafeDocumentPath = (path: unknown): path is string =>
  typeof path === "string" && NON_BLANK_RE.test(path) && DOCUMENT_PATH_RE.test(path)

/**
 * The safe document paths of a body of `endpoint` (other endpoints have none), in document order.
 *
 * @example
 * documentReferencesOf("historical-statements", { statements: [{ statement_path: "s/1.pdf" }] })
 * // => [{ attr: "statements.0.statement_path", path: "s/1.pdf" }]
 */
export const documentReferencesOf = (endpoint: string, body: unknown): Array<DocumentReference> => {
  const out: Array<DocumentReference> = []
  const items = (key: string): Array<[number, Record<string, unknown>]> => {
    const list = isRecord(body) ? body[key] : undefined
    return Array.isArray(list) ? list.flatMap((item, i): Array<[number, Record<string, unknown>]> => (isRecord(item) ? [[i, item]] : [])) : []
  }
  if (endpoint === "notes") {
    for (const [n, note] of items("notes")) {
      const paths = note["document_paths"]
      if (!Array.isArray(paths)) continue
      paths.forEach((doc, m) => {
        const path = isRecord(doc) ? doc["document_path"] : undefined
        if (isSafeDocumentPath(path)) out.push({ attr: `notes.${n}.document_paths.${m}.document_path`, path })
      })
    }
  }
  if (endpoint === "historical-statements") {
    for (const [n, statement] of items("statements")) {
      const path = statement["statement_path"]
      if (isSafeDocumentPath(path)) out.push({ attr: `statements.${n}.statement_path`, path })
    }
  }
  return out
}

/** The error of a document path that names no file. */
export const missingDocumentError = (reference: DocumentReference): PayloadError => ({
  detail: `No file ${reference.path} in the file store: upload it first (paths are relative to the supplier's document root).`,
  code: PATH_DOES_NOT_EXIST_IN_FILE_STORE,
  attr: reference.attr
})

/** A local folder laid out like the file store's root. */
export interface FileStoreFolder {
  readonly root: string
  /** Whether `path` (a safe document path) names a regular file (or a link to one) in the folder. */
  readonly exists: (path: string) => boolean
  /** The errors of a body's paths that name no file, in document order. */
  readonly missing: (endpoint: string, body: unknown) => Array<PayloadError>
  /** Every regular file of the folder, as document paths (`/` between segments), sorted. */
  readonly files: () => Array<string>
}

/**
 * A folder as the file store: every lookup asks the file system, so files added while a service runs
 * are found.
 *
 * @example
 * const store = fileStoreFolder("/no/such/folder")
 * store.missing("historical-statements", { statements: [{ statement_path: "s/1.pdf" }] }).map((e) => e.attr)
 * // => ["statements.0.statement_path"]
 */
export const fileStoreFolder = (root: string): FileStoreFolder => {
  const exists = (path: string): boolean => {
    try {
      return statSync(join(root, ...path.split("/"))).isFile()
    } catch {
      return false
    }
  }
  return {
    root,
    exists,
    missing: (endpoint, body) => documentReferencesOf(endpoint, body).filter((r) => !exists(r.path)).map(missingDocumentError),
    files: () =>
      (readdirSync(root, { recursive: true, encoding: "utf8" }) as Array<string>)
        .map((name) => name.split(sep).join("/"))
        .filter(exists)
        .sort()
  }
}

/** Checks that `root` is a readable folder; the reason when it is not. */
export const folderProblem = (root: string): string | undefined => {
  try {
    if (!statSync(root).isDirectory()) return `${root} is not a folder`
    readdirSync(root)
    return undefined
  } catch (cause) {
    return `${root} cannot be read (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`
  }
}
