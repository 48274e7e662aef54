/**
 * `data-import serve`: the reference service on a loopback port, its state in SQLite (in memory, or in
 * `--state FILE`), seeded from `--seed FILE`, with optional injected faults. SIGTERM (and SIGINT) close idle
 * connections at once, let the requests in flight finish (at most 10 s), then end the run with exit code 0.
 *
 * @module
 */
import { randomInt } from "node:crypto"
import { createReferenceServer, decodeSeed, type FaultOptions, openStore, type Seed, StateFileError } from "../../service/index.js"
import { describeError, EXIT, type ExitCode, ioError, readJsonFile, usageError } from "../../readers/index.js"
import { acceptIssuedTokens, createTokenIssuer, graphqlEndpoint } from "../../service/index.js"
import { documentsFolder } from "../documents-option.js"

/** Options of `data-import serve`, as parsed. */
export interface ServeOptions {
  readonly host: string
  readonly port: number
  readonly state?: string | undefined
  readonly seed?: string | undefined
  readonly latencyMs: number
  readonly failRate: number
  readonly resetRate: number
  readonly vendorFailRate: number
  readonly faultSeed?: number | undefined
  readonly retryAfter: number
  /** Lifetime of the tokens `obtainKrakenToken` issues, in seconds (default 3600). */
  readonly tokenTtl?: number | undefined
  /** Lifetime of the refresh tokens it issues, in seconds (default 7 days). */
  readonly refreshTtl?: number | undefined
  /** A folder laid out like the file store's root: documents missing there are refused. */
  readonly documents?: string | undefined
}

/** Reads and checks the seed file: a bad one is a usage error (exit 2) that lists every problem. */
const readSeed = async (path: string): Promise<Seed> => {
  const json = await readJsonFile(path, "the seed")
  const result = decodeSeed(json)
  if (!result.ok) {
    throw usageError(`the seed ${path} is not valid:\n${result.error.errors.map((e) => `  ${e.attr}: ${e.detail} (${e.code})`).join("\n")}`)
  }
  return result.value
}

const urlHost = (host: string): string => (host.includes(":") ? `[${host}]` : host)

/** Runs the service until SIGTERM or SIGINT. */
export const runServe = async (options: ServeOptions): Promise<ExitCode> => {
  const seed = options.seed === undefined ? undefined : await readSeed(options.seed)
  const documents = documentsFolder(options.documents)
  if (options.state === undefined && seed === undefined) throw usageError("serve needs --seed FILE (or --state FILE of an earlier run)")
  let store
  try {
    store = openStore(options.state ?? ":memory:", seed)
  } catch (cause) {
    if (cause instanceof StateFileError) throw usageError(cause.message)
    throw ioError(`cannot open the state ${options.state ?? ":memory:"}: ${describeError(cause)}`)
  }
  const anyFault = options.failRate > 0 || options.resetRate > 0 || options.vendorFailRate > 0
  const faults: FaultOptions = {
    latencyMs: options.latencyMs,
    failRate: options.failRate,
    resetRate: options.resetRate,
    vendorFailRate: options.vendorFailRate,
    seed: options.faultSeed ?? randomInt(2 ** 32 - 1),
    retryAfterSeconds: options.retryAfter
  }
  // Tokens obtained with an API key (POST /v1/graphql/) are accepted beside the seed's fixed tokens.
  const issuer = createTokenIssuer({ tokenTtlSeconds: options.tokenTtl, refreshTtlSeconds: options.refreshTtl })
  const service = createReferenceServer({
    store: acceptIssuedTokens(store, issuer),
    graphql: graphqlEndpoint(store, issuer),
    faults,
    documentExists: documents?.exists,
    onInternalError: (message) => process.stderr.write(`data-import serve: internal error: ${message}\n`)
  })
  let address
  try {
    address = await service.listen(options.port, options.host)
  } catch (cause) {
    store.close()
    throw ioError(`cannot listen on ${options.host}:${options.port}: ${describeError(cause)}`)
  }
  process.stdout.write(`listening on http://${urlHost(options.host)}:${address.port}\n`)
  if (anyFault) {
    process.stderr.write(
      `faults: --fault-seed ${faults.seed} --fail-rate ${faults.failRate} --reset-rate ${faults.resetRate} --vendor-fail-rate ${faults.vendorFailRate} --latency-ms ${faults.latencyMs}\n`
    )
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGTERM", stop)
      process.off("SIGINT", stop)
      service.close().finally(resolve)
    }
    process.on("SIGTERM", stop)
    process.on("SIGINT", stop)
  })
  store.close()
  return EXIT.ok
}
