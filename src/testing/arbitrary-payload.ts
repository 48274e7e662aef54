/**
 * Generators of valid request bodies, one per POST endpoint (`arbitrary.ts` in each resource's folder of
 * src/schemas/), written by hand where realism matters (transaction fields by type, amounts that add
 * up, pinned notes with an unpin time) and built from the shared value generators. Every cross-field rule
 * holds by construction (ordered start/end pairs, unique transaction ids, a note with a body or paths, at
 * least one list of time definitions), so the generators keep producing valid payloads while fast-check
 * shrinks them.
 *
 * @module
 */
import * as fc from "fast-check"
import { endpoints } from "../schemas/endpoints/catalogue.js"
import { isPostEndpointId, type PostEndpointId } from "../schemas/endpoints/endpoint-id.js"
import { arbitraryKit, type PayloadArbitrary } from "./arbitrary-kit.js"
import type { GeneratorContext, JsonObject } from "./arbitrary-values.js"
import resources from "../schemas/registry.js"

/**
 * The JSON form of a POST endpoint's request body.
 *
 * @example
 * const payload: PayloadOf<"notes"> = { import_supplier: "STADTWERKE_NORD", external_account_number: "KD-1", notes: [{ body: "Hi" }] }
 * validatePayload("notes", payload).ok // => true
 *
 * @since 0.1.0
 */
export type PayloadOf<E extends PostEndpointId> = (typeof endpoints)[E]["request"]["Encoded"]

/**
 * Options of {@link arbitraryPayload}.
 *
 * @example
 * const now = new Date("2024-06-30T00:00:00Z")
 * const payloads = fc.sample(arbitraryPayload("transactions", { maxItems: 10, now }), 20)
 * payloads.every((p) => validatePayload("transactions", p, { now }).ok) // => true
 *
 * @since 0.1.0
 */
export interface ArbitraryPayloadOptions {
  /** The largest number of items of a generated list (default 4; at least 1; `NaN` or infinite: a `RangeError`). */
  readonly maxItems?: number
  /**
   * Also generate data that is valid but draws warnings: values outside an open enumeration's listed
   * ones, empty optional lists, `paid_in_advance_amounts`, fields of another transaction type, `unpin_at`
   * on an unpinned note. Default `false`: generated payloads validate without warnings.
   */
  readonly withWarnings?: boolean
  /**
   * The clock the payloads will be validated against: no transaction is dated after its day. Default
   * 2025-01-01, a fixed day, so that a seed reproduces the same payloads on any day.
   */
  readonly now?: Date
}

/**
 * The default of {@link ArbitraryPayloadOptions.now}: generated transactions are dated up to this day.
 *
 * @example
 * validatePayload("transactions", payload, { now: DEFAULT_NOW }).ok // => true
 *
 * @since 0.1.0
 */
export const DEFAULT_NOW = new Date("2025-01-01T00:00:00Z")

/** The generator context of a set of options. */
export const contextOf = (options: ArbitraryPayloadOptions = {}): GeneratorContext => {
  const now = options.now ?? DEFAULT_NOW
  if (!Number.isFinite(now.getTime())) throw new RangeError("arbitraryPayload: options.now is not a valid date")
  const maxItems = options.maxItems ?? 4
  // Refused here: fast-check would fail on it only when drawing, with a message about its own arguments.
  if (!Number.isFinite(maxItems)) throw new RangeError(`arbitraryPayload: options.maxItems is not a finite number (${String(maxItems)})`)
  return {
    maxItems: Math.max(1, Math.floor(maxItems)),
    withWarnings: options.withWarnings ?? false,
    today: now.toISOString().slice(0, 10)
  }
}

// ---------------------------------------------------------------------------------------------------------

/**
 * The generator of each POST endpoint's request body, as the resources register them: a function of the
 * kit, which is built here, in the testing entry, so that the registry needs fast-check by type only. A
 * POST endpoint without a generator fails to compile here.
 */
const generators: { readonly [E in PostEndpointId]: PayloadArbitrary } = resources.payloads

/** The payload generator of an endpoint, as plain JSON objects; throws a `TypeError` for a non-POST id. */
export const payloadGenerator = (endpointId: PostEndpointId, ctx: GeneratorContext): fc.Arbitrary<JsonObject> => {
  if (!isPostEndpointId(endpointId)) {
    throw new TypeError(`${String(endpointId)} is not the id of a POST endpoint (no request body to generate)`)
  }
  return generators[endpointId](arbitraryKit, ctx)
}

/**
 * A fast-check arbitrary of valid request bodies of a POST endpoint, in their JSON form: what
 * `validatePayload(endpointId, payload)` accepts (without warnings, unless `withWarnings`). Realistic and
 * varied: 11-digit MaLo ids with their check digit, 13-digit codes, datetimes with `Z` and with offsets,
 * start/end pairs ordered as instants across offsets, decimal strings of varying scale and sign (some
 * with more digits than a double keeps), identifiers at their length limits (in code points, some outside the BMP), optional keys present and
 * absent, lists of one to `maxItems` items, transaction fields that match their type.
 * Counterexamples shrink towards the smallest payload: required keys only, one item per list.
 *
 * @example
 * import fc from "fast-check"
 * import { validatePayload } from "data-import-payloads"
 * import { arbitraryPayload } from "data-import-payloads/testing"
 *
 * const accepted = fc.property(arbitraryPayload("energy-amount"), (payload) => validatePayload("energy-amount", payload).ok)
 * fc.assert(accepted) // in a test: fails with the smallest payload refused
 * fc.check(accepted).failed // => false
 *
 * @since 0.1.0
 */
export const arbitraryPayload = <E extends PostEndpointId>(
  endpointId: E,
  options?: ArbitraryPayloadOptions
): fc.Arbitrary<PayloadOf<E>> => payloadGenerator(endpointId, contextOf(options)) as unknown as fc.Arbitrary<PayloadOf<E>>
