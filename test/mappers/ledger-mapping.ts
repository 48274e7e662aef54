/**
 * A transactions mapping grouped by account (`Konto`), with German dates and amounts: the fixture of the
 * tests of grouping, batching and streaming.
 */
import { defineMapping, type Mapping } from "../../src/index.js"

/** The ledger mapping with at most `batchSize` transactions per payload, grouped by `groupBy`. */
export const ledgerMapping = (batchSize: number, groupBy: ReadonlyArray<string> = ["Konto"]): Mapping<"transactions"> =>
  defineMapping({
    endpoint: "transactions",
    groupBy,
    batchSize,
    fields: { import_supplier: { value: "STADTWERKE_NORD" }, external_account_number: "Konto" },
    collections: [{
      path: "transactions",
      fields: {
        transaction_id: "Nr",
        transaction_date: { column: "Datum", convert: "date", options: { format: "dd.MM.yyyy" } },
        amount: { column: "Betrag", convert: "number", options: { locale: "de" } },
        type: "Art"
      }
    }]
  })
