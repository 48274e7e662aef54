/**
 * The running result of a `validate` run: totals and counts over every record, the first problems (up
 * to `--max-errors`) and the first valid records with warnings (up to `--max-warnings`) with their file
 * and line, and what makes the run fail. Reports are written from it.
 *
 * @module
 */
import type { ApiError } from "../index.js"
import type { BatchSummary, Counts, Problem, RecordError } from "../validation/run/index.js"

/**
 * The totals of a run. `records` is always `valid + invalid + unparseable`; `byEndpoint` sums to
 * `records`, `byCode` and `byAttr` to `errors`, `warningsByCode` to `warnings`.
 */
export interface Totals {
  records: number
  valid: number
  invalid: number
  unparseable: number
  errors: number
  warnings: number
}

/** Where a record is. */
export interface Location {
  readonly file: string
  readonly line: number
  readonly column?: number
}

/** One listed problem, located in its file. */
export interface LocatedProblem extends Location {
  readonly kind: Problem["kind"]
  readonly endpoint: string | null
  readonly error: RecordError
  readonly warnings: ReadonlyArray<ApiError>
}

/** One listed valid record with warnings, located in its file. */
export interface LocatedWarned extends Location {
  readonly endpoint: string
  readonly warnings: ReadonlyArray<ApiError>
}

/** A file that could not be read, and why. */
export interface Unreadable {
  readonly file: string
  readonly detail: string
}

/** What is listed and what fails a run, from the command line. */
export interface TallyPolicy {
  /** `--max-errors`: problem records listed at most. */
  readonly maxListed: number
  /** `--max-warnings`: valid records with warnings listed at most. */
  readonly maxWarned: number
  /** `--fail-on-warnings`: any warning fails the run. */
  readonly failOnWarnings: boolean
  /** `--allow-empty`: a file without records does not fail the run. */
  readonly allowEmpty: boolean
}

const add = (into: Counts, from: Counts): void => {
  for (const key in from) into[key] = (into[key] ?? 0) + (from[key] ?? 0)
}

/** Collects batch summaries in input order. */
export class Tally {
  readonly totals: Totals = { records: 0, valid: 0, invalid: 0, unparseable: 0, errors: 0, warnings: 0 }
  readonly byCode: Counts = {}
  readonly byAttr: Counts = {}
  readonly warningsByCode: Counts = {}
  readonly byEndpoint: Counts = {}
  readonly listed: Array<LocatedProblem> = []
  readonly warned: Array<LocatedWarned> = []
  readonly unreadable: Array<Unreadable> = []
  /** Files that were read and held no record. */
  readonly empty: Array<string> = []
  private problemCount = 0
  private warnedCount = 0

  constructor(readonly policy: TallyPolicy) {}

  /** Whether problems beyond those listed were counted. */
  get truncated(): boolean {
    return this.problemCount > this.listed.length
  }

  /** Valid records with warnings, listed or not. */
  get warnedRecords(): number {
    return this.warnedCount
  }

  /** Whether valid records with warnings beyond those listed were counted. */
  get warningsTruncated(): boolean {
    return this.warnedCount > this.warned.length
  }

  /** Whether the problem listing is full (later problems are only counted). */
  get full(): boolean {
    return this.listed.length >= this.policy.maxListed
  }

  /** Whether the warnings listing is full. */
  get warningsFull(): boolean {
    return this.warned.length >= this.policy.maxWarned
  }

  /** Files without records that fail the run (none with `--allow-empty`). */
  get failingEmpty(): ReadonlyArray<string> {
    return this.policy.allowEmpty ? [] : this.empty
  }

  /** Whether warnings fail the run (`--fail-on-warnings` and at least one). */
  get failingWarnings(): boolean {
    return this.policy.failOnWarnings && this.totals.warnings > 0
  }

  /** Whether the run passes: every record valid, every file read and not empty, no warning that fails it. */
  get ok(): boolean {
    return this.totals.invalid === 0 && this.totals.unparseable === 0 && this.unreadable.length === 0 &&
      this.failingEmpty.length === 0 && !this.failingWarnings
  }

  /**
   * Adds a batch's counts; `locate` turns a batch line into its file and absolute line. Returns the
   * problems and warned records that made it into the listings, for reports that stream them.
   */
  add(summary: BatchSummary, locate: (at: { readonly line: number; readonly column?: number }) => Location): {
    readonly problems: ReadonlyArray<LocatedProblem>
    readonly warned: ReadonlyArray<LocatedWarned>
  } {
    this.totals.records += summary.records
    this.totals.valid += summary.valid
    this.totals.invalid += summary.invalid
    this.totals.unparseable += summary.unparseable
    this.totals.errors += summary.errors
    this.totals.warnings += summary.warnings
    add(this.byCode, summary.byCode)
    add(this.byAttr, summary.byAttr)
    add(this.warningsByCode, summary.warningsByCode)
    add(this.byEndpoint, summary.byEndpoint)
    // Problems sent only for the reject file (details silenced) were counted above; list none of them.
    this.problemCount += summary.invalid + summary.unparseable
    this.warnedCount += summary.warnedValid
    const problems: Array<LocatedProblem> = []
    for (const p of summary.problems) {
      if (this.full) break
      const located = { ...locate(p), kind: p.kind, endpoint: p.endpoint, error: p.error, warnings: p.warnings }
      this.listed.push(located)
      problems.push(located)
    }
    const warned: Array<LocatedWarned> = []
    for (const w of summary.warned) {
      if (this.warningsFull) break
      const located = { ...locate(w), endpoint: w.endpoint, warnings: w.warnings }
      this.warned.push(located)
      warned.push(located)
    }
    return { problems, warned }
  }
}

/** How a file is named in messages: stdin for `-`. */
export const displayName = (file: string): string => (file === "-" ? "stdin" : file)

/** The message for a file without records. */
export const noRecordsMessage = (file: string): string => `no records in ${displayName(file)}`

