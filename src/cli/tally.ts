/**
 * The running result of a `validate` run: totals and counts over every record, and the first problems
 * (up to `--max-errors`) with their file and line. Reports are written from it.
 *
 * @module
 */
import type { ApiError } from "../index.js"
import type { BatchSummary, Counts, Problem, RecordError } from "./batch.js"

/** The totals of a run; `records` is always `valid + invalid + unparseable`. */
export interface Totals {
  records: number
  valid: number
  invalid: number
  unparseable: number
  warnings: number
}

/** One listed problem, located in its file. */
export interface LocatedProblem {
  readonly file: string
  readonly line: number
  readonly column?: number
  readonly endpoint: string | null
  readonly error: RecordError
  readonly warnings: ReadonlyArray<ApiError>
}

/** A file that could not be read, and why. */
export interface Unreadable {
  readonly file: string
  readonly detail: string
}

const add = (into: Counts, from: Counts): void => {
  for (const key in from) into[key] = (into[key] ?? 0) + (from[key] ?? 0)
}

/** Collects batch summaries in input order. */
export class Tally {
  readonly totals: Totals = { records: 0, valid: 0, invalid: 0, unparseable: 0, warnings: 0 }
  readonly byCode: Counts = {}
  readonly byAttr: Counts = {}
  readonly warningsByCode: Counts = {}
  readonly byEndpoint: Counts = {}
  readonly listed: Array<LocatedProblem> = []
  readonly unreadable: Array<Unreadable> = []
  private problemCount = 0

  constructor(readonly maxListed: number) {}

  /** Whether problems beyond those counted were left out of the listing. */
  get truncated(): boolean {
    return this.problemCount > this.listed.length
  }

  /** Whether the listing is full (later problems are only counted). */
  get full(): boolean {
    return this.listed.length >= this.maxListed
  }

  /** Whether everything read was valid and every file could be read. */
  get ok(): boolean {
    return this.totals.invalid === 0 && this.totals.unparseable === 0 && this.unreadable.length === 0
  }

  /**
   * Adds a batch's counts; `locate` turns each problem into its file and absolute line. Returns the
   * problems that made it into the listing, for reports that stream them.
   */
  add(summary: BatchSummary, locate: (problem: Problem) => LocatedProblem): Array<LocatedProblem> {
    this.totals.records += summary.records
    this.totals.valid += summary.valid
    this.totals.invalid += summary.invalid
    this.totals.unparseable += summary.unparseable
    this.totals.warnings += summary.warnings
    add(this.byCode, summary.byCode)
    add(this.byAttr, summary.byAttr)
    add(this.warningsByCode, summary.warningsByCode)
    add(this.byEndpoint, summary.byEndpoint)
    // Problems sent only for the reject file (details silenced) were counted above; list none of them.
    this.problemCount += summary.invalid + summary.unparseable
    const added: Array<LocatedProblem> = []
    for (const problem of summary.problems) {
      if (this.full) break
      const located = locate(problem)
      this.listed.push(located)
      added.push(located)
    }
    return added
  }
}
