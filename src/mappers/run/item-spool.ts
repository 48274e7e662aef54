/**
 * The items of a run's inputs, held between their one reading and their mapping: a run whose values
 * have versions across inputs must read every input before it maps any (the latest version of a value
 * may be in the last file), and reading each twice cost more than the mapping itself. So each item is
 * kept as a line of JSON as it is read, and read back when its input is mapped, in the same order.
 *
 * The lines are written as UTF-8 into blocks of {@link BLOCK_BYTES}, held outside the heap: held as
 * strings, a run's items were copied by the collector into its old generation and marked there again
 * and again while the run read on. Up to {@link SPOOL_MEMORY} bytes of blocks stay in memory; beyond,
 * the blocks go to a temporary file that is unlinked as soon as it is created, so nothing is left
 * behind, not even after a kill. Through the file, one block is written again and again, and one
 * buffer reads the file back: memory the process touches for the first time costs a page fault a
 * page, and a spool of 150 MB held in memory cost more in those than its file costs in writes and reads.
 *
 * @module
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The bytes of blocks held in memory before the spool goes to a file. */
export const SPOOL_MEMORY = 16 * 1024 * 1024

/** The bytes of a block of lines (a longer line has a block of its own). */
const BLOCK_BYTES = 1024 * 1024

/** The bytes of the file read back at a time (more for a longer line). */
const PIECE_BYTES = 4 * 1024 * 1024

/**
 * The most bytes decoded into one string when lines are read back ({@link pieceLines}): one string of a
 * megabyte took the runtime several times as long as sixteen of 64 KB, and the lines of a piece wait in
 * the heap until their items are taken.
 */
const DECODE_BYTES = 64 * 1024

/** How many items a run of items read back holds: one step of the reader's generator per run. */
const RUN_ITEMS = 512

/**
 * How a spool writes its items as lines and reads them back: a line of JSON each by default
 * ({@link JSON_LINES}); a codec may write the items it knows shorter (see `EdifactItemLines`).
 */
export interface SpoolCodec<A> {
  /** One line of JSON: no line break outside a string. */
  encode(item: A): string
  decode(line: string): A
}

