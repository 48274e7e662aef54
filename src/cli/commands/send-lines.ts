/**
 * `send`'s reading of its input: the non-blank physical lines of NDJSON files, split and decoded as
 * `validate` and `map` do (a line feed ends a line, a carriage return before it is dropped, a bare one
 * is part of the line; a byte order mark at the start is dropped; a line that is not UTF-8 is passed on
 * as undecodable, never dropped).
 *
 * @module
 */
import { createReadStream } from "node:fs"
import type { SourceLine } from "../../index.js"
import { physicalLines } from "../../readers/index.js"

/** The lines of `files`, in order, each with its file and physical line number. */
export async function* sourceLines(files: ReadonlyArray<string>, onBytes?: (n: number) => void): AsyncGenerator<SourceLine> {
  for (const file of files) {
    const stream = createReadStream(file)
    const counted = async function*(): AsyncGenerator<Uint8Array> {
      for await (const chunk of stream) {
        onBytes?.((chunk as Buffer).length)
        yield chunk as Buffer
      }
    }
    try {
      for await (const lines of physicalLines(counted(), "utf-8")) {
        for (const line of lines) {
          if (line.text.trim() === "") continue
          yield { file, line: line.line, text: line.text, undecodable: "undecodable" in line }
        }
      }
    } finally {
      stream.destroy()
    }
  }
}
