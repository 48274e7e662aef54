/**
 * The latest version of each value of a run (see versions.ts), held without an object a value: each
 * key by its digest in a table of typed arrays (`SeenKeys`), each version's place in typed arrays by
 * the number of its entry, its raw text and key as UTF-8 outside the heap (`HeldTexts`). An index of 10⁶
 * values held as objects and strings cost a run more in garbage collection than the index's work.
 *
 * @module
 */
import { keyDigest, SeenKeys } from "../lookup/seen-keys.js"
import { HeldTexts } from "./held-texts.js"

/**
 * The columns are held in chunks of 2^ENTRY_BITS entries, each allocated once and never copied: doubling
 * one array touched twice its final memory for the first time, a page fault a page (see `SeenKeys`).
 */
const ENTRY_BITS = 12
const CHUNK_ENTRIES = 1 << ENTRY_BITS
const ENTRY_MASK = CHUNK_ENTRIES - 1
/** The columns of an entry: file, message, segment, header, raw text, key text (numbers into `texts`). */
const COLUMNS = 6

/** Where a version is: input, message, segment, and the number of its message's header. */
export interface VersionPlace {
  readonly file: number
  readonly message: number
  readonly segment: number
  readonly header: number
}

/**
 * Entries numbered in the order their keys first came ({@link add}), each the latest version of its key
 * so far ({@link replace}). A first version may come without its raw text (`undefined`), to be kept only
 * if another version of its key asks for it ({@link keepRaw}); a later version always keeps its own.
 *
 * @example
 * const values = new LatestValues()
 * const entry = values.add('["51238696781","2024-01-01T00:00:00+01:00"]', { file: 0, message: 1, segment: 10, header: 0 }, "QTY+Z18:5'")
 * values.find('["51238696781","2024-01-01T00:00:00+01:00"]') // => 0
 * values.replace(entry, { file: 0, message: 2, segment: 22, header: 1 }, "QTY+67:7'")
 * values.raw(entry) // => "QTY+67:7'"
 * values.place(entry).message // => 2
 * values.key(entry) // => '["51238696781","2024-01-01T00:00:00+01:00"]'
 * const other = values.add('["51238696781","2024-01-01T00:15:00+01:00"]', { file: 0, message: 1, segment: 13, header: 0 }, undefined)
 * values.holdsRaw(other) // => false
 * values.keepRaw(other, "QTY+Z18:6'")
 * values.raw(other) // => "QTY+Z18:6'"
 */
export class LatestValues {
  /** `keepKeys`: whether each key is kept as text ({@link key}), which a ledger compares; a run without one spares it. */
  constructor(private readonly keepKeys = true) {}

  private readonly table = new SeenKeys<number>()
  private readonly texts = new HeldTexts()
  /** Per entry, {@link COLUMNS} numbers, {@link CHUNK_ENTRIES} entries a chunk. */
  private readonly chunks: Array<Int32Array> = []
  private count = 0

  /** The chunk holding entry `entry`. */
  private chunkOf(entry: number): Int32Array {
    return this.chunks[entry >>> ENTRY_BITS]!
  }

  /** The number of entries. */
  get size(): number {
    return this.count
  }

  /** The entry of `key` (one {@link add}-ed, not one {@link addUnhashed}), or -1. */
  find(key: string): number {
    return this.table.lookupDigest(this.digestOf(key)) ?? -1
  }

  /** A key's digest, the last one kept: a new key is looked up, then added, and hashing is most of either. */
  private digestOf(key: string): string {
    if (key !== this.lastKey) {
      this.lastKey = key
      this.lastDigest = keyDigest(key)
    }
    return this.lastDigest
  }

  private lastKey: string | undefined
  private lastDigest = ""

  /**
   * A new key's first version (the key was just {@link find}-ed and is new); returns its entry. `raw`
   * `undefined`: its raw text is not held (most values have one version, and no other names theirs).
   */
  add(key: string, place: VersionPlace, raw: string | undefined): number {
    const entry = this.addUnhashed(key, place, raw)
    this.table.recordDigest(this.digestOf(key), entry)
    return entry
  }

  /**
   * A new key's first version, which the caller finds by other means (see ordered-keys.ts) and
   * {@link find} does not: nothing is hashed. `key`: its text, kept when keys are (`undefined` otherwise).
   */
  addUnhashed(key: string | undefined, place: VersionPlace, raw: string | undefined): number {
    const entry = this.count++
    if (entry >>> ENTRY_BITS === this.chunks.length) this.chunks.push(new Int32Array(COLUMNS * CHUNK_ENTRIES))
    this.chunkOf(entry)[COLUMNS * (entry & ENTRY_MASK) + 5] = this.keepKeys ? this.texts.add(key!) : -1
    this.replace(entry, place, raw)
    return entry
  }

  /** A later version of entry `entry`'s key. */
  replace(entry: number, place: VersionPlace, raw: string | undefined): void {
    const columns = this.chunkOf(entry)
    const at = COLUMNS * (entry & ENTRY_MASK)
    columns[at] = place.file
    columns[at + 1] = place.message
    columns[at + 2] = place.segment
    columns[at + 3] = place.header
    columns[at + 4] = raw === undefined ? -1 : this.texts.add(raw)
  }

  /** Whether entry `entry`'s version holds its raw text. */
  holdsRaw(entry: number): boolean {
    return this.chunkOf(entry)[COLUMNS * (entry & ENTRY_MASK) + 4]! >= 0
  }

  /** Holds `raw` as the raw text of entry `entry`'s version (given without it). */
  keepRaw(entry: number, raw: string): void {
    this.chunkOf(entry)[COLUMNS * (entry & ENTRY_MASK) + 4] = this.texts.add(raw)
  }

  /** Where entry `entry`'s version is. */
  place(entry: number): VersionPlace {
    const columns = this.chunkOf(entry)
    const at = COLUMNS * (entry & ENTRY_MASK)
    return { file: columns[at]!, message: columns[at + 1]!, segment: columns[at + 2]!, header: columns[at + 3]! }
  }

  /** The raw text of entry `entry`'s version (held: given, or kept since). */
  raw(entry: number): string {
    const number = this.chunkOf(entry)[COLUMNS * (entry & ENTRY_MASK) + 4]!
    if (number < 0) throw new Error(`the raw text of entry ${entry} was not kept`)
    return this.texts.get(number)
  }

  /** Entry `entry`'s key (kept unless the values were made without keys). */
  key(entry: number): string {
    if (!this.keepKeys) throw new Error("the keys of these values were not kept")
    return this.texts.get(this.chunkOf(entry)[COLUMNS * (entry & ENTRY_MASK) + 5]!)
  }
}
