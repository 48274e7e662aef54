// Memory per remembered key of map's duplicate checks: growth of the heap and of the typed arrays'
// buffers (held outside the heap) for 1,000,000 distinct keys.
// Run: npm exec -- tsx --expose-gc bench/seen-keys.mjs
import { SeenKeys } from "../src/internal/seen-keys.ts"

const count = 1_000_000
globalThis.gc()
const used = () => {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}
const before = used()
const seen = new SeenKeys()
for (let i = 0; i < count; i++) seen.record(JSON.stringify(["STADTWERKE_NORD", `KD-${i % 50_000}`, `BU-2024-${i}`]), i + 2)
globalThis.gc()
const after = used()
console.log(`${seen.size} keys: ${((after - before) / count).toFixed(0)} bytes per key (heap and buffers ${((after - before) / 1e6).toFixed(0)} MB)`)
