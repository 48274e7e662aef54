/**
 * What the main thread and the validation workers send each other: batches of records out, one summary
 * per batch back. Line numbers of NDJSON batches are relative to the batch (only the main thread knows
 * where a batch starts); JSON batches carry absolute positions.
 *
 * @module
 */
import type { ApiError, ValidationErrorBody } from "../../schemas/errors.js"
import type { WallTimeRun } from "../../mappers/field-source.js"
import type { Problem, RecordError } from "../../readers/rows/record-errors.js"

/** Settings a worker starts with: its role, and what the role needs. */
export type WorkerSettings = ValidateSettings | MapSettings

/** Settings of a validation worker. */
export interface ValidateSettings {
  readonly role: "validate"
  /** The endpoint every record is checked against; `undefined`: inferred per record. */
  readonly endpoint: string | undefined
  /** The clock for `transaction_in_future`, the same for every worker (ISO string). */
  readonly now: string
  /** Send the raw text of each invalid or unparseable record back (for `--reject-file`). */
  readonly keepRaw: boolean
  /** Lines (and JSON values) longer than this many bytes are reported as `line_too_long`. */
  readonly maxLineBytes: number
  /** `--documents DIR`: document paths are checked against this folder. */
  readonly documents?: string | undefined
}

/** Settings of a mapping worker: the mapping spec as read from JSON. */
export interface MapSettings {
  readonly role: "map"
  readonly mapping: unknown
  /** Send each payload's digest for the duplicate check (computed here, off the main thread). */
  readonly digests: boolean
}

/**
 * Rows for a mapping worker, or for the main thread with one job (a mapping without `groupBy`: every row
 * is a payload of its own). A worker maps `by-order` date-times from no state, checked against the batch
 * before on the main thread; the main thread maps from the state the batch before left.
 */
export interface MapBatch {
  readonly type: "map"
  readonly seq: number
  /** Records; with `csv`, a string is a CSV line without quotes, cut at the delimiter into the columns. */
  readonly rows: ReadonlyArray<unknown>
  readonly csv?: { readonly columns: ReadonlyArray<string>; readonly delimiter: string } | undefined
}

/**
 * What a mapping worker made of a batch: each payload as JSON text with its rows (and the payloads'
 * digests when asked for), and the rejected rows (batch indexes).
 */
export interface MapResult {
  readonly seq: number
  /**
   * The payloads' JSON texts as UTF-8, in payload order, each ended by a line feed: one buffer, moved to
   * the main thread rather than copied, which writes runs of them as they are.
   */
  readonly lines: Uint8Array
  /** Where each payload's line ends in `lines`. */
  readonly lineEnds: ReadonlyArray<number>
  /** The batch row of each payload (a mapping without `groupBy` makes one payload of one row). */
  readonly payloadRows: ReadonlyArray<number>
  /** When asked for: each payload's `keyDigest`, in payload order, as one string (`DIGEST_LENGTH` characters each). */
  readonly digests?: string
  readonly rejected: ReadonlyArray<{
    readonly sourceRows: ReadonlyArray<number>
    readonly errors: ReadonlyArray<{ readonly column?: string; readonly attr?: string; readonly code: string; readonly detail: string }>
  }>
  /**
   * The warnings of the payloads that have some: `payloads` their indexes in payload order (ascending),
   * `lists` the warnings of each. Payloads warned alike share one list object, which a clone sends once
   * (the usual sample warns every payload of the same thing).
   */
  readonly warnings?: {
    readonly payloads: ReadonlyArray<number>
    readonly lists: ReadonlyArray<ReadonlyArray<PayloadWarningItem>>
  }
  /** The batch was mapped from no `by-order` state: what it read of it and left (see `mapBatchAfter`). */
  readonly readStart: ReadonlyArray<boolean>
  readonly endRuns: ReadonlyArray<WallTimeRun | undefined>
}

/** A warning of a mapped payload, as `validatePayload` gives it. */
export interface PayloadWarningItem {
  readonly attr?: string
  readonly code: string
  readonly detail: string
}

/** Whole NDJSON lines. */
export interface NdjsonBatch {
  readonly type: "ndjson"
  readonly seq: number
  readonly bytes: Uint8Array
  /** The batch starts at byte 0 of its stream (a byte order mark may be there). */
  readonly atStreamStart: boolean
}

