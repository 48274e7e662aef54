/**
 * Texts a run holds until its end, one for each of its values (the raw text of each value's latest
 * version, its key), kept as UTF-8 in blocks outside the heap and each read back by its number. Held as
 * strings, a run of 10⁵–10⁶ values kept as many objects in the heap, which the collector copied and
 * traced again at every collection while the run read on.
 *
 * @module
 */

/** The bytes of a block (a longer text has a block of its own). */
const BLOCK_BYTES = 1024 * 1024

/** A surrogate: a text holding one is kept as it is (UTF-8 cannot carry a lone one). */
const SURROGATE = /[\uD800-\uDFFF]/u

/**
 * Texts numbered in the order added ({@link add}), read back by number ({@link get}).
 *
 * @example
 * const texts = new HeldTexts()
 * const first = texts.add("QTY+220:1,5'")
 * const second = texts.add("Grüße")
 * texts.get(first) // => "QTY+220:1,5'"
 * texts.get(second) // => "Grüße"
 */
export class HeldTexts {
  private readonly blocks: Array<Buffer> = []
  private block: Buffer | undefined
  private used = 0
  /** Each text's block, start and end: three numbers a text. */
  private where = new Int32Array(3 * 1024)
  private count = 0
  /** The rare text UTF-8 would not give back as it was (a lone surrogate), by number. */
  private readonly kept = new Map<number, string>()

  /** Holds `text`; returns its number. */
  add(text: string): number {
    const number = this.count++
    if (3 * this.count > this.where.length) {
      const where = new Int32Array(this.where.length * 2)
      where.set(this.where)
      this.where = where
    }
    if (SURROGATE.test(text)) {
      this.kept.set(number, text)
      return number
    }
    // A UTF-16 unit takes 3 bytes at most.
    const most = text.length * 3
    if (this.block === undefined || this.used + most > this.block.length) {
      this.block = Buffer.allocUnsafeSlow(Math.max(BLOCK_BYTES, most))
      this.blocks.push(this.block)
      this.used = 0
    }
    const start = this.used
    this.used += this.block.write(text, start, "utf8")
    this.where[3 * number] = this.blocks.length - 1
    this.where[3 * number + 1] = start
    this.where[3 * number + 2] = this.used
    return number
  }

  /** The text numbered `number`. */
  get(number: number): string {
    const kept = this.kept.get(number)
    if (kept !== undefined) return kept
    const block = this.blocks[this.where[3 * number]!]!
    return block.toString("utf8", this.where[3 * number + 1], this.where[3 * number + 2])
  }
}
