import { readdirSync, readFileSync } from "node:fs"
import { gunzipSync } from "node:zlib"

export const FIXTURES = new URL("../fixtures/market-messages/", import.meta.url)

/** The bytes of a fixture (a `.gz` one unpacked). */
export const fixtureBytes = (name: string): Buffer => {
  const bytes = readFileSync(new URL(name, FIXTURES))
  return name.endsWith(".gz") ? gunzipSync(bytes) : bytes
}

/** Every EDIFACT fixture. */
export const EDIFACT_FIXTURES: ReadonlyArray<string> = readdirSync(FIXTURES).filter((n) => n.endsWith(".edi") || n.endsWith(".edi.gz")).sort()
