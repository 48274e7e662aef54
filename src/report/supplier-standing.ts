/**
 * What a campaign's ledger knows of one import supplier's records: how many, how many stored, and how
 * many refused for each cause (blocked: supplier not ongoing, account not imported or unknown; rejected,
 * failed, in doubt, invalid), as the ledger's query counts them. `status --journal` adds it to what the service says.
 *
 * @module
 */
import { supplierRecordCounts } from "../ledger/report-queries.js"
import { openReportSource, type ReportSource } from "../ledger/report-source.js"
import { ADVICE_BY_KIND, adviceFor } from "./problem-advice.js"
import type { ProblemKind } from "./report-types.js"

/** One supplier's records in the ledger. */
export interface SupplierStanding {
  readonly supplier: string
  readonly records: number
  readonly stored: number
  /**
   * Records not stored, by `outcome` or `outcome:cause` (`blocked:supplier_not_ongoing`), and `not_sent` for
   * those not answered yet (pending, or in flight in the run in progress); in flight when a run was killed is `in_doubt`.
   */
  readonly open: Readonly<Record<string, number>>
  /** For each key of `open`, when the latest of its records was written (milliseconds since the epoch): the last answer, or the last sighting. */
  readonly open_since?: Readonly<Record<string, number>>
}

const STORED = new Set(["created", "already_existed", "moved"])

/**
 * The ledger's counts for `supplier`'s records, from the ledger file at `path` (opened read-only and
 * closed again). Throws for a file that is not a ledger.
 *
 * @example
 * import { openLedger } from "data-import-payloads"
 * const path = `${process.env["TMPDIR"] ?? "/tmp"}/standing-${process.pid}-${Date.now()}.ledger`
 * const ledger = openLedger(path)
 * const run = ledger.startRun("send", null, {})
 * const record = { endpoint: "energy-amount", key: "[]", supplier: "STADTWERKE_SUED", account: "S-1", content: "c", file: "a.ndjson", line: 1 }
 * ledger.inFlight({ ...record, identity: "i1" }, run)
 * ledger.settle("i1", { outcome: "blocked", cause: "supplier_not_ongoing" })
 * ledger.inFlight({ ...record, identity: "i2" }, run)
 * ledger.settle("i2", { outcome: "created" })
 * ledger.close()
 * const standing = readSupplierStanding(path, "STADTWERKE_SUED")
 * standing.records // => 2
 * standing.stored // => 1
 * standing.open // => { "blocked:supplier_not_ongoing": 1 }
 * typeof standing.open_since?.["blocked:supplier_not_ongoing"] // => "number"
 */
export const readSupplierStanding = (path: string, supplier: string): SupplierStanding => {
  const source = openReportSource(path)
  try {
    return supplierStanding(source, supplier)
  } finally {
    source.close()
  }
}

/** {@link readSupplierStanding} over a ledger opened already. */
const supplierStanding = (source: ReportSource, supplier: string): SupplierStanding => {
  // A record in flight in a run that is over (killed) is in doubt, as the report counts it.
  const rows = supplierRecordCounts(source.db, supplier, source.running)
  let records = 0
  let stored = 0
  const open: Record<string, number> = {}
  const since: Record<string, number> = {}
  for (const row of rows) {
    records += row.n
    if (row.state === "done" && row.outcome !== null && STORED.has(row.outcome)) {
      stored += row.n
      continue
    }
    const key = row.state !== "done" || row.outcome === null ? "not_sent" : row.outcome === "blocked" ? `blocked:${row.cause ?? "unknown"}` : row.outcome
    open[key] = (open[key] ?? 0) + row.n
    since[key] = Math.max(since[key] ?? 0, row.latest)
  }
  return { supplier, records, stored, open, ...(Object.keys(since).length === 0 ? {} : { open_since: since }) }
}

/**
 * What to do about a supplier's records of one key of {@link SupplierStanding.open} (`blocked:CAUSE`, an
 * outcome, `not_sent`): the report's advice for that code.
 *
 * @example
 * adviceOfOpen("blocked:supplier_not_ongoing").startsWith("The supplier's migration is Paused or Complete") // => true
 * adviceOfOpen("not_sent") // => "Not answered yet: run send with the same ledger (or wait for the run in progress)."
 */
export const adviceOfOpen = (key: string): string => {
  if (key === "not_sent") return "Not answered yet: run send with the same ledger (or wait for the run in progress)."
  const [outcome, cause] = key.split(":") as [string, string | undefined]
  return Object.hasOwn(ADVICE_BY_KIND, outcome) ? adviceFor(outcome as ProblemKind, cause ?? outcome) : ""
}
