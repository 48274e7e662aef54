/**
 * Settling the records in doubt with the operators' answer: those the service has are settled as stored,
 * those it has not are sent by the next run. The answer names records by their natural key (as the
 * in-doubt list writes it, in wall time or UTC); every key must name a record in doubt, or nothing is
 * written.
 *
 * @module
 */
import { comparableKey } from "../schemas/endpoints/natural-key-text.js"
import type { Ledger, LedgerRecord } from "../ledger/ledger-types.js"

/** The cause of a record in doubt that the operators found stored. */
export const CONFIRMED_STORED = "stored_per_operators"
/** The cause of a record in doubt that the operators found not stored: failed, so the next run sends it. */
export const CONFIRMED_NOT_STORED = "not_stored_per_operators"

/**
 * An answer that cannot be recorded: keys that name no record in doubt (or one named in both lists), as
 * given, or a file that holds no keys.
 *
 * @example
 * const ledger = openLedger(":memory:")
 * let refused: unknown
 * try { resolveInDoubt(ledger, { stored: ['["energy-amount","S","A","9"]'], notStored: [], source: "answer.txt" }) } catch (error) { refused = error }
 * refused instanceof UnmatchedKeysError // => true
 * ;(refused as UnmatchedKeysError).keys // => ['["energy-amount","S","A","9"]']
 *
 * @since 0.1.0
 */
export class UnmatchedKeysError extends Error {
  constructor(readonly keys: ReadonlyArray<string>, readonly reason: string) {
    super(reason)
    this.name = "UnmatchedKeysError"
  }
}

/** RFC 4180 rows of `text` (quoted fields with `""`, CRLF or LF line ends). */
const csvRows = (text: string): Array<Array<string>> => {
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let field = ""
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === "\"" && text[i + 1] === "\"") {
        field += "\""
        i++
      } else if (c === "\"") quoted = false
      else field += c
    } else if (c === "\"") quoted = true
    else if (c === ",") {
      row.push(field)
      field = ""
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++
      row.push(field)
      rows.push(row)
      row = []
      field = ""
    } else field += c
  }
  if (field !== "" || row.length > 0) rows.push([...row, field])
  return rows
}

/**
 * The keys of an answer file: the in-doubt CSV (`report --in-doubt`: its `key` column, or `key_utc` where
 * `key` is empty), or a list of keys, one JSON array a line (blank lines and a byte order mark ignored).
 *
 * @example
 * readKeyList('["energy-amount","S","A","1"]\n\n["energy-amount","S","A","2"]\n')
 * // => ['["energy-amount","S","A","1"]', '["energy-amount","S","A","2"]']
 * readKeyList('endpoint,key,key_utc\r\nenergy-amount,"[""energy-amount"",""S"",""A"",""1""]",x\r\n')
 * // => ['["energy-amount","S","A","1"]']
 *
 * @since 0.1.0
 */
export const readKeyList = (text: string): Array<string> => {
  const body = text.replace(/^\uFEFF/u, "")
  const first = body.split(/\r?\n/u, 1)[0] ?? ""
  if (first.trimStart().startsWith("[")) return body.split(/\r?\n/u).map((l) => l.trim()).filter((l) => l !== "")
  const [header, ...rows] = csvRows(body).filter((r) => r.some((f) => f.trim() !== ""))
  const key = header?.indexOf("key") ?? -1
  const utc = header?.indexOf("key_utc") ?? -1
  if (key === -1 && utc === -1) throw new UnmatchedKeysError([], "neither a list of keys (one JSON array a line) nor a CSV with a key column")
  return rows.map((r) => (key !== -1 && (r[key] ?? "") !== "" ? r[key]! : r[utc] ?? "").trim())
}

/**
 * What {@link resolveInDoubt} settled.
 *
 * @since 0.1.0
 */
export interface Resolution {
  readonly stored: ReadonlyArray<LedgerRecord>
  readonly notStored: ReadonlyArray<LedgerRecord>
}

/**
 * Records the operators' answer on the records in doubt: each key of `stored` settles its record as
 * `created` (cause {@link CONFIRMED_STORED}), each of `notStored` as `failed` (cause
 * {@link CONFIRMED_NOT_STORED}), which the next run sends. Throws {@link UnmatchedKeysError}, writing
 * nothing, when a key names no record in doubt or a record is named in both lists. Call it with the
 * ledger opened for writing (so that no run is sending).
 *
 * @example
 * const ledger = openLedger(":memory:", { service: "https://api.example.energy/" })
 * const run = ledger.startRun("send", "https://api.example.energy/", {})
 * const sighting = { endpoint: "energy-amount", supplier: "S", account: "A", content: "c", file: "/data/e.ndjson", line: 1 }
 * ledger.inFlight({ ...sighting, identity: "i1", key: '["energy-amount","S","A","1"]' }, run)
 * ledger.inFlight({ ...sighting, identity: "i2", key: '["energy-amount","S","A","2"]' }, run)
 * const settled = resolveInDoubt(ledger, { stored: ['["energy-amount","S","A","1"]'], notStored: ['["energy-amount","S","A","2"]'], source: "answer.txt" })
 * settled.stored.length // => 1
 * ledger.record("i1")?.outcome // => "created"
 * ledger.record("i2")?.outcome // => "failed"
 *
 * @since 0.1.0
 */
export const resolveInDoubt = (
  ledger: Ledger,
  answer: { readonly stored: ReadonlyArray<string>; readonly notStored: ReadonlyArray<string>; readonly source: string }
): Resolution => {
  const byKey = new Map<string, LedgerRecord>()
  for (const record of ledger.inDoubt()) {
    const key = comparableKey(record.key)
    if (key !== undefined) byKey.set(key, record)
  }
  const unmatched: Array<string> = []
  const pick = (keys: ReadonlyArray<string>): Map<string, LedgerRecord> => {
    const found = new Map<string, LedgerRecord>()
    for (const key of keys) {
      const record = byKey.get(comparableKey(key) ?? "")
      if (record === undefined) unmatched.push(key)
      else found.set(record.identity, record)
    }
    return found
  }
  const stored = pick(answer.stored)
  const notStored = pick(answer.notStored)
  if (unmatched.length > 0) throw new UnmatchedKeysError(unmatched, `${unmatched.length} of the keys given name no record in doubt`)
  const both = [...stored.values()].filter((r) => notStored.has(r.identity))
  if (both.length > 0) throw new UnmatchedKeysError(both.map((r) => r.key), `${both.length} records are named both stored and not stored`)
  const at = new Date().toISOString()
  ledger.batch(() => {
    for (const record of stored.values()) {
      ledger.settle(record.identity, {
        outcome: "created",
        cause: CONFIRMED_STORED,
        detail: `In doubt; the service's operators found it stored (${answer.source}, recorded ${at}).`
      })
    }
    for (const record of notStored.values()) {
      ledger.settle(record.identity, {
        outcome: "failed",
        cause: CONFIRMED_NOT_STORED,
        detail: `In doubt; the service's operators found it not stored (${answer.source}, recorded ${at}): the next run sends it.`
      })
    }
  })
  return { stored: [...stored.values()], notStored: [...notStored.values()] }
}
