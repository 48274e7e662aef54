/**
 * `data-import status`: reads the status endpoints and lists the accounts that cannot take post-import
 * data yet (pending, in progress, unknown, or without an import process), so a team sees why a send got
 * 404s. It never gives an all-clear for what it cannot see: a supplier's status is not readable through
 * the API, so without a ledger it says so; with one, the supplier's records the ledger holds as not stored
 * (blocked, in doubt, not yet sent, to fix) are listed with what to do, and make the exit code 1.
 *
 * @module
 */
import { createClient, endpoints, InsecureBaseUrlError, pathParameterProblem, POST_ENDPOINT_IDS, type SendOutcome } from "../../index.js"
import { adviceOfOpen, readSupplierStanding, type SupplierStanding } from "../../report/index.js"
import { API_KEY_VARIABLE, authenticate, readCredentials, TOKEN_VARIABLE } from "../credentials.js"
import { checkLedgerPath } from "../ledger-path.js"
import { type CliError, EXIT, type ExitCode, ioError, Output, usageError } from "../../readers/index.js"

/** Options of `status`, as parsed. */
export interface StatusCommandOptions {
  readonly baseUrl: string
  readonly format: "text" | "json"
  readonly allowInsecureHttp?: boolean | undefined
  /** The campaign's ledger: what it knows of the supplier's records is added. */
  readonly journal?: string | undefined
}

/** The post-import endpoints by how they refuse an account that is not imported: the catalogue's 404, or a 400. */
const refusals = (): string => {
  const accountBodies = POST_ENDPOINT_IDS.filter((id) => (endpoints[id].naturalKey as { readonly account: boolean }).account)
  const with404 = accountBodies.filter((id) => 404 in endpoints[id].responses)
  const without = accountBodies.filter((id) => !(404 in endpoints[id].responses))
  return `404 on ${with404.join(", ")}; 400 account_not_found or import_process_does_not_exist on ${without.join(", ")}`
}

