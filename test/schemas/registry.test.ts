/**
 * Every resource folder is registered: its module's endpoints are in the catalogue, its rules in the code
 * lists, its schemas in the public `Schemas`, and each POST endpoint has a generator of valid payloads.
 * A folder added without its lines in src/schemas/registry.ts fails here.
 */
import { existsSync, readdirSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { endpoints, ERROR_CODES, Schemas, WARNING_CODES } from "../../src/index.js"
import registry from "../../src/schemas/registry.js"

const ROOT = new URL("../../src/schemas/", import.meta.url)
// A resource folder holds a module of its own name; the shared folders beside them (endpoints/, json-schema/) do not.
const folders = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/${entry.name}.ts`, ROOT)))
  .map((entry) => entry.name)

interface ResourceModule {
  readonly default: {
    readonly endpoints: Readonly<Record<string, { readonly method: string }>>
    readonly rules: ReadonlyArray<{ readonly name: string; readonly reports?: ReadonlyArray<string> }>
    readonly warningRules: ReadonlyArray<{ readonly code: string }>
  }
  readonly [name: string]: unknown
}

describe("the registry of resources", () => {
  it("finds every endpoint of the catalogue in a resource folder", async () => {
    const declared = new Set<string>()
    for (const folder of folders) {
      const module = (await import(new URL(`${folder}/${folder}.ts`, ROOT).href)) as ResourceModule
      for (const id of Object.keys(module.default.endpoints)) declared.add(id)
    }
    expect([...declared].sort()).toEqual(Object.keys(endpoints).sort())
  })

  it.each(folders)("%s: endpoints, rules, schemas and generators are registered", async (folder) => {
    const module = (await import(new URL(`${folder}/${folder}.ts`, ROOT).href)) as ResourceModule
    const { endpoints: own, rules, warningRules } = module.default
    expect(Object.keys(own).length).toBeGreaterThan(0)
    for (const [id, entry] of Object.entries(own)) {
      expect(endpoints[id as keyof typeof endpoints], id).toBe(entry)
      if (entry.method === "POST") expect(typeof registry.payloads[id as keyof typeof registry.payloads], id).toBe("function")
    }
    for (const rule of rules) if (rule.reports === undefined) expect(Object.keys(ERROR_CODES), rule.name).toContain(rule.name)
    for (const rule of warningRules) expect(Object.keys(WARNING_CODES), rule.code).toContain(rule.code)
    for (const [name, value] of Object.entries(module)) {
      if (name !== "default") expect((Schemas as Readonly<Record<string, unknown>>)[name], name).toBe(value)
    }
  })

  it("has a generator for exactly the POST endpoints", () => {
    const posts = Object.entries(endpoints).filter(([, e]) => e.method === "POST").map(([id]) => id).sort()
    expect(Object.keys(registry.payloads).sort()).toEqual(posts)
  })
})
