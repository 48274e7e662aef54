/**
 * Support of the reference service's tests: a seed, an in-process server on 127.0.0.1 (port 0, always
 * closed), and a client whose every response is checked against the contract.
 */
import { readFileSync } from "node:fs"
import { afterEach, expect } from "vitest"
import { Schemas, validateResponse } from "../../src/index.js"
import {
  createReferenceServer,
  DetailBody,
  type FaultOptions,
  NO_FAULTS,
  openStore,
  type ReferenceStore,
  SERVICE_LEVEL_STATUSES,
  type Seed,
  STATS_PATH
} from "../../src/service/index.js"
import { routeOf } from "../../src/service/routes.js"
import { Schema } from "effect"

export const TOKEN = "rehearsal-token-7f3a"
export const SUPPLIER = "STADTWERKE_NORD"
export const PAUSED = "STADTWERKE_SUED"
/** Imported, with an open statement period 2024-01-01 to 2024-12-31. */
export const IMPORTED = "KD-0045127"
/** Imported, no statement period. */
export const IMPORTED_OPEN = "KD-2"
export const IN_PROGRESS = "KD-3"
export const UNKNOWN_STATUS = "KD-4"
/** Imported, but its supplier is paused. */
export const OF_PAUSED = "S-1"
export const PARTICIPANT = 9900123456789

export const SEED: Seed = {
  tokens: [TOKEN, "second-token"],
  suppliers: [{ code: SUPPLIER, status: "Ongoing" }, { code: PAUSED, status: "Paused" }],
  accounts: [
    {
      import_supplier: SUPPLIER,
      external_account_number: IMPORTED,
      status: "COMPLETED",
      service_account_number: "A-1B2C3D4E",
      account_created_at: "2024-01-02T10:00:00Z",
      open_statement_period: { start: "2024-01-01", end: "2024-12-31" }
    },
    {
      import_supplier: SUPPLIER,
      external_account_number: IMPORTED_OPEN,
      status: "COMPLETED",
      service_account_number: "A-22222222",
      account_created_at: "2024-02-03T11:00:00+01:00"
    },
    { import_supplier: SUPPLIER, external_account_number: IN_PROGRESS, status: "IN_PROGRESS" },
    { import_supplier: SUPPLIER, external_account_number: UNKNOWN_STATUS, status: "UNKNOWN", service_account_number: null, account_created_at: null },
    {
      import_supplier: PAUSED,
      external_account_number: OF_PAUSED,
      status: "COMPLETED",
      service_account_number: "A-33333333",
      account_created_at: "2024-03-01T00:00:00Z"
    }
  ],
  market_participants: [PARTICIPANT]
}

/** The clock of the in-process servers, so the model and the server agree on "now". */
export const FIXED_NOW = new Date("2025-01-01T12:00:00Z")

/** An answer as a client sees it. */
export interface Reply {
  readonly status: number
  readonly body: unknown
  readonly headers: Headers
}

const isDetailBody = Schema.is(DetailBody)
const isValidationErrorBody = Schema.is(Schemas.ValidationErrorBody)

/**
 * Every response of the test run passes here: a status the catalogue documents for the endpoint must
 * validate with `validateResponse` (401 and 503 included: the catalogue lists them for every endpoint);
 * the statuses any endpoint may answer beyond it (405, 413) carry `{ detail }`; the statistics have their
 * own shape.
 */
export const expectValidResponse = (method: string, path: string, status: number, body: unknown): void => {
  const route = routeOf(method, path)
  if (route.kind === "endpoint") {
    const result = validateResponse(route.endpointId, status, body)
    if (result.ok) return
    expect(SERVICE_LEVEL_STATUSES, `${route.endpointId} ${status}: ${JSON.stringify(result.error)}`).toContain(status)
    expect(isDetailBody(body), `${route.endpointId} ${status} body ${JSON.stringify(body)}`).toBe(true)
  } else if (route.kind === "stats" && status === 200) {
    expect(body).toEqual({ stored: expect.any(Object), responses: expect.any(Object), suppliers: expect.any(Object), accounts: expect.any(Object) })
  } else if (route.kind === "control" && status === 200) {
    if (route.control === "supplier") {
      expect(body).toEqual({ code: route.params["code"], status: expect.any(String) })
    } else {
      // Pending: both fields of the import null; imported: both set.
      const { service_account_number, account_created_at, ...rest } = body as Record<string, unknown>
      expect(rest).toEqual({ ...route.params, status: expect.any(String) })
      expect([service_account_number, account_created_at].map((v) => v === null)).toEqual(
        [rest["status"] !== "COMPLETED", rest["status"] !== "COMPLETED"]
      )
    }
  } else if (route.kind === "control" && status === 400) {
    expect(isValidationErrorBody(body), `${method} ${path} ${status} body ${JSON.stringify(body)}`).toBe(true)
  } else {
    expect(isDetailBody(body), `${method} ${path} ${status}`).toBe(true)
  }
}

