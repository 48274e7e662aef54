/**
 * The reference model as a `fetch`, for tests of the send engine: every request is answered by
 * `referenceModel` (the same behaviour as `data-import serve`), and every POST that stored something is
 * counted per record identity, so a test can count records stored twice.
 */
import { createClient, isPostEndpointId, recordsOf, type Client } from "../../src/index.js"
import { routeOf } from "../../src/service/routes.js"
import { CONTROL_PATHS } from "../../src/service/index.js"
import { referenceModel, type ReferenceModel } from "../../src/testing/index.js"

export const TOKEN = "ledger-token-5b1c9e"
export const NOW = new Date("2025-01-01T12:00:00Z")

/** What a fault does to one request: nothing, refuse it before it leaves, or lose the answer after the service handled it. */
export type Fault = "none" | "before" | "after"

export interface ModelService {
  readonly fetch: typeof fetch
  readonly model: () => ReferenceModel
  /** Replaces the model (a rehearsal control, a restart). */
  readonly update: (change: (model: ReferenceModel) => ReferenceModel) => void
  /** How many times each identity was in a request that the service answered with a success that stored it. */
  readonly stored: Map<string, number>
  /** Requests per endpoint. */
  readonly requests: Map<string, number>
  client(options?: { readonly maxAttempts?: number }): Client
}

/** Per-item outcomes that mean "stored now" in a 201 of notes or transactions. */
const STORED_ITEM = new Set(["NOTE_CREATION_SUCCESS", "TRANSACTION_ADDED_TO_ACCOUNT"])

export const modelService = (seed: unknown, faults: () => Fault = () => "none"): ModelService => {
  let model = referenceModel(seed)
  const stored = new Map<string, number>()
  const requests = new Map<string, number>()
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input))
    const fault = init?.method === "POST" ? faults() : "none"
    if (fault === "before") throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } })
    const headers = (init?.headers ?? {}) as Record<string, string>
    const body = typeof init?.body === "string" ? init.body : undefined
    const step = model.handle({ method: init?.method ?? "GET", path: url.pathname + url.search, authorization: headers["Authorization"], body }, { now: NOW })
    model = step.model
    const route = routeOf(init?.method ?? "GET", url.pathname)
    const endpoint = route.kind === "endpoint" ? route.endpointId : undefined
    if (endpoint !== undefined) requests.set(endpoint, (requests.get(endpoint) ?? 0) + 1)
    if (endpoint !== undefined && isPostEndpointId(endpoint) && (step.response.status === 201 || step.response.status === 200) && body !== undefined) {
      const records = recordsOf(endpoint, JSON.parse(body)) ?? []
      const answer = step.response.body as unknown
      const results = Array.isArray(answer) ? answer : (answer as { results?: Array<unknown> } | null)?.results
      records.forEach((record, i) => {
        const status = Array.isArray(results) ? (results[i] as { status?: string } | undefined)?.status : undefined
        const storedNow = endpoint === "notes" || endpoint === "transactions" ? STORED_ITEM.has(status ?? "") : step.response.status === 201
        if (storedNow) stored.set(record.identity, (stored.get(record.identity) ?? 0) + 1)
      })
    }
    if (fault === "after") throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } })
    return new Response(JSON.stringify(step.response.body), { status: step.response.status, headers: step.response.headers ?? {} })
  }
  return {
    fetch: fetchFn as typeof fetch,
    model: () => model,
    update: (change) => {
      model = change(model)
    },
    stored,
    requests,
    client: (options) =>
      createClient({
        baseUrl: "http://127.0.0.1:9",
        token: TOKEN,
        fetch: fetchFn as typeof fetch,
        retry: { maxAttempts: options?.maxAttempts ?? 2, baseDelayMs: 0, maxDelayMs: 0 },
        clock: { now: () => 0, sleep: async () => {} }
      })
  }
}

export const SUPPLIER = "STADTWERKE_NORD"
export const PAUSED = "STADTWERKE_SUED"
export const PARTICIPANT = 9900123456789

/** A seed: two accounts imported (one with an open statement period), one staged, one of a paused supplier. */
export const SEED = {
  tokens: [TOKEN],
  suppliers: [{ code: SUPPLIER, status: "Ongoing" }, { code: PAUSED, status: "Paused" }],
  accounts: [
    { import_supplier: SUPPLIER, external_account_number: "KD-1", status: "COMPLETED", service_account_number: "A-1", account_created_at: "2024-01-02T10:00:00Z", open_statement_period: { start: "2024-01-01", end: "2024-12-31" } },
    { import_supplier: SUPPLIER, external_account_number: "KD-2", status: "COMPLETED", service_account_number: "A-2", account_created_at: "2024-01-02T10:00:00Z" },
    { import_supplier: SUPPLIER, external_account_number: "KD-3", status: "IN_PROGRESS" },
    { import_supplier: PAUSED, external_account_number: "S-1", status: "COMPLETED", service_account_number: "A-3", account_created_at: "2024-01-02T10:00:00Z" }
  ],
  market_participants: [PARTICIPANT]
}

export const energyAmount = (account: string, day: number, quantity = "10.5", supplier = SUPPLIER): Record<string, unknown> => ({
  import_supplier: supplier,
  external_account_number: account,
  energy_amount: {
    malo_number: "51238696781",
    period_start_at: `2024-03-${String(day).padStart(2, "0")}T00:00:00+01:00`,
    period_end_at: `2024-03-${String(day).padStart(2, "0")}T23:59:59+01:00`,
    product_identifier: "1-1:1.8.0",
    product_identifier_type: "SRW",
    quantity,
    quantity_unit: "KWH"
  }
})

export const transactions = (account: string, list: ReadonlyArray<{ readonly id: string; readonly date?: string; readonly amount?: number }>): Record<string, unknown> => ({
  import_supplier: SUPPLIER,
  external_account_number: account,
  transactions: list.map((t) => ({ transaction_id: t.id, transaction_date: t.date ?? "2024-02-01", amount: t.amount ?? 12.5, type: "CHARGE" }))
})

export const notes = (account: string, bodies: ReadonlyArray<string>): Record<string, unknown> => ({
  import_supplier: SUPPLIER,
  external_account_number: account,
  notes: bodies.map((body) => ({ body, created_at: "2024-05-01T10:00:00Z" }))
})

/** What the operators do: sets a supplier's status through the rehearsal control (a pause, a resume). */
export const setSupplier = (service: ModelService, code: string, status: "Ongoing" | "Paused" | "Complete"): void => {
  service.update((model) => {
    const step = model.handle(
      { method: "POST", path: CONTROL_PATHS.supplier.replace("{code}", code), authorization: `Token ${TOKEN}`, body: JSON.stringify({ status }) },
      { now: NOW }
    )
    if (step.response.status !== 200) throw new Error(`the supplier control answered ${step.response.status}`)
    return step.model
  })
}
