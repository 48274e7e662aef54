// (a) of bench/edifact.mjs: npm edifact's parser over a file, read in the stream's chunks (Latin-1), as a
// process of its own. `segments` builds each segment from the parser's events (tag, elements, components:
// what our reader gives, less positions); `events` only counts segments (nothing is built). Prints the
// number of segments.
import { createReadStream } from "node:fs"
import { createRequire } from "node:module"

const require = createRequire(import.meta.url)
const Parser = require("edifact/parser.js")

const [file, mode = "segments"] = process.argv.slice(2)
const parser = new Parser()
parser.encoding("UNOC")
let count = 0
if (mode === "events") parser.on("opensegment", () => count++)
else {
  const segments = []
  let segment
  let element
  parser.on("opensegment", (tag) => {
    segment = { tag, elements: [] }
  })
  parser.on("element", () => {
    element = []
    segment.elements.push(element)
  })
  parser.on("component", (data) => element.push(data))
  parser.on("closesegment", () => {
    // Held as a reader's consumer would take them, a chunk's worth at a time.
    segments.push(segment)
    if (segments.length >= 1000) segments.length = 0
    count++
  })
}
for await (const chunk of createReadStream(file)) parser.write(chunk.toString("latin1"))
parser.end()
console.log(count)
