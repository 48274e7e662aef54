/**
 * `data-import send`: sends the records of NDJSON files with the campaign's ledger (`--journal FILE`),
 * through the library's send engine (`sendRecords`). This command reads options, opens the ledger,
 * reads the files, turns signals into a clean stop, and prints the report.
 *
 * @module
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs"
import { resolve } from "node:path"
import {
  type Client,
  createClient,
  ENDPOINT_IDS,
  InsecureBaseUrlError,
  isPostEndpointId,
  type Ledger,
  LedgerDamagedError,
  LedgerMismatchError,
  openLedger,
  sendRecords
} from "../../index.js"
import { authenticate, type Credentials, readCredentials, secretsOf } from "../credentials.js"
import { CliError, describeError, EXIT, type ExitCode, ioError, usageError, validateInputKind } from "../../readers/index.js"
import { documentsFolder } from "../documents-option.js"
import { checkLedgerPath } from "../ledger-path.js"
import { damagedLedgerAdvice } from "../../ledger/index.js"
import { refuseOverwritingInputs } from "../output-paths.js"
import { startProgress } from "../progress.js"
import { sourceLines } from "./send-lines.js"
import { report, type ReportOptions } from "./send-report.js"

/** Options of `send`, as parsed. */
export interface SendCommandOptions extends ReportOptions {
  readonly baseUrl: string
  readonly concurrency: number
  readonly endpoint?: string | undefined
  readonly rate?: number | undefined
  readonly dryRun?: boolean | undefined
  readonly resendInDoubt?: boolean | undefined
  readonly forceAddToCurrentStatement?: boolean | undefined
  /** commander's `--no-check-previously-added`: `false` when given. */
  readonly checkPreviouslyAdded?: boolean | undefined
  readonly newBaseUrl?: boolean | undefined
  /** Create the ledger when it does not exist: a new campaign. */
  readonly newLedger?: boolean | undefined
  readonly failOnWarnings?: boolean | undefined
  readonly allowInsecureHttp?: boolean | undefined
  readonly maxAttempts: number
  readonly timeout?: number | undefined
  readonly documents?: string | undefined
}

export { API_KEY_VARIABLE, TOKEN_VARIABLE } from "../credentials.js"

/**
 * SQLite's own errors (a corrupt file, a full disk) end the run as an I/O error with SQLite's reason; a
 * damaged ledger's message points to its recovery.
 */
const ledgerError = (path: string, error: unknown): unknown => {
  if (error instanceof LedgerMismatchError) return usageError(error.message)
  if (error instanceof LedgerDamagedError) return ioError(error.message)
  const code = (error as { code?: unknown } | undefined)?.code
  const message = String((error as Error | undefined)?.message)
  if (/malformed|corrupt/iu.test(message)) return ioError(`the ledger ${path}: ${describeError(error)}; ${damagedLedgerAdvice(path)}`)
  if (code === "ERR_SQLITE_ERROR" || /sqlite|database|disk/iu.test(message)) {
    return ioError(`the ledger ${path}: ${describeError(error)}`)
  }
  return error
}

const makeClient = (options: SendCommandOptions, credentials: Credentials): Client => {
  try {
    return createClient({
      baseUrl: options.baseUrl,
      ...credentials,
      allowInsecureHttp: options.allowInsecureHttp === true,
      retry: { maxAttempts: options.maxAttempts },
      ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout * 1000 }),
      ...(options.rate === undefined ? {} : { requestsPerSecond: options.rate })
    })
  } catch (error) {
    if (error instanceof InsecureBaseUrlError) throw usageError(`${error.message} (--allow-insecure-http)`)
    if (error instanceof TypeError) throw usageError(`--base-url: ${secretsOf(credentials).reduce((m, s) => m.replaceAll(s, "…"), error.message)}`)
    throw error
  }
}

/** The first SIGINT or SIGTERM stops starting requests; a second one ends the process at once. */
const stopOnSignals = (controller: AbortController): { readonly signal: () => NodeJS.Signals | undefined; readonly remove: () => void } => {
  let received: NodeJS.Signals | undefined
  const handler = (signal: NodeJS.Signals): void => {
    if (received !== undefined) {
      process.stderr.write(`data-import: ${signal} again: stopping now; the requests in flight are in doubt\n`)
      process.exit(signal === "SIGINT" ? EXIT.interrupted : EXIT.terminated)
    }
    received = signal
    process.stderr.write(`data-import: ${signal}: no new requests; waiting for the answers in flight (${signal} again stops at once)\n`)
    controller.abort()
  }
  process.on("SIGINT", handler)
  process.on("SIGTERM", handler)
  return {
    signal: () => received,
    remove: () => {
      process.off("SIGINT", handler)
      process.off("SIGTERM", handler)
    }
  }
}

/** The most of a file's start read to find its first line. */
const FIRST_LINE_BYTES = 1 << 16

/**
 * Which of the files written beside the payloads (map's rejects and lineage, send's results) a first
 * line is, if it is one: their lines name no endpoint, and sent they would stay in the ledger as
 * invalid lines that named no record.
 */
const sideFileOf = (line: string): string | undefined => {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return undefined
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined
  const o = value as Record<string, unknown>
  if (typeof o["file"] === "string" && Array.isArray(o["lines"]) && Array.isArray(o["errors"])) return "map's --rejects"
  if (typeof o["payload"] === "number" && Array.isArray(o["lines"])) return "map's --lineage"
  if (typeof o["file"] === "string" && typeof o["line"] === "number" && "outcome" in o) return "send's --results"
  return undefined
}