/** Each item as its JSON text. */
export const JSON_LINES: SpoolCodec<never> = {
  encode: (item) => JSON.stringify(item),
  decode: (line) => JSON.parse(line) as never
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
  /**
   * `memoryBytes`: the bytes of blocks held in memory before the spool goes to a file
   * ({@link SPOOL_MEMORY}); `codec`: how items become lines ({@link JSON_LINES}).
   */
  constructor(
    private readonly memoryBytes: number = SPOOL_MEMORY,
    private readonly codec: SpoolCodec<A> = JSON_LINES as SpoolCodec<A>
  ) {}

  /** The number of items of each input, in the order written. */
  private readonly counts: Array<number> = []
  private next = 0
  /** The block being written, and its bytes written so far. */
  private block: Buffer | undefined
  private used = 0
  /** Blocks of lines held in memory (while the spool has no file), and their bytes. */
  private blocks: Array<Buffer> = []
  private blockBytes = 0
  private fd: number | undefined
  /** Bytes written to the file, and read back from it. */
  private written = 0
  private readPosition = 0
  /** Reading: the lines of the block being read, the next of them, the next block held in memory. */
  private reading: Array<string> = []
  private readingAt = 0
  private blockAt = 0
  /** Where the next piece of the block being read starts. */
  private blockOffset = 0
  /** A block written to the file, to be filled again. */
  private spare: Buffer | undefined
  /**
   * Reading the file: its bytes in `piece` up to `pieceEnd`; the lines not yet decoded from
   * `pieceStart` to the last line feed at `pieceLast` (-1: none); the bytes after it, the start of a
   * line, wait for the next read.
   */
  private piece: Buffer | undefined
  private pieceStart = 0
  private pieceEnd = 0
  private pieceLast = -1

  /** The next input's items start here. */
  begin(): void {
    this.counts.push(0)
  }

  /** An item of the input begun last. */
  write(item: A): void {
    const line = this.codec.encode(item)
    this.counts[this.counts.length - 1]!++
    // A UTF-16 unit takes 3 bytes at most (a surrogate pair 4 for two).
    const most = line.length * 3 + 1
    if (this.block === undefined || this.used + most > this.block.length) {
      this.endBlock()
      const spare = this.spare
      this.spare = undefined
      this.block = spare !== undefined && spare.length >= most ? spare : Buffer.allocUnsafeSlow(Math.max(BLOCK_BYTES, most))
    }
    // Written line by line: joining a block's lines first took most of the spool's time.
    this.used += this.block.write(line, this.used, "utf8")
    this.block[this.used++] = 10
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
      run.push(this.codec.decode(this.reading[this.readingAt++]!))
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
    this.blockOffset = 0
    this.reading = []
    this.readingAt = 0
    this.pieceStart = 0
    this.pieceEnd = 0
    this.pieceLast = -1
  }

  /** Releases the file and the blocks. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
    this.block = undefined
    this.spare = undefined
    this.piece = undefined
    this.blocks = []
    this.reading = []
  }

  private endBlock(): void {
    const block = this.block
    if (block === undefined || this.used === 0) return
    const bytes = block.subarray(0, this.used)
    this.block = undefined
    this.used = 0
    if (this.fd !== undefined) {
      this.writeBlock(bytes)
      if (block.length === BLOCK_BYTES) this.spare = block
      return
    }
    this.blocks.push(bytes)
    this.blockBytes += bytes.length
    if (this.blockBytes <= this.memoryBytes) return
    const dir = mkdtempSync(join(tmpdir(), "data-import-spool-"))
    this.fd = openSync(join(dir, "items"), "w+", 0o600)
    // Unlinked at once: the open file stays readable, and nothing remains after any end of the process.
    rmSync(dir, { recursive: true, force: true })
    for (const held of this.blocks) this.writeBlock(held)
    this.blocks = []
  }

  private writeBlock(bytes: Buffer): void {
    let done = 0
    while (done < bytes.length) done += writeSync(this.fd!, bytes, done, bytes.length - done, this.written + done)
    this.written += bytes.length
  }

  /** The next lines: of the next block held in memory, or of the next piece of the file. */
  private fill(): void {
    this.readingAt = 0
    if (this.fd === undefined) {
      // A piece of a block at a time, not the block: the lines read wait in the heap until their items are
      // taken, and a megabyte of them outlived the collections of the young generation meanwhile.
      let block = this.blocks[this.blockAt]
      if (block !== undefined && this.blockOffset >= block.length) {
        block = this.blocks[++this.blockAt]
        this.blockOffset = 0
      }
      if (block === undefined) throw new Error("the spool ended before its items")
      const { lines, next } = pieceLines(block, this.blockOffset, block.length - 1)
      this.reading = lines
      this.blockOffset = next
      return
    }
    let piece = (this.piece ??= Buffer.allocUnsafe(PIECE_BYTES))
    if (this.pieceStart <= this.pieceLast) {
      const { lines, next } = pieceLines(piece, this.pieceStart, this.pieceLast)
      this.reading = lines
      this.pieceStart = next
      return
    }
    // The start of a line left after the last line feed moves to the front, and the file fills the rest.
    piece.copyWithin(0, this.pieceStart, this.pieceEnd)
    this.pieceEnd -= this.pieceStart
    this.pieceStart = 0
    if (this.pieceEnd === piece.length) {
      // A line longer than the piece: a piece twice as long holds it.
      const grown = Buffer.allocUnsafe(2 * piece.length)
      piece.copy(grown)
      piece = this.piece = grown
    }
    const read = readSync(this.fd, piece, this.pieceEnd, piece.length - this.pieceEnd, this.readPosition)
    if (read === 0) throw new Error("the spool ended before its items")
    this.readPosition += read
    const before = this.pieceEnd
    this.pieceEnd += read
    // Only the bytes just read can hold a line feed: the bytes before them had none.
    this.pieceLast = piece.lastIndexOf(10, this.pieceEnd - 1)
    if (this.pieceLast < before) this.pieceLast = -1
    this.reading = []
  }
}

/**
 * The lines of one piece of `bytes`, from `start` (where a line starts) up to a line feed at most
 * {@link DECODE_BYTES} on (or the one ending a longer line), never past `end` (a line feed); and where
 * the next piece starts.
 */
const pieceLines = (bytes: Buffer, start: number, end: number): { readonly lines: Array<string>; readonly next: number } => {
  let stop = end
  if (end - start > DECODE_BYTES) {
    const before = bytes.lastIndexOf(10, start + DECODE_BYTES)
    const after = before >= start ? before : bytes.indexOf(10, start + DECODE_BYTES)
    if (after >= 0 && after < end) stop = after
  }
  return { lines: bytes.toString("utf8", start, stop).split("\n"), next: stop + 1 }
}
