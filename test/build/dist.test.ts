import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { delimiter, join } from "node:path"
import { describe, expect, it } from "vitest"

const root = new URL("../../", import.meta.url).pathname
const example = readFileSync(join(root, "examples/payloads/energy-amount.json"), "utf8")

// Each script validates the example and a copy with a decimal comma, and prints what it saw.
const body = `
const example = ${example};
const broken = { ...example, energy_amount: { ...example.energy_amount, quantity: "1,5" } };
const a = lib.validatePayload("energy-amount", example);
const b = lib.validatePayload("energy-amount", broken);
console.log(JSON.stringify({ ids: lib.ENDPOINT_IDS.length, valid: a.ok, errors: b.ok ? [] : b.error.errors.map((e) => e.attr + " " + e.code) }));
`

/**
 * The Node binaries to check: the one running the tests and, where the machine has one, the system
 * Node outside node_modules (Node 20 on these machines: effect 4 asks for 22.19, yet require(esm) works).
 */
const nodes = [...new Set([
  realpathSync(process.execPath),
  ...(process.env["PATH"] ?? "").split(delimiter)
    .filter((dir) => dir !== "" && !dir.includes("node_modules"))
    .map((dir) => join(dir, "node"))
    .filter((file) => existsSync(file))
    .map((file) => realpathSync(file))
])]

const run = (node: string, file: string): unknown => {
  // Run from the package root so the package resolves itself by name through its `exports` map.
  const output = execFileSync(node, [file], { cwd: root, encoding: "utf8" })
  return JSON.parse(output)
}

describe("the built package", () => {
  const expected = { ids: 14, valid: true, errors: ["energy_amount.quantity invalid"] }

  it("imports from a plain ES module script", () => {
    const file = join(root, ".tmp-import-check.mjs")
    writeFileSync(file, `import * as lib from "data-import-payloads";\n${body}`)
    for (const node of nodes) expect(run(node, file)).toEqual(expected)
  })

  it("requires from a plain CommonJS script", () => {
    const file = join(root, ".tmp-require-check.cjs")
    writeFileSync(file, `const lib = require("data-import-payloads");\n${body}`)
    for (const node of nodes) expect(run(node, file)).toEqual(expected)
  })

  it("ships type declarations for both formats", () => {
    for (const name of ["index.d.ts", "index.d.cts"]) {
      expect(readFileSync(join(root, "dist", name), "utf8")).toContain("declare const validatePayload")
    }
  })
})
