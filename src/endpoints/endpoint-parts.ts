/**
 * The parts endpoint entries share: the answers every endpoint may give, the 400 and 404 of the post-import
 * endpoints, and the shapes of a POST endpoint and of a list endpoint. Each resource module
 * (`src/resources/<resource>/`) builds its entries from them.
 *
 * @module
 */
import type { Schema } from "effect"
import type { ResponseDefinition } from "./endpoint-definition.js"
import { DetailBody, ValidationErrorBody } from "../schemas/errors.js"

/** The 400 of an endpoint that validates its body. */
export const validation400: ResponseDefinition = {
  schema: ValidationErrorBody,
  description: "Validation errors.",
  retry: "do-not-retry-unchanged"
}

/** The 404 of a post-import endpoint, with the body it documents. */
export const notFound = (schema: Schema.Top): ResponseDefinition => ({
  schema,
  description: "Account import process or account not found: check that the account is imported (not only staged) and that the supplier code and external account number are right.",
  retry: "do-not-retry-unchanged"
})

/**
 * The answers every endpoint may give: the real API authenticates every endpoint (DRF's `{ detail }`),
 * and a server under load or in maintenance answers 429 or 503 with `Retry-After` before doing anything.
 */
export const SERVICE_LEVEL_RESPONSES = {
  401: { schema: DetailBody, description: "Missing or invalid credentials.", retry: "reauthenticate" },
  429: {
    schema: DetailBody,
    description: "Too many requests: nothing was done; wait as long as `Retry-After` says, then send the request again.",
    retry: "retry-later"
  },
  503: {
    schema: DetailBody,
    description: "Unavailable: nothing was done; wait as long as `Retry-After` says, then send the request again.",
    retry: "retry-later"
  }
} as const satisfies Readonly<Record<number, ResponseDefinition>>

/** The shared fields of a POST endpoint whose request is a JSON body. */
export const post = (id: string, path: string, summary: string) =>
  ({ id, method: "POST", path, summary, pathParameters: [], queryParameters: [], requestKind: "body" }) as const
