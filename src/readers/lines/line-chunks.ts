/**
 * Cuts the bytes of an NDJSON stream into batches of whole lines, on the main thread. Cheap on purpose
 * (one `lastIndexOf` per read): the workers split, decode and check the lines. A line longer than the
 * maximum is never held in memory: its bytes are skipped and it is passed on as one "overlong" line.
 *
 * @module
 */

const NEWLINE = 0x0a
const CR = 0x0d

/** What the chunker hands on, in stream order. */
export type LinePiece =
  /** Whole lines (the last one may lack its newline at the end of the stream). */
  | { readonly kind: "lines"; readonly bytes: Uint8Array; readonly atStreamStart: boolean }
  /** One line longer than the maximum; `length` is its size in bytes without the newline. */
  | { readonly kind: "overlong"; readonly length: number }

/** Splits a byte stream into pieces of whole lines, holding at most one line of `maxLineBytes`. */
export class LineChunker {
  private pending: Array<Uint8Array> = []
  private pendingBytes = 0
  /** Bytes of the overlong line being skipped, or -1 when no line is being skipped. */
  private skipped = -1
  private atStart = true
  /** The last byte taken (held or skipped): a CR there belongs to a CRLF if a newline comes next. */
  private lastByte = -1

  constructor(private readonly maxLineBytes: number) {}

  /** Takes the next bytes of the stream (not kept: the caller may reuse them); returns the pieces that are complete. */
  push(chunk: Uint8Array): Array<LinePiece> {
    const out: Array<LinePiece> = []
    let rest = chunk
    if (this.skipped >= 0) {
      const newline = rest.indexOf(NEWLINE)
      if (newline < 0) {
        this.skipped += rest.length
        if (rest.length > 0) this.lastByte = rest[rest.length - 1]!
        return out
      }
      out.push({ kind: "overlong", length: this.skipped + newline - (this.crBefore(rest, newline, this.skipped > 0) ? 1 : 0) })
      this.skipped = -1
      this.atStart = false
      rest = rest.subarray(newline + 1)
    }
    const last = rest.lastIndexOf(NEWLINE)
    if (last < 0) {
      this.hold(rest)
      return out
    }
    const first = rest.indexOf(NEWLINE)
    // Lines are measured without the CR of a CRLF, as the workers measure them.
    const firstLength = this.pendingBytes + first - (this.crBefore(rest, first, this.pendingBytes > 0) ? 1 : 0)
    if (firstLength > this.maxLineBytes) {
      // The line that the held bytes begin is too long: pass it on as such, without its bytes.
      out.push({ kind: "overlong", length: firstLength })
      this.pending = []
      this.pendingBytes = 0
      this.atStart = false
      if (first < last) out.push(this.lines(rest.subarray(first + 1, last + 1)))
    } else {
      out.push(this.lines(rest.subarray(0, last + 1)))
    }
    this.hold(rest.subarray(last + 1))
    return out
  }

  /** Ends the stream: the last line, when it has no newline. */
  end(): Array<LinePiece> {
    if (this.skipped >= 0) {
      const length = this.skipped - (this.lastByte === CR ? 1 : 0)
      this.skipped = -1
      return [{ kind: "overlong", length }]
    }
    if (this.pendingBytes === 0) return []
    return [this.lines(new Uint8Array(0))]
  }

  private hold(bytes: Uint8Array): void {
    if (bytes.length === 0) return
    // A copy (Buffer#slice would share memory): the reader reuses its buffer for the next chunk.
    this.pending.push(Uint8Array.prototype.slice.call(bytes))
    this.pendingBytes += bytes.length
    this.lastByte = bytes[bytes.length - 1]!
    // One byte more than the maximum may be the CR of a CRLF whose newline is in the next chunk.
    if (this.pendingBytes > this.maxLineBytes + (this.lastByte === CR ? 1 : 0)) {
      this.skipped = this.pendingBytes
      this.pending = []
      this.pendingBytes = 0
    }
  }

  /** Whether the byte before the newline at `newline` of `rest` (at 0: the last byte carried over, if any) is a CR. */
  private crBefore(rest: Uint8Array, newline: number, carried: boolean): boolean {
    return newline > 0 ? rest[newline - 1] === CR : carried && this.lastByte === CR
  }

  /** The held bytes and `bytes`, copied into one buffer of its own (so it can be transferred). */
  private lines(bytes: Uint8Array): LinePiece {
    const out = new Uint8Array(this.pendingBytes + bytes.length)
    let at = 0
    for (const part of this.pending) {
      out.set(part, at)
      at += part.length
    }
    out.set(bytes, at)
    this.pending = []
    this.pendingBytes = 0
    const atStreamStart = this.atStart
    this.atStart = false
    return { kind: "lines", bytes: out, atStreamStart }
  }
}
