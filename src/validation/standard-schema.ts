/**
 * The contract as a Standard Schema (v1): any library that accepts a Standard Schema (tRPC, Hono,
 * TanStack Form, …) validates with exactly the answers of `validatePayload`, our codes included.
 *
 * @module
 */
import type { StandardSchema } from "effect"
import { type EndpointId, isEndpointId, type RequestOf } from "../schemas/endpoints/endpoint-id.js"
import type { ErrorCode } from "./codes.js"
import { compileValidator } from "./compile-validator.js"
import type { ValidatePayloadOptions } from "./result.js"
import { isRecord } from "./path.js"
import { validatePayload } from "./validate-payload.js"

/**
 * A Standard Schema issue that also carries the contract's `code` and the API's `attr`.
 *
 * @since 0.1.0
 */
export interface PayloadIssue extends StandardSchema.StandardSchemaV1.Issue {
  /** The error's `detail`. */
  readonly message: string
  /** Field names and zero-based array indexes; absent for an error about the payload as a whole. */
  readonly path?: ReadonlyArray<string | number>
  readonly code: ErrorCode
  /** The API's dot path (`notes.0.body`), or `non_field_errors`. */
  readonly attr: string
}

/**
 * The result of validating with a {@link PayloadStandardSchema}: always synchronous.
 *
 * @since 0.1.0
 */
export type PayloadStandardResult<E extends EndpointId> =
  | StandardSchema.StandardSchemaV1.SuccessResult<RequestOf<E>>
  | { readonly issues: ReadonlyArray<PayloadIssue> }

/**
 * The `~standard` properties of a {@link PayloadStandardSchema}.
 *
 * @since 0.1.0
 */
export interface PayloadStandardProps<E extends EndpointId> extends StandardSchema.StandardSchemaV1.Props<RequestOf<E>, RequestOf<E>> {
  readonly vendor: "data-import-payloads"
  readonly validate: (value: unknown, options?: StandardSchema.StandardSchemaV1.Options) => PayloadStandardResult<E>
}

/**
 * The Standard Schema (v1) of an endpoint's request: validates synchronously, issues with our codes.
 *
 * @since 0.1.0
 */
export interface PayloadStandardSchema<E extends EndpointId> extends StandardSchema.StandardSchemaV1<RequestOf<E>, RequestOf<E>> {
  readonly "~standard": PayloadStandardProps<E>
}

/**
 * An `attr` as a path: its steps split at unescaped dots (a key with dots in it, an undocumented field
 * named `a.b`, is written `a\\.b` and stays whole), a number where the input has an array.
 */
const pathOf = (attr: string, input: unknown): ReadonlyArray<string | number> | undefined => {
  if (attr === "non_field_errors") return undefined
  const path: Array<string | number> = []
  let node: unknown = input
  for (const step of attr.split(/(?<!\\)\./u)) {
    const key = step.replace(/\\(.)/gu, "$1")
    if (Array.isArray(node) && /^\d+$/u.test(key)) {
      path.push(Number(key))
      node = node[Number(key)]
      continue
    }
    path.push(key)
    node = isRecord(node) && Object.hasOwn(node, key) ? node[key] : undefined
  }
  return path
}

/**
 * The Standard Schema (v1) of an endpoint's request (its body, or for a GET endpoint its path
 * parameters). `validate` gives `validatePayload`'s answer: the value when valid, else one issue per
 * error with `message` (the `detail`), `path`, and our `code` and `attr`. Warnings are not part of a
 * Standard Schema result: use `validatePayload` to read them.
 *
 * @example
 * const schema = standardSchema("notes")
 * const result = schema["~standard"].validate({ ...input, notes: [] })
 * if (result.issues) for (const issue of result.issues) console.log(issue.path, issue.code)
 * // ["notes"] empty
 *
 * @since 0.1.0
 */
export const standardSchema = <E extends EndpointId>(endpointId: E, options?: ValidatePayloadOptions): PayloadStandardSchema<E> => {
  const validator = isEndpointId(endpointId)
    ? compileValidator(endpointId)
    : (input: unknown, o?: ValidatePayloadOptions) => validatePayload(endpointId, input, o)
  return {
    "~standard": {
      version: 1,
      vendor: "data-import-payloads",
      validate: (value: unknown) => {
        const result = validator(value, options)
        if (result.ok) return { value: result.value as RequestOf<E> }
        return {
          issues: result.error.errors.map((e): PayloadIssue => {
            const path = pathOf(e.attr, value)
            return { message: e.detail, code: e.code, attr: e.attr, ...(path !== undefined ? { path } : {}) }
          })
        }
      }
    }
  }
}
