/**
 * Notes: `POST /v1/data-import/notes/create/` (endpoint id `notes`).
 *
 * @module
 */
import { Schema } from "effect"
import {
  AccountIdentificationFields,
  closedEnum,
  type CrossFieldRule,
  DocumentPath,
  IsoDateTime,
  NonBlankString,
  nonEmptyArray,
  WARNING_RULES,
  type WarningRule
} from "../conventions.js"
import { compareDateTimes, ruleFilter } from "../rules.js"
import { before } from "../rule-breaks.js"
import type { EndpointDefinition, ResourceDefinition } from "../endpoint-definition.js"
import { notFound, post, SERVICE_LEVEL_RESPONSES, validation400 } from "../endpoint-parts.js"
import { UndocumentedBody } from "../errors.js"

/**
 * One attached document: `{ document_path }`, relative to the supplier's document root.
 *
 * @example
 * Schema.is(Schemas.NoteDocument)({ document_path: "notes/KD-0045127/sepa-mandat.pdf" }) // => true
 * Schema.is(Schemas.NoteDocument)({ document_path: "/etc/passwd" }) // => false
 *
 * @since 0.1.0
 */
export const NoteDocument = Schema.Struct({ document_path: DocumentPath }).annotate({ identifier: "NoteDocument" })
/** One attached document. */
export type NoteDocument = typeof NoteDocument.Type

/** A note's `unpin_at` without `is_pinned: true` has no effect (`unpin_at_without_pin`, a warning). */
const unpinWithoutPin = {
  code: "unpin_at_without_pin",
  description: "`unpin_at` on a note that is not pinned.",
  // Only a note that says it is not pinned (or says nothing, the default): an `is_pinned` that is no
  // boolean is an error of its own, and the note may well be meant pinned.
  check: (note) =>
    Object.hasOwn(note, "unpin_at") && (note["is_pinned"] === false || !Object.hasOwn(note, "is_pinned"))
      ? [{ path: ["unpin_at"], code: "unpin_at_without_pin", detail: "unpin_at has no effect on a note that is not pinned." }]
      : []
} as const satisfies WarningRule

/** A note has a body or at least one document path. */
const bodyOrDocumentPath = {
  name: "note_body_or_document_path_not_found",
  description: "A note with neither `body` nor `document_paths`.",
  fields: ["body", "document_paths"],
  // Exact: a body, or a non-empty list of document paths.
  jsonSchema: {
    anyOf: [
      { type: "object", required: ["body"], properties: { body: {} } },
      { type: "object", required: ["document_paths"], properties: { document_paths: { type: "array", minItems: 1 } } }
    ]
  },
  check: (note) =>
    note.body !== undefined || (note.document_paths?.length ?? 0) > 0
      ? []
      : [{ path: [], code: "note_body_or_document_path_not_found", detail: "A note needs a body or at least one document path." }],
  // neither body nor document paths
  breaker: (note) => {
    const { body: _body, document_paths: _paths, ...rest } = note
    return { value: rest, at: [], detail: "the note has neither body nor document_paths" }
  }
} as const satisfies CrossFieldRule<{ readonly body?: unknown; readonly document_paths?: ReadonlyArray<unknown> }>

/** A note's `unpin_at` is not before its `created_at` (compared as instants). */
const unpinNotBeforeCreation = {
  name: "note_unpin_at_earlier_than_creation_date",
  description: "`unpin_at` before `created_at`.",
  fields: ["created_at", "unpin_at"],
  check: (note) =>
    typeof note.created_at !== "string" || typeof note.unpin_at !== "string" ||
      compareDateTimes(note.created_at, note.unpin_at) <= 0
      ? []
      : [{ path: ["unpin_at"], code: "note_unpin_at_earlier_than_creation_date", detail: "unpin_at must not be earlier than created_at." }],
  // unpin before creation (a pinned note, with a creation time where it had none)
  breaker: (note, variant) => {
    const createdAt = typeof note.created_at === "string" ? note.created_at : "2024-03-31T03:00:00+02:00"
    const unpinAt = before(createdAt, variant)
    return {
      value: { ...note, created_at: createdAt, is_pinned: true, unpin_at: unpinAt },
      at: ["unpin_at"],
      detail: `unpin_at (${unpinAt}) is before created_at (${createdAt})`
    }
  }
} as const satisfies CrossFieldRule<{ readonly created_at?: unknown; readonly unpin_at?: unknown }>

/** The cross-field rules of notes, for the list of error codes. */
const notesRules = [bodyOrDocumentPath, unpinNotBeforeCreation] as const

/** The warning rules of notes, for the list of warning codes. */
const notesWarningRules = [unpinWithoutPin] as const

