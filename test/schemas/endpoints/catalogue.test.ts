/**
 * The endpoint catalogue against the project's endpoint document (`docs/api.md`, parsed at test time:
 * its endpoint table and its query parameters), and `buildPath`.
 */
import { readFileSync } from "node:fs"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  buildPath,
  ENDPOINT_IDS,
  endpoints,
  isEndpointId,
  POST_ENDPOINT_IDS,
  type ResponseDefinition
} from "../../../src/index.js"

const API_DOC = readFileSync(new URL("../../../docs/api.md", import.meta.url), "utf8")

/** The text of a markdown section, from its heading to the next heading of the same or a higher level. */
const section = (markdown: string, heading: string): string => {
  const level = /^#+/u.exec(heading)?.[0].length ?? 0
  const lines = markdown.split("\n")
  const start = lines.findIndex((line) => line.trim() === heading)
  if (start < 0) throw new Error(`section not found: ${heading}`)
  const rest = lines.slice(start + 1)
  const end = rest.findIndex((line) => {
    const hashes = /^(#+)\s/u.exec(line)?.[1]
    return hashes !== undefined && hashes.length <= level
  })
  return (end < 0 ? rest : rest.slice(0, end)).join("\n")
}

interface DocRow {
  readonly id: string
  readonly method: string
  readonly path: string
  readonly statuses: ReadonlyArray<number>
}

/** The rows of the document's endpoint table: id, method, path and the documented statuses. */
const DOC_ROWS: ReadonlyArray<DocRow> = section(API_DOC, "## Endpoints")
  .split("\n")
  .map((line) => line.split("|").map((cell) => cell.trim()))
  .filter((cells) => cells[2] === "GET" || cells[2] === "POST")
  .map((cells) => ({
    id: cells[1] ?? "",
    method: cells[2] ?? "",
    path: cells[3] ?? "",
    statuses: (cells[5] ?? "").split(",").map((s) => Number(s.trim()))
  }))

/** The transactions query parameters as the document writes them: "`name` (boolean, default true)". */
const DOC_QUERY_PARAMETERS = [...section(API_DOC, "## Query parameters").matchAll(/`([a-z_]+)` \(boolean, default (true|false)\)/gu)].map((m) => ({
  name: m[1] ?? "",
  default: m[2] === "true"
}))

describe("the catalogue against docs/api.md", () => {
  it("parses its rows with distinct ids, each the path segment after /v1/data-import/", () => {
    expect(DOC_ROWS.length).toBeGreaterThan(0)
    expect(new Set(DOC_ROWS.map((r) => r.id)).size).toBe(DOC_ROWS.length)
    for (const row of DOC_ROWS) {
      expect(/^\/v1\/data-import\/([^/]+)\//u.exec(row.path)?.[1], row.path).toBe(row.id)
      expect(row.statuses.length, row.id).toBeGreaterThan(0)
      expect(row.statuses.every((s) => Number.isInteger(s) && s >= 200 && s < 600), row.id).toBe(true)
    }
  })

  it("has exactly the document's ids", () => {
    const ids = DOC_ROWS.map((r) => r.id)
    expect(Object.keys(endpoints).sort()).toEqual([...ids].sort())
    expect([...ENDPOINT_IDS].sort()).toEqual([...ids].sort())
    for (const id of ids) expect(isEndpointId(id), id).toBe(true)
    for (const id of ["", "notes/", "Notes", "toString", "__proto__", "constructor", "hasOwnProperty"]) {
      expect(isEndpointId(id), id).toBe(false)
    }
  })

  it("ENDPOINT_IDS and POST_ENDPOINT_IDS follow the document's order", () => {
    expect(ENDPOINT_IDS).toEqual(DOC_ROWS.map((r) => r.id))
    expect(POST_ENDPOINT_IDS).toEqual(DOC_ROWS.filter((r) => r.method === "POST").map((r) => r.id))
  })

  it.each(DOC_ROWS)("$method $path", ({ method, path, id, statuses }) => {
    if (!isEndpointId(id)) throw new Error(`not in the catalogue: ${id}`)
    const endpoint = endpoints[id]
    expect(endpoint.id).toBe(id)
    expect(endpoint.method).toBe(method)
    expect(endpoint.path).toBe(path)
    expect(endpoint.pathParameters).toEqual([...path.matchAll(/\{([a-z_]+)\}/gu)].map((m) => m[1]))
    expect(endpoint.requestKind).toBe(method === "POST" ? "body" : "path")
    expect(Object.keys(endpoint.responses).map(Number).sort()).toEqual([...statuses].sort())
  })

  it("transactions has the document's query parameters, booleans defaulting to true", () => {
    expect(DOC_QUERY_PARAMETERS.map((q) => q.name).sort()).toEqual(["check_previously_added", "force_add_to_current_statement"])
    expect(DOC_QUERY_PARAMETERS.every((q) => q.default)).toBe(true)
    const actual = endpoints.transactions.queryParameters.map((q) => ({ name: q.name, type: q.type, default: q.default }))
    expect(sorted(actual)).toEqual(sorted(DOC_QUERY_PARAMETERS.map((q) => ({ ...q, type: "boolean" }))))
  })

  it("no other endpoint has query parameters", () => {
    for (const id of ENDPOINT_IDS) {
      if (id !== "transactions") expect(endpoints[id].queryParameters, id).toEqual([])
    }
  })

  it("payment-instruction: 500 is retry-as-is, 400 is do-not-retry-unchanged", () => {
    expect(endpoints["payment-instruction"].responses[500].retry).toBe("retry-as-is")
    expect(endpoints["payment-instruction"].responses[400].retry).toBe("do-not-retry-unchanged")
  })

  it("error statuses carry retry advice, success statuses do not; 401 means reauthenticate, 429 and 503 retry later", () => {
    for (const id of ENDPOINT_IDS) {
      const responses: Readonly<Record<number, ResponseDefinition>> = endpoints[id].responses
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) >= 400) expect(response.retry, `${id} ${status}`).toBeDefined()
        else expect(response.retry, `${id} ${status}`).toBeUndefined()
        if (status === "401") expect(response.retry, `${id} ${status}`).toBe("reauthenticate")
        if (status === "429" || status === "503") expect(response.retry, `${id} ${status}`).toBe("retry-later")
      }
    }
  })
})

