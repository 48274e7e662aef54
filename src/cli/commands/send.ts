/**
 * `data-import send`: validates every record of NDJSON files and sends the valid ones to the service,
 * with a journal (`--journal FILE`) that makes the run resumable: a record whose outcome is known is
 * never sent again, and a record whose outcome is unknown (in flight when a run died, or its connection
 * broke after sending) is sent again only where a repeat is harmless by the service's rules.
 *
 * @module
 */
import { resolve } from "node:path"
import { type Client, createClient, ENDPOINT_IDS, InsecureBaseUrlError, isEndpointId } from "../../index.js"
import { type Journal, JournalMismatchError, openJournal } from "../../client/journal.js"
import { isHeaderSafe } from "../../client/build-request.js"
import { describeError, type ExitCode, ioError, usageError } from "../exit-codes.js"
import { validateInputKind } from "../io.js"
import { refuseOverwritingInputs } from "../output-paths.js"
import { digestOf } from "./send-records.js"
import { type RunOptions, sendAll } from "./send-run.js"

/**
 * Options of `send`, as parsed: those of the run, its plan and its report (`RunOptions`, declared where
 * they are used) and those of the client.
 */
export interface SendCommandOptions extends RunOptions {
  readonly baseUrl: string
  readonly rate?: number | undefined
  readonly dryRun?: boolean | undefined
  readonly allowInsecureHttp?: boolean | undefined
  readonly maxAttempts: number
}

/** The environment variable that holds the token (never an argument: arguments are visible to every user of the machine). */
export const TOKEN_VARIABLE = "DATA_IMPORT_TOKEN"

/** Runs `send` and returns its exit code. */
export const runSend = async (names: ReadonlyArray<string>, options: SendCommandOptions): Promise<ExitCode> => {
  if (options.endpoint !== undefined && !isEndpointId(options.endpoint)) {
    throw usageError(`unknown endpoint ${options.endpoint}: use one of ${ENDPOINT_IDS.join(", ")}`)
  }
  if (names.includes("-")) throw usageError("send reads files, not stdin: a resumable run needs an input it can read again")
  const notNdjson = names.find((name) => validateInputKind(name) !== "ndjson")
  if (notNdjson !== undefined) throw usageError(`${notNdjson}: send reads NDJSON files (.ndjson, .jsonl), one payload per line, as map writes them`)
  const files = names.map((name) => resolve(name))
  const twice = files.find((file, i) => files.indexOf(file) !== i)
  if (twice !== undefined) throw usageError(`${twice} is given twice: each record must be sent once`)
  refuseOverwritingInputs([{ flag: "--journal", path: options.journal }, { flag: "--results", path: options.results }], names)
  const token = process.env[TOKEN_VARIABLE] ?? ""
  if (options.dryRun !== true && token === "") throw usageError(`the token comes from the environment variable ${TOKEN_VARIABLE}, which is not set`)
  if (options.dryRun !== true && !isHeaderSafe(token)) throw usageError(`${TOKEN_VARIABLE} holds characters a header cannot carry (spaces, line breaks, non-ASCII)`)

  let client: Client | undefined
  try {
    client = options.dryRun === true ? undefined : createClient({
      baseUrl: options.baseUrl,
      token,
      allowInsecureHttp: options.allowInsecureHttp === true,
      retry: { maxAttempts: options.maxAttempts },
      ...(options.rate === undefined ? {} : { requestsPerSecond: options.rate })
    })
  } catch (error) {
    if (error instanceof InsecureBaseUrlError) throw usageError(`${error.message} (--allow-insecure-http)`)
    if (error instanceof TypeError) throw usageError(`--base-url: ${error.message.replace(token, "…")}`)
    throw error
  }

  const digests = []
  for (const file of files) {
    try {
      digests.push({ file, ...(await digestOf(file)) })
    } catch (cause) {
      throw ioError(`cannot read ${file}: ${describeError(cause)}`)
    }
  }

  let journal: Journal | undefined
  // A file the journal has never seen has no entries: its records need no look-up.
  const newFiles = new Set<string>()
  if (options.dryRun !== true) {
    try {
      journal = openJournal(options.journal, { service: new URL(options.baseUrl).href })
      for (const d of digests) if (journal.checkFile(d.file, d.sha256, d.size) === "new") newFiles.add(d.file)
    } catch (error) {
      journal?.close()
      if (error instanceof JournalMismatchError) throw usageError(error.message)
      throw ioError(`cannot open the journal ${options.journal}: ${describeError(error)}`)
    }
  }

  try {
    return await sendAll(files, options, client, journal, newFiles, digests.reduce((n, d) => n + d.size, 0))
  } catch (error) {
    if (error instanceof JournalMismatchError) throw usageError(error.message)
    throw error
  } finally {
    journal?.close()
  }
}
