/**
 * Notes: a note is created only when the account has no note with the same body (and the same
 * `created_at`, compared as instants, when the request gives one); otherwise `NOTE_ALREADY_EXISTS`.
 *
 * @module
 */
import type { Note, NoteResult } from "../schemas/notes/notes.js"
import { compareDateTimes } from "../schemas/rules.js"
import { formatInstant, type Handler } from "./handler.js"
import { importedAccount } from "./account-access.js"
import { accountKey, type ServiceState } from "./state.js"

/** What notes are compared by: the body, or for a note without one, its document paths. */
export const noteKey = (note: Pick<Note, "body" | "document_paths">): string =>
  note.body !== undefined
    ? JSON.stringify(["body", note.body])
    : JSON.stringify(["documents", (note.document_paths ?? []).map((d) => d.document_path)])

interface StoredNote {
  readonly created_at: string
}

/**
 * Adds one note to an account unless it has it already; the result item echoes `created_at` (as given,
 * else the existing note's, else the time of creation), `body` (`""` for a note of documents only) and
 * the status.
 */
export const addNote = (state: ServiceState, account: string, note: Note, now: Date): NoteResult => {
  const key = noteKey(note)
  const given = note.created_at
  const same = (state.find("notes", account, key) as ReadonlyArray<StoredNote>).find((stored) =>
    given === undefined || compareDateTimes(stored.created_at, given) === 0
  )
  const body = note.body ?? ""
  if (same !== undefined) return { created_at: given ?? same.created_at, body, status: "NOTE_ALREADY_EXISTS" }
  const created_at = given ?? formatInstant(now)
  state.add({ kind: "notes", account, key, data: { ...note, created_at } })
  return { created_at, body, status: "NOTE_CREATION_SUCCESS" }
}

/** `notes`: 201 with one result per note, in order (a repeat within the request already exists). */
export const notesHandler: Handler<"notes"> = ({ state, request, context }) => {
  const found = importedAccount(state, "notes", request)
  if ("refused" in found) return found.refused
  const account = accountKey(request.import_supplier, request.external_account_number)
  return { status: 201, body: request.notes.map((note) => addNote(state, account, note, context.now)) }
}
