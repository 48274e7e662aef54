/**
 * The in-memory state of the reference model: an immutable value, and a session over it that implements
 * {@link ServiceState} for one request and yields the next value (the value it started from is untouched).
 *
 * @module
 */
import type { ImportSupplierStatus } from "../schemas/import-status.js"
import type { Seed, SeedAccount } from "./seed.js"
import { accountKey, type RecordKind, type ResponseCount, type ServiceState, type StoredRecord } from "./state.js"

/** The whole state of the reference service as an immutable value. */
export interface ModelState {
  readonly tokens: ReadonlySet<string>
  readonly suppliers: ReadonlyMap<string, ImportSupplierStatus>
  readonly accounts: ReadonlyMap<string, SeedAccount>
  readonly records: ReadonlyArray<StoredRecord>
  readonly responses: ReadonlyArray<ResponseCount>
}

/** The records a seed stores from the start: its market participants. */
export const seedRecords = (seed: Seed): Array<StoredRecord> =>
  (seed.market_participants ?? []).map((code) => ({ kind: "market_participants", account: null, key: String(code), data: { code } }))

/** The state right after seeding. */
export const initialState = (seed: Seed): ModelState => ({
  tokens: new Set(seed.tokens),
  suppliers: new Map(seed.suppliers.map((s) => [s.code, s.status])),
  accounts: new Map(seed.accounts.map((a) => [accountKey(a.import_supplier, a.external_account_number), a])),
  records: seedRecords(seed),
  responses: []
})

const byEndpointAndStatus = (a: ResponseCount, b: ResponseCount): number =>
  a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : a.status - b.status

/**
 * A session over `state`: a {@link ServiceState} whose writes go to copies, and `result()`, the state
 * after them. Copies are made on the first write, so a request that only reads shares everything.
 */
export const openSession = (state: ModelState): { readonly state: ServiceState; readonly result: () => ModelState } => {
  let records: Array<StoredRecord> | undefined
  let responses: Array<ResponseCount> | undefined
  const session: ServiceState = {
    isToken: (token) => state.tokens.has(token),
    supplierStatus: (code) => state.suppliers.get(code),
    account: (supplier, external) => state.accounts.get(accountKey(supplier, external)),
    accounts: (supplier) => [...state.accounts.values()].filter((a) => a.import_supplier === supplier),
    find: (kind, account, key) =>
      (records ?? state.records).filter((r) => r.kind === kind && r.account === account && r.key === key).map((r) => r.data),
    add: (record) => {
      records ??= [...state.records]
      records.push(record)
    },
    count: (kind: RecordKind) => (records ?? state.records).reduce((n, r) => (r.kind === kind ? n + 1 : n), 0),
    countResponse: (endpoint, status) => {
      responses ??= [...state.responses]
      const index = responses.findIndex((r) => r.endpoint === endpoint && r.status === status)
      if (index === -1) responses.push({ endpoint, status, count: 1 })
      else responses[index] = { endpoint, status, count: responses[index]!.count + 1 }
      responses.sort(byEndpointAndStatus)
    },
    responseCounts: () => responses ?? state.responses
  }
  return {
    state: session,
    result: () =>
      records === undefined && responses === undefined
        ? state
        : { ...state, records: records ?? state.records, responses: responses ?? state.responses }
  }
}
