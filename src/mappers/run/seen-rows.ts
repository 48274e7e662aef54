/**
 * Rows seen so far and the line where each was first seen, for `map`'s warning `duplicate_row`: 12 bytes
 * a slot, at most 80% of the slots filled, in 64 tables that each grow by half on their own, so that a
 * growth copies a 64th of the rows, never all of them beside their copy: 15 to 23 bytes per row, where
 * the `SeenKeys` of payloads take 61 and double all at once (bench/seen-keys.mjs measures both).
 *
 * Each row is held as the first 64 bits of its SHA-1 ({@link keyDigest}), not the 160 of `SeenKeys`; the
 * table and the slot a row goes to are read from those bits too. Two different rows are taken for one
 * only when those 64 bits are equal, which among n rows happens with a probability of at most n² / 2^65:
 * one in 37 million for a million rows, one in 370,000 for ten million, one in 3,700 for a hundred million
 * (a file of some 9 GB, whose table alone would take 1.5 to 2.3 GB). What such a collision does is a
 * spurious warning that names both lines (`Line 9 repeats line 4 exactly`), which anyone can check, or,
 * with `--fail-on-warnings`, those rows rejected with that reason; no payload is changed or dropped
 * without a word. The duplicate check that rejects payloads (`duplicate_payload`) keeps its 160 bits.
 *
 * @module
 */
import { keyDigest, wordAt } from "../../readers/lookup/seen-keys.js"

/** The tables: the top 6 bits of a row's first word choose one. */
const TABLE_BITS = 6
/** Int32 words a slot takes: the 64 bits of the digest, then the line + 1 (0: an empty slot). */
const SLOT = 3
const FIRST_CAPACITY = 16
/** A table grows by half when more than this share of its slots is filled. */
const MAX_LOAD = 0.8
/** Where in a table a row's probe starts: the other 26 bits of its first word, scaled to the table. */
const PLACE_BITS = 32 - TABLE_BITS
const PLACE_MASK = (1 << PLACE_BITS) - 1
const PLACES = 2 ** PLACE_BITS

/** The first slot to probe for a row whose first word is `first`, in a table of `capacity` slots. */
const placeOf = (first: number, capacity: number): number => Math.floor(((first & PLACE_MASK) * capacity) / PLACES)

/** A table of open addressing (linear probing): slots of {@link SLOT} words. */
interface Table {
  slots: Int32Array
  capacity: number
  count: number
}

/**
 * A set of rows (their keys), each remembering the line where it was first seen (0 ≤ line < 2^32 − 1).
 */
export class SeenRows {
  private readonly tables: Array<Table> = Array.from({ length: 1 << TABLE_BITS }, () => ({
    slots: new Int32Array(FIRST_CAPACITY * SLOT),
    capacity: FIRST_CAPACITY,
    count: 0
  }))
  private count = 0

  /** The line where `key` was first seen; when it is new, `undefined`, and it is recorded as seen on `line`. */
  see(key: string, line: number): number | undefined {
    if (!Number.isInteger(line) || line < 0 || line >= 0xffffffff) throw new RangeError(`A row's line must be an integer from 0 to 2^32 - 2, not ${line}`)
    const digest = keyDigest(key)
    const first = wordAt(digest, 0)
    const second = wordAt(digest, 4)
    const table = this.tables[first >>> PLACE_BITS]!
    const { slots, capacity } = table
    for (let slot = placeOf(first, capacity); ; slot = slot + 1 === capacity ? 0 : slot + 1) {
      const at = slot * SLOT
      const stored = slots[at + 2]!
      if (stored === 0) {
        slots[at] = first
        slots[at + 1] = second
        slots[at + 2] = line + 1
        this.count++
        if (++table.count > capacity * MAX_LOAD) grow(table)
        return undefined
      }
      if (slots[at] === first && slots[at + 1] === second) return (stored >>> 0) - 1
    }
  }

  /** Rows held (distinct keys). */
  get size(): number {
    return this.count
  }
}

/** Grows a table by half: the old slots are dropped as soon as their rows are copied. */
const grow = (table: Table): void => {
  const { slots: old, capacity: oldCapacity } = table
  const capacity = Math.ceil(oldCapacity * 1.5)
  const slots = new Int32Array(capacity * SLOT)
  for (let from = 0; from < oldCapacity * SLOT; from += SLOT) {
    if (old[from + 2] === 0) continue
    // The rows are distinct: each goes to the first free slot from its place, with no comparison.
    let slot = placeOf(old[from]!, capacity)
    while (slots[slot * SLOT + 2]! !== 0) slot = slot + 1 === capacity ? 0 : slot + 1
    const to = slot * SLOT
    slots[to] = old[from]!
    slots[to + 1] = old[from + 1]!
    slots[to + 2] = old[from + 2]!
  }
  table.slots = slots
  table.capacity = capacity
}
