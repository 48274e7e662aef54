/**
 * A file in another encoding than the one chosen is one mistake, not thousands of broken lines: when the
 * first line that is not valid in the encoding comes early and no line before it shows the encoding to be
 * right, the run stops before anything is written, with one message naming that line, its first bad byte
 * and the encoding the bytes likely are in. A damaged line deep inside a file that is right otherwise
 * still costs that line only (see `physical-lines.ts`).
 *
 * @module
 */
import { TextDecoder } from "node:util"
import { usageError } from "../exit-codes.js"
import type { PhysicalLine, UndecodableLine } from "./physical-lines.js"

/**
 * How far "from its first lines on" reaches: a bad line among the first this many physical lines stops
 * the run, unless a line before it holds a character outside ASCII decoded without fault, or the file
 * starts with a UTF-8 byte order mark (either shows that the encoding is right, and the bad line damaged).
 */
export const ENCODING_CHECK_LINES = 1000

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\u0000-\u007f]/u

/**
 * The offset of the first byte of the first sequence that is not valid UTF-8 (a stray continuation byte,
 * a lead byte without its continuations, an overlong form, a surrogate, beyond U+10FFFF); -1 if none.
 *
 * @example
 * firstInvalidUtf8Byte(new Uint8Array([0x4d, 0xfc, 0x6c])) // => 1
 */
