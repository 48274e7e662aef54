/**
 * Files and streams: what kind of input an argument names, opening it for reading (with the errors a
 * user can act on), and writing output with backpressure, so a slow disk or pipe slows the reading
 * down instead of filling memory.
 *
 * @module
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs"
import { type FileHandle, open, stat } from "node:fs/promises"
import type { Writable } from "node:stream"
import { describeError, ioError, usageError } from "./exit-codes.js"

/** How a file's records are laid out. */
export type InputKind = "ndjson" | "json" | "csv"

/** An input named on the command line. */
export interface InputFile {
  /** As given (`-` for stdin); used in reports. */
  readonly name: string
  readonly kind: InputKind
}

/**
 * The kind of a `validate` input by its name: `.json`, `.ndjson`/`.jsonl`, or `-` (stdin: NDJSON unless
 * {@link sniffStdin} finds a JSON document).
 */
export const validateInputKind = (name: string): InputKind | undefined => {
  if (name === "-") return "ndjson"
  const lower = name.toLowerCase()
  if (lower.endsWith(".ndjson") || lower.endsWith(".jsonl")) return "ndjson"
  if (lower.endsWith(".json")) return "json"
  return undefined
}

/**
 * Reads the `validate` FILE arguments. With `format` (`--input-format`) every input has that format;
 * otherwise a regular file whose format cannot be told is a usage error. A name that is missing or a
 * directory is kept, so it is reported as unreadable (exit 3) with the others.
 */
export const validateInputs = (names: ReadonlyArray<string>, format?: "json" | "ndjson"): Array<InputFile> => {
  if (names.length === 0) throw usageError("no input: name at least one FILE (.json, .ndjson, .jsonl, or - for stdin)")
  if (names.filter((n) => n === "-").length > 1) throw usageError("stdin (-) can be read only once")
  if (format !== undefined) return names.map((name) => ({ name, kind: format }))
  return names.map((name) => {
    const kind = validateInputKind(name)
    if (kind !== undefined) return { name, kind }
    let isFile = false
    try {
      isFile = statSync(name).isFile()
    } catch {
      // Missing or unreadable: reported when it is opened.
    }
    if (isFile) throw usageError(`cannot tell the format of ${name}: use .json, .ndjson or .jsonl, or --input-format json|ndjson`)
    return { name, kind: "ndjson" }
  })
}

/**
 * An opened input: its bytes as a stream (each chunk valid until the next is read), and its size when known.
 * A regular file can instead be read at offsets through `file` (by workers, each its own part); the
 * caller uses one of the two, and closes `file` when it used it.
 */
export interface OpenedInput {
  readonly chunks: AsyncIterable<Uint8Array>
  readonly size: number | undefined
  readonly file?: RegularFile | undefined
}

/** A regular file held open for reads at offsets. */
export interface RegularFile {
  /** The descriptor: valid in every thread of the process until {@link RegularFile.close}. */
  readonly fd: number
  /** The size when opened. */
  readonly size: number
  readonly close: () => Promise<void>
}

/** An input that cannot be read; the run goes on with the other inputs and ends with exit code 3. */
export class UnreadableInput extends Error {
  constructor(readonly file: string, readonly detail: string) {
    super(`cannot read ${file}: ${detail}`)
    this.name = "UnreadableInput"
  }
}

/** Bytes per read: large reads keep the per-batch overhead small. */
export const READ_CHUNK_BYTES = 1 << 20

/** Opens an input for reading; a missing file, a directory or a permission problem is an {@link UnreadableInput}. */
export const openInput = async (name: string): Promise<OpenedInput> => {
  if (name === "-") return { chunks: process.stdin, size: undefined }
  // A regular file is read with blocking calls: an archive of thousands of small files would otherwise
  // wait for the thread pool five times a file (open, stat, two reads, close), and on a loaded machine
  // most of a run went to that waiting. Anything else (a FIFO, a device) is opened as a stream, as
  // opening it may wait for a writer.
  if (isRegularFile(name)) return openRegularFile(name)
  let handle
  try {
    handle = await open(name, "r")
  } catch (cause) {
    throw new UnreadableInput(name, describeError(cause))
  }
  try {
    const stat = await handle.stat()
    if (stat.isDirectory()) throw new UnreadableInput(name, "is a directory")
    const opened = handle
    return {
      chunks: readReusing(handle, stat.isFile() ? stat.size : undefined),
      size: stat.isFile() ? stat.size : undefined,
      file: stat.isFile() ? { fd: handle.fd, size: stat.size, close: () => opened.close() } : undefined
    }
  } catch (cause) {
    await handle.close()
    throw cause instanceof UnreadableInput ? cause : new UnreadableInput(name, describeError(cause))
  }
}