/** The ledger's word on the supplier, or `undefined` without --journal. */
const standingOf = (journal: string | undefined, supplier: string): SupplierStanding | undefined => {
  if (journal === undefined) return undefined
  try {
    return readSupplierStanding(journal, supplier)
  } catch (error) {
    throw ioError(`the ledger ${journal}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** Milliseconds since the epoch → "2025-01-31 14:05 UTC". */
const when = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`

const counted = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`

/**
 * What the API cannot tell: a supplier's status is not readable through it, and a paused (or complete)
 * supplier has no pending accounts and COMPLETED ones, while the service refuses every post-import record.
 */
const notChecked = (supplier: string): string =>
  `Not checked: whether the migration of ${supplier} is Ongoing: the API does not tell a supplier's status, and while it is Paused or Complete the service refuses every post-import record of it (blocked, supplier_not_ongoing). --journal LEDGER adds what the campaign's sends met.\n`

/** One account that is not ready, and why. */
interface NotReady {
  readonly external_account_number: string
  readonly status: "PENDING" | "IN_PROGRESS" | "UNKNOWN" | "NO_PROCESS"
}

/**
 * The service could not answer: an I/O error (exit 3). Refused credentials (a 401, also after a renewed
 * token) are a usage error (exit 2) that names the variable, as a refused API key is at the start: run
 * again with valid credentials. The service's reason is quoted (the client has redacted every secret).
 */
const failure = (what: string, outcome: SendOutcome, variable: string): CliError => {
  if (outcome.kind === "unauthorized") {
    const detail = (outcome.body as { detail?: unknown } | null)?.detail
    const said = typeof detail === "string" && detail !== "" ? `: ${detail.length > 200 ? `${detail.slice(0, 200)}…` : detail}` : ""
    return usageError(`${variable}: the service refused the credentials (401) asking for ${what}${said}`)
  }
  const why = outcome.kind === "failed" || outcome.kind === "in_doubt" ? outcome.reason : `status ${outcome.status} (${outcome.kind})`
  return ioError(`${what}: ${why}`)
}

/**
 * The supplier code and account numbers go into the status endpoints' paths: one that no path can carry
 * (blank, `.`, `..`) is a usage error before anything is asked, since the service cannot be asked about it.
 */
const checkPathParameters = (supplier: string, accounts: ReadonlyArray<string>): void => {
  for (const [what, value] of [["the supplier code", supplier], ...accounts.map((a) => ["the account number", a] as const)] as const) {
    const problem = pathParameterProblem(value)
    if (problem !== undefined) throw usageError(`${what} ${JSON.stringify(value)} is ${problem}: no URL can carry it, so the service cannot be asked about it`)
  }
}

/**
 * Runs `status` and returns its exit code: 0 when nothing known blocks the supplier's records (every account
 * asked about, or the supplier's every account, is imported and, with a ledger, every record of the
 * supplier in it is stored); 1 otherwise.
 */
export const runStatus = async (supplier: string, accounts: ReadonlyArray<string>, options: StatusCommandOptions): Promise<ExitCode> => {
  checkPathParameters(supplier, accounts)
  // A ledger named from the wrong folder is said to be missing before the service is asked anything.
  if (options.journal !== undefined) checkLedgerPath(options.journal, { create: false })
  const credentials = readCredentials()
  const variable = "apiKey" in credentials ? API_KEY_VARIABLE : TOKEN_VARIABLE
  let client
  try {
    client = createClient({ baseUrl: options.baseUrl, ...credentials, allowInsecureHttp: options.allowInsecureHttp === true })
  } catch (error) {
    if (error instanceof InsecureBaseUrlError) throw usageError(`${error.message} (--allow-insecure-http)`)
    if (error instanceof TypeError) throw usageError(`--base-url: ${error.message}`)
    throw error
  }
  await authenticate(client)
  const notReady: Array<NotReady> = []
  if (accounts.length === 0) {
    const outcome = await client.send("pending-account-import-processes", { import_supplier_code: supplier })
    if (outcome.kind !== "ok") throw failure(`pending accounts of ${supplier}`, outcome, variable)
    for (const item of outcome.body as ReadonlyArray<{ external_account_number: string }>) {
      notReady.push({ external_account_number: item.external_account_number, status: "PENDING" })
    }
  } else {
    for (const account of accounts) {
      const outcome = await client.send("account-transfer-status", { import_supplier_code: supplier, external_account_number: account })
      if (outcome.kind === "not_found") notReady.push({ external_account_number: account, status: "NO_PROCESS" })
      else if (outcome.kind !== "ok") throw failure(`status of ${account}`, outcome, variable)
      else {
        const status = (outcome.body as { status: "UNKNOWN" | "IN_PROGRESS" | "COMPLETED" }).status
        if (status !== "COMPLETED") notReady.push({ external_account_number: account, status })
      }
    }
  }
  const standing = standingOf(options.journal, supplier)
  const openInLedger = standing === undefined ? 0 : Object.values(standing.open).reduce((a, b) => a + b, 0)
  // The ledger's word is the last answer the service gave for the supplier's records, not its status now.
  const supplierStatus = standing !== undefined && (standing.open["blocked:supplier_not_ongoing"] ?? 0) > 0 ? "not_ongoing_at_the_last_answer" : "not_readable_through_the_api"
  const stdout = new Output(process.stdout, "stdout")
  if (options.format === "json") {
    stdout.write(`${JSON.stringify({ import_supplier: supplier, checked: accounts.length === 0 ? "pending" : accounts.length, not_ready: notReady, supplier_status: supplierStatus, ...(standing === undefined ? {} : { ledger: standing }) })}\n`)
  } else {
    if (notReady.length === 0) {
      stdout.write(accounts.length === 0 ? `${supplier}: no pending accounts\n` : `${supplier}: every account asked about (${accounts.length}) is imported\n`)
    } else {
      const accounts = notReady.length === 1 ? "1 account cannot" : `${notReady.length} accounts cannot`
      stdout.write(`${supplier}: ${accounts} take post-import data yet (the service refuses it: ${refusals()}):\n`)
      for (const a of notReady) stdout.write(`  ${a.external_account_number}  ${a.status}\n`)
    }
    if (standing === undefined) stdout.write(notChecked(supplier))
    else {
      const open = Object.entries(standing.open).sort((a, b) => b[1] - a[1])
      const listed = open.map(([k, n]) => `${k.replace(":", " ").replace(/_/gu, " ")} ${n}`)
      stdout.write(`${supplier} in the ledger ${options.journal!}: ${counted(standing.records, "record")}, ${standing.stored} stored${listed.length === 0 ? "" : `; not stored: ${listed.join(", ")}`}\n`)
      for (const [key, n] of open) {
        const since = standing.open_since?.[key]
        stdout.write(`  ${key.replace(":", " ").replace(/_/gu, " ")}: ${counted(n, "record")}${since === undefined ? "" : ` (${key === "not_sent" ? "last read" : "last answer"} ${when(since)})`}: ${adviceOfOpen(key)}\n`)
      }
      if (openInLedger > 0) stdout.write(`Not clear: ${counted(openInLedger, "record")} of ${supplier} in the ledger ${openInLedger === 1 ? "is" : "are"} not stored.\n`)
    }
  }
  await stdout.close()
  return notReady.length === 0 && openInLedger === 0 ? EXIT.ok : EXIT.invalid
}
