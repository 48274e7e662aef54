/**
 * A record whose natural key was seen before anywhere in the input, for endpoints with a rule across
 * records (`uniqueInInput`, declared beside the resource: a `transaction_id` repeated for one account,
 * which the service's `check_previously_added` would skip silently). `validate` makes the later record
 * invalid, naming the first, across batches and files (the keys are held as digests: see `seen-keys.ts`).
 *
 * @module
 */
import type { BatchSummary } from "./batch.js"
import { uniqueInInputOf } from "./unique-in-input.js"
import { SeenKeys } from "../../readers/lookup/seen-keys.js"

/** Where a record is: its file and absolute line. */
export interface RecordPlace {
  readonly file: string
  readonly line: number
}

/**
 * A function that, batch by batch in input order, turns each valid record that repeats a key seen before
 * into an invalid one (its rule's code), fixing the batch's counts.
 */
export const repeatedKeyRejecter = (): ((summary: BatchSummary, where: (line: number) => RecordPlace) => void) => {
  const seen = new SeenKeys<RecordPlace>()
  return (summary, where) => {
    for (const record of summary.keyed) {
      const rule = uniqueInInputOf(record.endpoint)
      if (rule === undefined) continue
      const here = where(record.line)
      const errors = record.keys.flatMap((key, i) => {
        const first = key === undefined ? undefined : seen.lookup(key)
        return first === undefined ? [] : [{
          detail: `This ${rule.field} was already used${rule.perAccount ? " for this account" : ""} in ${first.file === here.file ? "" : `${first.file} `}line ${first.line}: ${rule.consequence}.`,
          code: rule.code,
          attr: `${rule.items}.${i}.${rule.field}`
        }]
      })
      if (errors.length === 0) {
        for (const key of record.keys) if (key !== undefined) seen.record(key, here)
        continue
      }
      const attr = `${rule.items}.*.${rule.field}`
      summary.valid--
      summary.invalid++
      summary.errors += errors.length
      summary.byCode[rule.code] = (summary.byCode[rule.code] ?? 0) + errors.length
      summary.byAttr[attr] = (summary.byAttr[attr] ?? 0) + errors.length
      if (record.warned) {
        summary.warnedValid--
        const at = summary.warned.findIndex((w) => w.line === record.line)
        if (at !== -1) summary.warned.splice(at, 1)
      }
      summary.problems.push({
        line: record.line,
        kind: "invalid",
        endpoint: record.endpoint,
        error: { detail: `The payload failed validation with ${errors.length} ${errors.length === 1 ? "error" : "errors"}.`, code: "payload_failed_validation", errors },
        warnings: [],
        ...(record.raw !== undefined ? { raw: record.raw } : {})
      })
      summary.problems.sort((a, b) => a.line - b.line)
    }
  }
}
