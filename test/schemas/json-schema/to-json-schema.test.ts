/**
 * `toJsonSchema(endpointId)`: a standalone draft 2020-12 document generated from the request schema:
 * closed objects, the required keys of the contract, patterns, formats, length limits, and the
 * cross-field rules JSON Schema can state.
 */
import { Ajv2020 } from "ajv/dist/2020.js"
import { describe, expect, it } from "vitest"
import { ENDPOINT_IDS, type EndpointId, endpoints, type JsonSchemaDocument, toJsonSchema } from "../../../src/index.js"
import { DECIMAL_RE, ISO_DATE_RE, ISO_DATETIME_RE, NON_BLANK_RE, NO_NUL_RE, THIRTEEN_DIGITS_RE } from "../../../src/schemas/conventions.js"

type Node = Record<string, unknown>
const isNode = (u: unknown): u is Node => typeof u === "object" && u !== null && !Array.isArray(u)

/** Every subschema of a JSON Schema document (following `$ref`s into `$defs`), with a readable location. */
const subschemas = (document: JsonSchemaDocument): Array<{ where: string; node: Node }> => {
  const out: Array<{ where: string; node: Node }> = []
  const seen = new Set<Node>()
  const visit = (value: unknown, where: string): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${where}/${i}`))
    if (!isNode(value) || seen.has(value)) return
    seen.add(value)
    out.push({ where, node: value })
    for (const [key, child] of Object.entries(value)) if (key !== "examples") visit(child, `${where}/${key}`)
  }
  visit(document, "#")
  return out
}

/** The schema of a property path (`notes.*.body`), resolving `$ref`s into `$defs`. */
const at = (document: JsonSchemaDocument, path: string): Node => {
  const resolve = (node: Node): Node => {
    const ref = node["$ref"]
    if (typeof ref !== "string") return node
    const target = document.$defs[ref.replace("#/$defs/", "")]
    if (!isNode(target)) throw new Error(`unresolved ${ref}`)
    return resolve(target)
  }
  let node: Node = resolve(document)
  for (const step of path.split(".")) {
    const next = step === "*" ? node["items"] : (node["properties"] as Node | undefined)?.[step]
    if (!isNode(next)) throw new Error(`no schema at ${path} (step ${step})`)
    node = resolve(next)
  }
  return node
}

/** All patterns of a node, including those nested in `allOf`. */
const patternsOf = (node: Node): Array<string> => [
  ...(typeof node["pattern"] === "string" ? [node["pattern"]] : []),
  ...((node["allOf"] as Array<Node> | undefined) ?? []).flatMap(patternsOf)
]

describe("toJsonSchema", () => {
  it.each(ENDPOINT_IDS)("%s: a valid draft 2020-12 document, every object closed", (id) => {
    const document = toJsonSchema(id)
    expect(document.$schema).toBe("https://json-schema.org/draft/2020-12/schema")
    expect(typeof document.$defs).toBe("object")
    expect(document.title).toContain(endpoints[id].path)
    // ajv in strict mode compiles it (unknown keywords, missing types and undefined required keys would throw).
    const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: false })
    expect(() => ajv.compile(document)).not.toThrow()
    const objects = subschemas(document).filter(({ node }) => node["type"] === "object" && isNode(node["properties"]))
    expect(objects.length).toBeGreaterThan(0)
    for (const { where, node } of objects) {
      // A closed object, except inside the fragments of cross-field rules (`anyOf`, `if`/`then`), which
      // only add conditions to the object they belong to.
      if (!/\/(?:anyOf|if|then)\b/u.test(where)) expect(node["additionalProperties"], where).toBe(false)
    }
  })

  it("lists the contract's required keys", () => {
    expect(toJsonSchema("notes")["required"]).toEqual(["import_supplier", "external_account_number", "notes"])
    expect(at(toJsonSchema("energy-amount"), "energy_amount")["required"]).toEqual([
      "malo_number", "period_start_at", "period_end_at", "product_identifier", "product_identifier_type", "quantity", "quantity_unit"
    ])
    expect(at(toJsonSchema("transactions"), "transactions.*")["required"]).toEqual(["transaction_id", "transaction_date", "amount", "type"])
    expect(at(toJsonSchema("transactions"), "transactions.*.tax_items.*")["required"]).toEqual(["amount", "tax_type", "value_taxed", "rate", "unit_type"])
    expect(at(toJsonSchema("market-participant-invoice"), "market_participant_invoice.sender_address")["required"]).toEqual([
      "name", "street", "city", "postcode", "country_code"
    ])
    expect(toJsonSchema("account-transfer-status")["required"]).toEqual(["import_supplier_code", "external_account_number"])
  })

  it("writes patterns and formats of dates, datetimes, decimals, paths, phone numbers and codes", () => {
    const energy = toJsonSchema("energy-amount")
    expect(patternsOf(at(energy, "energy_amount.period_start_at"))).toContain(ISO_DATETIME_RE.source)
    expect(at(energy, "energy_amount.period_start_at")["format"]).toBe("date-time")
    expect(patternsOf(at(energy, "energy_amount.quantity"))).toContain(DECIMAL_RE.source)
    expect(patternsOf(at(energy, "energy_amount.product_identifier"))).toEqual([NON_BLANK_RE.source, NO_NUL_RE.source])
    const transactions = toJsonSchema("transactions")
    expect(at(transactions, "transactions.*.transaction_date")["format"]).toBe("date")
    expect(patternsOf(at(transactions, "transactions.*.transaction_date"))).toContain(ISO_DATE_RE.source)
    expect(at(transactions, "transactions.*.amount")["type"]).toBe("number")
    expect(patternsOf(at(toJsonSchema("notes"), "notes.*.document_paths.*.document_path")).length).toBe(2)
    expect(patternsOf(at(toJsonSchema("market-participant"), "contact_details.*.phone")).length).toBe(2)
    expect(patternsOf(at(toJsonSchema("market-participant-definitions"), "network_operator_code"))).toContain(THIRTEEN_DIGITS_RE.source)
    const code = at(toJsonSchema("market-participant"), "code")
    expect([code["type"], code["minimum"], code["maximum"]]).toEqual(["integer", 1_000_000_000_000, 9_999_999_999_999])
  })

  it("states the length limits in code points, and the nullable fields as string-or-null", () => {
    const payment = toJsonSchema("payment-instruction")
    expect([at(payment, "import_supplier")["maxLength"], at(payment, "external_account_number")["maxLength"], at(payment, "reference")["maxLength"]])
      .toEqual([32, 128, 512])
    const cancelledAt = at(toJsonSchema("energy-amount"), "energy_amount.cancelled_at")
    expect((cancelledAt["anyOf"] as Array<Node>).map((n) => n["type"])).toEqual(["string", "null"])
  })

  it("states the cross-field rules JSON Schema can express", () => {
    const validate = (id: EndpointId) => new Ajv2020({ strict: true, validateFormats: false }).compile(toJsonSchema(id))
    const account = { import_supplier: "S", external_account_number: "1" }
    const notes = validate("notes")
    expect(notes({ ...account, notes: [{ body: "x" }] })).toBe(true)
    expect(notes({ ...account, notes: [{ document_paths: [{ document_path: "a.pdf" }] }] })).toBe(true)
    expect(notes({ ...account, notes: [{ is_pinned: true }] })).toBe(false)
    expect(notes({ ...account, notes: [{ document_paths: [] }] })).toBe(false)
    const transactions = validate("transactions")
    const charge = { transaction_id: "1", transaction_date: "2024-01-01", amount: 1, type: "SUPPLY_CHARGE" }
    const line = { start_date: "2024-01-01", end_date: "2024-01-31", number_of_units: 1, net_amount: 1 }
    expect(transactions({ ...account, transactions: [{ ...charge, product_code: "P", line_items: [line] }] })).toBe(true)
    expect(transactions({ ...account, transactions: [{ ...charge, line_items: [line] }] })).toBe(false)
    expect(transactions({ ...account, transactions: [{ ...charge, product_code: "P", line_items: [] }] })).toBe(false)
    expect(transactions({ ...account, transactions: [{ ...charge, type: "CHARGE" }] })).toBe(true)
    expect(transactions({ ...account, transactions: [{ ...charge, product_code: "P", line_items: [{ ...line, units: [1] }] }] })).toBe(false)
    expect(transactions({ ...account, transactions: [{ ...charge, product_code: "P", line_items: [{ ...line, units: [1, 2] }] }] })).toBe(true)
    const definitions = validate("market-participant-definitions")
    expect(definitions({ network_operator_code: "9900000000001" })).toBe(false)
    expect(definitions({ network_operator_code: "9900000000001", definitions: [], rolled_out_definitions: [] })).toBe(false)
  })

  it("names the library's object schemas in $defs and keeps the request at the top", () => {
    const notes = toJsonSchema("notes")
    expect(Object.keys(notes.$defs).sort()).toEqual(["Note", "NoteDocument"])
    expect(notes["type"]).toBe("object")
    expect(Object.keys(toJsonSchema("market-participant-invoice").$defs)).toContain("InvoiceLineItem")
  })

  it("returns a fresh object each time, and refuses an unknown id", () => {
    const a = toJsonSchema("notes")
    ;(a as { title: string }).title = "changed"
    expect(toJsonSchema("notes").title).not.toBe("changed")
    expect(() => toJsonSchema("nope" as EndpointId)).toThrow(TypeError)
  })
})
