/**
 * `createClient`: the retry policy on a fake clock and a scripted `fetch`: backoff within its bounds,
 * `Retry-After` honoured, the retry budget, 400 never retried, a broken connection after sending retried
 * only where a repeat is harmless, and plain http refused except to loopback.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { createServer as createHttpsServer } from "node:https"
import type { AddressInfo } from "node:net"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type ClientClock, type ClientOptions, createClient, InsecureBaseUrlError, STANDARD_RETRY_POLICY } from "../../src/index.js"
import { loadExample } from "../support/payloads.js"

type Step = { readonly status: number; readonly body: unknown; readonly headers?: Record<string, string> } | { readonly error: string }

/** A clock whose sleeps only move time forward, recording each. */
const fakeClock = () => {
  let now = 0
  const sleeps: Array<number> = []
  const clock: ClientClock = {
    now: () => now,
    sleep: (ms) => {
      sleeps.push(ms)
      now += ms
      return Promise.resolve()
    }
  }
  return { clock, sleeps, elapsed: () => now }
}

/** A fetch that answers with the steps in turn (the last one repeats) and records the requests. */
const scripted = (steps: ReadonlyArray<Step>) => {
  const requests: Array<{ url: string; init: RequestInit }> = []
  const fetch = (async (url: string, init: RequestInit) => {
    requests.push({ url, init })
    const step = steps[Math.min(requests.length - 1, steps.length - 1)]!
    if ("error" in step) throw new TypeError("fetch failed", { cause: Object.assign(new Error(step.error), { code: step.error }) })
    return new Response(JSON.stringify(step.body), { status: step.status, headers: step.headers ?? {} })
  }) as unknown as typeof globalThis.fetch
  return { fetch, requests }
}

const unavailable: Step = { status: 503, body: { detail: "Unavailable." } }
const energy = loadExample("energy-amount")
const created: Step = { status: 201, body: energy }

const client = (steps: ReadonlyArray<Step>, options: { random?: () => number; retry?: object } & Partial<ClientOptions> = {}) => {
  const time = fakeClock()
  const http = scripted(steps)
  const { random, retry, ...rest } = options
  const c = createClient({ baseUrl: "http://127.0.0.1:1", token: "secret-token", fetch: http.fetch, clock: time.clock, random: random ?? (() => 0.999), retry: retry ?? {}, ...rest })
  return { c, ...time, ...http }
}

