/**
 * `buildRequest`: the request of every endpoint as the catalogue describes it (method, path, query
 * defaults, `Authorization: Token …`, a JSON body for POST), and for any generated payload a body that
 * `validatePayload` accepts and a path that `buildPath` agrees with.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { buildPath, buildRequest, ENDPOINT_IDS, endpoints, POST_ENDPOINT_IDS, validatePayload } from "../../src/index.js"
import { arbitraryPayload, DEFAULT_NOW } from "../../src/testing/index.js"
import { loadExample } from "../support/payloads.js"

const target = { baseUrl: "https://api.example.energy", token: "tok-123" }

describe("buildRequest", () => {
  it.each(POST_ENDPOINT_IDS)("%s: POST to the catalogue's path with the payload as JSON and the token", (id) => {
    const payload = loadExample(id)
    const request = buildRequest(id, payload, target)
    expect(request.method).toBe("POST")
    expect(request.url.split("?")[0]).toBe(`https://api.example.energy${endpoints[id].path}`)
    expect(request.headers).toEqual({ Accept: "application/json", Authorization: "Token tok-123", "Content-Type": "application/json" })
    expect(JSON.parse(request.body!)).toEqual(payload)
  })

  it.each(ENDPOINT_IDS.filter((id) => endpoints[id].method === "GET"))("%s: GET with the path parameters in the path and no body", (id) => {
    const params = { import_supplier_code: "NORD/1", external_account_number: "KD 7" }
    const request = buildRequest(id, params, target)
    expect(request.method).toBe("GET")
    expect(request.body).toBeUndefined()
    expect(request.headers["Authorization"]).toBe("Token tok-123")
    expect(request.headers["Content-Type"]).toBeUndefined()
    expect(request.url).toContain("/NORD%2F1/")
    expect(request.url.endsWith("/")).toBe(true)
  })

  it("transactions: both flags are always sent; force_add_to_current_statement is false unless asked for", () => {
    const payload = loadExample("transactions")
    const search = (extra: object) => new URL(buildRequest("transactions", payload, { ...target, ...extra }).url).search
    expect(search({})).toBe("?check_previously_added=true&force_add_to_current_statement=false")
    expect(search({ forceAddToCurrentStatement: true })).toBe("?check_previously_added=true&force_add_to_current_statement=true")
    expect(search({ forceAddToCurrentStatement: false })).toBe("?check_previously_added=true&force_add_to_current_statement=false")
    expect(search({ checkPreviouslyAdded: false })).toBe("?check_previously_added=false&force_add_to_current_statement=false")
    expect(search({ checkPreviouslyAdded: true })).toBe("?check_previously_added=true&force_add_to_current_statement=false")
  })

  it("transactions: a parameter of the query wins over the flags; one not given takes the flag's value", () => {
    const payload = loadExample("transactions")
    const params = (extra: object) => Object.fromEntries(new URL(buildRequest("transactions", payload, { ...target, ...extra }).url).searchParams)
    expect(params({ query: { check_previously_added: false } })).toEqual({ check_previously_added: "false", force_add_to_current_statement: "false" })
    expect(params({ query: { force_add_to_current_statement: true } })).toEqual({ check_previously_added: "true", force_add_to_current_statement: "true" })
    expect(params({ forceAddToCurrentStatement: true, query: { force_add_to_current_statement: false } }))
      .toEqual({ check_previously_added: "true", force_add_to_current_statement: "false" })
    expect(params({ checkPreviouslyAdded: false, forceAddToCurrentStatement: true, query: { check_previously_added: true } }))
      .toEqual({ check_previously_added: "true", force_add_to_current_statement: "true" })
  })

  it("other endpoints carry no query, whatever the flags", () => {
    const request = buildRequest("notes", loadExample("notes"), { ...target, forceAddToCurrentStatement: true, checkPreviouslyAdded: false })
    expect(request.url).toBe("https://api.example.energy/v1/data-import/notes/create/")
  })

  it("a base URL with a query or a fragment is refused, even an empty one", () => {
    for (const baseUrl of ["https://api.example.energy/?x=1", "https://api.example.energy?", "https://api.example.energy/#top", "https://api.example.energy#"]) {
      expect(() => buildRequest("notes", loadExample("notes"), { ...target, baseUrl }), baseUrl).toThrow(TypeError)
    }
  })

  it("a base URL with a path prefix and trailing slashes keeps the prefix, once", () => {
    expect(buildRequest("notes", loadExample("notes"), { ...target, baseUrl: "http://127.0.0.1:8080/proxy//" }).url)
      .toBe("http://127.0.0.1:8080/proxy/v1/data-import/notes/create/")
  })

  it("a token that cannot be a header value is refused, and the message does not contain it", () => {
    for (const token of ["", "two words", "line\nbreak", "tab\there"]) {
      expect(() => buildRequest("notes", loadExample("notes"), { ...target, token })).toThrow(TypeError)
      try {
        buildRequest("notes", loadExample("notes"), { ...target, token })
      } catch (error) {
        if (token !== "") expect((error as Error).message).not.toContain(token)
      }
    }
  })
})

describe("buildRequest (property)", () => {
  it.each(POST_ENDPOINT_IDS)("%s: for any generated payload, a body validatePayload accepts and the path of buildPath", (id) => {
    fc.assert(
      fc.property(arbitraryPayload(id), fc.record({ check_previously_added: fc.boolean() }, { requiredKeys: [] }), (payload, query) => {
        const request = buildRequest(id, payload, { ...target, query })
        const body: unknown = JSON.parse(request.body!)
        expect(validatePayload(id, body, { now: DEFAULT_NOW }).ok).toBe(true)
        const url = new URL(request.url)
        const expected = buildPath(id, {}, Object.fromEntries([...url.searchParams.entries()].map(([k, v]) => [k, v === "true"])))
        expect(`${url.pathname}${url.search}`).toBe(expected)
      }),
      { numRuns: 25, seed: 14 }
    )
  })

  it("transactions: for any flags and query, each parameter is the query's, else the flag's, else check true and force false", () => {
    const payload = loadExample("transactions")
    const flags = fc.record({ checkPreviouslyAdded: fc.boolean(), forceAddToCurrentStatement: fc.boolean() }, { requiredKeys: [] })
    const query = fc.record({ check_previously_added: fc.boolean(), force_add_to_current_statement: fc.boolean() }, { requiredKeys: [] })
    fc.assert(
      fc.property(flags, fc.option(query, { nil: undefined }), (f, q) => {
        const url = new URL(buildRequest("transactions", payload, { ...target, ...f, query: q }).url)
        expect(url.searchParams.get("check_previously_added")).toBe(String(q?.check_previously_added ?? f.checkPreviouslyAdded ?? true))
        expect(url.searchParams.get("force_add_to_current_statement")).toBe(String(q?.force_add_to_current_statement ?? f.forceAddToCurrentStatement ?? false))
        expect([...url.searchParams.keys()]).toEqual(["check_previously_added", "force_add_to_current_statement"])
      }),
      { numRuns: 100, seed: 14 }
    )
  })

  it("for any account identification, the GET path is the one buildPath builds", () => {
    const segment = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== "" && s !== "." && s !== "..")
    fc.assert(
      fc.property(segment, segment, (supplier, account) => {
        const params = { import_supplier_code: supplier, external_account_number: account }
        const request = buildRequest("account-transfer-status", params, target)
        expect(request.url).toBe(`${target.baseUrl}${buildPath("account-transfer-status", params)}`)
      }),
      { numRuns: 200, seed: 14 }
    )
  })
})
