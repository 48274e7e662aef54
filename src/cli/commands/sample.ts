/**
 * `data-import sample ID`: generated payloads as NDJSON, from the testing kit. The kit (and fast-check,
 * an optional peer dependency) is loaded only here, and only when the command runs: the bundler puts the
 * kit in a chunk of its own, which imports fast-check.
 *
 * @module
 */
import { isPostEndpointId, POST_ENDPOINT_IDS } from "../../index.js"
import { CliError, EXIT, type ExitCode, Output, usageError } from "../../readers/index.js"

type TestingKit = typeof import("../../testing/index.js")

const loadKit = async (): Promise<TestingKit> => {
  try {
    return await import("../../testing/index.js")
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code
    const missing = code === "ERR_MODULE_NOT_FOUND" && String((cause as Error).message).includes("fast-check")
    throw new CliError(EXIT.usage, missing
      ? "sample needs fast-check, an optional peer dependency that is not installed: npm install --save-dev fast-check"
      : `cannot load the testing kit: ${cause instanceof Error ? cause.message : String(cause)}`)
  }
}

/** Prints `count` generated payloads (valid, or with exactly one error each), one per line. */
export const runSample = async (
  id: string,
  options: { readonly count: number; readonly seed?: number | undefined; readonly invalid?: boolean | undefined }
): Promise<ExitCode> => {
  if (!isPostEndpointId(id)) throw usageError(`sample needs the id of a POST endpoint: one of ${POST_ENDPOINT_IDS.join(", ")}`)
  const kit = await loadKit()
  const out = new Output(process.stdout, "stdout")
  for (const { payload, expected } of kit.samplePayloads(id, options)) {
    out.write(`${JSON.stringify(payload)}\n`)
    if (expected !== undefined) process.stderr.write(`expected: ${JSON.stringify(expected)}\n`)
    await out.drained()
  }
  await out.close()
  return EXIT.ok
}
