/**
 * The reference service's state in SQLite (`node:sqlite`): in memory, or in a file that survives a
 * restart and a SIGKILL (WAL; a request's changes are committed before its answer is sent). It implements
 * {@link ServiceState} with prepared statements only, so the server runs the same behaviour as the model.
 *
 * @module
 */
import { createHash } from "node:crypto"
import type { DatabaseSync, StatementSync } from "node:sqlite"
import type { AccountImportProcessStatus, ImportSupplierStatus } from "../schemas/import-status/import-status.js"
import { seedRecords } from "./memory-state.js"
import type { Seed, SeedAccount } from "./seed.js"
import { loadSqlite } from "../ledger/sqlite.js"
import { type RecordKind, type ResponseCount, type ServiceState, type StoredRecord } from "./state.js"

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (token TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS api_keys (key TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS suppliers (code TEXT PRIMARY KEY, status TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
  seq INTEGER PRIMARY KEY,
  import_supplier TEXT NOT NULL,
  external_account_number TEXT NOT NULL,
  data TEXT NOT NULL,
  UNIQUE (import_supplier, external_account_number)
);
CREATE INDEX IF NOT EXISTS accounts_by_status ON accounts (json_extract(data, '$.status'));
CREATE INDEX IF NOT EXISTS accounts_by_number ON accounts (json_extract(data, '$.service_account_number'));
CREATE TABLE IF NOT EXISTS records (seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, account TEXT, key TEXT, data TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS records_by_key ON records (kind, key, account);
CREATE TABLE IF NOT EXISTS responses (
  endpoint TEXT NOT NULL,
  status INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (endpoint, status)
);`

/** A state file that cannot be used as asked: not seeded and no seed given, or seeded from another seed. */
export class StateFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "StateFileError"
  }
}

/** The reference service's state in SQLite. */
export interface ReferenceStore {
  /** Runs `work` as one transaction: committed when it returns, rolled back when it throws. */
  transact<A>(work: (state: ServiceState) => A): A
  close(): void
}

/** A digest of the seed, stored with the state, so a restart with another seed is refused. */
const seedDigest = (seed: Seed): string => createHash("sha256").update(JSON.stringify(seed)).digest("hex")

const statementsOf = (db: DatabaseSync) => {
  const prepare = (sql: string): StatementSync => db.prepare(sql)
  return {
    begin: prepare("BEGIN IMMEDIATE"),
    commit: prepare("COMMIT"),
    rollback: prepare("ROLLBACK"),
    getMeta: prepare("SELECT value FROM meta WHERE key = ?"),
    setMeta: prepare("INSERT INTO meta (key, value) VALUES (?, ?)"),
    addToken: prepare("INSERT OR IGNORE INTO tokens (token) VALUES (?)"),
    isToken: prepare("SELECT 1 AS found FROM tokens WHERE token = ?"),
    addApiKey: prepare("INSERT OR IGNORE INTO api_keys (key) VALUES (?)"),
    isApiKey: prepare("SELECT 1 AS found FROM api_keys WHERE key = ?"),
    addSupplier: prepare("INSERT INTO suppliers (code, status) VALUES (?, ?)"),
    supplierStatus: prepare("SELECT status FROM suppliers WHERE code = ?"),
    suppliers: prepare("SELECT code, status FROM suppliers"),
    setSupplierStatus: prepare("INSERT INTO suppliers (code, status) VALUES (?, ?) ON CONFLICT (code) DO UPDATE SET status = excluded.status"),
    addAccount: prepare("INSERT INTO accounts (import_supplier, external_account_number, data) VALUES (?, ?, ?)"),
    account: prepare("SELECT data FROM accounts WHERE import_supplier = ? AND external_account_number = ?"),
    accounts: prepare("SELECT data FROM accounts WHERE import_supplier = ? ORDER BY seq"),
    // An update keeps the row, and so its sequence number: a replaced account stays where it was.
    putAccount: prepare(
      "INSERT INTO accounts (import_supplier, external_account_number, data) VALUES (?, ?, ?) " +
        "ON CONFLICT (import_supplier, external_account_number) DO UPDATE SET data = excluded.data"
    ),
    // The expressions are the indexes' own, so both queries use them.
    countAccounts: prepare("SELECT count(*) AS n FROM accounts WHERE json_extract(data, '$.status') = ?"),
    hasServiceAccountNumber: prepare("SELECT 1 AS found FROM accounts WHERE json_extract(data, '$.service_account_number') = ? LIMIT 1"),
    find: prepare("SELECT data FROM records WHERE kind = ? AND key = ? AND account IS ? ORDER BY seq"),
    list: prepare("SELECT data FROM records WHERE kind = ? AND account IS ? ORDER BY seq"),
    add: prepare("INSERT INTO records (kind, account, key, data) VALUES (?, ?, ?, ?)"),
    count: prepare("SELECT count(*) AS n FROM records WHERE kind = ?"),
    countResponse: prepare(
      "INSERT INTO responses (endpoint, status, count) VALUES (?, ?, 1) ON CONFLICT (endpoint, status) DO UPDATE SET count = count + 1"
    ),
    responseCounts: prepare("SELECT endpoint, status, count FROM responses ORDER BY endpoint, status")
  }
}

const text = (row: unknown, column: string): string => String((row as Record<string, unknown>)[column])

const stateOf = (s: ReturnType<typeof statementsOf>): ServiceState => ({
  isToken: (token) => s.isToken.get(token) !== undefined,
  isApiKey: (key) => s.isApiKey.get(key) !== undefined,
  supplierStatus: (code) => {
    const row = s.supplierStatus.get(code)
    return row === undefined ? undefined : (text(row, "status") as ImportSupplierStatus)
  },
  suppliers: () => s.suppliers.all().map((row) => ({ code: text(row, "code"), status: text(row, "status") as ImportSupplierStatus })),
  setSupplierStatus: (code, status) => {
    s.setSupplierStatus.run(code, status)
  },
  account: (supplier, external) => {
    const row = s.account.get(supplier, external)
    return row === undefined ? undefined : (JSON.parse(text(row, "data")) as SeedAccount)
  },
  accounts: (supplier) => s.accounts.all(supplier).map((row) => JSON.parse(text(row, "data")) as SeedAccount),
  putAccount: (account) => {
    s.putAccount.run(account.import_supplier, account.external_account_number, JSON.stringify(account))
  },
  countAccounts: (status: AccountImportProcessStatus) => Number((s.countAccounts.get(status) as { n: number }).n),
  hasServiceAccountNumber: (number) => s.hasServiceAccountNumber.get(number) !== undefined,
  find: (kind, account, key) => s.find.all(kind, key, account).map((row) => JSON.parse(text(row, "data")) as unknown),
  list: (kind, account) => s.list.all(kind, account).map((row) => JSON.parse(text(row, "data")) as unknown),
  add: (record: StoredRecord) => {
    s.add.run(record.kind, record.account, record.key, JSON.stringify(record.data))
  },
  count: (kind: RecordKind) => Number((s.count.get(kind) as { n: number }).n),
  countResponse: (endpoint, status) => {
    s.countResponse.run(endpoint, status)
  },
  responseCounts: () =>
    s.responseCounts.all().map((row): ResponseCount => {
      const r = row as { endpoint: string; status: number; count: number }
      return { endpoint: r.endpoint, status: Number(r.status), count: Number(r.count) }
    })
})

const writeSeed = (s: ReturnType<typeof statementsOf>, state: ServiceState, seed: Seed): void => {
  for (const token of seed.tokens) s.addToken.run(token)
  for (const key of seed.api_keys ?? []) s.addApiKey.run(key)
  for (const supplier of seed.suppliers) s.addSupplier.run(supplier.code, supplier.status)
  for (const a of seed.accounts) s.addAccount.run(a.import_supplier, a.external_account_number, JSON.stringify(a))
  for (const record of seedRecords(seed)) state.add(record)
  s.setMeta.run("seed_digest", seedDigest(seed))
}

/**
 * Opens the state: `":memory:"` or a file path. A new state is seeded from `seed` (which is then
 * required); a state file that was seeded before is used as it is, and refused if `seed` is given and
 * differs from the one it was seeded from.
 */
export const openStore = (path: string, seed: Seed | undefined): ReferenceStore => {
  const { DatabaseSync } = loadSqlite()
  const db = new DatabaseSync(path)
  try {
    db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;")
    db.exec(SCHEMA)
    const s = statementsOf(db)
    const state = stateOf(s)
    const transact = <A>(work: (state: ServiceState) => A): A => {
      s.begin.run()
      try {
        const result = work(state)
        s.commit.run()
        return result
      } catch (cause) {
        s.rollback.run()
        throw cause
      }
    }
    const seeded = s.getMeta.get("seed_digest")
    if (seeded === undefined) {
      if (seed === undefined) throw new StateFileError(`the state ${path} is new: give a --seed to start it from`)
      transact(() => writeSeed(s, state, seed))
    } else if (seed !== undefined && text(seeded, "value") !== seedDigest(seed)) {
      throw new StateFileError(`the state ${path} was seeded from another seed: start a new state file, or leave out --seed to use it as it is`)
    }
    return { transact, close: () => db.close() }
  } catch (cause) {
    db.close()
    throw cause
  }
}
