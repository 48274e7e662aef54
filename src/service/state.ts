/**
 * The state the reference service's behaviour reads and writes, as an interface with two implementations:
 * the pure in-memory model (`memory-state.ts`) and the SQLite store (`store.ts`). The behaviour
 * (`handle-request.ts`) is written once against this interface, so the HTTP server and the model differ
 * only in how these few operations are stored, which the model-based test compares.
 *
 * @module
 */
import { endpoints } from "../schemas/endpoints/catalogue.js"
import { POST_ENDPOINT_IDS, type PostEndpointId } from "../schemas/endpoints/endpoint-id.js"
import type { AccountImportProcessStatus, ImportSupplierStatus } from "../schemas/import-status/import-status.js"
import type { SeedAccount, SeedSupplier } from "./seed.js"

/** The kinds of stored data, as `GET /_reference/stats` names them under `stored`: what the catalogue's endpoints store. */
export const RECORD_KINDS = [...new Set(POST_ENDPOINT_IDS.flatMap((id) => {
  const { service } = endpoints[id]
  return "stores" in service ? [service.stores] : []
}))] as ReadonlyArray<RecordKind>

/** A kind of stored data: the `service.stores` of an endpoint of the catalogue. */
export type RecordKind = {
  [E in PostEndpointId]: (typeof endpoints)[E]["service"] extends { readonly stores: infer K extends string } ? K : never
}[PostEndpointId]

/** One stored item: its kind, the account it belongs to (if any), the key it is looked up by, and its data. */
export interface StoredRecord {
  readonly kind: RecordKind
  /** {@link accountKey} of the account, or `null` for data that belongs to no account. */
  readonly account: string | null
  /** What the service looks the record up by (a note's body, a transaction id, a participant code), or `null`. */
  readonly key: string | null
  readonly data: unknown
}

/** How often one endpoint answered with one status. */
export interface ResponseCount {
  readonly endpoint: string
  readonly status: number
  readonly count: number
}

/** The one string that identifies an account: supplier and external number, unambiguously joined. */
export const accountKey = (importSupplier: string, externalAccountNumber: string): string =>
  JSON.stringify([importSupplier, externalAccountNumber])

/** The operations the service's behaviour performs on its state; one request sees them as one transaction. */
export interface ServiceState {
  isToken(token: string): boolean
  /** Whether the seed has this organisation API key (`obtainKrakenToken` issues tokens for it). */
  isApiKey(key: string): boolean
  supplierStatus(code: string): ImportSupplierStatus | undefined
  /** Every supplier with its status, in no particular order. */
  suppliers(): ReadonlyArray<SeedSupplier>
  /** Sets a supplier's status; an unknown code is added. */
  setSupplierStatus(code: string, status: ImportSupplierStatus): void
  account(importSupplier: string, externalAccountNumber: string): SeedAccount | undefined
  /** The accounts of a supplier, in the seed's order (an account added later comes after the seed's). */
  accounts(importSupplier: string): ReadonlyArray<SeedAccount>
  /** Adds an account, or replaces the one with its supplier and external number where it stands in the order. */
  putAccount(account: SeedAccount): void
  /** How many accounts have this status. */
  countAccounts(status: AccountImportProcessStatus): number
  /** Whether any account has this `service_account_number`. */
  hasServiceAccountNumber(serviceAccountNumber: string): boolean
  /** The data of the records of a kind with this account and key, oldest first. */
  find(kind: RecordKind, account: string | null, key: string): ReadonlyArray<unknown>
  /** The data of every record of a kind with this account (`null`: data of no account), oldest first. */
  list(kind: RecordKind, account: string | null): ReadonlyArray<unknown>
  add(record: StoredRecord): void
  count(kind: RecordKind): number
  countResponse(endpoint: string, status: number): void
  /** Every endpoint and status answered so far, sorted by endpoint and status. */
  responseCounts(): ReadonlyArray<ResponseCount>
}