describe("retries", () => {
  it("503 then 201: retried after a backoff within [0, base · 2^(n-1)); the outcome says how many attempts", async () => {
    const { c, sleeps, requests } = client([unavailable, unavailable, created], { retry: { maxAttempts: 5 } })
    const outcome = await c.send("energy-amount", energy)
    expect(outcome).toMatchObject({ kind: "created", attempts: 3 })
    expect(requests).toHaveLength(3)
    expect(sleeps).toHaveLength(2)
    expect(sleeps[0]).toBeLessThan(STANDARD_RETRY_POLICY.baseDelayMs)
    expect(sleeps[1]).toBeLessThan(STANDARD_RETRY_POLICY.baseDelayMs * 2)
    expect(sleeps[1]).toBeGreaterThanOrEqual(STANDARD_RETRY_POLICY.baseDelayMs)
  })

  it("full jitter: random 0 waits nothing, and the cap bounds late retries", async () => {
    const zero = client([unavailable, unavailable, created], { random: () => 0, retry: { maxAttempts: 3 } })
    await zero.c.send("energy-amount", energy)
    expect(zero.sleeps).toEqual([0, 0])
    const capped = client([unavailable], { retry: { maxAttempts: 12, maxDelayMs: 1000 } })
    await capped.c.send("energy-amount", energy)
    expect(Math.max(...capped.sleeps)).toBeLessThan(1000)
    expect(Math.max(...capped.sleeps)).toBeGreaterThan(900)
  })

  it("Retry-After is honoured: the wait is at least what the service asked", async () => {
    const { c, sleeps } = client([{ ...unavailable, headers: { "Retry-After": "7" } }, created])
    expect((await c.send("energy-amount", energy)).kind).toBe("created")
    expect(sleeps).toEqual([7000])
    const tooLong = client([{ ...unavailable, headers: { "Retry-After": "3600" } }, created])
    expect(await tooLong.c.send("energy-amount", energy)).toMatchObject({ kind: "failed", attempts: 1 })
    expect(tooLong.requests).toHaveLength(1)
  })

  it("Retry-After as an HTTP date is read against the answer's Date, whatever the client's clock says", async () => {
    // The service's clock and the wait it asks for; the client's wall clock is off by `skew` either way.
    const serverNow = Date.UTC(2026, 10, 27, 12, 0, 0)
    const http = (ms: number) => new Date(ms).toUTCString()
    const answer: Step = { ...unavailable, headers: { "Retry-After": http(serverNow + 30_000), Date: http(serverNow) } }
    for (const skew of [-10 * 60_000, 0, 10 * 60_000]) {
      const time = fakeClock()
      const http = scripted([answer, created])
      const c = createClient({ baseUrl: "http://127.0.0.1:1", token: "secret-token", fetch: http.fetch, clock: { ...time.clock, wallTime: () => serverNow + skew }, random: () => 0 })
      expect(await c.send("energy-amount", energy), `skew ${skew}`).toMatchObject({ kind: "created", attempts: 2 })
      expect(time.sleeps, `skew ${skew}`).toEqual([30_000])
    }
  })

  it("property: for any clock skew and any wait asked as a date, the client waits what was asked", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -86_400, max: 86_400 }), fc.integer({ min: 0, max: 300 }), async (skewSeconds, waitSeconds) => {
        const serverNow = Date.UTC(2026, 0, 1, 8, 0, 0)
        const http = (ms: number) => new Date(ms).toUTCString()
        const time = fakeClock()
        const answers = scripted([{ ...unavailable, headers: { "Retry-After": http(serverNow + waitSeconds * 1000), Date: http(serverNow) } }, created])
        const c = createClient({ baseUrl: "http://127.0.0.1:1", token: "secret-token", fetch: answers.fetch, clock: { ...time.clock, wallTime: () => serverNow + skewSeconds * 1000 }, random: () => 0 })
        expect(await c.send("energy-amount", energy)).toMatchObject({ kind: "created", attempts: 2 })
        expect(time.sleeps).toEqual([waitSeconds * 1000])
      }),
      { numRuns: 50 }
    )
  })

  it("Retry-After as an HTTP date without a Date header is read against the client's wall clock (injectable)", async () => {
    const wall = Date.UTC(2026, 10, 27, 12, 0, 0)
    const time = fakeClock()
    const http = scripted([{ ...unavailable, headers: { "Retry-After": new Date(wall + 12_000).toUTCString() } }, created])
    const c = createClient({ baseUrl: "http://127.0.0.1:1", token: "secret-token", fetch: http.fetch, clock: { ...time.clock, wallTime: () => wall }, random: () => 0 })
    expect(await c.send("energy-amount", energy)).toMatchObject({ kind: "created", attempts: 2 })
    expect(time.sleeps).toEqual([12_000])
  })

  it("an aborted signal ends the wait before a retry: failed with the last answer, no further attempt", async () => {
    const controller = new AbortController()
    const time = fakeClock()
    const http = scripted([unavailable, unavailable, created])
    // The wait before the retry never ends by itself: only the signal ends it.
    const clock: ClientClock = { now: time.clock.now, sleep: () => new Promise<void>(() => undefined) }
    const c = createClient({ baseUrl: "http://127.0.0.1:1", token: "secret-token", fetch: http.fetch, clock, retry: { maxAttempts: 5 } })
    const sent = c.send("energy-amount", energy, { signal: controller.signal })
    await new Promise((r) => setTimeout(r, 10))
    controller.abort()
    expect(await sent).toMatchObject({ kind: "failed", attempts: 1, last: { status: 503 } })
    expect(http.requests).toHaveLength(1)
    // Already aborted: the first attempt is sent and awaited, no retry.
    expect(await c.send("energy-amount", energy, { signal: controller.signal })).toMatchObject({ kind: "failed", attempts: 1 })
    expect(http.requests).toHaveLength(2)
  })

  it("an aborted signal keeps a request waiting for its turn under requestsPerSecond from going out", async () => {
    const controller = new AbortController()
    const http = scripted([created])
    // One request a second: the first goes at once, the second waits a second it is never given.
    const clock: ClientClock = { now: () => 0, sleep: () => new Promise<void>(() => undefined) }
    const c = createClient({ baseUrl: "http://127.0.0.1:1", token: "secret-token", fetch: http.fetch, clock, requestsPerSecond: 1 })
    expect(await c.send("energy-amount", energy, { signal: controller.signal })).toMatchObject({ kind: "created", attempts: 1 })
    const queued = c.send("energy-amount", energy, { signal: controller.signal })
    await new Promise((r) => setTimeout(r, 10))
    controller.abort()
    expect(await queued).toMatchObject({ kind: "failed", attempts: 0 })
    // Aborted before its turn: not sent either.
    expect(await c.send("energy-amount", energy, { signal: controller.signal })).toMatchObject({ kind: "failed", attempts: 0 })
    expect(http.requests).toHaveLength(1)
  })

  it("attempts exhausted: failed, with the last answer", async () => {
    const { c, requests } = client([unavailable])
    const outcome = await c.send("energy-amount", energy)
    expect(outcome).toMatchObject({ kind: "failed", attempts: 3, last: { kind: "retryable", status: 503 } })
    expect(requests).toHaveLength(STANDARD_RETRY_POLICY.maxAttempts)
  })

  it("the retry budget: once spent, a retryable answer is failed at once; successes refill it", async () => {
    const budget = { capacity: 10, retryCost: 5, timeoutCost: 10, successRefill: 1 }
    const { c, requests } = client([unavailable], { retry: { maxAttempts: 100, budget } })
    const first = await c.send("energy-amount", energy)
    expect(first).toMatchObject({ kind: "failed", attempts: 3 })
    expect(first.kind === "failed" && first.reason).toContain("budget")
    expect(requests).toHaveLength(3)
    const second = await c.send("energy-amount", energy)
    expect(second).toMatchObject({ kind: "failed", attempts: 1 })
    expect(requests).toHaveLength(4)
  })

  it("a success returns the tokens its retries took", async () => {
    const budget = { capacity: 10, retryCost: 5, timeoutCost: 10, successRefill: 1 }
    const time = fakeClock()
    let n = 0
    const fetch = (async () => new Response(JSON.stringify(n++ % 2 === 0 ? { detail: "x" } : energy), { status: n % 2 === 1 ? 503 : 201 })) as unknown as typeof globalThis.fetch
    const c = createClient({ baseUrl: "http://127.0.0.1:1", token: "t", fetch, clock: time.clock, random: () => 0, retry: { budget } })
    // Each send: one 503 (5 tokens), then a 201 that gives them back: the budget never runs out.
    for (let i = 0; i < 10; i++) expect((await c.send("energy-amount", energy)).kind).toBe("created")
  })

  it("400 is never retried, nor 404, nor 401", async () => {
    const rejected = { detail: "1 error", code: "payload_failed_validation", errors: [{ detail: "x", code: "required", attr: "energy_amount" }] }
    for (const [step, kind] of [
      [{ status: 400, body: rejected }, "rejected"],
      [{ status: 404, body: { error: "Account not found." } }, "not_found"],
      [{ status: 401, body: { detail: "Invalid token." } }, "unauthorized"]
    ] as const) {
      const { c, requests, sleeps } = client([step, created])
      expect(await c.send("energy-amount", energy)).toMatchObject({ kind, attempts: 1 })
      expect(requests).toHaveLength(1)
      expect(sleeps).toEqual([])
    }
  })

  it("payment-instruction 500 (vendor trouble) is retried as it is", async () => {
    const payment = loadExample("payment-instruction")
    const { c, requests } = client([{ status: 500, body: { error_detail: "vendor" } }, { status: 201, body: { service_account_number: "A-1", reference: "r" } }])
    expect((await c.send("payment-instruction", payment)).kind).toBe("created")
    expect(requests[0]!.init.body).toBe(requests[1]!.init.body)
  })

  it("a certificate the client refuses: the request never left, so it is failed (retried), never in doubt", async () => {
    const { c, requests } = client([{ error: "DEPTH_ZERO_SELF_SIGNED_CERT" }, created])
    expect(await c.send("energy-amount", energy)).toMatchObject({ kind: "created", attempts: 2 })
    expect(requests).toHaveLength(2)
    const always = client([{ error: "CERT_HAS_EXPIRED" }], { retry: { maxAttempts: 3 } })
    const outcome = await always.c.send("energy-amount", energy)
    expect(outcome).toMatchObject({ kind: "failed", attempts: 3 })
    expect((outcome as { reason: string }).reason).toContain("CERT_HAS_EXPIRED")
  })

  it("property: every certificate or handshake refusal is failed or retried, a connection broken later stays in doubt", async () => {
    const refusals = ["DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID", "CERT_REVOKED", "ERR_TLS_CERT_ALTNAME_INVALID", "ERR_SSL_WRONG_VERSION_NUMBER"]
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...refusals), fc.integer({ min: 1, max: 4 }), async (code, maxAttempts) => {
        const { c, requests } = client([{ error: code }], { retry: { maxAttempts } })
        const outcome = await c.send("energy-amount", energy)
        expect(outcome).toMatchObject({ kind: "failed", attempts: maxAttempts })
        expect(requests).toHaveLength(maxAttempts)
      })
    )
    for (const code of ["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"]) {
      expect(await client([{ error: code }]).c.send("energy-amount", energy), code).toMatchObject({ kind: "in_doubt", attempts: 1 })
    }
  })

  it("a real TLS server with a self-signed certificate: nothing reaches it, and the outcome is failed", async () => {
    // A throwaway key and certificate made for this test alone (openssl req -x509 -newkey ... -subj
    // "/CN=data-import test, self-signed"): it protects nothing, and no client trusts it.
    const fixtures = new URL("../fixtures/tls/", import.meta.url)
    let reached = 0
    const server = createHttpsServer({ key: readFileSync(new URL("self-signed.key.pem", fixtures)), cert: readFileSync(new URL("self-signed.cert.pem", fixtures)) }, (_, res) => {
      reached++
      res.writeHead(201).end("{}")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const { port } = server.address() as AddressInfo
      const c = createClient({ baseUrl: `https://127.0.0.1:${port}`, token: "secret-token", retry: { maxAttempts: 2, baseDelayMs: 0, maxDelayMs: 0 } })
      const outcome = await c.send("energy-amount", energy)
      expect(outcome).toMatchObject({ kind: "failed", attempts: 2 })
      expect((outcome as { reason: string }).reason).toContain("DEPTH_ZERO_SELF_SIGNED_CERT")
      expect(reached).toBe(0)
    } finally {
      server.close()
    }
  })

  it("connection refused: nothing left, so it is retried whatever the endpoint", async () => {
    const { c, requests } = client([{ error: "ECONNREFUSED" }, created])
    expect(await c.send("energy-amount", energy)).toMatchObject({ kind: "created", attempts: 2 })
    expect(requests).toHaveLength(2)
  })

  it("a connection broken after sending: in_doubt unless a repeat is harmless, which is retried", async () => {
    const broken = client([{ error: "UND_ERR_SOCKET" }, created])
    expect(await broken.c.send("energy-amount", energy)).toMatchObject({ kind: "in_doubt", attempts: 1 })
    expect(broken.requests).toHaveLength(1)

    const notes = { import_supplier: "N", external_account_number: "K", notes: [{ body: "b", created_at: "2024-05-01T10:00:00Z" }] }
    const again = client([{ error: "ECONNRESET" }, { status: 201, body: [{ created_at: "2024-05-01T10:00:00Z", body: "b", status: "NOTE_ALREADY_EXISTS" }] }])
    expect(await again.c.send("notes", notes)).toMatchObject({ kind: "already_exists", attempts: 2 })

    const withoutTime = client([{ error: "ECONNRESET" }, created])
    expect((await withoutTime.c.send("notes", { ...notes, notes: [{ body: "b" }] })).kind).toBe("in_doubt")

    const transactions = loadExample("transactions")
    const unchecked = client([{ error: "ECONNRESET" }])
    expect((await unchecked.c.send("transactions", transactions, { query: { check_previously_added: false } })).kind).toBe("in_doubt")
    const added = (transactions["transactions"] as Array<Record<string, unknown>>).map((t) => ({
      status: "TRANSACTION_ADDED_TO_ACCOUNT",
      transaction_data: { ...t, amount: "86.00" }
    }))
    const checked = client([{ error: "ECONNRESET" }, { status: 201, body: { results: added } }])
    expect((await checked.c.send("transactions", transactions)).kind).toBe("created")
    // The client's option is the effective flag for the repeat rule too, unless the call's query overrides it.
    const uncheckedByOption = client([{ error: "ECONNRESET" }, { status: 201, body: { results: added } }], { checkPreviouslyAdded: false })
    expect((await uncheckedByOption.c.send("transactions", transactions)).kind).toBe("in_doubt")
    const checkedByQuery = client([{ error: "ECONNRESET" }, { status: 201, body: { results: added } }], { checkPreviouslyAdded: false })
    expect((await checkedByQuery.c.send("transactions", transactions, { query: { check_previously_added: true } })).kind).toBe("created")
  })

  it("requestsPerSecond spaces the starts of attempts", async () => {
    const time = fakeClock()
    const http = scripted([created])
    const c = createClient({ baseUrl: "http://localhost:1", token: "t", fetch: http.fetch, clock: time.clock, requestsPerSecond: 4 })
    await Promise.all([1, 2, 3, 4, 5].map(() => c.send("energy-amount", energy)))
    expect(time.elapsed()).toBe(1000)
  })
})