export const firstInvalidUtf8Byte = (bytes: Uint8Array): number => {
  let i = 0
  while (i < bytes.length) {
    const b = bytes[i]!
    if (b < 0x80) {
      i++
      continue
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1
    if (need < 0 || i + need >= bytes.length) return i
    const second = bytes[i + 1]!
    const low = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80
    const high = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf
    if (second < low || second > high) return i
    for (let k = 2; k <= need; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i
    i += need + 1
  }
  return -1
}

const decodes = (encoding: string, bytes: Uint8Array): string | undefined => {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** Whether a text has C1 control characters (what a byte of 0x80–0x9F becomes where an encoding has no character for it). */
// eslint-disable-next-line no-control-regex
const hasControls = (text: string): boolean => /[\u0080-\u009f]/u.test(text)

/**
 * The encoding the bytes of a line are likely in, other than `chosen`: UTF-16 by its byte order mark,
 * UTF-8 when they are valid there, windows-1252 when they read there without control characters.
 *
 * @example
 * likelyEncoding(new TextEncoder().encode("Müller"), "windows-1252") // => "utf-8"
 */
export const likelyEncoding = (bytes: Uint8Array, chosen: string): string | undefined => {
  const same = (name: string): boolean => chosen.trim().toLowerCase().replace(/^utf8$/u, "utf-8") === name
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return same("utf-16le") ? undefined : "utf-16le"
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return same("utf-16be") ? undefined : "utf-16be"
  const candidates = ["utf-8", "windows-1252"].filter((name) => !same(name))
  return candidates.find((name) => {
    const text = decodes(name, bytes)
    return text !== undefined && !hasControls(text)
  })
}

const hex = (b: number): string => `0x${b.toString(16).toUpperCase().padStart(2, "0")}`

/** The offset of the first byte of `bytes` that `encoding` cannot decode (the shortest prefix that fails). */
const firstBadByte = (encoding: string, bytes: Uint8Array): number => {
  if (/^utf-?8$/iu.test(encoding.trim())) return Math.max(0, firstInvalidUtf8Byte(bytes))
  let lo = 0
  let hi = bytes.length
  // The longest prefix that decodes (a sequence cut at its end is not an error while streaming).
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    try {
      new TextDecoder(encoding, { fatal: true }).decode(bytes.subarray(0, mid), { stream: true })
      lo = mid
    } catch {
      hi = mid - 1
    }
  }
  return Math.min(lo, Math.max(0, bytes.length - 1))
}

const shorten = (text: string): string => (text.length > 60 ? `${text.slice(0, 60)}…` : text)

/**
 * At most 60 characters of a line around its first character outside ASCII: where two readings of the
 * line differ. Cut from the start, a long line showed two readings that looked the same.
 */
const excerpt = (text: string, differsAt: number): string => {
  if (text.length <= 60 || differsAt < 0) return shorten(text)
  const start = Math.max(0, Math.min(differsAt - 20, text.length - 60))
  const end = Math.min(text.length, start + 60)
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`
}

/** The one message for an input that is not in `encoding` from its first lines on. */
export const wrongEncodingMessage = (input: string, encoding: string, bad: UndecodableLine): string => {
  const at = firstBadByte(encoding, bad.bytes)
  const likely = likelyEncoding(bad.bytes, encoding)
  const reads = likely !== undefined ? decodes(likely, bad.bytes) : undefined
  return `${input} is not ${encoding}: line ${bad.line}, byte ${at + 1} (${hex(bad.bytes[at] ?? 0)}) is not valid ${encoding}, ` +
    `and no line before it holds a character outside ASCII. ` +
    (likely !== undefined
      ? `The line is valid ${likely} (${JSON.stringify(shorten(reads ?? ""))}): run again with --encoding ${likely}.`
      : "Give the export's encoding with --encoding (windows-1252, latin1, utf-16le, …).") +
    " Nothing was written."
}

/** Each character of a single-byte encoding mapped back to its byte; `undefined` for any other encoding. */
const singleByteTables = new Map<string, ReadonlyMap<string, number> | undefined>()

const singleByteTable = (encoding: string): ReadonlyMap<string, number> | undefined => {
  const name = encoding.trim().toLowerCase()
  if (singleByteTables.has(name)) return singleByteTables.get(name)
  let table: Map<string, number> | undefined = new Map()
  try {
    const decoder = new TextDecoder(name)
    for (let b = 0; b < 256 && table !== undefined; b++) {
      const c = decoder.decode(new Uint8Array([b]))
      // UTF-8 and the multi-byte encodings give U+FFFD for a lone high byte: not a single-byte encoding.
      if (c.length !== 1 || c === "\uFFFD" || table.has(c)) table = undefined
      else table.set(c, b)
    }
  } catch {
    table = undefined
  }
  singleByteTables.set(name, table)
  return table
}

/**
 * Characters of Western European text: ASCII, Latin-1's letters and signs, and punctuation up to €. UTF-8
 * of these read in a single-byte encoding starts each pair with `Â`, `Ã` or `â`, which Latin-1 text hardly
 * ever puts before such a character.
 */
const WESTERN = /^(?:[\u0000-\u007f\u00a0-\u00ff\u2010-\u20ac])*$/u

/**
 * The text of a line read in a single-byte `encoding` (latin1, windows-1252, …) when its bytes are UTF-8
 * of Western European text with characters outside ASCII: what UTF-8 read as Latin-1 looks like
 * (`MÃ¼ller` for `Müller`); `undefined` otherwise. Latin-1 text is valid UTF-8 only by chance (`Straße“`
 * is: ß and “ make U+07D3), and then not of such characters.
 *
 * @example
 * utf8ReadAsSingleByte("MÃ¼ller", "latin1") // => "Müller"
 * utf8ReadAsSingleByte("Müller", "latin1") // => undefined
 */
export const utf8ReadAsSingleByte = (text: string, encoding: string): string | undefined => {
  const table = singleByteTable(encoding)
  if (table === undefined) return undefined
  const bytes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const b = table.get(text[i]!)
    if (b === undefined) return undefined
    bytes[i] = b
  }
  if (!bytes.some((b) => b >= 0x80) || firstInvalidUtf8Byte(bytes) !== -1) return undefined
  const utf8 = new TextDecoder("utf-8").decode(bytes)
  return WESTERN.test(utf8) ? utf8 : undefined
}

/**
 * Reads the first lines of an input ahead (up to {@link ENCODING_CHECK_LINES}, or until a line shows the
 * encoding right; a file that starts with a byte order mark of the encoding declares it from the start) and throws a usage error (exit 2) with {@link wrongEncodingMessage} when the input is
 * not in `encoding` from its first lines on; otherwise gives back every line, those read ahead first.
 * Call it before any output is opened.
 */
export const checkEncodingFromStart = async (
  lines: AsyncGenerator<Array<PhysicalLine>>,
  input: string,
  encoding: string,
  startsWithBom: () => boolean
): Promise<AsyncGenerator<Array<PhysicalLine>>> => {
  const held: Array<Array<PhysicalLine>> = []
  let decided = false
  let ended = false
  while (!decided) {
    const next = await lines.next()
    if (next.done === true) {
      ended = true
      break
    }
    held.push(next.value)
    if (startsWithBom()) break
    for (const line of next.value) {
      if (line.line > ENCODING_CHECK_LINES) {
        decided = true
        break
      }
      if ("undecodable" in line) throw usageError(wrongEncodingMessage(input, encoding, line))
      if (NON_ASCII.test(line.text)) {
        // A single-byte encoding decodes any bytes: UTF-8 read in it shows only as its byte pairs.
        const utf8 = utf8ReadAsSingleByte(line.text, encoding)
        if (utf8 !== undefined) {
          const at = line.text.search(NON_ASCII)
          throw usageError(
            `${input} looks like UTF-8, not ${encoding}: line ${line.line} reads ${JSON.stringify(excerpt(line.text, at))} in ${encoding}, ` +
              `${JSON.stringify(excerpt(utf8, at))} in UTF-8. Run again with --encoding utf-8. Nothing was written.`
          )
        }
        decided = true
        break
      }
    }
  }
  return (async function*() {
    yield* held
    if (!ended) yield* lines
  })()
}
