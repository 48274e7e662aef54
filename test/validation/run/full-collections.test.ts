import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { BYTES_PER_FULL_COLLECTION, collectEvery, fullCollection } from "../../../src/validation/run/full-collections.js"

describe("collectEvery", () => {
  it("collects once when the bytes since the last collection reach the limit, never before", () => {
    let runs = 0
    const parsed = collectEvery(100, () => runs++)
    parsed(60)
    expect(runs).toBe(0)
    parsed(39)
    expect(runs).toBe(0)
    parsed(1)
    expect(runs).toBe(1)
    // The count starts again from nothing: 99 more bytes are not enough.
    parsed(99)
    expect(runs).toBe(1)
    parsed(1)
    expect(runs).toBe(2)
  })

  it("collects once for a batch bigger than several limits", () => {
    let runs = 0
    const parsed = collectEvery(100, () => runs++)
    parsed(1000)
    expect(runs).toBe(1)
    parsed(50)
    expect(runs).toBe(1)
  })

  it("over any batches: between two collections fewer bytes than the limit, and each collection right when it is reached", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.array(fc.nat({ max: 300 }), { maxLength: 200 }), (every, batches) => {
        let collected = false
        const parsed = collectEvery(every, () => (collected = true))
        let since = 0
        let runs = 0
        for (const bytes of batches) {
          collected = false
          parsed(bytes)
          since += bytes
          expect(collected).toBe(since >= every)
          if (collected) {
            since = 0
            runs++
          }
        }
        const total = batches.reduce((a, b) => a + b, 0)
        expect(runs).toBeLessThanOrEqual(Math.floor(total / every))
      })
    )
  })

  it("is set to a collection per 64 MiB", () => {
    expect(BYTES_PER_FULL_COLLECTION).toBe(67_108_864)
  })
})

describe("fullCollection", () => {
  it("gives V8's collection, which frees an object nothing holds, without adding a global", async () => {
    const hadGc = "gc" in globalThis
    const collect = fullCollection()
    expect(collect).toBeTypeOf("function")
    expect("gc" in globalThis).toBe(hadGc)
    const held = { value: "kept" }
    const kept = new WeakRef(held)
    const dropped = (() => new WeakRef({ value: "dropped" }))()
    // A WeakRef keeps its target until the job that made it ends.
    await new Promise((resolve) => setTimeout(resolve, 0))
    collect!()
    expect(dropped.deref()).toBeUndefined()
    expect(kept.deref()).toBe(held)
  })
})
