/**
 * Writing keys of legacy data safely.
 *
 * @module
 */

/** Sets an own, enumerable data property; only `__proto__` needs defineProperty (assignment would set the prototype). */
export const defineData = (target: Record<string, unknown>, key: string, value: unknown): void => {
  // Stryker disable next-line ConditionalExpression: equivalent for → true, defineProperty gives any other key of a plain object what assignment gives (→ false is killed)
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}

/**
 * A copy of plain data, lists and plain objects copied all the way down (other values as they are): a
 * mapping's constant object is copied for every row, so that a field written below it writes into the
 * row's payload, never into the mapping or another row's payload.
 *
 * @example
 * const constant = [{ category: "DEFAULT" }]
 * copyData(constant)[0] === constant[0] // => false
 */
export const copyData = <A>(value: A): A => {
  if (Array.isArray(value)) return value.map(copyData) as A
  if (typeof value !== "object" || value === null) return value
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) return value
  const copy: Record<string, unknown> = prototype === null ? Object.create(null) : {}
  for (const key of Object.keys(value)) defineData(copy, key, copyData((value as Record<string, unknown>)[key]))
  return copy as A
}
