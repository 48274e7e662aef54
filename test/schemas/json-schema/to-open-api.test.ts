/**
 * `toOpenApi()`: an OpenAPI 3.1 document of every endpoint of the catalogue that a maintained validator accepts, built
 * from the catalogue (paths, methods, parameters, query defaults, statuses, retry advice) and from the
 * same schemas as `toJsonSchema` (checked by validating generated payloads against its components).
 */
import { Validator } from "@seriousme/openapi-schema-validator"
import { Ajv2020 } from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ENDPOINT_IDS, endpoints, type OpenApiDocument, POST_ENDPOINT_IDS, toOpenApi } from "../../../src/index.js"
import { arbitraryInvalidPayload, arbitraryPayload } from "../../../src/testing/index.js"

type Plugin = (ajv: Ajv2020) => unknown
const addFormats: Plugin = (addFormatsModule as unknown as { default?: Plugin }).default ?? (addFormatsModule as unknown as Plugin)

const SEED = 20_250_105
const document: OpenApiDocument = toOpenApi()

const operationOf = (id: (typeof ENDPOINT_IDS)[number]) => {
  const endpoint = endpoints[id]
  const operation = document.paths[endpoint.path]?.[endpoint.method === "GET" ? "get" : "post"]
  if (operation === undefined) throw new Error(`no operation for ${id}`)
  return operation
}

describe("toOpenApi", () => {
  it("passes the OpenAPI 3.1 schema validator (@seriousme/openapi-schema-validator)", async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe("3.1")
  })

  it("the validator notices a broken document (the check above can fail)", async () => {
    // A path parameter "in" the body (OpenAPI 2 style), and no info.version: both invalid in 3.1.
    for (const breakIt of [
      (d: { paths: Record<string, Record<string, { parameters?: Array<{ in: string }> }>> }) => {
        const parameter = d.paths[endpoints["account-transfer-status"].path]?.["get"]?.parameters?.[0]
        if (parameter === undefined) throw new Error("no parameter to break")
        parameter.in = "body"
      },
      (d: { info: { version?: string } }) => delete d.info.version
    ]) {
      const broken = structuredClone(document) as never
      breakIt(broken)
      expect((await new Validator().validate(broken as Record<string, unknown>)).valid).toBe(false)
    }
  })

  it("has one operation per endpoint, with its id, method and every documented status", () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item))
    expect(operations.length).toBe(ENDPOINT_IDS.length)
    for (const id of ENDPOINT_IDS) {
      const operation = operationOf(id)
      expect(operation.operationId).toBe(id)
      expect(Object.keys(operation.responses).sort()).toEqual(Object.keys(endpoints[id].responses).sort())
      for (const [status, response] of Object.entries(endpoints[id].responses)) {
        expect(operation.responses[status]?.["x-retry"]).toBe(response.retry)
        expect(operation.responses[status]?.description).toBe(response.description)
      }
    }
  })

  it("declares path parameters, and the transactions query parameters with their defaults", () => {
    const status = operationOf("account-transfer-status")
    expect(status.parameters?.map((p) => [p.name, p.in, p.required])).toEqual([
      ["import_supplier_code", "path", true],
      ["external_account_number", "path", true]
    ])
    expect(status.parameters?.[0]?.schema["maxLength"]).toBe(32)
    expect(status.requestBody).toBeUndefined()
    const transactions = operationOf("transactions")
    expect(transactions.parameters?.map((p) => [p.name, p.in, p.required, p.schema["type"], p.schema["default"]])).toEqual(
      endpoints.transactions.queryParameters.map((q) => [q.name, "query", false, "boolean", q.default])
    )
    expect(transactions.parameters?.every((p) => p.schema["default"] === true)).toBe(true)
    const withoutQuery = POST_ENDPOINT_IDS.filter((i) => endpoints[i].queryParameters.length === 0)
    expect(withoutQuery.length).toBeGreaterThan(0)
    for (const id of withoutQuery) expect(operationOf(id).parameters).toBeUndefined()
  })

  it("requires the Authorization: Token header on every operation", () => {
    expect(document.security).toEqual([{ TokenAuth: [] }])
    expect(document.components.securitySchemes["TokenAuth"]).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" })
    expect(String(document.components.securitySchemes["TokenAuth"]?.["description"])).toContain("Token <ACCESS_TOKEN>")
  })

  it("every $ref resolves to a component", () => {
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/gu) ?? []
    expect(refs.length).toBeGreaterThan(50)
    for (const ref of refs) {
      const name = /#\/components\/schemas\/([^"]+)"/u.exec(ref)?.[1]
      expect(name !== undefined && Object.hasOwn(document.components.schemas, name), ref).toBe(true)
    }
  })

  it.each(POST_ENDPOINT_IDS)("%s: the request body component accepts generated payloads and rejects broken ones", (id) => {
    // The components as a draft 2020-12 document: OpenAPI 3.1 schemas are JSON Schema 2020-12.
    const ref = operationOf(id).requestBody?.content["application/json"].schema["$ref"]
    const asDefs = JSON.parse(JSON.stringify(document.components.schemas).replaceAll("#/components/schemas/", "#/$defs/")) as Record<string, unknown>
    const ajv = new Ajv2020({ allErrors: true, strict: false })
    addFormats(ajv)
    const validate = ajv.compile({ $ref: String(ref).replace("#/components/schemas/", "#/$defs/"), $defs: asDefs })
    for (const payload of fc.sample(arbitraryPayload(id), { numRuns: 100, seed: SEED })) expect(validate(payload)).toBe(true)
    const structural = new Set(["required", "unknown_field", "invalid", "null", "blank", "empty", "not_a_list", "max_length"])
    for (const broken of fc.sample(arbitraryInvalidPayload(id), { numRuns: 200, seed: SEED })) {
      if (structural.has(broken.expected.code)) expect(validate(broken.payload), broken.description).toBe(false)
    }
  })

  it("returns a fresh object each time", () => {
    const a = toOpenApi() as { info: { title: string } }
    a.info.title = "changed"
    expect(toOpenApi().info.title).not.toBe("changed")
  })
})
