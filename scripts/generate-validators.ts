// Writes src/validation/generated/validators.ts from the request schemas (run with `npm run generate`).
import { writeFileSync } from "node:fs"
import { generateValidatorsSource } from "../src/validation/generate-validators.js"

const target = new URL("../src/validation/generated/validators.ts", import.meta.url)
writeFileSync(target, generateValidatorsSource())
console.log(`wrote ${target.pathname}`)
