/**
 * Splits a `.json` file (one payload, or an array of payloads) into its records as it streams: a byte
 * scanner that follows strings and nesting only, and cuts the top-level array at its commas. Each
 * record keeps the line and column where it starts; `JSON.parse` (in a worker) then judges each one,
 * so a broken element spoils only itself. Memory stays bounded by the largest record.
 *
 * @module
 */

/** One record of a JSON document, in file order. */
export type JsonPiece =
  /** The text of one value (an array element, or the whole document), as UTF-8 bytes. */
  | { readonly kind: "value"; readonly bytes: Uint8Array; readonly line: number; readonly column: number }
  /** A value larger than the maximum: reported, not kept. */
  | { readonly kind: "overlong"; readonly length: number; readonly line: number; readonly column: number }
  /**
   * The document's own structure is broken here: reported as one unparseable record. Outside any element
   * it is a record of its own; when the file ends inside an element, it is that element's record, and
   * `element` holds its text (unless it was too long to keep).
   */
  | { readonly kind: "broken"; readonly message: string; readonly line: number; readonly column: number; readonly element?: Uint8Array }

const enum Mode {
  /** Before the first value: whitespace and a byte order mark. */
  Start,
  /** Inside the top-level array, between elements: expecting a value (or `]` right after `[`). */
  ArrayValue,
  /** Inside the top-level array, after an element: expecting `,` or `]`. */
  ArrayNext,
  /** The whole document is one value (not an array): everything up to the end belongs to it. */
  Single,
  /** After the top-level array: only whitespace may follow. */
  After,
  /** The structure broke: the rest is ignored. */
  Stopped
}

const isWhitespace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d

/** Scans a JSON document in chunks and returns its records as they complete. */
export class JsonDocumentSplitter {
  private mode = Mode.Start
  private line = 1
  private column = 1
  private offset = 0
  // The element being read: its parts, size, start position, nesting depth and string state.
  private parts: Array<Uint8Array> = []
  private size = 0
  private startLine = 0
  private startColumn = 0
  private depth = 0
  private inString = false
  private escaped = false
  private inElement = false
  private overlong = false
  private emptyArray = true

  constructor(private readonly maxValueBytes: number) {}

  /** Takes the next bytes of the file; returns the records that are complete. */
  push(chunk: Uint8Array): Array<JsonPiece> {
    const out: Array<JsonPiece> = []
    let elementFrom = 0
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!
      if (this.inElement) {
        if (this.inString) {
          if (this.escaped) this.escaped = false
          else if (b === 0x5c) this.escaped = true
          else if (b === 0x22) this.inString = false
        } else if (b === 0x22) {
          this.inString = true
        } else if (b === 0x7b || b === 0x5b) {
          this.depth++
        } else if ((b === 0x7d || b === 0x5d) && this.depth > 0) {
          this.depth--
        } else if (this.depth === 0 && this.mode !== Mode.Single && (b === 0x2c || b === 0x5d)) {
          // The element ends before this comma or bracket.
          this.keep(chunk.subarray(elementFrom, i))
          out.push(this.finishElement())
          this.mode = Mode.ArrayNext
          i-- // read the comma or bracket again, between elements
          continue
        }
        this.advance(b)
        continue
      }
      switch (this.mode) {
        case Mode.Start:
          if (this.offset === 0 && b === 0xef && chunk[i + 1] === 0xbb && chunk[i + 2] === 0xbf) {
            i += 2
            this.offset += 3
            continue
          }
          if (isWhitespace(b)) break
          if (b === 0x5b) {
            this.mode = Mode.ArrayValue
            this.emptyArray = true
            break
          }
          this.mode = Mode.Single
          elementFrom = i
          this.startElement()
          i--
          continue
        case Mode.ArrayValue:
          if (isWhitespace(b)) break
          if (b === 0x5d && this.emptyArray) {
            this.mode = Mode.After
            break
          }
          if (b === 0x2c || b === 0x5d) {
            // A value is missing (`[1,,2]`, `[1,]`); after `]` the array is closed all the same.
            out.push(this.broken(`Expected a value, found '${String.fromCharCode(b)}'`))
            if (b === 0x5d) this.mode = Mode.After
            break
          }
          this.emptyArray = false
          elementFrom = i
          this.startElement()
          i--
          continue
        case Mode.ArrayNext:
          if (isWhitespace(b)) break
          if (b === 0x2c) {
            this.mode = Mode.ArrayValue
            this.emptyArray = false
            break
          }
          if (b === 0x5d) {
            this.mode = Mode.After
            break
          }
          // Two values without a comma: the broken record is the second one, where the comma is missing.
          out.push(this.broken(`Expected ',' or ']' after an array element, found ${describe(b)}`))
          this.mode = Mode.Stopped
          break
        case Mode.After:
          if (isWhitespace(b)) break
          out.push(this.broken(`Unexpected ${describe(b)} after the end of the array`))
          this.mode = Mode.Stopped
          break
        case Mode.Stopped:
          return out
        case Mode.Single:
          break
      }
      this.advance(b)
    }
    if (this.inElement) this.keep(chunk.subarray(elementFrom))
    return out
  }

  /**
   * Ends the file: the last record, and a report when the array was never closed. A file that ends inside
   * an array element is cut there: the element is one record, the cut, located where the file ends (it is
   * not also a record of its own, so the records are the elements present).
   */
  end(): Array<JsonPiece> {
    const out: Array<JsonPiece> = []
    if (this.inElement && this.mode === Mode.ArrayValue) {
      const last = this.finishElement()
      out.push({
        ...this.broken("Unexpected end of the file inside an element: the array is not closed with ']'"),
        ...(last.kind === "value" ? { element: last.bytes } : {})
      })
    } else {
      if (this.inElement) out.push(this.finishElement())
      if (this.mode === Mode.ArrayValue || this.mode === Mode.ArrayNext) {
        out.push(this.broken("Unexpected end of the file: the array is not closed with ']'"))
      }
    }
    this.mode = Mode.Stopped
    return out
  }

  private startElement(): void {
    this.inElement = true
    this.parts = []
    this.size = 0
    this.depth = 0
    this.inString = false
    this.escaped = false
    this.overlong = false
    this.startLine = this.line
    this.startColumn = this.column
  }

  private keep(bytes: Uint8Array): void {
    if (this.overlong || bytes.length === 0) {
      this.size += bytes.length
      return
    }
    this.size += bytes.length
    if (this.size > this.maxValueBytes) {
      this.overlong = true
      this.parts = []
      return
    }
    // A copy (Buffer#slice would share memory): the reader reuses its buffer for the next chunk.
    this.parts.push(Uint8Array.prototype.slice.call(bytes))
  }

  private finishElement(): JsonPiece {
    this.inElement = false
    if (this.overlong) return { kind: "overlong", length: this.size, line: this.startLine, column: this.startColumn }
    const bytes = new Uint8Array(this.size)
    let at = 0
    for (const part of this.parts) {
      bytes.set(part, at)
      at += part.length
    }
    this.parts = []
    return { kind: "value", bytes, line: this.startLine, column: this.startColumn }
  }

  private broken(message: string): JsonPiece {
    return { kind: "broken", message, line: this.line, column: this.column }
  }

  private advance(b: number): void {
    this.offset++
    if (b === 0x0a) {
      this.line++
      this.column = 1
    } else if ((b & 0xc0) !== 0x80) {
      // Count characters, not bytes: UTF-8 continuation bytes do not start a column.
      this.column++
    }
  }
}

const describe = (b: number): string => (b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `byte 0x${b.toString(16)}`)
