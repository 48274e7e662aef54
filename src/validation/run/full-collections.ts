/**
 * Full garbage collections of a worker's heap, one per so many bytes of JSON parsed. `JSON.parse` puts
 * short string values (quantities, codes, dates) into V8's string table, which only a full collection
 * empties, and V8 schedules those late in a heap whose objects are otherwise short-lived: without them a
 * validation worker's memory grew with the file (`bench/README.md`, "where the memory of `validate
 * --jobs 2` grows"). A full collection of a worker's small heap takes a few milliseconds.
 *
 * @module
 */
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

/** Bytes of JSON a worker parses between two full collections. */
export const BYTES_PER_FULL_COLLECTION = 64 * 2 ** 20

/**
 * V8's own full collection, or `undefined` where it cannot be had. `--expose-gc` set at run time reaches
 * the contexts made after it, so the function comes from a new context and no global changes.
 */
export const fullCollection = (): (() => void) | undefined => {
  try {
    setFlagsFromString("--expose-gc")
    const gc: unknown = runInNewContext("typeof gc === 'function' ? gc : undefined")
    return typeof gc === "function" ? () => void gc() : undefined
  } catch {
    return undefined
  }
}

/**
 * Counts the bytes parsed (`parsed(n)`) and calls `collect` each time `every` more have been.
 *
 * @example
 * let runs = 0
 * const parsed = collectEvery(100, () => runs++)
 * parsed(60)
 * parsed(60)
 * runs // => 1
 */
export const collectEvery = (every: number, collect: () => void): ((bytes: number) => void) => {
  let since = 0
  return (bytes) => {
    since += bytes
    if (since < every) return
    since = 0
    collect()
  }
}
