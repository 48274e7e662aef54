/**
 * Keys seen so far and the line where each was first seen, held as 160-bit hashes: memory grows with
 * the number of distinct keys (77 bytes each, measured by bench/seen-keys.mjs), never with the size of
 * what was hashed.
 *
 * @module
 */
import { hash } from "node:crypto"

/**
 * The 160-bit digest a key is held as. 160 bits: no accidental collision among billions of keys; one-shot
 * hashing is the cheap kind, and the whole digest (not a slice, which would keep the longer string alive)
 * is the key. A worker thread can compute it, so that the thread holding the keys only looks it up.
 */
export const keyDigest = (key: string): string => hash("sha1", key, "base64")

/** A set of keys, each remembering where it was first seen (a line, or any small value). */
export class SeenKeys<V = number> {
  private readonly first = new Map<string, V>()

  /** The line where `key` was first seen, or `undefined` if it is new. Does not record it. */
  lookup(key: string): V | undefined {
    return this.lookupDigest(keyDigest(key))
  }

  /** Records `key` as seen on `line` (a key already seen keeps its first line). */
  record(key: string, where: V): void {
    this.recordDigest(keyDigest(key), where)
  }

  /** {@link lookup} of a key by its {@link keyDigest}. */
  lookupDigest(digest: string): V | undefined {
    return this.first.get(digest)
  }

  /** {@link record} of a key by its {@link keyDigest}. */
  recordDigest(digest: string, where: V): void {
    if (!this.first.has(digest)) this.first.set(digest, where)
  }

  get size(): number {
    return this.first.size
  }
}

/** The keys of a payload's transactions (supplier, account, transaction id), in order; `undefined` for one without an id. */
export const transactionKeys = (payload: unknown): Array<string | undefined> => {
  const transactions = typeof payload === "object" && payload !== null ? (payload as { readonly transactions?: unknown }).transactions : undefined
  return Array.isArray(transactions) ? transactions.map((t) => transactionKey(payload, t)) : []
}

/** The key of a transaction for duplicate detection: supplier, account and transaction id. */
export const transactionKey = (payload: unknown, transaction: unknown): string | undefined => {
  if (typeof payload !== "object" || payload === null || typeof transaction !== "object" || transaction === null) return undefined
  const p = payload as Record<string, unknown>
  const id = (transaction as Record<string, unknown>)["transaction_id"]
  return typeof id === "string" ? JSON.stringify([p["import_supplier"], p["external_account_number"], id]) : undefined
}
