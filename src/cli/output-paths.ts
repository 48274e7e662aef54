/**
 * Refuses to write over an input: an output path that names an input file (the same path, or the same
 * file through another name) would empty the input before it is read.
 *
 * @module
 */
import { statSync } from "node:fs"
import { resolve } from "node:path"
import { usageError } from "../readers/index.js"

const identity = (path: string): string => {
  try {
    const stat = statSync(path)
    return `${stat.dev}:${stat.ino}`
  } catch {
    return `path:${resolve(path)}`
  }
}

/**
 * Throws a usage error (exit 2) when an output names an input or another output. Call it before anything
 * is opened for writing. `-` (stdin, stdout) is never a file.
 */
export const refuseOverwritingInputs = (
  outputs: ReadonlyArray<{ readonly flag: string; readonly path: string | undefined }>,
  inputs: ReadonlyArray<string>
): void => {
  const inputIds = new Map(inputs.filter((i) => i !== "-").map((i) => [identity(i), i]))
  const outputIds = new Map<string, string>()
  for (const { flag, path } of outputs) {
    if (path === undefined || path === "-") continue
    const id = identity(path)
    const input = inputIds.get(id)
    if (input !== undefined) throw usageError(`${flag} ${path} is the input ${input}: writing it would destroy the input; choose another file`)
    const other = outputIds.get(id)
    if (other !== undefined) throw usageError(`${flag} ${path} is also the file of ${other}: choose another file`)
    outputIds.set(id, `${flag} ${path}`)
  }
}
