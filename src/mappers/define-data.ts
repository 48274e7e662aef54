/**
 * Writing keys of legacy data safely.
 *
 * @module
 */

/** Sets an own, enumerable data property; only `__proto__` needs defineProperty (assignment would set the prototype). */
export const defineData = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}