describe("transactions flags", () => {
  const transactions = loadExample("transactions")
  const sentQuery = async (options: Partial<ClientOptions>, query?: Record<string, boolean>) => {
    const { c, requests } = client([{ status: 400, body: { detail: "1 error", code: "payload_failed_validation", errors: [{ detail: "x", code: "invalid", attr: "transactions" }] } }], options)
    await c.send("transactions", transactions, query === undefined ? {} : { query })
    return Object.fromEntries(new URL(requests[0]!.url).searchParams)
  }

  it("force_add_to_current_statement is sent as false unless the client is told otherwise; check_previously_added as true", async () => {
    expect(await sentQuery({})).toEqual({ check_previously_added: "true", force_add_to_current_statement: "false" })
    expect(await sentQuery({ forceAddToCurrentStatement: true })).toEqual({ check_previously_added: "true", force_add_to_current_statement: "true" })
    expect(await sentQuery({ checkPreviouslyAdded: false })).toEqual({ check_previously_added: "false", force_add_to_current_statement: "false" })
    expect(await sentQuery({ checkPreviouslyAdded: true, forceAddToCurrentStatement: false }))
      .toEqual({ check_previously_added: "true", force_add_to_current_statement: "false" })
  })

  it("the query of one send wins over the client's options, parameter by parameter", async () => {
    expect(await sentQuery({ forceAddToCurrentStatement: true }, { force_add_to_current_statement: false }))
      .toEqual({ check_previously_added: "true", force_add_to_current_statement: "false" })
    expect(await sentQuery({}, { force_add_to_current_statement: true })).toEqual({ check_previously_added: "true", force_add_to_current_statement: "true" })
    expect(await sentQuery({ checkPreviouslyAdded: false }, { check_previously_added: true }))
      .toEqual({ check_previously_added: "true", force_add_to_current_statement: "false" })
  })
})

