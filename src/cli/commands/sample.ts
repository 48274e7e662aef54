/**
 * `data-import sample ID`: generated payloads as NDJSON, from the testing kit. The kit (and fast-check,
 * an optional peer dependency) is loaded only here, and only when the command runs.
 *
 * @module
 */
import { ENDPOINT_IDS, endpoints, isEndpointId, type PostEndpointId } from "../../index.js"
import { CliError, EXIT, type ExitCode, usageError } from "../exit-codes.js"
import { Output } from "../io.js"

type TestingKit = typeof import("../../testing/index.js")
type FastCheck = typeof import("fast-check")

// Through variables, so bundlers leave them as runtime imports of the installed packages: the kit's
// own entry (`data-import-payloads/testing`) and fast-check, which the kit needs.
const KIT = "data-import-payloads/testing"
const FAST_CHECK = "fast-check"

const load = async (): Promise<{ kit: TestingKit; fc: FastCheck }> => {
  try {
    const fcModule = (await import(FAST_CHECK)) as FastCheck & { default?: FastCheck }
    const kit = (await import(KIT)) as TestingKit
    return { kit, fc: fcModule.default ?? fcModule }
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code
    const missing = code === "ERR_MODULE_NOT_FOUND" && String((cause as Error).message).includes("fast-check")
    throw new CliError(EXIT.usage, missing
      ? "sample needs fast-check, an optional peer dependency that is not installed: npm install --save-dev fast-check"
      : `cannot load the testing kit (${KIT}): ${cause instanceof Error ? cause.message : String(cause)}`)
  }
}

/** Prints `count` generated payloads (valid, or with exactly one error each), one per line. */
export const runSample = async (
  id: string,
  options: { readonly count: number; readonly seed?: number | undefined; readonly invalid?: boolean | undefined }
): Promise<ExitCode> => {
  const post = ENDPOINT_IDS.filter((e) => endpoints[e].method === "POST")
  if (!isEndpointId(id) || endpoints[id].method !== "POST") {
    throw usageError(`sample needs the id of a POST endpoint: one of ${post.join(", ")}`)
  }
  const endpoint = id as PostEndpointId
  const { kit, fc } = await load()
  const parameters = { numRuns: options.count, ...(options.seed !== undefined ? { seed: options.seed } : {}) }
  const out = new Output(process.stdout, "stdout")
  if (options.invalid === true) {
    for (const sample of fc.sample(kit.arbitraryInvalidPayload(endpoint), parameters)) {
      out.write(`${JSON.stringify(sample.payload)}\n`)
      process.stderr.write(`expected: ${JSON.stringify(sample.expected)}\n`)
      await out.drained()
    }
  } else {
    for (const payload of fc.sample(kit.arbitraryPayload(endpoint), parameters)) {
      out.write(`${JSON.stringify(payload)}\n`)
      await out.drained()
    }
  }
  await out.close()
  return EXIT.ok
}
