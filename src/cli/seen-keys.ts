/**
 * Keys seen so far and the line where each was first seen, held as 16-byte hashes: memory grows with
 * the number of distinct keys (about 90 bytes each), never with the size of what was hashed.
 *
 * @module
 */
import { createHash } from "node:crypto"

/** A set of keys, each remembering the first line it was seen on. */
export class SeenKeys {
  private readonly first = new Map<string, number>()

  private static digest(key: string): string {
    return createHash("sha256").update(key).digest().toString("latin1", 0, 16)
  }

  /** The line where `key` was first seen, or `undefined` if it is new. Does not record it. */
  lookup(key: string): number | undefined {
    return this.first.get(SeenKeys.digest(key))
  }

  /** Records `key` as seen on `line` (a key already seen keeps its first line). */
  record(key: string, line: number): void {
    const digest = SeenKeys.digest(key)
    if (!this.first.has(digest)) this.first.set(digest, line)
  }

  get size(): number {
    return this.first.size
  }
}

/** The key of a transaction for duplicate detection: supplier, account and transaction id. */
export const transactionKey = (payload: unknown, transaction: unknown): string | undefined => {
  if (typeof payload !== "object" || payload === null || typeof transaction !== "object" || transaction === null) return undefined
  const p = payload as Record<string, unknown>
  const id = (transaction as Record<string, unknown>)["transaction_id"]
  return typeof id === "string" ? JSON.stringify([p["import_supplier"], p["external_account_number"], id]) : undefined
}