/** The first line of a file that is not blank, when it is within its first {@link FIRST_LINE_BYTES}. */
const firstLineOf = (fd: number): string | undefined => {
  const buffer = Buffer.alloc(FIRST_LINE_BYTES)
  const read = readSync(fd, buffer, 0, buffer.length, 0)
  const lines = buffer.subarray(0, read).toString("utf8").replace(/^\uFEFF/u, "").split("\n")
  // The last piece may be cut off by the buffer, unless the file ends there.
  const complete = read < FIRST_LINE_BYTES ? lines : lines.slice(0, -1)
  return complete.find((l) => l.trim() !== "")
}

/**
 * Every input is opened once before the first request (exit 3, naming the file): a file found missing
 * halfway would end the run with part of the campaign sent and the run left open in the ledger. A file
 * of map's rejects or lineage, or of send's results, given by mistake for the payloads, is refused (exit 2).
 */
const checkReadable = (names: ReadonlyArray<string>): void => {
  for (const name of names) {
    let fd: number
    try {
      fd = openSync(name, "r")
    } catch (error) {
      throw ioError(`cannot read ${name}: ${describeError(error)}`)
    }
    try {
      if (fstatSync(fd).isDirectory()) throw ioError(`cannot read ${name}: is a directory`)
      const first = firstLineOf(fd)
      const side = first === undefined ? undefined : sideFileOf(first)
      if (side !== undefined) {
        throw usageError(`${name} is ${side} file, not payloads: its first line is no record to send; send the payloads (map's --out)`)
      }
    } catch (error) {
      if (error instanceof CliError) throw error
      throw ioError(`cannot read ${name}: ${describeError(error)}`)
    } finally {
      closeSync(fd)
    }
  }
}

/** Runs `send` and returns its exit code. */
export const runSend = async (names: ReadonlyArray<string>, options: SendCommandOptions): Promise<ExitCode> => {
  if (options.endpoint !== undefined && !isPostEndpointId(options.endpoint)) {
    throw usageError(`unknown endpoint ${options.endpoint}: use one of ${ENDPOINT_IDS.join(", ")}`)
  }
  if (names.includes("-")) throw usageError("send reads files, not stdin: a resumable run needs an input it can read again")
  const notNdjson = names.find((name) => validateInputKind(name) !== "ndjson")
  if (notNdjson !== undefined) throw usageError(`${notNdjson}: send reads NDJSON files (.ndjson, .jsonl), one payload per line, as map writes them`)
  refuseOverwritingInputs([{ flag: "--journal", path: options.journal }, { flag: "--results", path: options.results }], names)
  checkReadable(names)
  checkLedgerPath(options.journal, { create: true, newLedger: options.newLedger === true })
  const dryRun = options.dryRun === true
  // A dry run checks the base URL as a real run would, with a stand-in token: it sends nothing.
  const credentials = dryRun ? { token: "dry-run" } : readCredentials()
  const client = makeClient(options, credentials)
  const service = new URL(options.baseUrl).href
  // The first token before the ledger is opened: a refused key ends the run before anything is sent.
  if (!dryRun) await authenticate(client)
  const files = names.map((name) => resolve(name))
  const documents = documentsFolder(options.documents)

  let ledger: Ledger
  try {
    ledger = openLedger(options.journal, { service, allowNewService: options.newBaseUrl === true, readOnly: dryRun })
  } catch (error) {
    throw ledgerError(options.journal, error)
  }
  const controller = new AbortController()
  const signals = stopOnSignals(controller)
  let bytesRead = 0
  let lines = 0
  const progress = startProgress(process.stderr, () => ({ records: lines, bytesRead, totalBytes: undefined }))
  try {
    const summary = await sendRecords(sourceLines(files, (n) => (bytesRead += n)), {
      ledger,
      client: dryRun ? undefined : client,
      service,
      concurrency: options.concurrency,
      endpoint: options.endpoint as never,
      resendInDoubt: options.resendInDoubt === true,
      forceAddToCurrentStatement: options.forceAddToCurrentStatement === true,
      checkPreviouslyAdded: options.checkPreviouslyAdded !== false,
      failOnWarnings: options.failOnWarnings === true,
      checkDocuments: documents?.missing,
      secrets: dryRun ? [] : secretsOf(credentials),
      signal: controller.signal,
      onProgress: (p) => (lines = p.lines),
      command: "send",
      runOptions: {
        files: names,
        endpoint: options.endpoint ?? null,
        force_add_to_current_statement: options.forceAddToCurrentStatement === true,
        check_previously_added: options.checkPreviouslyAdded !== false
      }
    })
    progress.stop()
    const code = await report(summary, ledger, options, names)
    const signal = signals.signal()
    return signal === undefined ? code : signal === "SIGINT" ? EXIT.interrupted : EXIT.terminated
  } catch (error) {
    progress.stop()
    if (error instanceof CliError) throw error
    throw ledgerError(options.journal, error)
  } finally {
    signals.remove()
    try {
      ledger.close()
    } catch (error) {
      // Closing a ledger whose disk is full can fail too: the reason was reported above.
      process.stderr.write(`data-import: closing the ledger: ${describeError(error)}\n`)
    }
  }
}
