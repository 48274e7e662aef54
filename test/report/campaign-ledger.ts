/**
 * A campaign ledger with known counts, for the tests of `report`: one map run recorded with
 * `openMapJournal` (two rows rejected, lineage of every payload), then two send runs through
 * `sendRecords` against the reference model. What each line becomes is decided here, by hand; the
 * tests assert these numbers, never the report's own output.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { openLedger, type SourceLine, sendRecords } from "../../src/index.js"
import { openMapJournal } from "../../src/ledger/map-journal.js"
import { energyAmount, modelService, PAUSED, SEED, transactions } from "../send/model-service.js"

export const SERVICE = "http://127.0.0.1:9/"

/** The legacy rows map rejected, as the legacy export holds them (a quoted field spans lines 16-17). */
export const LEGACY_REJECTS = [
  { lines: [15], codes: ["invalid_date"], detail: "Von: 31.02.2024 is not a date", raw: "STADTWERKE_NORD;KD-1;31.02.2024;1,5", supplier: "STADTWERKE_NORD", account: "KD-1" },
  {
    lines: [16, 17],
    codes: ["missing_value", "invalid_decimal"],
    detail: "Menge: \"1,2,3\" is not a number",
    raw: "STADTWERKE_NORD;KD-2;\"note, with \"\"quotes\"\"\nsecond line\";1,2,3",
    supplier: "STADTWERKE_NORD",
    account: "KD-2"
  }
] as const

/** The payloads of amounts.ndjson, line by line (payload line k came from legacy line k + 1). */
const AMOUNTS = [
  ...[1, 2, 3, 4, 5, 6].map((day) => energyAmount("KD-1", day)), // 1-6 created
  energyAmount("KD-1", 9, "abc"), // 7 invalid (quantity)
  energyAmount("KD-2", 1), // 8 created
  energyAmount("KD-2", 2), // 9 created
  energyAmount("KD-3", 1), // 10 blocked account_not_imported
  energyAmount("KD-3", 2), // 11 blocked account_not_imported
  energyAmount("KD-404", 1), // 12 blocked account_unknown
  energyAmount("S-1", 1, "1", PAUSED) // 13 blocked supplier_not_ongoing
]
export const legacyRaw = (payloadLine: number): string => `legacy row of payload ${payloadLine}; "quoted", text`

/** What the report must find. */
export const EXPECTED = {
  records: 16, // 13 energy amounts + 2 transactions + 1 line that names no record
  created: 9,
  rejected: 1,
  invalid: 2,
  blocked: 4,
  conflict: 1,
  map_rejected: 2,
  kinds: {
    "energy-amount": { records: 13, created: 8, invalid: 1, blocked: 4, conflict: 1, map_rejected: 2 },
    transactions: { records: 2, created: 1, rejected: 1 },
    "(unidentified)": { records: 1, invalid: 1 }
  },
  blockedBy: { account_not_imported: 2, account_unknown: 1, supplier_not_ongoing: 1 },
  // KD-2's two amounts are stored, but its legacy rows 16-17 were rejected at map: partly, not complete.
  accounts: { accounts: 5, complete: 0, partly: 2, blocked: 3, not_stored: 0 },
  /** Every problem once: [problem, code, source file (name), source lines]. */
  problems: [
    ["map_rejected", "invalid_date", "legacy.csv", "15"],
    ["map_rejected", "missing_value,invalid_decimal", "legacy.csv", "16-17"],
    ["invalid", "unidentified", "extra.ndjson", "2"],
    ["invalid", "invalid", "legacy.csv", "8"],
    ["rejected", "TRANSACTION_IMPORT_ERROR", "tx.ndjson", "1"],
    ["blocked", "account_not_imported", "legacy.csv", "11"],
    ["blocked", "account_not_imported", "legacy.csv", "12"],
    ["blocked", "account_unknown", "legacy.csv", "13"],
    ["blocked", "supplier_not_ongoing", "legacy.csv", "14"],
    ["conflict", "conflict", "fix.ndjson", "1"]
  ]
} as const

const lines = (file: string, texts: ReadonlyArray<string>): Array<SourceLine> => texts.map((text, i) => ({ file, line: i + 1, text }))

/** Writes the campaign into `dir`/campaign.ledger and returns its path. */
export const buildCampaignLedger = async (dir: string): Promise<string> => {
  const path = join(dir, "campaign.ledger")
  const file = (name: string) => join(dir, name)
  const journal = openMapJournal(path, { input: file("legacy.csv"), output: file("amounts.ndjson"), endpoint: "energy-amount", mapping: "amounts.mapping.json" })
  AMOUNTS.forEach((_, i) => journal.lineage({ payloadLine: i + 1, lines: [i + 2], raw: legacyRaw(i + 1) }))
  for (const reject of LEGACY_REJECTS) journal.rejected(reject)
  journal.end("completed", { rowsRead: 15, payloads: 13, rowsRejected: 2 })

  const amounts = AMOUNTS.map((body) => JSON.stringify(body))
  const tx = [JSON.stringify(transactions("KD-1", [{ id: "T-1", date: "2023-12-15" }, { id: "T-2", date: "2024-02-01" }]))]
  const extra = [JSON.stringify(energyAmount("KD-2", 1)), "this line is not JSON"]
  writeFileSync(file("amounts.ndjson"), `${amounts.join("\n")}\n`)
  const service = modelService(SEED)
  const ledger = openLedger(path, { service: SERVICE })
  try {
    await sendRecords([...lines(file("amounts.ndjson"), amounts), ...lines(file("tx.ndjson"), tx), ...lines(file("extra.ndjson"), extra)], {
      ledger,
      client: service.client(),
      service: SERVICE
    })
    await sendRecords(lines(file("fix.ndjson"), [JSON.stringify(energyAmount("KD-1", 2, "99.5"))]), { ledger, client: service.client(), service: SERVICE })
  } finally {
    ledger.close()
  }
  return path
}
