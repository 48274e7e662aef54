/**
 * The dot paths of a mapping's fields, split once into steps, and a value set along them.
 *
 * @module
 */
import { defineData } from "./define-data.js"

/** One step of a dot path: its key, and whether the next step is an array index. */
export interface PathStep {
  readonly key: string
  readonly nextIsIndex: boolean
}

/** A dot path split into steps, each knowing whether the next one is an array index; cached (paths repeat per row). */
export const stepsOf = (() => {
  const cache = new Map<string, ReadonlyArray<PathStep>>()
  return (path: string) => {
    let steps = cache.get(path)
    // Stryker disable next-line ConditionalExpression: equivalent, steps split again are the same steps
    if (steps === undefined) {
      const parts = path.split(".")
      // Stryker disable next-line StringLiteral: equivalent, any text that is not all digits says the same for the last step
      steps = parts.map((key, i) => ({ key, nextIsIndex: /^\d+$/u.test(parts[i + 1] ?? "") }))
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the bound only keeps the cache's memory small
      if (cache.size >= 10_000) cache.clear()
      cache.set(path, steps)
    }
    return steps
  }
})()

/** Sets `value` along `steps` of `target`, creating the objects (or lists, before a numeric step) on the way. */
export const setAtSteps = (target: Record<string, unknown>, steps: ReadonlyArray<PathStep>, value: unknown): void => {
  let node: Record<string, unknown> = target
  for (let i = 0; i < steps.length - 1; i++) {
    const { key, nextIsIndex } = steps[i]!
    if (!Object.hasOwn(node, key) || typeof node[key] !== "object" || node[key] === null) {
      defineData(node, key, nextIsIndex ? [] : {})
    }
    node = node[key] as Record<string, unknown>
  }
  defineData(node, steps[steps.length - 1]!.key, value)
}
