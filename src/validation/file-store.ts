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
import { readdirSync, realpathSync, statSync } from "node:fs"
import { join, sep } from "node:path"
import { DOCUMENT_PATH_RE, NON_BLANK_RE } from "../schemas/patterns.js"
import type { ErrorCode } from "./codes.js"
import type { PayloadError } from "./result.js"
import { isRecord } from "../schemas/is-record.js"
import { endpoints, type EndpointDefinition } from "../schemas/endpoints/catalogue.js"
import { isEndpointId } from "../schemas/endpoints/endpoint-id.js"

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
 * The fields of a body of `endpoint` that name a file of the file store (its catalogue entry's
 * `documentPaths`); none for an endpoint without them, or an unknown one.
 *
 * @example
 * documentPathsOf("historical-statements") // => ["statements[].statement_path"]
 * documentPathsOf("energy-amount") // => []
 */
export const documentPathsOf = (endpoint: string): ReadonlyArray<string> => {
  if (!isEndpointId(endpoint)) return []
  const entry: EndpointDefinition = endpoints[endpoint]
  return entry.documentPaths ?? []
}

/** The safe paths at `steps` below `value` (`name[]` takes every item of the list `name`), with their attrs. */
const referencesAt = (value: unknown, steps: ReadonlyArray<string>, attr: string, out: Array<DocumentReference>): void => {
  const [step, ...rest] = steps
  if (step === undefined) {
    if (isSafeDocumentPath(value)) out.push({ attr, path: value })
    return
  }
  const list = step.endsWith("[]")
  const name = list ? step.slice(0, -2) : step
  const next = isRecord(value) ? value[name] : undefined
  const at = attr === "" ? name : `${attr}.${name}`
  if (!list) referencesAt(next, rest, at, out)
  else if (Array.isArray(next)) next.forEach((item, i) => referencesAt(item, rest, `${at}.${i}`, out))
}

/**
 * The safe document paths of a body of `endpoint` (other endpoints have none), in document order.
 *
 * @example
 * documentReferencesOf("historical-statements", { statements: [{ statement_path: "s/1.pdf" }] })
 * // => [{ attr: "statements.0.statement_path", path: "s/1.pdf" }]
 */
export const documentReferencesOf = (endpoint: string, body: unknown): Array<DocumentReference> => {
  const out: Array<DocumentReference> = []
  for (const field of documentPathsOf(endpoint)) referencesAt(body, field.split("."), "", out)
  return out
}

/** The error of a document path that names no file. */
export const missingDocumentError = (reference: DocumentReference): PayloadError => ({
  detail: `No file ${reference.path} in the file store: upload it first (paths are relative to the supplier's document root).`,
  code: PATH_DOES_NOT_EXIST_IN_FILE_STORE,
  attr: reference.attr
})

/** The files of a folder, and the links in it to folders outside it, which were not read. */
export interface FolderListing {
  /** Every regular file (or link to one, wherever it points), as document paths (`/` between segments), sorted. */
  readonly files: Array<string>
  /** Links to folders outside the folder, as document paths, sorted: never walked into. */
  readonly linksOutside: Array<string>
}

/** A local folder laid out like the file store's root. */
export interface FileStoreFolder {
  readonly root: string
  /**
   * Whether `path` (a safe document path) names a regular file (or a link to one) in the folder. A path
   * through a link to a folder outside the folder names nothing.
   */
  readonly exists: (path: string) => boolean
  /** The errors of a body's paths that name no file, in document order. */
  readonly missing: (endpoint: string, body: unknown) => Array<PayloadError>
  /** Every regular file of the folder, as document paths (`/` between segments), sorted (see {@link listFolder}). */
  readonly files: () => Array<string>
  /** The files of the folder and the links to folders outside it (see {@link listFolder}). */
  readonly listing: () => FolderListing
}

/** Whether the real path `path` is `root` or inside it. */
const isWithin = (root: string, path: string): boolean => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)

/**
 * The files of a folder, walked without following any link out of it: a link to a file is a file,
 * wherever the file is; a link to a folder inside the folder is walked, but each real folder once (a link
 * loop, `notes/loop → ..`, is listed once); a link to a folder outside (`etc → /etc`, `root → /`) is never
 * walked, and named in `linksOutside`. A folder that cannot be read is left out.
 *
 * @example
 * listFolder("/no/such/folder") // => { files: [], linksOutside: [] }
 */
export const listFolder = (root: string): FolderListing => {
  const files: Array<string> = []
  const linksOutside: Array<string> = []
  let realRoot: string
  try {
    realRoot = realpathSync(root)
  } catch {
    return { files, linksOutside }
  }
  const seen = new Set<string>([realRoot])
  // Folders to read: their real path and their document path (`""` for the root). Links to folders wait
  // until every real folder is read, so that a folder is listed under its own name, not a link's.
  const pending: Array<readonly [string, string]> = [[realRoot, ""]]
  const linked: Array<readonly [string, string]> = []
  const nextFolder = (): readonly [string, string] | undefined => {
    const folder = pending.pop()
    if (folder !== undefined) return folder
    for (let link = linked.shift(); link !== undefined; link = linked.shift()) {
      if (seen.has(link[0])) continue
      seen.add(link[0])
      return link
    }
    return undefined
  }
  for (let next = nextFolder(); next !== undefined; next = nextFolder()) {
    const [folder, prefix] = next
    let entries: Array<import("node:fs").Dirent>
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch {
      continue
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`
      const at = join(folder, entry.name)
      if (entry.isFile()) files.push(path)
      else if (entry.isDirectory()) {
        seen.add(at)
        pending.push([at, path])
      } else if (entry.isSymbolicLink()) {
        try {
          const target = statSync(at)
          if (target.isFile()) files.push(path)
          else if (target.isDirectory()) {
            const real = realpathSync(at)
            if (!isWithin(realRoot, real)) linksOutside.push(path)
            else linked.push([real, path])
          }
        } catch {
          // A dangling link names nothing.
        }
      }
    }
  }
  return { files: files.sort(), linksOutside: linksOutside.sort() }
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
      const segments = path.split("/")
      // The folders the path passes through must be inside the root, links resolved; the file may be a
      // link to anywhere.
      const folder = realpathSync(join(root, ...segments.slice(0, -1)))
      return isWithin(realpathSync(root), folder) && statSync(join(folder, segments[segments.length - 1]!)).isFile()
    } catch {
      return false
    }
  }
  return {
    root,
    exists,
    missing: (endpoint, body) => documentReferencesOf(endpoint, body).filter((r) => !exists(r.path)).map(missingDocumentError),
    files: () => listFolder(root).files,
    listing: () => listFolder(root)
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
