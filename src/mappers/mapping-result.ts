/**
 * What mapping gives back: payloads with the rows they were built from, and rejected rows with their
 * reasons.
 *
 * @module
 */

/**
 * Why a row (or a group of rows) was rejected: the column it came from and/or the payload attr.
 *
 * @since 0.1.0
 */
export interface MappingError {
  readonly column?: string
  readonly attr?: string
  readonly code: string
  readonly detail: string
}

/**
 * A valid payload and the indexes (0-based, in input order) of the rows it was built from.
 *
 * @since 0.1.0
 */
export interface MappedPayload<P = unknown> {
  readonly payload: P
  readonly sourceRows: ReadonlyArray<number>
  /** The payload's warnings from `validatePayload` (allowed but suspicious data); absent when none. */
  readonly warnings?: ReadonlyArray<MappingError>
}

/**
 * Rows that could not become (part of) a valid payload, with the reasons.
 *
 * @since 0.1.0
 */
export interface RejectedRows {
  readonly sourceRows: ReadonlyArray<number>
  readonly errors: ReadonlyArray<MappingError>
}

/**
 * The result of mapping a list of records; `P` is the payload type (the mapping's endpoint's request).
 *
 * @since 0.1.0
 */
export interface MappingResult<P = unknown> {
  readonly payloads: ReadonlyArray<MappedPayload<P>>
  readonly rejected: ReadonlyArray<RejectedRows>
}

/**
 * One step of a streamed mapping: a payload or a rejection, in input order of the groups.
 *
 * @since 0.1.0
 */
export type MappingEvent<P = unknown> =
  | ({ readonly kind: "payload" } & MappedPayload<P>)
  | ({ readonly kind: "rejected" } & RejectedRows)

/**
 * Options of `mapRecords`.
 *
 * @since 0.1.0
 */
export interface MapRecordsOptions {
  /**
   * How a row is named in the detail of an error that points at another row (`document_incomplete` names
   * the rows that broke the document): `row 3` (1-based, in input order) unless given; the CLI names the
   * line of the file. Called while the row's group is mapped.
   */
  readonly rowName?: (index: number) => string
}
