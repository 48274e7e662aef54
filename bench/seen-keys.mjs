// Memory per remembered key of map's duplicate checks: growth of the heap and of the typed arrays'
// buffers (held outside the heap) for 1,000,000 distinct keys, in the table of payloads and keys
// (`SeenKeys`, 160-bit digests) and in that of rows (`SeenRows`, for duplicate_row, 64 bits), which
// also shows how its bytes per row move as its tables fill and grow.
// Run: npm exec -- tsx --expose-gc bench/seen-keys.mjs
import { SeenKeys } from "../src/readers/lookup/seen-keys.ts"
import { SeenRows } from "../src/mappers/run/seen-rows.ts"

const used = () => {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}
/** A full collection, and time for V8 to free the buffers it found unreachable (it does so after the collection). */
const collect = async () => {
  globalThis.gc()
  await new Promise((resolve) => setTimeout(resolve, 100))
  globalThis.gc()
}
/** Bytes per key held after `fill` put `count` distinct keys into what `make` returns. */
const perKey = async (count, make, fill) => {
  await collect()
  const before = used()
  const seen = make()
  fill(seen, count)
  await collect()
  const after = used()
  if (seen.size !== count) throw new Error(`${seen.size} keys held, not ${count}`)
  return after - before
}
const key = (i) => JSON.stringify(["STADTWERKE_NORD", `KD-${i % 50_000}`, `BU-2024-${i}`])
const line = (bytes, count) => `${((bytes / count).toFixed(0)).padStart(3)} bytes per key (heap and buffers ${(bytes / 1e6).toFixed(0)} MB)`

const count = 1_000_000
const keys = await perKey(count, () => new SeenKeys(), (seen, n) => {
  for (let i = 0; i < n; i++) seen.record(key(i), i + 2)
})
console.log(`SeenKeys, ${count.toLocaleString("en")} keys: ${line(keys, count)}`)
for (const n of [200_000, 800_000, count]) {
  const rows = await perKey(n, () => new SeenRows(), (seen, m) => {
    for (let i = 0; i < m; i++) seen.see(key(i), i + 2)
  })
  console.log(`SeenRows, ${n.toLocaleString("en").padStart(9)} rows: ${line(rows, n)}`)
}
