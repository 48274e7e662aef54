/**
 * A worker's own part of an NDJSON file: the whole lines that start within a byte range, read straight
 * from the file at their offsets. The main thread only hands out ranges, so with two workers on two
 * cores no third thread reads, copies and passes on every byte.
 *
 * A line belongs to the range it starts in: a range skips the end of the line it begins inside, and
 * reads past its end to finish its own last line.
 *
 * @module
 */
import { readSync } from "node:fs"

const NEWLINE = 0x0a
const CR = 0x0d
/** Bytes read at a time past a range's end, while its last line goes on. */
const TAIL_BYTES = 1 << 16

/** The lines of one range. */
export interface RangeLines {
  /** Whole lines (the last one may lack its newline at the end of the file); valid until the next read. */
  readonly bytes: Uint8Array
  /** `bytes` start at byte 0 of the file (a byte order mark may be there). */
  readonly atFileStart: boolean
  /**
   * The range's last line, when it is longer than the maximum: its length in bytes without the newline.
   * Its bytes are not in `bytes` (nor ever held whole in memory).
   */
  readonly overlong: number | undefined
}

/** One buffer per thread, grown as needed: what is read is decoded or copied before the next read. */
let buffer = Buffer.allocUnsafeSlow(0)

const room = (size: number, keep: number): void => {
  if (buffer.length >= size) return
  const grown = Buffer.allocUnsafeSlow(Math.max(size, 2 * buffer.length))
  buffer.copy(grown, 0, 0, keep)
  buffer = grown
}

/** Reads up to `length` bytes at `position` into the buffer at `at`; fewer only at the end of the file. */
const readAt = (fd: number, at: number, length: number, position: number): number => {
  let got = 0
  while (got < length) {
    const n = readSync(fd, buffer, at + got, length - got, position + got)
    if (n === 0) break
    got += n
  }
  return got
}

/**
 * Reads the lines of `fd` that start at a byte in `[start, end)`; with `toEnd`, every line from `start`
 * to the end of the file (the last range: the file may have grown since its size was taken).
 */
export const readRangeLines = (fd: number, start: number, end: number, toEnd: boolean, maxLineBytes: number): RangeLines => {
  // One byte before the range tells whether a line starts at its first byte.
  const from = start > 0 ? start - 1 : 0
  room(end - from, 0)
  let length = readAt(fd, 0, end - from, from)
  let atEof = length < end - from
  while (toEnd && !atEof) {
    room(length + TAIL_BYTES, length)
    const got = readAt(fd, length, TAIL_BYTES, from + length)
    length += got
    atEof = got < TAIL_BYTES
  }
  let first = 0
  if (start > 0) {
    const newline = buffer.subarray(0, length).indexOf(NEWLINE)
    // No line starts in the range: it lies inside a line that an earlier range owns.
    if (newline < 0 || newline + 1 >= length) return { bytes: buffer.subarray(0, 0), atFileStart: false, overlong: undefined }
    first = newline + 1
  }
  if (atEof || buffer[length - 1] === NEWLINE) return { bytes: buffer.subarray(first, length), atFileStart: start === 0, overlong: undefined }
  // The last line goes on past the range: read on to its newline (or the end of the file).
  const lastStart = Math.max(first, buffer.subarray(0, length).lastIndexOf(NEWLINE) + 1)
  for (;;) {
    // A line is measured without the CR of a CRLF, as the workers measure it: one byte over the maximum
    // may still be that CR.
    if (length - lastStart > maxLineBytes + (buffer[length - 1] === CR ? 1 : 0)) {
      return { bytes: buffer.subarray(first, lastStart), atFileStart: start === 0, overlong: overlongLength(fd, from + length, length - lastStart, buffer[length - 1]!) }
    }
    room(length + TAIL_BYTES, length)
    const got = readAt(fd, length, TAIL_BYTES, from + length)
    const newline = buffer.subarray(length, length + got).indexOf(NEWLINE)
    if (newline >= 0) {
      length += newline
      const measured = length - lastStart - (length > lastStart && buffer[length - 1] === CR ? 1 : 0)
      if (measured > maxLineBytes) {
        return { bytes: buffer.subarray(first, lastStart), atFileStart: start === 0, overlong: measured }
      }
      return { bytes: buffer.subarray(first, length + 1), atFileStart: start === 0, overlong: undefined }
    }
    length += got
    if (got < TAIL_BYTES) return { bytes: buffer.subarray(first, length), atFileStart: start === 0, overlong: undefined }
  }
}

/**
 * The length of a line too long to hold, `counted` bytes of which end at `position` (the last of them
 * `lastByte`): read on, counting only; a CR before the newline (or at the end of the file) is not counted.
 */
const overlongLength = (fd: number, position: number, counted: number, lastByte: number): number => {
  const scratch = Buffer.allocUnsafe(TAIL_BYTES)
  for (let at = position, length = counted, last = lastByte; ;) {
    const got = readSync(fd, scratch, 0, TAIL_BYTES, at)
    if (got === 0) return length - (last === CR ? 1 : 0)
    const newline = scratch.subarray(0, got).indexOf(NEWLINE)
    if (newline >= 0) return length + newline - ((newline > 0 ? scratch[newline - 1] : last) === CR ? 1 : 0)
    length += got
    at += got
    last = scratch[got - 1]!
  }
}
