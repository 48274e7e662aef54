/**
 * npm `edifact` (devDependency) as a test oracle: the segments and elements its streaming parser reads.
 */
import { createRequire } from "node:module"

const require = createRequire(import.meta.url)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Parser = require("edifact/parser.js") as new () => {
  encoding(level: string): void
  on(event: string, listener: (data: string) => void): void
  write(chunk: string): void
  end(): void
}

export interface OracleSegment {
  readonly tag: string
  readonly elements: Array<Array<string>>
}

/** The segments `edifact` reads from Latin-1 text (charset UNOC), written in chunks of `chunkSize`. */
export const oracleSegments = (text: string, chunkSize = text.length): Array<OracleSegment> => {
  const parser = new Parser()
  parser.encoding("UNOC")
  const out: Array<OracleSegment> = []
  let elements: Array<Array<string>> = []
  parser.on("opensegment", (tag) => {
    elements = []
    out.push({ tag, elements })
  })
  parser.on("element", () => {
    elements.push([])
  })
  parser.on("component", (data) => {
    elements[elements.length - 1]!.push(data)
  })
  // edifact looks for a UNA in the first chunk only: it gets at least the 9 characters of one.
  const first = Math.max(9, chunkSize)
  parser.write(text.slice(0, first))
  for (let i = first; i < text.length; i += Math.max(1, chunkSize)) parser.write(text.slice(i, i + Math.max(1, chunkSize)))
  parser.end()
  return out
}
