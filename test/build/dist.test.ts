import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { delimiter, join } from "node:path"
import { describe, expect, it } from "vitest"
import { nodeVersionProblem, REQUIRED_NODE } from "../../src/cli/node-version.js"
import { ENDPOINT_IDS } from "../../src/schemas/endpoints/endpoint-id.js"

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
 * Node outside node_modules (Node 20 on these machines: effect 4 asks for 22.19, yet the library, with
 * require(esm), and the command line work there; docs/development.md "Node versions" says what is promised).
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
  // The built package holds the catalogue the sources declare.
  const expected = { ids: ENDPOINT_IDS.length, valid: true, errors: ["energy_amount.quantity invalid"] }

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

  it("runs the data-import command line: validate (worker threads) and map", () => {
    const cli = join(root, "dist", "cli.js")
    const payloads = ["energy-amount", "notes", "transactions"].map((id) => join(root, "examples", "payloads", `${id}.json`))
    // One payload per row, so the rows are mapped in worker threads; row 5 falls into the spring clock change.
    const mapping = join(root, "examples", "mappings", "energy-amounts.mapping.json")
    const csv = join(root, "examples", "mappings", "energy-amounts.csv")
    const rows = readFileSync(csv, "utf8").trim().split("\n").length - 1
    for (const node of nodes) {
      const version = execFileSync(node, ["-p", "process.versions.node"], { encoding: "utf8" }).trim()
      if (nodeVersionProblem(version) !== undefined) {
        // An older Node: one message naming what is needed, exit 2, no internal error (docs/development.md "Node versions").
        const refused = spawnSync(node, [cli, "validate", ...payloads], { cwd: root, encoding: "utf8" })
        expect(refused.status, node).toBe(2)
        expect(refused.stderr).toBe(`data-import: ${nodeVersionProblem(version)!}\n`)
        expect(refused.stderr).toContain(`this is Node ${version}`)
        continue
      }
      const validate = execFileSync(node, [cli, "validate", "--jobs", "2", "--quiet", ...payloads], { cwd: root, encoding: "utf8" })
      expect(validate, node).toBe("records 3  valid 3  invalid 0  unparseable 0  warnings 0\n")
      const mapped = spawnSync(node, [cli, "map", "--mapping", mapping, "--jobs", "2", csv], { cwd: root, encoding: "utf8" })
      expect(mapped.status, `${node} ${mapped.stderr}`).toBe(1)
      const payloadLines = mapped.stdout.trim().split("\n").map((l) => JSON.parse(l) as { energy_amount: unknown })
      const rejectedLines = mapped.stderr.split("\n").filter((l) => /\.csv:\d+ /u.test(l))
      expect(rejectedLines.map((l) => /\.csv:(\d+) .*\): (\w+): \d{4}-/u.exec(l)?.slice(1)), node).toEqual([["5", "nonexistent_time"]])
      // Every row of the export ends up in exactly one payload or one rejection.
      expect(payloadLines.length + rejectedLines.length, node).toBe(rows)
    }
  })

  it("the command line's required Node is package.json's engines, and older ones are told so", () => {
    const engines = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { engines: { node: string } }).engines.node
    expect(engines).toBe(`>=${REQUIRED_NODE.replace(/\.0$/u, "")}`)
    expect([nodeVersionProblem("22.19.0"), nodeVersionProblem("22.23.3"), nodeVersionProblem("23.0.0"), nodeVersionProblem("100.1.1")]).toEqual([undefined, undefined, undefined, undefined])
    for (const old of ["20.20.2", "22.18.9", "22.9.0", "21.99.99", "v18.0.0"]) expect(nodeVersionProblem(old), old).toMatch(/needs Node 22\.19\.0 or later/u)
  })

  it("ships type declarations for both formats", () => {
    for (const name of ["index.d.ts", "index.d.cts"]) {
      expect(readFileSync(join(root, "dist", name), "utf8")).toContain("declare const validatePayload")
    }
  })
})
