/**
 * Keys seen so far and where each was first seen, held as 160-bit hashes in typed arrays: memory grows
 * with the number of distinct keys (bench/seen-keys.mjs measures it), never with the size of what was
 * hashed, and the garbage collector has no object per key to trace.
 *
 * @module
 */
import { hash } from "node:crypto"

/** Characters (bytes) of a {@link keyDigest}. */
export const DIGEST_LENGTH = 20

const WORDS = DIGEST_LENGTH / 4

/**
 * The 160-bit digest (SHA-1) a key is held as, one byte per character: no accidental collision among
 * billions of keys. One-shot hashing to a string is the cheap kind (half the cost of a `Buffer`, and
 * nothing outside the heap); a worker thread can compute it, so that the thread holding the keys only
 * looks it up, and the digests of a batch travel as one string.
 */
export const keyDigest = (key: string): string => hash("sha1", key, "binary")

/** The 32-bit word of a digest string (a character a byte) at character `at`, little-endian. */
export const wordAt = (digests: string, at: number): number =>
  digests.charCodeAt(at) | (digests.charCodeAt(at + 1) << 8) | (digests.charCodeAt(at + 2) << 16) | (digests.charCodeAt(at + 3) << 24)

/**
 * A set of keys, each remembering where it was first seen (a line, or any small value): an open-addressing
 * hash table of digests, at most half full.
 */
export class SeenKeys<V = number> {
  private words = new Int32Array(WORDS * 1024)
  private filled = new Uint8Array(1024)
  private values: Array<V | undefined> = new Array<V | undefined>(1024)
  private count = 0
  // The last lookup's answer: a payload is looked up and then, when new, recorded, which needs the same
  // slot again. Forgotten whenever the table changes.
  private probedDigests: string | undefined
  private probedOffset = 0
  private probedSlot = 0

  /** The line where `key` was first seen, or `undefined` if it is new. Does not record it. */
  lookup(key: string): V | undefined {
    return this.lookupDigest(keyDigest(key))
  }

  /** Records `key` as seen on `line` (a key already seen keeps its first line). */
  record(key: string, where: V): void {
    this.recordDigest(keyDigest(key), where)
  }

  /** {@link lookup} of a key by its {@link keyDigest}, read from `digests` at character `offset`. */
  lookupDigest(digests: string, offset = 0): V | undefined {
    const slot = this.slotOf(digests, offset)
    this.probedDigests = digests
    this.probedOffset = offset
    this.probedSlot = slot
    return slot >= 0 ? this.values[slot] : undefined
  }

  /** {@link record} of a key by its {@link keyDigest}, read from `digests` at character `offset`. */
  recordDigest(digests: string, where: V, offset = 0): void {
    const slot = digests === this.probedDigests && offset === this.probedOffset ? this.probedSlot : this.slotOf(digests, offset)
    if (slot >= 0) return
    this.probedDigests = undefined
    this.put(~slot, digests, offset, where)
    if (++this.count * 2 > this.filled.length) this.grow()
  }

  get size(): number {
    return this.count
  }

  /** The slot holding the digest (≥ 0), or the bitwise complement of the empty slot where it would go. */
  private slotOf(digests: string, offset: number): number {
    const mask = this.filled.length - 1
    const first = wordAt(digests, offset)
    for (let slot = first & mask; ; slot = (slot + 1) & mask) {
      if (this.filled[slot] === 0) return ~slot
      const at = slot * WORDS
      if (this.words[at] !== first) continue
      let same = true
      for (let w = 1; w < WORDS && same; w++) same = this.words[at + w] === wordAt(digests, offset + 4 * w)
      if (same) return slot
    }
  }

  private put(slot: number, digests: string, offset: number, where: V): void {
    for (let w = 0; w < WORDS; w++) this.words[slot * WORDS + w] = wordAt(digests, offset + 4 * w)
    this.filled[slot] = 1
    this.values[slot] = where
  }

  private grow(): void {
    const { words, filled, values } = this
    this.words = new Int32Array(words.length * 2)
    this.filled = new Uint8Array(filled.length * 2)
    this.values = new Array<V | undefined>(filled.length * 2)
    const mask = this.filled.length - 1
    for (let old = 0; old < filled.length; old++) {
      if (filled[old] === 0) continue
      // The keys are distinct: each goes to the first free slot from its place, with no comparison.
      let slot = words[old * WORDS]! & mask
      while (this.filled[slot] === 1) slot = (slot + 1) & mask
      for (let w = 0; w < WORDS; w++) this.words[slot * WORDS + w] = words[old * WORDS + w]!
      this.filled[slot] = 1
      this.values[slot] = values[old]
    }
  }
}