/**
 * One note of a notes request. At least one of `body` and `document_paths` must be given; `unpin_at`
 * must not be before `created_at`.
 *
 * @example
 * Schema.is(Schemas.Note)({ body: "Rückruf erbeten", is_pinned: true }) // => true
 * Schema.is(Schemas.Note)({ document_paths: [{ document_path: "notes/KD-1/brief.pdf" }] }) // => true
 * Schema.is(Schemas.Note)({ is_pinned: true }) // => false
 *
 * @since 0.1.0
 */
export const Note = Schema.Struct({
  body: Schema.optionalKey(NonBlankString),
  document_paths: Schema.optionalKey(Schema.Array(NoteDocument)),
  created_at: Schema.optionalKey(IsoDateTime),
  is_pinned: Schema.optionalKey(Schema.Boolean),
  unpin_at: Schema.optionalKey(IsoDateTime)
}).check(
  ruleFilter(bodyOrDocumentPath),
  // Not expressible in JSON Schema: it compares two values (as instants).
  ruleFilter(unpinNotBeforeCreation)
).annotate({ identifier: "Note", [WARNING_RULES]: [unpinWithoutPin] })
/** One note of a notes request. */
export type Note = typeof Note.Type

/**
 * Request body of `notes`: the account and its notes.
 *
 * @example
 * const body = { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", notes: [{ body: "Rückruf erbeten" }] }
 * Schema.is(Schemas.NotesRequest)(body) // => true
 * Schema.is(Schemas.NotesRequest)({ ...body, notes: [] }) // => false
 *
 * @since 0.1.0
 */
export const NotesRequest = Schema.Struct({
  ...AccountIdentificationFields,
  notes: nonEmptyArray(Note)
}).annotate({ identifier: "NotesRequest" })
/** Request body of `notes`. */
export type NotesRequest = typeof NotesRequest.Type

/**
 * Outcome of one note: created, or skipped because the account already has it.
 *
 * @example
 * Schema.is(Schemas.NoteResultStatus)("NOTE_ALREADY_EXISTS") // => true
 * Schema.is(Schemas.NoteResultStatus)("NOTE_SKIPPED") // => false
 *
 * @since 0.1.0
 */
export const NoteResultStatus = closedEnum(["NOTE_CREATION_SUCCESS", "NOTE_ALREADY_EXISTS"])

/**
 * One item of the notes 201 response: the note's `created_at` and `body`, and what happened to it.
 *
 * @example
 * const result = { created_at: "2024-01-02T10:00:00Z", body: "Rückruf erbeten", status: "NOTE_CREATION_SUCCESS" }
 * Schema.is(Schemas.NoteResult)(result) // => true
 * Schema.is(Schemas.NoteResult)({ ...result, status: "CREATED" }) // => false
 *
 * @since 0.1.0
 */
export const NoteResult = Schema.Struct({
  created_at: IsoDateTime,
  body: Schema.String,
  status: NoteResultStatus
}).annotate({ identifier: "NoteResult" })
/** One item of the notes 201 response. */
export type NoteResult = typeof NoteResult.Type

/**
 * 201 response of `notes`: one result per note sent.
 *
 * @example
 * const result = { created_at: "2024-01-02T10:00:00Z", body: "Rückruf erbeten", status: "NOTE_CREATION_SUCCESS" }
 * Schema.is(Schemas.NotesResponse)([result]) // => true
 * Schema.is(Schemas.NotesResponse)({ results: [result] }) // => false
 *
 * @since 0.1.0
 */
export const NotesResponse = Schema.Array(NoteResult).annotate({ identifier: "NotesResponse" })
/** 201 response of `notes`. */
export type NotesResponse = typeof NotesResponse.Type

/**
 * The catalogue's entry of `notes`: path, request and response schemas, retry advice, repeat rule,
 * what the reference service does, and the natural key of one record.
 */
const notesEndpoints = {
  "notes": {
    ...post("notes", "/v1/data-import/notes/create/", "Add notes to an imported account."),
    naturalKey: { items: "notes", account: true, fields: ["body", "created_at", "document_paths[].document_path"], instants: ["created_at"] },
    documentName: "note",
    documentPaths: ["notes[].document_paths[].document_path"],
    itemResults: { in: "body", statuses: { NOTE_CREATION_SUCCESS: "created", NOTE_ALREADY_EXISTS: "already_exists" } },
    request: NotesRequest,
    repeat: "when-notes-have-created-at",
    service: { handler: "notes", stores: "notes" },
    responses: {
      201: { schema: NotesResponse, description: "One result per note: created, or already present." },
      400: validation400,
      404: notFound(UndocumentedBody),
      ...SERVICE_LEVEL_RESPONSES
    }
  }
} as const satisfies Record<string, EndpointDefinition>

/**
 * The resource as the registry (`src/schemas/registry.ts`) takes it: its endpoints, and the rules its
 * schemas carry, from which the code lists are built. A default export, so that the registry's
 * `export *` of the module's schemas (the public `Schemas`) leaves it out.
 */
export default {
  endpoints: notesEndpoints,
  rules: notesRules,
  warningRules: notesWarningRules
} as const satisfies ResourceDefinition
