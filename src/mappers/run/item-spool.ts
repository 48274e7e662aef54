/**
 * The items of a run's inputs, held between their one reading and their mapping: a run whose values
 * have versions across inputs must read every input before it maps any (the latest version of a value
 * may be in the last file), and reading each twice cost more than the mapping itself. So each item is
 * kept as a line of JSON as it is read, and read back when its input is mapped, in the same order.
 *
 * Up to {@link SPOOL_MEMORY} characters of lines stay in memory; beyond, the lines go to a temporary
 * file, in blocks of {@link BLOCK_CHARS}, that is unlinked as soon as it is created, so nothing is left behind,
 * not even after a kill. The file is written a byte a character (Latin-1, as the EDIFACT reader reads
 * its input); a character beyond Latin-1 is written as a JSON escape.
 *
 * @module
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The characters of blocks held in memory before the spool goes to a file. */
export const SPOOL_MEMORY = 256 * 1024 * 1024

/** The characters of lines written to the file at a time. */
const BLOCK_CHARS = 1024 * 1024

/** The bytes of the file read back at a time. */
const PIECE_BYTES = 4 * 1024 * 1024

/** How many items a run of items read back holds: one step of the reader's generator per run. */
const RUN_ITEMS = 512

const BEYOND_LATIN1 = /[^\u0000-\u00ff]/u

/** JSON lines with each UTF-16 unit beyond Latin-1 escaped (`\uXXXX`, a surrogate each; such a unit stands only inside a string): the same values, a byte a character. */
const escapeBeyondLatin1 = (json: string): string => {
  let out = ""
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i)
    out += code > 0xff ? `\\u${code.toString(16).padStart(4, "0")}` : json[i]!
  }
  return out
}

/**
 * Items written input by input ({@link begin}, {@link write}, then {@link end}), read back input by
 * input in the order they were written ({@link read}; {@link rewind} starts again from the first).
 *
 * @example
 * const spool = new ItemSpool<{ readonly n: number }>()
 * spool.begin()
 * spool.write({ n: 1 })
 * spool.write({ n: 2 })
 * spool.begin()
 * spool.end()
 * const first = [...spool.read()]
 * first // => [[{ n: 1 }, { n: 2 }]]
 * const second = [...spool.read()]
 * second // => []
 * spool.close()
 */
export class ItemSpool<A> {
  /** `memoryChars`: the characters of blocks held in memory before the spool goes to a file ({@link SPOOL_MEMORY}). */
  constructor(private readonly memoryChars: number = SPOOL_MEMORY) {}

  /** The number of items of each input, in the order written. */
  private readonly counts: Array<number> = []
  private next = 0
  /** Lines of the block being made. */
  private lines: Array<string> = []
  private lineChars = 0
  /** Blocks of lines held in memory (while the spool has no file), and their characters. */
  private blocks: Array<Array<string>> = []
  private blockChars = 0
  private fd: number | undefined
  /** Bytes written to the file, and read back from it. */
  private written = 0
  private readPosition = 0
  /** Reading: the lines of the block being read, the next of them, the next block held in memory. */
  private reading: Array<string> = []
  private readingAt = 0
  private blockAt = 0
  /** Bytes read from the file after its last whole line. */
  private carry: Buffer = Buffer.alloc(0)

  /** The next input's items start here. */
  begin(): void {
    this.counts.push(0)
  }

  /** An item of the input begun last. */
  write(item: A): void {
    const line = JSON.stringify(item)
    this.counts[this.counts.length - 1]!++
    this.lines.push(line)
    this.lineChars += line.length + 1
    if (this.lineChars >= BLOCK_CHARS) this.endBlock()
  }

  /** Ends the writing. */
  end(): void {
    this.endBlock()
  }

  /** The items of the next input, in runs, as they were written. */
  *read(): Generator<Array<A>> {
    const count = this.counts[this.next++]
    if (count === undefined) throw new Error("the spool holds no more inputs")
    let run: Array<A> = []
    for (let i = 0; i < count; i++) {
      while (this.readingAt >= this.reading.length) this.fill()
      run.push(JSON.parse(this.reading[this.readingAt++]!) as A)
      if (run.length === RUN_ITEMS) {
        yield run
        run = []
      }
    }
    if (run.length > 0) yield run
  }

  /** Reads from the first input again. */
  rewind(): void {
    this.next = 0
    this.readPosition = 0
    this.blockAt = 0
    this.reading = []
    this.readingAt = 0
    this.carry = Buffer.alloc(0)
  }

  /** Releases the file and the blocks. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
    this.blocks = []
    this.reading = []
  }

  private endBlock(): void {
    if (this.lines.length === 0) return
    const block = this.lines
    const chars = this.lineChars
    this.lines = []
    this.lineChars = 0
    if (this.fd !== undefined) {
      this.writeBlock(block)
      return
    }
    this.blocks.push(block)
    this.blockChars += chars
    if (this.blockChars <= this.memoryChars) return
    const dir = mkdtempSync(join(tmpdir(), "data-import-spool-"))
    this.fd = openSync(join(dir, "items"), "w+", 0o600)
    // Unlinked at once: the open file stays readable, and nothing remains after any end of the process.
    rmSync(dir, { recursive: true, force: true })
    for (const held of this.blocks) this.writeBlock(held)
    this.blocks = []
  }

  private writeBlock(block: ReadonlyArray<string>): void {
    // Escaped only on the way to the file: lines held in memory are read back as they were written.
    const text = `${block.join("\n")}\n`
    const bytes = Buffer.from(BEYOND_LATIN1.test(text) ? escapeBeyondLatin1(text) : text, "latin1")
    let done = 0
    while (done < bytes.length) done += writeSync(this.fd!, bytes, done, bytes.length - done, this.written + done)
    this.written += bytes.length
  }

  private piece: Buffer | undefined

  /** The next lines: of the next block held in memory, or of the next piece of the file. */
  private fill(): void {
    this.readingAt = 0
    if (this.fd === undefined) {
      const block = this.blocks[this.blockAt++]
      if (block === undefined) throw new Error("the spool ended before its items")
      this.reading = block
      return
    }
    const piece = (this.piece ??= Buffer.allocUnsafe(PIECE_BYTES))
    const read = readSync(this.fd, piece, 0, piece.length, this.readPosition)
    if (read === 0) throw new Error("the spool ended before its items")
    this.readPosition += read
    // A line may end in the next piece: its bytes wait for it.
    const bytes = this.carry.length === 0 ? piece.subarray(0, read) : Buffer.concat([this.carry, piece.subarray(0, read)])
    const end = bytes.lastIndexOf(10)
    this.reading = end < 0 ? [] : bytes.toString("latin1", 0, end).split("\n")
    this.carry = Buffer.from(bytes.subarray(end + 1))
  }
}