const isRegularFile = (name: string): boolean => {
  try {
    return statSync(name).isFile()
  } catch {
    // Missing or unreadable: opening it tells why.
    return false
  }
}

const openRegularFile = (name: string): OpenedInput => {
  let fd: number
  try {
    fd = openSync(name, "r")
  } catch (cause) {
    throw new UnreadableInput(name, describeError(cause))
  }
  let size: number
  try {
    size = fstatSync(fd).size
  } catch (cause) {
    closeSync(fd)
    throw new UnreadableInput(name, describeError(cause))
  }
  let closed = false
  const close = (): void => {
    if (closed) return
    closed = true
    closeSync(fd)
  }
  return { chunks: readReusingSync(fd, size, close), size, file: { fd, size, close: () => Promise.resolve(close()) } }
}

/** {@link readReusing} of a regular file, with blocking reads (see {@link openInput}). */
async function* readReusingSync(fd: number, size: number, close: () => void): AsyncGenerator<Uint8Array> {
  const buffer = Buffer.allocUnsafeSlow(Math.max(1, Math.min(READ_CHUNK_BYTES, size + 1)))
  try {
    for (;;) {
      const bytesRead = readSync(fd, buffer, 0, buffer.length, null)
      if (bytesRead === 0) return
      yield buffer.subarray(0, bytesRead)
    }
  } finally {
    close()
  }
}

/**
 * Reads a file into one buffer, over and over: each chunk is valid only until the next is asked for.
 * A read stream would allocate a fresh buffer per read, which piles up outside the heap faster than a
 * thread that barely allocates otherwise collects it.
 */
async function* readReusing(handle: FileHandle, size: number | undefined): AsyncGenerator<Uint8Array> {
  // No larger than the file (a byte more, to see its end in one read): an archive of thousands of small
  // files would otherwise allocate a megabyte per file, and keep the collector busy freeing them.
  const buffer = Buffer.allocUnsafeSlow(size === undefined ? READ_CHUNK_BYTES : Math.max(1, Math.min(READ_CHUNK_BYTES, size + 1)))
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null)
      if (bytesRead === 0) return
      yield buffer.subarray(0, bytesRead)
    }
  } finally {
    await handle.close()
  }
}

const isSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d

/**
 * Tells a JSON document on stdin from NDJSON by its first characters: `[` starts a JSON array, and a
 * `{` alone on its line starts a pretty-printed object (an NDJSON record never spans lines); anything
 * else is NDJSON. Reads only as far as that takes and hands back every byte read, then the rest.
 */
export const sniffStdin = async (chunks: AsyncIterable<Uint8Array>): Promise<{ kind: "json" | "ndjson"; chunks: AsyncIterable<Uint8Array> }> => {
  const iterator = chunks[Symbol.asyncIterator]()
  const held: Array<Uint8Array> = []
  let kind: "json" | "ndjson" | undefined
  let state: "start" | "afterBrace" = "start"
  let offset = 0
  let ended = false
  while (kind === undefined) {
    const next = await iterator.next()
    if (next.done === true) {
      ended = true
      kind = state === "afterBrace" ? "json" : "ndjson"
      break
    }
    // Chunks of a file are reused by the reader: keep a copy.
    const chunk = Uint8Array.prototype.slice.call(next.value)
    held.push(chunk)
    for (let i = 0; i < chunk.length && kind === undefined; i++, offset++) {
      const b = chunk[i]!
      const bom = offset < 3 && b === [0xef, 0xbb, 0xbf][offset]
      if (state === "start") {
        if (isSpace(b) || bom) continue
        if (b === 0x5b) kind = "json"
        else if (b === 0x7b) state = "afterBrace"
        else kind = "ndjson"
      } else if (b === 0x0a) kind = "json"
      else if (!isSpace(b)) kind = "ndjson"
    }
  }
  async function* replay(): AsyncGenerator<Uint8Array> {
    yield* held
    if (ended) return
    for (;;) {
      const next = await iterator.next()
      if (next.done === true) return
      yield next.value
    }
  }
  return { kind, chunks: replay() }
}