describe("the token in answers", () => {
  const TOKEN = "secret-token"
  const leaks = (outcome: unknown) => JSON.stringify(outcome).includes(TOKEN)

  it("a 401 that echoes the token: the outcome's body has [redacted] instead", async () => {
    const { c } = client([{ status: 401, body: { detail: `Invalid token ${TOKEN}.` } }])
    const outcome = await c.send("energy-amount", energy)
    expect(outcome).toMatchObject({ kind: "unauthorized", body: { detail: "Invalid token [redacted]." }, attempts: 1 })
    expect(leaks(outcome)).toBe(false)
  })

  it("a 400 with the token in its errors' detail, attr and code, and in the body's keys", async () => {
    const body = {
      detail: "1 error",
      code: "payload_failed_validation",
      errors: [{ detail: `token ${TOKEN} is not allowed here`, code: `bad_${TOKEN}`, attr: `${TOKEN}.x` }],
      [`seen_${TOKEN}`]: true
    }
    const { c } = client([{ status: 400, body }])
    const outcome = await c.send("energy-amount", energy)
    expect(outcome.kind).toBe("rejected")
    expect(outcome.kind === "rejected" && outcome.errors).toEqual([{ detail: "token [redacted] is not allowed here", code: "bad_[redacted]", attr: "[redacted].x" }])
    expect(Object.keys(outcome.kind === "rejected" ? outcome.body as object : {})).toContain("seen_[redacted]")
    expect(leaks(outcome)).toBe(false)
  })

  it("a body that is not JSON, a JSON escape of the token, the last answer of a failed send and a reason", async () => {
    const time = fakeClock()
    const answers = [
      () => new Response(`Bad Gateway (token ${TOKEN})`, { status: 502 }),
      () => new Response(`{"detail":"Invalid token secret\\u002dtoken"}`, { status: 401 })
    ]
    let n = 0
    const fetch = (async () => answers[n++]!()) as unknown as typeof globalThis.fetch
    const c = createClient({ baseUrl: "http://127.0.0.1:1", token: TOKEN, fetch, clock: time.clock })
    const text = await c.send("energy-amount", energy)
    expect(text).toMatchObject({ kind: "unexpected", body: "Bad Gateway (token [redacted])" })
    const escaped = await c.send("energy-amount", energy)
    expect(escaped).toMatchObject({ kind: "unauthorized", body: { detail: "Invalid token [redacted]" } })

    const failed = await client([{ status: 503, body: { detail: `Unavailable for ${TOKEN}` } }]).c.send("energy-amount", energy)
    expect(failed).toMatchObject({ kind: "failed", last: { kind: "retryable", body: { detail: "Unavailable for [redacted]" } } })
    const broken = await client([{ error: `E_${TOKEN}` }]).c.send("energy-amount", energy)
    expect(broken).toMatchObject({ kind: "in_doubt", reason: "the connection broke before the answer (E_[redacted])" })
    for (const outcome of [text, escaped, failed, broken]) expect(leaks(outcome)).toBe(false)
  })

  it("property: a 400 page that quotes the token anywhere leaves no piece of it in the outcome, even where the quote of the page is cut", async () => {
    const secret = "tok-4f9c2a7e81b3d6055e1c"
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 400 }), fc.constantFrom("text", "json"), async (before, shape) => {
        const page = `${"x".repeat(before)}<p>Authorization: Token ${secret}</p>${"y".repeat(50)}`
        const fetch = (async () => new Response(shape === "json" ? JSON.stringify({ error_detail: page }) : page, { status: 400 })) as unknown as typeof globalThis.fetch
        const c = createClient({ baseUrl: "http://127.0.0.1:1", token: secret, fetch, clock: fakeClock().clock })
        const text = JSON.stringify(await c.send("energy-amount", energy))
        // No run of 8 or more of the token's characters survives, at the cut of a quote or elsewhere.
        for (let i = 0; i + 8 <= secret.length; i++) expect(text, `${before} ${shape}`).not.toContain(secret.slice(i, i + 8))
      }),
      { numRuns: 80 }
    )
  })

  it("an answer without the token comes back unchanged", async () => {
    const body = { detail: "Invalid token: secret rejected." }
    const outcome = await client([{ status: 401, body }]).c.send("energy-amount", energy)
    expect(outcome).toEqual({ kind: "unauthorized", status: 401, body: { detail: "Invalid token: secret rejected." }, warnings: [], attempts: 1 })
  })

  it("a token that is part of the client's own words (kind, advice, item outcomes) leaves those alone", async () => {
    const time = fakeClock()
    const notes = { import_supplier: "N", external_account_number: "K", notes: [{ body: "b", created_at: "2024-05-01T10:00:00Z" }] }
    const answer = [{ created_at: "2024-05-01T10:00:00Z", body: "b", status: "NOTE_CREATION_SUCCESS" }]
    const fetch = (async () => new Response(JSON.stringify(answer), { status: 201 })) as unknown as typeof globalThis.fetch
    const c = createClient({ baseUrl: "http://127.0.0.1:1", token: "ate", fetch, clock: time.clock })
    const outcome = await c.send("notes", notes)
    expect(outcome).toMatchObject({ kind: "created", items: [{ index: 0, outcome: "created" }] })
    // The answer's own text is redacted all the same, keys included (which is why a token is long).
    expect(outcome.kind === "created" && outcome.body).toEqual([{ "cre[redacted]d_at": "2024-05-01T10:00:00Z", body: "b", status: "NOTE_CREATION_SUCCESS" }])
  })
})

