/**
 * One energy-amount payload as an NDJSON line, for CLI tests that send records and only care about
 * which record is which: the supplier, account, quantity and line item vary, the rest is the spec's
 * example (one MaLo, October 2024, OBIS 1-1:1.8.0 in kWh).
 */
export const energyAmountLine = (fields: { readonly supplier?: string; readonly account?: string; readonly quantity?: string; readonly line: string }): string =>
  JSON.stringify({
    import_supplier: fields.supplier ?? "STADTWERKE_NORD",
    external_account_number: fields.account ?? "KD-1",
    energy_amount: {
      malo_number: "51238696781",
      period_start_at: "2024-10-01T00:00:00+02:00",
      period_end_at: "2024-10-31T23:59:59+01:00",
      product_identifier: "1-1:1.8.0",
      product_identifier_type: "SRW",
      quantity: fields.quantity ?? "1.5",
      quantity_unit: "KWH",
      line_item_identifier: fields.line
    }
  })
