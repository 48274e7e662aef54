/**
 * The parts endpoint entries share: the answers every endpoint may give, the 400 and 404 of the post-import
 * endpoints, and the shapes of a POST endpoint and of a list endpoint. Each resource module
 * (`src/schemas/<resource>/`) builds its entries from them.
 *
 * @module
 */
import type { Schema } from "effect"
import type { ResponseDefinition } from "./endpoint-definition.js"
import { DetailBody, NotFoundErrorBody, ValidationErrorBody } from "./errors.js"

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

/**
 * A post-import POST endpoint whose body holds one record under `field`: the reference service stores
 * that field and answers 201 with the body; a repeat stores it twice (`repeat: "never"`); a missing
 * account is the documented 404. The natural key is the account and `keyFields` (dot paths in the body),
 * of which `keyInstants` hold datetimes (compared as instants).
 */
export const storeAndEcho = <const Field extends string, Request extends Schema.Top>(entry: {
  readonly id: string
  readonly summary: string
  readonly field: Field
  readonly stores: string
  /** What one body's document is called in a detail. */
  readonly documentName: string
  readonly keyFields: ReadonlyArray<string>
  readonly keyInstants?: ReadonlyArray<string>
  readonly request: Request
}) => ({
  ...post(entry.id, `/v1/data-import/${entry.id}/create/`, entry.summary),
  naturalKey: { account: true, fields: entry.keyFields, instants: entry.keyInstants ?? [] },
  documentName: entry.documentName,
  request: entry.request,
  repeat: "never",
  service: { handler: "store-and-echo", stores: entry.stores, field: entry.field },
  responses: {
    // The 201 body is the validated data: the request schema itself.
    201: { schema: entry.request, description: "The validated data." },
    400: validation400,
    404: notFound(NotFoundErrorBody),
    ...SERVICE_LEVEL_RESPONSES
  }
}) as const
