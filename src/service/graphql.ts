/**
 * `POST /v1/graphql/` of the reference service: the one mutation the data-import API needs,
 * `obtainKrakenToken`, with `variables.input` holding an `APIKey` (one of the seed's `api_keys`) or a
 * `refreshToken`, answered in GraphQL's shape. A refused API key is `KT-CT-1134`, a refused or expired
 * refresh token `KT-CT-1135` (both "Invalid data.", as the real API says; which code goes with which
 * input is this service's choice). Errors are answered with status 200, as GraphQL servers do; a body
 * that is no GraphQL request gets 400.
 *
 * @module
 */
import type { Answer } from "./handler.js"
import type { ReferenceStore } from "./store.js"
import type { TokenIssuer } from "./tokens.js"

/** Where the GraphQL API answers. */
export const GRAPHQL_PATH = "/v1/graphql/"

/**
 * The largest body `POST /v1/graphql/` reads: one mutation with an API key or a refresh token is a few
 * hundred bytes, and anyone may send this path a body, without credentials.
 */
export const GRAPHQL_MAX_BODY_BYTES = 64 * 1024

/** The inputs `ObtainJSONWebTokenInput` has in the real schema; this service takes the first and the last. */
const INPUT_FIELDS = ["APIKey", "organizationSecretKey", "preSignedKey", "refreshToken"] as const

const error = (message: string, errorCode: string, errorDescription: string, status = 200): Answer => ({
  status,
  body: {
    data: status === 200 ? { obtainKrakenToken: null } : null,
    errors: [{ message, path: ["obtainKrakenToken"], extensions: { errorCode, errorDescription } }]
  }
})

/** The GraphQL endpoint over the seed's API keys and an issuer. */
export const graphqlEndpoint = (store: ReferenceStore, issuer: TokenIssuer, now: () => Date = () => new Date()) =>
  async (request: { readonly method: string; readonly body: string | undefined }): Promise<Answer> => {
    if (request.method !== "POST") return { status: 405, body: { detail: `Method "${request.method}" not allowed.` }, headers: { Allow: "POST" } }
    let parsed: { query?: unknown; variables?: { input?: Record<string, unknown> } } | undefined
    try {
      parsed = JSON.parse(request.body ?? "") as typeof parsed
    } catch {
      // Answered below.
    }
    if (typeof parsed !== "object" || parsed === null || typeof parsed.query !== "string") {
      return { status: 400, body: { errors: [{ message: "A GraphQL request is a JSON object with a query." }] } }
    }
    if (!/\bobtainKrakenToken\b/u.test(parsed.query)) {
      return { status: 400, body: { errors: [{ message: "The reference service answers only the mutation obtainKrakenToken." }] } }
    }
    const input = parsed.variables?.input
    const given = INPUT_FIELDS.filter((field) => typeof input?.[field] === "string")
    if (given.length !== 1) {
      return error("Invalid data.", "KT-CT-1134", "Give exactly one of APIKey or refreshToken in variables.input.")
    }
    const at = now()
    if (given[0] === "refreshToken") {
      const issued = await issuer.refresh(input!.refreshToken as string, at)
      return issued === undefined
        ? error("Invalid data.", "KT-CT-1135", "The refresh token is not valid or has expired.")
        : { status: 200, body: { data: { obtainKrakenToken: issued } } }
    }
    const key = input!.APIKey
    if (given[0] !== "APIKey" || !store.transact((state) => state.isApiKey(key as string))) {
      return error("Invalid data.", "KT-CT-1134", "The API key is not valid.")
    }
    return { status: 200, body: { data: { obtainKrakenToken: await issuer.issue(at) } } }
  }
