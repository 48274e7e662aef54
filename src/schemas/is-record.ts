/**
 * Whether a value is a JSON object: the one test of it, for the schemas' rules, validation, the mappers and
 * the readers alike.
 *
 * @module
 */

/**
 * Whether a value is a JSON object (not `null`, not an array).
 *
 * @example
 * isRecord({ notes: [] }) // => true
 * isRecord([]) // => false
 * isRecord(null) // => false
 */
export const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)