/** Reads an input's chunks; a read error on the way becomes an {@link UnreadableInput}. */
export async function* readChunks(name: string, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of chunks) yield chunk
  } catch (cause) {
    throw new UnreadableInput(name, describeError(cause))
  }
}

/**
 * The size of an input for progress, when it is a regular file (`undefined` for stdin and anything else).
 * Read from the path without opening it: a FIFO or a device can be opened and read once only, by
 * {@link openInput}.
 */
export const sizeOf = async (name: string): Promise<number | undefined> => {
  if (name === "-") return undefined
  try {
    const info = await stat(name)
    return info.isFile() ? info.size : undefined
  } catch {
    return undefined
  }
}

/** Text is gathered into writes of about this size: one write per record would cost more than the record. */
const WRITE_BUFFER_CHARS = 64 * 1024

/** A destination for text and bytes that gathers small writes and tells when to slow down. */
export class Output {
  private waiting: Promise<void> | undefined
  private failed: Error | undefined
  private pending = ""

  constructor(readonly stream: Writable, private readonly name: string) {
    stream.on("error", (error: Error) => {
      this.failed = error
    })
  }

  /** Writes (buffered); call {@link drained} now and then so the writes cannot pile up. */
  write(data: string | Uint8Array): void {
    if (this.failed !== undefined) throw ioError(`cannot write ${this.name}: ${describeError(this.failed)}`)
    if (typeof data === "string") {
      this.pending += data
      if (this.pending.length >= WRITE_BUFFER_CHARS) this.flush()
      return
    }
    this.flush()
    this.send(data)
  }

  /** Whether the destination asked to slow down: await {@link drained} before writing more. */
  get full(): boolean {
    return this.waiting !== undefined
  }

  /** Resolves when the destination has taken what was written so far, up to the buffer (at once when it has). */
  async drained(): Promise<void> {
    if (this.waiting !== undefined) await this.waiting
    if (this.failed !== undefined) throw ioError(`cannot write ${this.name}: ${describeError(this.failed)}`)
  }

  /** Flushes and closes (stdout and stderr are flushed, not closed). */
  async close(): Promise<void> {
    this.flush()
    await this.drained()
    const stream = this.stream
    await new Promise<void>((resolve) => {
      if (stream === process.stdout || stream === process.stderr) stream.write("", () => resolve())
      else stream.end(() => resolve())
    })
    if (this.failed !== undefined) throw ioError(`cannot write ${this.name}: ${describeError(this.failed)}`)
  }

  private flush(): void {
    if (this.pending === "") return
    const text = this.pending
    this.pending = ""
    this.send(text)
  }

  private send(data: string | Uint8Array): void {
    if (!this.stream.write(data) && this.waiting === undefined) {
      this.waiting = new Promise<void>((resolve) => {
        const done = (): void => {
          this.stream.off("drain", done)
          this.stream.off("error", done)
          this.stream.off("close", done)
          this.waiting = undefined
          resolve()
        }
        this.stream.on("drain", done)
        this.stream.on("error", done)
        this.stream.on("close", done)
      })
    }
  }
}

/** Opens a file for writing (created or truncated); failure is an I/O error (exit 3). */
export const openOutput = async (path: string): Promise<Output> => {
  try {
    const handle = await open(path, "w")
    return new Output(handle.createWriteStream(), path)
  } catch (cause) {
    throw ioError(`cannot write ${path}: ${describeError(cause)}`)
  }
}