describe("item counts", () => {
  it("a 201 with fewer results than the request's items is unexpected, not created", async () => {
    const transactions = loadExample("transactions")
    const count = (transactions["transactions"] as Array<unknown>).length
    const { c } = client([{ status: 201, body: { results: [] } }])
    const outcome = await c.send("transactions", transactions)
    expect(outcome).toMatchObject({ kind: "unexpected", attempts: 1 })
    expect(outcome.kind === "unexpected" && outcome.errors[0]!.detail).toContain(`0 results for the ${count} items`)
    const notes = { import_supplier: "N", external_account_number: "K", notes: [{ body: "b", created_at: "2024-05-01T10:00:00Z" }] }
    expect((await client([{ status: 201, body: [] }]).c.send("notes", notes)).kind).toBe("unexpected")
  })
})

describe("base URL", () => {
  it("plain http only to loopback, unless allowed; https anywhere", () => {
    for (const baseUrl of ["http://127.0.0.1:8080", "http://localhost", "http://[::1]:9"]) expect(() => createClient({ baseUrl, token: "t" })).not.toThrow()
    expect(() => createClient({ baseUrl: "http://api.example.energy", token: "t" })).toThrow(InsecureBaseUrlError)
    expect(() => createClient({ baseUrl: "http://10.0.0.1", token: "t" })).toThrow(InsecureBaseUrlError)
    expect(() => createClient({ baseUrl: "http://api.example.energy", token: "t", allowInsecureHttp: true })).not.toThrow()
    expect(() => createClient({ baseUrl: "https://api.example.energy", token: "t" })).not.toThrow()
    expect(() => createClient({ baseUrl: "ftp://x", token: "t" })).toThrow(TypeError)
  })

  it("a base URL with a query or a fragment is refused with a TypeError naming it, even an empty ? or #", () => {
    for (const baseUrl of ["https://api.example.energy/?tenant=1", "https://api.example.energy/?", "https://api.example.energy?", "http://127.0.0.1:8080/proxy?"]) {
      expect(() => createClient({ baseUrl, token: "t" }), baseUrl).toThrow(TypeError)
      expect(() => createClient({ baseUrl, token: "t" }), baseUrl).toThrow(/query/u)
    }
    for (const baseUrl of ["https://api.example.energy/#top", "https://api.example.energy/#", "https://api.example.energy#", "http://localhost/proxy/#"]) {
      expect(() => createClient({ baseUrl, token: "t" }), baseUrl).toThrow(TypeError)
      expect(() => createClient({ baseUrl, token: "t" }), baseUrl).toThrow(/fragment/u)
    }
    // A "?" percent-encoded in the path is part of the path, not a query.
    expect(() => createClient({ baseUrl: "https://api.example.energy/a%3Fb", token: "t" })).not.toThrow()
  })

  it("the token travels only in the Authorization header", async () => {
    const { c, requests } = client([created])
    await c.send("energy-amount", energy)
    const { url, init } = requests[0]!
    expect((init.headers as Record<string, string>)["Authorization"]).toBe("Token secret-token")
    expect(url).not.toContain("secret-token")
    expect(String(init.body)).not.toContain("secret-token")
  })

  it("a redirect is not followed: the request ends in_doubt at once (not sent on, not retried), whatever the endpoint", async () => {
    const seen: Array<string> = []
    const server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`)
      request.resume()
      request.on("end", () => response.writeHead(307, { Location: "/elsewhere/" }).end())
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const { port } = server.address() as AddressInfo
      const c = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: "secret-token" })
      const notes = { import_supplier: "N", external_account_number: "K", notes: [{ body: "b", created_at: "2024-05-01T10:00:00Z" }] }
      for (const [id, payload] of [["energy-amount", energy], ["notes", notes]] as const) {
        const outcome = await c.send(id, payload)
        expect(outcome).toMatchObject({ kind: "in_doubt", attempts: 1 })
        expect((outcome as { reason: string }).reason).toContain("redirect")
      }
      expect(seen).toEqual(["POST /v1/data-import/energy-amount/create/", "POST /v1/data-import/notes/create/"])
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})

describe("no answer in time", () => {
  it("a service that never answers: in doubt after the timeout where a repeat is not harmless, retried where it is", async () => {
    let calls = 0
    const silent = (() => {
      calls++
      return new Promise<Response>(() => undefined)
    }) as unknown as typeof globalThis.fetch
    const c = createClient({ baseUrl: "http://127.0.0.1:1", token: "silent-service-token", fetch: silent, timeoutMs: 30, clock: fakeClock().clock, retry: { maxAttempts: 2 } })
    const started = Date.now()
    const outcome = await c.send("energy-amount", energy)
    expect(outcome).toMatchObject({ kind: "in_doubt", attempts: 1 })
    expect(outcome.kind === "in_doubt" && outcome.reason).toBe("no answer within 30 ms")
    expect(Date.now() - started).toBeGreaterThanOrEqual(25)
    expect(calls).toBe(1)
    // A market participant is left unchanged by a repeat: tried again, then failed.
    const participant = { code: 9900000000003, code_type: "BDEW", name: "Netz Nord", role: "NETWORK_OPERATOR", energy: "ELECTRICITY" }
    expect(await c.send("market-participant", participant)).toMatchObject({ kind: "failed", attempts: 2 })
    expect(calls).toBe(3)
  })
})