const sorted = <T>(list: ReadonlyArray<T>): Array<T> =>
  [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))

const statusPath = (supplier: string, account: string): string =>
  buildPath("account-transfer-status", { import_supplier_code: supplier, external_account_number: account })

/** The path parameter segments of an account-transfer-status path, still encoded. */
const segmentsOf = (path: string): Array<string> => {
  const prefix = "/v1/data-import/account-transfer-status/"
  expect(path.startsWith(prefix)).toBe(true)
  expect(path.endsWith("/")).toBe(true)
  return path.slice(prefix.length, -1).split("/")
}

describe("buildPath", () => {
  it("builds the POST paths as the catalogue has them", () => {
    for (const id of POST_ENDPOINT_IDS) expect(buildPath(id, {})).toBe(endpoints[id].path)
  })

  it("fills the path parameters", () => {
    expect(statusPath("TENTACLE_ENERGY", "EXTERNAL-1234"))
      .toBe("/v1/data-import/account-transfer-status/TENTACLE_ENERGY/EXTERNAL-1234/")
    expect(buildPath("pending-account-import-processes", { import_supplier_code: "TENTACLE_ENERGY" }))
      .toBe("/v1/data-import/pending-account-import-processes/TENTACLE_ENERGY/")
  })

  it.each([
    ["/", "%2F"],
    [" ", "%20"],
    ["?", "%3F"],
    ["#", "%23"],
    ["%", "%25"],
    ["ü", "%C3%BC"],
    ["€", "%E2%82%AC"],
    ["😀", "%F0%9F%98%80"]
  ])("percent-encodes %j as %s", (raw, encoded) => {
    if (raw.trim() !== "") {
      expect(segmentsOf(statusPath("S", raw))[1]).toBe(encoded)
      expect(segmentsOf(statusPath(raw, "A"))[0]).toBe(encoded)
    }
    // Inside a longer value, a dot needs no escape; everything else is escaped the same way.
    const inside = segmentsOf(statusPath("S", `a${raw}b`))[1]
    expect(inside).toBe(raw.startsWith(".") ? `a${raw}b` : `a${encoded}b`)
  })

  it("keeps the segment count whatever the parameters hold", () => {
    expect(segmentsOf(statusPath("a/b/c", "../../admin"))).toEqual(["a%2Fb%2Fc", "..%2F..%2Fadmin"])
  })

  it("refuses a whole . or .. segment, which URL parsers remove even when percent-encoded", () => {
    for (const dots of [".", ".."]) {
      expect(() => statusPath(dots, "A")).toThrow(TypeError)
      expect(() => statusPath("S", dots)).toThrow(TypeError)
      expect(new URL(`/x/${encodeURIComponent(dots).replaceAll(".", "%2E")}/y/`, "https://api.example").pathname).not.toContain("%2E")
    }
    expect(segmentsOf(statusPath("...", ".a"))).toEqual(["...", ".a"])
  })

  it("does not throw on lone surrogates and gives a decodable path", () => {
    for (const raw of ["\uD800", "a\uDC00b", "\uDBFF\uDBFF", "x\uD83D"]) {
      const path = statusPath("S", raw)
      const [, account] = segmentsOf(path)
      const decoded = decodeURIComponent(account ?? "")
      expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u.test(decoded)).toBe(false)
    }
  })

  it("throws a TypeError for a missing or blank path parameter", () => {
    expect(() => statusPath("", "A")).toThrow(TypeError)
    expect(() => statusPath("S", " \t\n")).toThrow(TypeError)
    expect(() => buildPath("account-transfer-status", { import_supplier_code: "S" } as never)).toThrow(TypeError)
  })

  it("adds the known boolean query parameters of transactions", () => {
    const path = buildPath("transactions", {}, { check_previously_added: false, force_add_to_current_statement: true })
    const [base, query] = path.split("?")
    expect(base).toBe(endpoints.transactions.path)
    expect(Object.fromEntries(new URLSearchParams(query))).toEqual({
      check_previously_added: "false",
      force_add_to_current_statement: "true"
    })
    expect(buildPath("transactions", {}, { check_previously_added: true }))
      .toBe(`${endpoints.transactions.path}?check_previously_added=true`)
  })

  it("adds only known boolean query parameters", () => {
    const base = endpoints.transactions.path
    expect(buildPath("transactions", {})).toBe(base)
    expect(buildPath("transactions", {}, {})).toBe(base)
    expect(buildPath("transactions", {}, { dry_run: true, "__proto__": true })).toBe(base)
    expect(buildPath("transactions", {}, JSON.parse('{"__proto__": true, "constructor": false}') as Record<string, boolean>))
      .toBe(base)
    const notBoolean = { check_previously_added: "false", force_add_to_current_statement: 1 } as unknown as Record<string, boolean>
    expect(buildPath("transactions", {}, notBoolean)).toBe(base)
    expect(buildPath("transactions", {}, { dry_run: true, force_add_to_current_statement: false }))
      .toBe(`${base}?force_add_to_current_statement=false`)
    // Endpoints without query parameters ignore them.
    expect(buildPath("notes", {}, { check_previously_added: false })).toBe(endpoints.notes.path)
    expect(buildPath("account-transfer-status", { import_supplier_code: "S", external_account_number: "A" }, {
      check_previously_added: false
    })).toBe("/v1/data-import/account-transfer-status/S/A/")
  })

  it("property: decoding each segment gives back the parameter, for any well-formed non-blank string", () => {
    const special = fc.constantFrom("/", " ", "?", "#", "%", ".", "..", "&", "=", "+", ";", ":", "@", "\\", "ü", "😀", "\u0000")
    const param = fc.oneof(
      fc.string({ unit: "grapheme", minLength: 1 }),
      fc.string({ unit: "grapheme-ascii", minLength: 1 }),
      fc.string({ unit: special, minLength: 1 })
    ).filter((s) => /\S/u.test(s) && s !== "." && s !== "..")
    fc.assert(
      fc.property(param, param, (supplier, account) => {
        const path = statusPath(supplier, account)
        const segments = segmentsOf(path)
        expect(segments).toHaveLength(2)
        for (const segment of segments) {
          // Only unreserved characters and percent-escapes: no `/`, `?`, `#` and no bare dot segment.
          expect(segment).toMatch(/^(?:[A-Za-z0-9\-_.!~*'()]|%[0-9A-F]{2})+$/u)
          expect(segment === "." || segment === "..").toBe(false)
        }
        expect(segments.map((s) => decodeURIComponent(s))).toEqual([supplier, account])
        const list = buildPath("all-account-import-processes", { import_supplier_code: supplier })
        expect(decodeURIComponent(list.slice("/v1/data-import/all-account-import-processes/".length, -1))).toBe(supplier)
      }),
      { numRuns: 2_000, seed: 20_240_101 }
    )
  })

  it("property: never throws on any non-blank string, even with lone surrogates", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", minLength: 1 }).filter((s) => s.trim() !== "" && s !== "." && s !== ".."), (raw) => {
        const [supplier] = segmentsOf(statusPath(raw, "A"))
        expect(() => decodeURIComponent(supplier ?? "")).not.toThrow()
      }),
      { numRuns: 1_000, seed: 7 }
    )
  })
})
