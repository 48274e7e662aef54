/**
 * A meter-reading mapping whose two date-times resolve Berlin's repeated autumn hour `by-order`: the
 * fixture of the tests of in-order mapping and of its parallel batches.
 */
import { defineMapping } from "../../src/index.js"

export const byOrderMapping = defineMapping({
  endpoint: "energy-amount",
  fields: {
    import_supplier: { value: "SW" },
    external_account_number: "Konto",
    "energy_amount.malo_number": { value: "51238696781" },
    "energy_amount.period_start_at": { column: "Von", convert: "datetime", options: { ambiguous: "by-order" } },
    "energy_amount.period_end_at": { column: "Bis", convert: "datetime", options: { ambiguous: "by-order" } },
    "energy_amount.product_identifier": { value: "1-1:1.8.0" },
    "energy_amount.product_identifier_type": { value: "SRW" },
    "energy_amount.quantity": "Menge",
    "energy_amount.quantity_unit": { value: "KWH" }
  }
})
