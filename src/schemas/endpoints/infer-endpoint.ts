/**
 * Which endpoint a record is for, when the caller does not name one (the CLI without `--endpoint`): read
 * from its top-level keys and the request schemas of the endpoint catalogue (no list of keys is kept here).
 *
 * @module
 */
import { SchemaAST } from "effect"
import { endpoints } from "./catalogue.js"
import { ENDPOINT_IDS, type EndpointId } from "./endpoint-id.js"

/**
 * The outcome of {@link inferEndpoint}: the endpoint, or why none could be told.
 *
 * @since 0.1.0
 */
export type EndpointInference =
  | { readonly ok: true; readonly endpoint: EndpointId }
  | { readonly ok: false; readonly code: "unknown_endpoint" | "ambiguous_endpoint" | "invalid"; readonly detail: string }

interface Signature {
  readonly id: EndpointId
  readonly keys: ReadonlySet<string>
  readonly required: ReadonlyArray<string>
  /** Keys no other endpoint's request has at the top level: one of them names the endpoint. */
  readonly unique: ReadonlyArray<string>
  /** The answer naming this endpoint, one frozen object for every record. */
  readonly inferred: EndpointInference
}

const topLevelKeys = (id: EndpointId): { keys: Array<string>; required: Array<string> } => {
  const ast = endpoints[id].request.ast
  if (ast._tag !== "Objects") return { keys: [], required: [] }
  const keys = ast.propertySignatures.flatMap((p) => (typeof p.name === "string" ? [p.name] : []))
  const required = ast.propertySignatures.flatMap((p) =>
    typeof p.name === "string" && !SchemaAST.isOptional(p.type) ? [p.name] : []
  )
  return { keys, required }
}

let signatures: ReadonlyArray<Signature> | undefined

const signaturesOf = (): ReadonlyArray<Signature> => {
  if (signatures !== undefined) return signatures
  const all = ENDPOINT_IDS.map((id) => ({ id, ...topLevelKeys(id) }))
  const owners = new Map<string, number>()
  for (const s of all) for (const key of s.keys) owners.set(key, (owners.get(key) ?? 0) + 1)
  signatures = all.map((s) => ({
    id: s.id,
    keys: new Set(s.keys),
    required: s.required,
    unique: s.keys.filter((key) => owners.get(key) === 1),
    inferred: Object.freeze({ ok: true as const, endpoint: s.id })
  }))
  return signatures
}

let owners: ReadonlyMap<string, Signature> | undefined

/** Each identifying key and the one endpoint that has it. */
const uniqueOwners = (): ReadonlyMap<string, Signature> =>
  (owners ??= new Map(signaturesOf().flatMap((s) => s.unique.map((key) => [key, s] as const))))

/** One key per endpoint that identifies it by itself, for messages (`notes`, `energy_amount`, …). */
export const identifyingKeys = (): ReadonlyArray<string> => signaturesOf().flatMap((s) => s.unique.slice(0, 1))

/**
 * Infers the endpoint of a record from its top-level keys:
 *
 * 1. an endpoint whose request has a key no other endpoint has (`energy_amount`, `notes`, `vendor`, …)
 *    is the record's endpoint when the record has such a key; keys of two endpoints are ambiguous;
 * 2. otherwise the record fits an endpoint when all its keys belong to that endpoint and it has all of
 *    its required keys (the path parameters of the status endpoints, for instance).
 *
 * @example
 * inferEndpoint({ vendor: "x" }) // => { ok: true, endpoint: "payment-instruction" }
 * inferEndpoint([]) // => { ok: false, code: "invalid", detail: "The payload must be a JSON object, not an array." }
 *
 * @since 0.1.0
 */
export const inferEndpoint = (value: unknown): EndpointInference => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const found = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`
    return { ok: false, code: "invalid", detail: `The payload must be a JSON object, not ${found}.` }
  }
  const all = signaturesOf()
  // The usual record has a handful of top-level keys, one of them naming its endpoint: look each key up
  // (the own enumerable keys, as Object.keys lists them, without making that list for every record).
  const byKey = uniqueOwners()
  let named: Signature | undefined
  let several = false
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    const owner = byKey.get(key)
    if (owner === undefined || owner === named) continue
    if (named !== undefined) several = true
    named = owner
  }
  if (named !== undefined && !several) return named.inferred
  const keys = Object.keys(value)
  const fitting = several
    ? all.filter((s) => s.unique.some((key) => Object.hasOwn(value, key)))
    : all.filter((s) => keys.every((key) => s.keys.has(key)) && s.required.every((key) => Object.hasOwn(value, key)))
  const only = fitting[0]
  if (fitting.length === 1 && only !== undefined) return only.inferred
  if (fitting.length > 1) {
    return {
      ok: false,
      code: "ambiguous_endpoint",
      detail: `The record fits several endpoints (${fitting.map((s) => s.id).join(", ")}); pass --endpoint to choose one.`
    }
  }
  return {
    ok: false,
    code: "unknown_endpoint",
    detail: `The record fits no endpoint: it has none of the keys that name one (${identifyingKeys().join(", ")}); pass --endpoint to check it against one.`
  }
}
