/**
 * The physical lines of an input, numbered from 1, each decoded on its own: a line whose bytes are not
 * valid in the encoding costs that line only, never the file. CRLF, LF and a mix of both end a line.
 *
 * @module
 */
import { TextDecoder } from "node:util"
import { usageError } from "./exit-codes.js"
import { withoutBom } from "../readers/byte-order-mark.js"

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

/** What {@link physicalLines} yields. */
export type PhysicalLine = TextLine | UndecodableLine

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
 * the usual valid file pays one decode per chunk.
 */
export async function* physicalLines(chunks: AsyncIterable<Uint8Array>, encoding: string): AsyncGenerator<Array<PhysicalLine>> {
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
      const bytes = concat(rest, chunk)
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
  let carry: Uint8Array = new Uint8Array(0)
  const decodeLines = (bytes: Uint8Array): Array<PhysicalLine> => {
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
    const lastLf = chunk.lastIndexOf(LF)
    if (lastLf === -1) {
      carry = concat(carry, chunk)
      continue
    }
    // Chunks may be reused by the reader: what is kept across reads is copied (Buffer#slice would not).
    const complete = concat(carry, chunk.subarray(0, lastLf))
    carry = new Uint8Array(chunk.subarray(lastLf + 1))
    yield decodeLines(complete)
  }
  if (carry.length > 0) yield decodeLines(carry)
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}