/** A request as the tests write it: a JSON body is serialised unless it is a string already. */
export interface Call {
  readonly method?: string
  readonly path: string
  readonly body?: unknown
  /** The whole `Authorization` header; default `Token <TOKEN>`; `null` sends none. */
  readonly authorization?: string | null
}

/** Sends a request and checks its response against the contract. */
export const call = async (baseUrl: string, c: Call): Promise<Reply> => {
  const method = c.method ?? (c.body === undefined ? "GET" : "POST")
  const authorization = c.authorization === undefined ? `Token ${TOKEN}` : c.authorization
  const response = await fetch(`${baseUrl}${c.path}`, {
    method,
    headers: {
      ...(authorization === null ? {} : { Authorization: authorization }),
      ...(c.body === undefined ? {} : { "Content-Type": "application/json" })
    },
    ...(c.body === undefined ? {} : { body: typeof c.body === "string" ? c.body : JSON.stringify(c.body) })
  })
  const body: unknown = await response.json()
  expectValidResponse(method, c.path, response.status, body)
  return { status: response.status, body, headers: response.headers }
}

/** A running in-process service. */
export interface TestService {
  readonly baseUrl: string
  readonly store: ReferenceStore
  call(c: Call): Promise<Reply>
  stats(): Promise<{
    stored: Record<string, number>
    responses: Record<string, Record<string, number>>
    suppliers: Record<string, string>
    accounts: Record<string, number>
  }>
  close(): Promise<void>
}

const running = new Set<TestService>()
afterEach(async () => {
  await Promise.all([...running].map((s) => s.close()))
})

/** Starts a service on 127.0.0.1, port 0, in memory; closed after the test at the latest. */
export const startService = async (
  options: { readonly seed?: Seed; readonly faults?: Partial<FaultOptions>; readonly now?: Date; readonly state?: string } = {}
): Promise<TestService> => {
  // A state file seeded before is opened as `serve --state` opens it on a restart.
  const store = openStore(options.state ?? ":memory:", options.seed ?? SEED)
  const now = options.now ?? FIXED_NOW
  const service = createReferenceServer({ store, faults: { ...NO_FAULTS, ...options.faults }, now: () => now })
  const { port } = await service.listen(0, "127.0.0.1")
  const baseUrl = `http://127.0.0.1:${port}`
  let closed: Promise<void> | undefined
  const handle: TestService = {
    baseUrl,
    store,
    call: (c) => call(baseUrl, c),
    stats: async () => (await call(baseUrl, { path: STATS_PATH })).body as Awaited<ReturnType<TestService["stats"]>>,
    close: () => {
      closed ??= (async () => {
        running.delete(handle)
        const stopped = service.close()
        service.server.closeAllConnections()
        await stopped
        store.close()
      })()
      return closed
    }
  }
  running.add(handle)
  return handle
}

/** The body of a post-import request for an account. */
export const forAccount = (external: string, fields: Record<string, unknown>, supplier = SUPPLIER): Record<string, unknown> => ({
  import_supplier: supplier,
  external_account_number: external,
  ...fields
})

/** A small valid energy amount. */
export const ENERGY_AMOUNT = {
  malo_number: "51238696781",
  period_start_at: "2024-10-01T00:00:00+02:00",
  period_end_at: "2024-10-31T23:59:59+01:00",
  product_identifier: "1-1:1.8.0",
  product_identifier_type: "SRW",
  quantity: "263.4175",
  quantity_unit: "KWH"
}

/** A fresh copy of an example payload of the repository. */
export const example = (id: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../../examples/payloads/${id}.json`, import.meta.url), "utf8")) as Record<string, unknown>