/**
 * A byte range of an NDJSON file that the worker reads itself, from a descriptor the main thread holds
 * open: the lines that start within `[start, end)` (see `range-lines.ts`).
 */
export interface NdjsonRangeBatch {
  readonly type: "ndjson-range"
  readonly seq: number
  readonly fd: number
  readonly start: number
  readonly end: number
  /** The file's last range: read on to the end of the file, however far it is now. */
  readonly toEnd: boolean
}

/**
 * Values of a JSON document. `spans` holds 4 numbers per record: start and end offset in `bytes`,
 * then the line and column where it starts in the file.
 */
export interface JsonBatch {
  readonly type: "json"
  readonly seq: number
  readonly bytes: Uint8Array
  readonly spans: Int32Array
}

/** What a report lists in detail: invalid and unparseable records, or valid records with warnings. */
export type Listing = "problems" | "warnings"

/** Stop sending the details of one listing (it is full and nothing else needs them); counts go on. */
export interface QuietMessage {
  readonly type: "quiet"
  readonly listing: Listing
}

/** A message to a worker. */
export type ToWorker = NdjsonBatch | NdjsonRangeBatch | JsonBatch | MapBatch | QuietMessage

/** The first message to a worker started before its settings were known (see `early-worker.ts`). */
export interface SettingsMessage {
  readonly type: "settings"
  readonly settings: WorkerSettings
}

export type { Problem, RecordError }

/** A valid record that has warnings. */
export interface WarnedRecord {
  /** As {@link Problem.line}. */
  readonly line: number
  readonly endpoint: string
  readonly warnings: ReadonlyArray<ApiError>
}

/** The `byEndpoint` key of records checked against no endpoint (unparseable, or none could be told). */
export const NO_ENDPOINT = "(none)"

/** Counts keyed by a code, an attr pattern or an endpoint id. */
export type Counts = Record<string, number>

/** What a worker found in one batch. */
export interface BatchSummary {
  readonly seq: number
  /** NDJSON: how many physical lines the batch spans (blank ones included); JSON: 0. */
  lines: number
  records: number
  valid: number
  invalid: number
  unparseable: number
  /** Errors of invalid and unparseable records: `byCode` and `byAttr` each sum to it. */
  errors: number
  warnings: number
  /** Valid records that have warnings. */
  warnedValid: number
  readonly byCode: Counts
  readonly byAttr: Counts
  readonly warningsByCode: Counts
  readonly byEndpoint: Counts
  readonly problems: Array<Problem>
  /** Valid records with warnings, in detail while the warnings listing wants them. */
  readonly warned: Array<WarnedRecord>
  /**
   * Valid records of endpoints with a rule across records (`uniqueInInput`), with their items' natural
   * keys: the main thread checks that no key repeats across records (the line as in `problems`).
   */
  readonly keyed: Array<KeyedRecordLine>
  /** With `--documents`: the document paths the batch's records name (for the folder's unreferenced files). */
  documents?: Array<string>
}

/** The natural keys of the items of one valid record whose endpoint has a rule across records. */
export interface KeyedRecordLine {
  readonly line: number
  readonly endpoint: string
  readonly keys: ReadonlyArray<string | undefined>
  readonly warned: boolean
  readonly raw?: string
}

/** A message from a worker: its result for a batch, or why it could not make one. */
export type FromWorker<R> =
  | { readonly type: "result"; readonly result: R }
  /** Sent once, unasked, when the worker has loaded and taken its settings: batches sent now are answered without a start-up's wait. */
  | { readonly type: "ready" }
  | { readonly type: "failed"; readonly seq: number; readonly message: string }

/** An empty summary for a batch. */
export const emptySummary = (seq: number): BatchSummary => ({
  seq,
  lines: 0,
  records: 0,
  valid: 0,
  invalid: 0,
  unparseable: 0,
  errors: 0,
  warnings: 0,
  warnedValid: 0,
  byCode: {},
  byAttr: {},
  warningsByCode: {},
  byEndpoint: {},
  problems: [],
  warned: [],
  keyed: []
})
