/**
 * A `transaction_id` repeated for one account anywhere in the input: the service's
 * `check_previously_added` would skip the later booking silently. `validate` makes the later record
 * invalid, naming the first, across batches and files (the keys are held as digests: see `seen-keys.ts`).
 *
 * @module
 */
import type { BatchSummary } from "../internal/batch.js"
import { SeenKeys } from "./seen-keys.js"

/** Where a record is: its file and absolute line. */
export interface RecordPlace {
  readonly file: string
  readonly line: number
}

/**
 * A function that, batch by batch in input order, turns each valid transactions record that repeats a
 * key seen before into an invalid one (`duplicate_transaction_ids`), fixing the batch's counts.
 */
export const repeatedTransactionIdRejecter = (): ((summary: BatchSummary, where: (line: number) => RecordPlace) => void) => {
  const transactionsSeen = new SeenKeys<RecordPlace>()
  return (summary, where) => {
    for (const record of summary.transactions) {
      const here = where(record.line)
      const errors = record.keys.flatMap((key, i) => {
        const first = key === undefined ? undefined : transactionsSeen.lookup(key)
        return first === undefined ? [] : [{
          detail: `This transaction_id was already used for this account in ${first.file === here.file ? "" : `${first.file} `}line ${first.line}: the service would skip one of them.`,
          code: "duplicate_transaction_ids" as const,
          attr: `transactions.${i}.transaction_id`
        }]
      })
      if (errors.length === 0) {
        for (const key of record.keys) if (key !== undefined) transactionsSeen.record(key, here)
        continue
      }
      summary.valid--
      summary.invalid++
      summary.errors += errors.length
      summary.byCode["duplicate_transaction_ids"] = (summary.byCode["duplicate_transaction_ids"] ?? 0) + errors.length
      summary.byAttr["transactions.*.transaction_id"] = (summary.byAttr["transactions.*.transaction_id"] ?? 0) + errors.length
      if (record.warned) {
        summary.warnedValid--
        const at = summary.warned.findIndex((w) => w.line === record.line)
        if (at !== -1) summary.warned.splice(at, 1)
      }
      summary.problems.push({
        line: record.line,
        kind: "invalid",
        endpoint: "transactions",
        error: { detail: `The payload failed validation with ${errors.length} ${errors.length === 1 ? "error" : "errors"}.`, code: "payload_failed_validation", errors },
        warnings: [],
        ...(record.raw !== undefined ? { raw: record.raw } : {})
      })
      summary.problems.sort((a, b) => a.line - b.line)
    }
  }
}
