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
 * The digests are held in chunks of 2^KEY_BITS keys, each allocated once and never copied: grown by
 * doubling, a table of 10⁶ keys touched twice its final memory for the first time, and fresh memory costs
 * a page fault a page (about 3.4 ms a megabyte on the machine of bench/README.md).
 */
const KEY_BITS = 12
const CHUNK_KEYS = 1 << KEY_BITS
const KEY_MASK = CHUNK_KEYS - 1

/**
 * The 160-bit digest (SHA-1) a key is held as, one byte per character: no accidental collision among
 * billions of keys. One-shot hashing to a string is the cheap kind (half the cost of a `Buffer`, and
 * nothing outside the heap); a worker thread can compute it, so that the thread holding the keys only
 * looks it up, and the digests of a batch travel as one string.
 */
export const keyDigest = (key: string): string => hash("sha1", key, "binary")

/**
 * The {@link keyDigest} of a key given as its UTF-8 bytes: a payload just written into a buffer is hashed
 * there, not converted from its text a second time (a fifth less per payload).
 *
 * @example
 * bytesDigest(new TextEncoder().encode("Grüße")) === keyDigest("Grüße") // => true
 */
export const bytesDigest = (bytes: Uint8Array): string => hash("sha1", bytes, "binary")

/** The 32-bit word of a digest string (a character a byte) at character `at`, little-endian. */
export const wordAt = (digests: string, at: number): number =>
  digests.charCodeAt(at) | (digests.charCodeAt(at + 1) << 8) | (digests.charCodeAt(at + 2) << 16) | (digests.charCodeAt(at + 3) << 24)

/**
 * A set of keys, each remembering where it was first seen (a line, or any small value): each key's digest
 * and value in the order first seen, and an open-addressing hash table of their numbers, at most half
 * full. The table holds a number (4 bytes) a slot, not the digest: when it doubles, only those are
 * written again, into half the fresh memory the digests in each slot took (and fresh memory is what the
 * growth of a table of 10⁶ keys cost most).
 */
export class SeenKeys<V = number> {
  /** Each key's digest, in the order first seen: {@link WORDS} words a key, {@link CHUNK_KEYS} keys a chunk. */
  private readonly digests: Array<Int32Array> = []
  private values: Array<V> = []
  /** The table: a key's number plus one in each slot used, 0 in a free one. */
  private slots = new Int32Array(2048)
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
    return slot >= 0 ? this.values[this.slots[slot]! - 1] : undefined
  }

  /** {@link record} of a key by its {@link keyDigest}, read from `digests` at character `offset`. */
  recordDigest(digests: string, where: V, offset = 0): void {
    const slot = digests === this.probedDigests && offset === this.probedOffset ? this.probedSlot : this.slotOf(digests, offset)
    if (slot >= 0) return
    this.probedDigests = undefined
    const number = this.count++
    if (number >>> KEY_BITS === this.digests.length) this.digests.push(new Int32Array(WORDS * CHUNK_KEYS))
    const chunk = this.digests[number >>> KEY_BITS]!
    const at = (number & KEY_MASK) * WORDS
    for (let w = 0; w < WORDS; w++) chunk[at + w] = wordAt(digests, offset + 4 * w)
    this.values.push(where)
    this.slots[~slot] = number + 1
    if (this.count * 2 > this.slots.length) this.grow()
  }

  get size(): number {
    return this.count
  }

  /** The slot holding the digest (≥ 0), or the bitwise complement of the empty slot where it would go. */
  private slotOf(digests: string, offset: number): number {
    const mask = this.slots.length - 1
    const first = wordAt(digests, offset)
    for (let slot = first & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot]!
      if (held === 0) return ~slot
      const chunk = this.digests[(held - 1) >>> KEY_BITS]!
      const at = ((held - 1) & KEY_MASK) * WORDS
      if (chunk[at] !== first) continue
      let same = true
      for (let w = 1; w < WORDS && same; w++) same = chunk[at + w] === wordAt(digests, offset + 4 * w)
      if (same) return slot
    }
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2)
    const mask = this.slots.length - 1
    // The keys are distinct: each goes to the first free slot from its place, with no comparison.
    for (let number = 0; number < this.count; number++) {
      let slot = this.digests[number >>> KEY_BITS]![(number & KEY_MASK) * WORDS]! & mask
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask
      this.slots[slot] = number + 1
    }
  }
}
