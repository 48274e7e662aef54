/**
 * The physical lines of an input, numbered from 1, each decoded on its own: a line whose bytes are not
 * valid in the encoding costs that line only, never the file. CRLF, LF and a mix of both end a line.
 *
 * @module
 */
import { TextDecoder } from "node:util"
import { usageError } from "../exit-codes.js"
import { withoutBom } from "../byte-order-mark.js"

/** A decoded physical line (without its line break). */
export interface TextLine {
  readonly line: number
  readonly text: string
}

/** A physical line whose bytes are not valid in the encoding; `text` shows it with replacement characters. */
export interface UndecodableLine {
  readonly line: number
  readonly undecodable: true
  readonly text: string
  /** The line's bytes (without its line break), to tell where it breaks and in what encoding it reads. */
  readonly bytes: Uint8Array
}

/**
 * A physical line longer than the reader's maximum: its bytes were skipped, never held, so it has no
 * text (`text` is empty). `length` is its size in bytes without the line break; `carriageReturns` says
 * whether it holds CR bytes (lines that end in CR alone read as one line).
 */
export interface OverlongLine {
  readonly line: number
  readonly overlong: true
  readonly length: number
  readonly carriageReturns: boolean
  readonly text: ""
}

/** What {@link physicalLines} yields. */
export type PhysicalLine = TextLine | UndecodableLine | OverlongLine

/** A decoder for the encoding; an unknown name is a usage error. */
export const decoderFor = (encoding: string, fatal = true): TextDecoder => {
  try {
    // The mark is dropped by hand at the start of the input only: each line is decoded on its own.
    return new TextDecoder(encoding, { fatal, ignoreBOM: true })
  } catch {
    throw usageError(`unknown encoding ${encoding}: use utf-8, windows-1252, latin1, utf-16le, …`)
  }
}

const LF = 0x0a
const CR = 0x0d

const stripCr = (text: string): string => (text.endsWith("\r") ? text.slice(0, -1) : text)

/**
 * Where a line feed's byte 0x0A stands in its UTF-16 code unit (0 little-endian, 1 big-endian), or
 * `undefined` for an encoding whose line feed is the byte 0x0A alone. Told by the encoding the decoder
 * settled on, so every name of UTF-16 (`ucs-2`, `unicode`, `unicodefffe`, …) counts.
 */
const lineFeedByteInUnit = (decoder: TextDecoder): 0 | 1 | undefined =>
  decoder.encoding === "utf-16le" ? 0 : decoder.encoding === "utf-16be" ? 1 : undefined

/**
 * Splits the input into physical lines and decodes each. A byte order mark at the start is dropped.
 * Complete lines of a chunk are decoded at once; only when that fails is each line decoded alone, so
 * the usual valid file pays one decode per chunk. A line of more than `maxLineBytes` bytes (UTF-8 and
 * single-byte encodings) is never held: its bytes are skipped up to its line feed and it is yielded as
 * an {@link OverlongLine}, so a file without line breaks costs neither its size in memory nor a hang.
 */
