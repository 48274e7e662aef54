// Memory per remembered key of map's duplicate checks: heap growth for 1,000,000 distinct keys.
// Run: npm exec -- tsx --expose-gc bench/seen-keys.mjs
import { SeenKeys } from "../src/cli/seen-keys.ts"

const count = 1_000_000
globalThis.gc()
const before = process.memoryUsage().heapUsed
const seen = new SeenKeys()
for (let i = 0; i < count; i++) seen.record(JSON.stringify(["STADTWERKE_NORD", `KD-${i % 50_000}`, `BU-2024-${i}`]), i + 2)
globalThis.gc()
const after = process.memoryUsage().heapUsed
console.log(`${seen.size} keys: ${((after - before) / count).toFixed(0)} bytes per key (heap ${((after - before) / 1e6).toFixed(0)} MB)`)
