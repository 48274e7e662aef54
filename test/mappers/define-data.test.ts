/** Writing legacy keys as data, and copying plain data all the way down. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { copyData, defineData } from "../../src/mappers/define-data.js"

describe("defineData", () => {
  it("writes __proto__ as an own, enumerable, writable, configurable key, leaving the prototype alone", () => {
    const target: Record<string, unknown> = {}
    defineData(target, "__proto__", { polluted: true })
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(target, "__proto__")).toEqual({ value: { polluted: true }, enumerable: true, writable: true, configurable: true })
    expect(JSON.stringify(target)).toBe('{"__proto__":{"polluted":true}}')
  })

  it("writes any other key as assignment does", () => {
    fc.assert(fc.property(fc.string(), fc.jsonValue(), (key, value) => {
      fc.pre(key !== "__proto__")
      const target: Record<string, unknown> = {}
      defineData(target, key, value)
      expect(Object.getOwnPropertyDescriptor(target, key)).toEqual({ value, enumerable: true, writable: true, configurable: true })
    }))
  })
})

describe("copyData", () => {
  it("returns primitives, null and undefined as they are", () => {
    for (const value of [null, undefined, 0, "", "x", true, 1n]) expect(copyData(value)).toBe(value)
  })

  it("copies lists and plain objects all the way down, equal and sharing nothing", () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      const copy = copyData(value)
      expect(copy).toEqual(value)
      const pairs: Array<[unknown, unknown]> = [[value, copy]]
      while (pairs.length > 0) {
        const [a, b] = pairs.pop()!
        if (typeof a !== "object" || a === null) continue
        expect(b).not.toBe(a)
        for (const key of Object.keys(a)) pairs.push([(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]])
      }
    }))
  })

  it("keeps a null prototype, and a __proto__ key as data", () => {
    const bare = Object.create(null) as Record<string, unknown>
    bare["a"] = { b: 1 }
    const copy = copyData(bare)
    expect(copy).not.toBe(bare)
    expect(Object.getPrototypeOf(copy)).toBeNull()
    expect(copy["a"]).toEqual({ b: 1 })
    expect(copy["a"]).not.toBe(bare["a"])
    const plain = copyData(JSON.parse('{"__proto__":{"x":1}}') as object)
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype)
    expect(Object.keys(plain)).toEqual(["__proto__"])
  })

  it("leaves other objects (a date, a class instance) as they are", () => {
    const date = new Date(0)
    class Point { x = 1 }
    const point = new Point()
    expect(copyData(date)).toBe(date)
    expect(copyData([point])[0]).toBe(point)
  })
})