export async function* physicalLines(chunks: AsyncIterable<Uint8Array>, encoding: string, maxLineBytes = Number.POSITIVE_INFINITY): AsyncGenerator<Array<PhysicalLine>> {
  const fatal = decoderFor(encoding)
  const lossy = decoderFor(encoding, false)
  let line = 0
  let first = true
  const emit = (text: string): string => {
    if (first) {
      first = false
      return withoutBom(text)
    }
    return text
  }
  const wide = lineFeedByteInUnit(fatal)
  if (wide !== undefined) {
    // UTF-16: lines are cut at line-feed code units (never at a 0x0A byte inside another character) and
    // each is decoded alone, so a lone surrogate or a cut code unit costs its line, as in UTF-8.
    const decodeUnits = (piece: Uint8Array): PhysicalLine => {
      line++
      const endsInCr = piece.length >= 2 && piece[piece.length - 2 + wide] === CR && piece[piece.length - 1 - wide] === 0
      const bytes = endsInCr ? piece.subarray(0, -2) : piece
      try {
        return { line, text: emit(fatal.decode(bytes)) }
      } catch {
        first = false
        return { line, undecodable: true, text: lossy.decode(bytes), bytes: new Uint8Array(bytes) }
      }
    }
    let rest: Uint8Array = new Uint8Array(0)
    for await (const chunk of chunks) {
      // The code units of `rest` were looked at already, but for a half one at its end.
      const from = rest.length - (rest.length % 2)
      const bytes = concat([rest, chunk])
      const out: Array<PhysicalLine> = []
      let start = 0
      for (let at = from; at + 1 < bytes.length; at += 2) {
        if (bytes[at + wide] === LF && bytes[at + 1 - wide] === 0) {
          out.push(decodeUnits(bytes.subarray(start, at)))
          start = at + 2
        }
      }
      rest = bytes.slice(start)
      yield out
    }
    if (rest.length > 0) yield [decodeUnits(rest)]
    return
  }
  // The start of a line not ended yet, in the pieces read (joined once, when the line ends).
  let carry: Array<Uint8Array> = []
  let carryBytes = 0
  // Bytes of an overlong line skipped so far (-1: none is being skipped), whether they held a CR, and the
  // last byte skipped (a CR there is that of a CRLF when a line feed comes next).
  let skipped = -1
  let skippedCr = false
  let lastSkipped = -1
  const overlong = (length: number, endsInCr: boolean, carriageReturns: boolean): OverlongLine => {
    first = false
    return { line: ++line, overlong: true, length: length - (endsInCr ? 1 : 0), carriageReturns, text: "" }
  }
  const decodeLines = (bytes: Uint8Array): Array<PhysicalLine> => {
    if (bytes.length <= maxLineBytes) return decodeShortLines(bytes)
    // Some line may be longer than the maximum: runs of short lines are decoded together, long ones skipped.
    const out: Array<PhysicalLine> = []
    let run = 0
    for (let start = 0; ;) {
      const end = bytes.indexOf(LF, start)
      const stop = end === -1 ? bytes.length : end
      const endsInCr = stop > start && bytes[stop - 1] === CR
      if (stop - start - (endsInCr ? 1 : 0) > maxLineBytes) {
        if (start > run) out.push(...decodeShortLines(bytes.subarray(run, start - 1)))
        const piece = bytes.subarray(start, stop)
        out.push(overlong(piece.length, endsInCr, piece.includes(CR)))
        run = stop + 1
      }
      if (end === -1) break
      start = end + 1
    }
    if (run <= bytes.length) out.push(...decodeShortLines(bytes.subarray(run)))
    return out
  }
  const decodeShortLines = (bytes: Uint8Array): Array<PhysicalLine> => {
    const out: Array<PhysicalLine> = []
    try {
      const text = fatal.decode(bytes)
      const parts = text.split("\n")
      for (const part of parts) out.push({ line: ++line, text: emit(stripCr(part)) })
      return out
    } catch {
      // Some line is not valid: decode each alone, so only the broken ones are lost.
    }
    let start = 0
    for (;;) {
      const end = bytes.indexOf(LF, start)
      const piece = bytes.subarray(start, end === -1 ? bytes.length : end)
      line++
      try {
        out.push({ line, text: emit(stripCr(fatal.decode(piece))) })
      } catch {
        const bytes = piece.length > 0 && piece[piece.length - 1] === CR ? piece.subarray(0, -1) : piece
        out.push({ line, undecodable: true, text: stripCr(lossy.decode(piece)), bytes: new Uint8Array(bytes) })
        first = false
      }
      if (end === -1) return out
      start = end + 1
    }
  }
  for await (const chunk of chunks) {
    let rest = chunk
    if (skipped >= 0) {
      const lf = rest.indexOf(LF)
      const part = lf === -1 ? rest : rest.subarray(0, lf)
      skippedCr ||= part.includes(CR)
      const endsInCr = part.length > 0 ? part[part.length - 1] === CR : lastSkipped === CR
      skipped += part.length
      if (part.length > 0) lastSkipped = part[part.length - 1]!
      if (lf === -1) continue
      const done = overlong(skipped, endsInCr, skippedCr)
      skipped = -1
      rest = rest.subarray(lf + 1)
      if (rest.indexOf(LF) === -1) {
        carry = rest.length > 0 ? [new Uint8Array(rest)] : []
        carryBytes = rest.length
        yield [done]
        continue
      }
      carry = []
      carryBytes = 0
      yield [done]
    }
    const lastLf = rest.lastIndexOf(LF)
    if (lastLf === -1) {
      // Chunks may be reused by the reader: what is kept across reads is copied (Buffer#slice would not).
      carry.push(new Uint8Array(rest))
      carryBytes += rest.length
      if (carryBytes > maxLineBytes + 1) {
        // The line is longer than the maximum already (even if its last byte is the CR of a CRLF): skip it to its end.
        skipped = carryBytes
        skippedCr = carry.some((piece) => piece.includes(CR))
        lastSkipped = rest[rest.length - 1]!
        carry = []
        carryBytes = 0
      }
      continue
    }
    const firstLf = rest.indexOf(LF)
    const head = rest.subarray(0, firstLf)
    const endsInCr = firstLf > 0 ? head[firstLf - 1] === CR : carry[carry.length - 1]?.[carry[carry.length - 1]!.length - 1] === CR
    if (carryBytes + firstLf - (endsInCr ? 1 : 0) > maxLineBytes) {
      // The held start of a line and this chunk's first piece make a line longer than the maximum.
      const done = overlong(carryBytes + firstLf, endsInCr, head.includes(CR) || carry.some((piece) => piece.includes(CR)))
      const after = firstLf < lastLf ? decodeLines(rest.subarray(firstLf + 1, lastLf)) : []
      yield [done, ...after]
    } else {
      yield decodeLines(concat([...carry, rest.subarray(0, lastLf)]))
    }
    carry = [new Uint8Array(rest.subarray(lastLf + 1))]
    carryBytes = lastLf + 1 < rest.length ? rest.length - lastLf - 1 : 0
  }
  if (skipped >= 0) yield [overlong(skipped, lastSkipped === CR, skippedCr)]
  else if (carryBytes > 0) yield decodeLines(concat(carry))
}

const concat = (pieces: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(pieces.reduce((n, piece) => n + piece.length, 0))
  let at = 0
  for (const piece of pieces) {
    out.set(piece, at)
    at += piece.length
  }
  return out
}
