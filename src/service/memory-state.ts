/**
 * The in-memory state of the reference model: an immutable value, and a session over it that implements
 * {@link ServiceState} for one request and yields the next value (the value it started from is untouched).
 *
 * @module
 */
import type { ImportSupplierStatus } from "../schemas/import-status/import-status.js"
import type { Seed, SeedAccount } from "./seed.js"
import { accountKey, type RecordKind, type ResponseCount, type ServiceState, type StoredRecord } from "./state.js"

/**
 * The whole state of the reference service as an immutable value.
 *
 * @since 0.1.0
 */
export interface ModelState {
  readonly tokens: ReadonlySet<string>
  readonly apiKeys: ReadonlySet<string>
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
  apiKeys: new Set(seed.api_keys ?? []),
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
  let suppliers: Map<string, ImportSupplierStatus> | undefined
  let accounts: Map<string, SeedAccount> | undefined
  let records: Array<StoredRecord> | undefined
  let responses: Array<ResponseCount> | undefined
  const accountsNow = (): ReadonlyMap<string, SeedAccount> => accounts ?? state.accounts
  const session: ServiceState = {
    isToken: (token) => state.tokens.has(token),
    isApiKey: (key) => state.apiKeys.has(key),
    supplierStatus: (code) => (suppliers ?? state.suppliers).get(code),
    suppliers: () => [...(suppliers ?? state.suppliers)].map(([code, status]) => ({ code, status })),
    setSupplierStatus: (code, status) => {
      suppliers ??= new Map(state.suppliers)
      suppliers.set(code, status)
    },
    account: (supplier, external) => accountsNow().get(accountKey(supplier, external)),
    accounts: (supplier) => [...accountsNow().values()].filter((a) => a.import_supplier === supplier),
    // A Map keeps a replaced key where it was, as the store's row keeps its sequence number.
    putAccount: (account) => {
      accounts ??= new Map(state.accounts)
      accounts.set(accountKey(account.import_supplier, account.external_account_number), account)
    },
    countAccounts: (status) => {
      let n = 0
      for (const a of accountsNow().values()) if (a.status === status) n++
      return n
    },
    hasServiceAccountNumber: (number) => {
      for (const a of accountsNow().values()) if (a.service_account_number === number) return true
      return false
    },
    find: (kind, account, key) =>
      (records ?? state.records).filter((r) => r.kind === kind && r.account === account && r.key === key).map((r) => r.data),
    list: (kind, account) => (records ?? state.records).filter((r) => r.kind === kind && r.account === account).map((r) => r.data),
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
      suppliers === undefined && accounts === undefined && records === undefined && responses === undefined
        ? state
        : {
          ...state,
          suppliers: suppliers ?? state.suppliers,
          accounts: accounts ?? state.accounts,
          records: records ?? state.records,
          responses: responses ?? state.responses
        }
  }
}
