/**
 * The payload generators (`src/schemas/<resource>/arbitrary.ts`) receive fast-check and the shared
 * generators as a kit argument (src/testing/arbitrary-kit.ts), so that a module of the main entry, such
 * as the resource registry, can import them without loading fast-check. These tests read the modules as
 * the build emits them (TypeScript with the project's `verbatimModuleSyntax`, type-only imports erased)
 * and follow what is left.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { arbitraryKit } from "../../src/testing/arbitrary-kit.js"

const ROOT = resolve(new URL("../../", import.meta.url).pathname)
const SRC = join(ROOT, "src")
const TESTING = join(SRC, "testing")

/** The modules a TypeScript source names, either after its types are erased (`runtime`) or all of them. */
const importsOf = (text: string, which: "runtime" | "all"): Array<string> => {
  const code = which === "all"
    ? text
    : ts.transpileModule(text, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true }
    }).outputText
  return ts.preProcessFile(code, true, true).importedFiles.map((file) => file.fileName)
}

/** The file a relative specifier of `from` names (`./x.js` is `./x.ts`, `./dir` is `./dir/index.ts`). */
const fileOf = (from: string, specifier: string): string | undefined => {
  const base = resolve(dirname(from), specifier)
  return [base.replace(/\.js$/u, ".ts"), `${base}.ts`, join(base, "index.ts")].find((candidate) => candidate.endsWith(".ts") && existsSync(candidate))
}

/** The package a bare specifier names (`fast-check`, `effect` for `effect/Schema`, `@scope/name`). */
const packageOf = (specifier: string): string => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/")

/** Every file of `src/` and package that `entry` loads, following the imports of one kind from file to file. */
const closureOf = (entry: string, which: "runtime" | "all", read = (file: string) => readFileSync(file, "utf8")) => {
  const files = new Set<string>([entry])
  const packages = new Set<string>()
  for (const file of files) {
    for (const specifier of importsOf(read(file), which)) {
      if (!specifier.startsWith(".")) packages.add(packageOf(specifier))
      else {
        const target = fileOf(file, specifier)
        if (target !== undefined) files.add(target)
      }
    }
  }
  return { files: [...files].map((file) => relative(ROOT, file)), packages: [...packages] }
}

/** Whether a specifier of `from` names fast-check or a module of src/testing. */
const isForbidden = (from: string, specifier: string): boolean =>
  packageOf(specifier) === "fast-check" || (specifier.startsWith(".") && (fileOf(from, specifier)?.startsWith(`${TESTING}/`) ?? false))

const generatorFiles = readdirSync(join(SRC, "schemas"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(SRC, "schemas", entry.name, "arbitrary.ts")))
  .map((entry) => join(SRC, "schemas", entry.name, "arbitrary.ts"))

describe("the payload generators need fast-check by type only", () => {
  it("no src/schemas/*/arbitrary.ts imports fast-check or src/testing other than by `import type`", () => {
    expect(generatorFiles.length).toBeGreaterThanOrEqual(10)
    const offending = generatorFiles.flatMap((file) =>
      importsOf(readFileSync(file, "utf8"), "runtime").filter((s) => isForbidden(file, s)).map((s) => `${relative(ROOT, file)}: ${s}`)
    )
    expect(offending).toEqual([])
  })

  it("nor does anything they load: their runtime imports reach neither fast-check nor src/testing", () => {
    for (const file of generatorFiles) {
      const { files, packages } = closureOf(file, "runtime")
      expect(packages, relative(ROOT, file)).not.toContain("fast-check")
      expect(files.filter((f) => f.startsWith("src/testing/")), relative(ROOT, file)).toEqual([])
    }
  })

  it("each takes the kit, whose types it imports", () => {
    for (const file of generatorFiles) {
      const all = importsOf(readFileSync(file, "utf8"), "all")
      expect(all.some((s) => s.endsWith("/testing/arbitrary-kit.js")), relative(ROOT, file)).toBe(true)
    }
  })

  it("finds a runtime import of fast-check or src/testing, and lets a type-only one pass", () => {
    const from = join(SRC, "schemas", "notes", "arbitrary.ts")
    const runtime = (text: string) => importsOf(text, "runtime").filter((s) => isForbidden(from, s))
    expect(runtime(`import * as fc from "fast-check"\nexport const a = fc.boolean()`)).toEqual(["fast-check"])
    expect(runtime(`import { record } from "../../testing/arbitrary-values.js"\nexport const a = record({})`)).toEqual([
      "../../testing/arbitrary-values.js"
    ])
    // Under verbatimModuleSyntax an inline `type` keeps the import (for its side effects): it still loads the module.
    expect(runtime(`import { type ArbitraryKit } from "../../testing/arbitrary-kit.js"\nexport const f = (k: ArbitraryKit) => k`)).toEqual([
      "../../testing/arbitrary-kit.js"
    ])
    expect(runtime(`export const f = () => import("fast-check")`)).toEqual(["fast-check"])
    expect(runtime(`import type { Arbitrary } from "fast-check"\nimport type { ArbitraryKit } from "../../testing/arbitrary-kit.js"\nexport const f = (k: ArbitraryKit): Arbitrary<boolean> => k.fc.boolean()`)).toEqual([])
    expect(runtime(`import { Notes } from "./notes.js"\nimport { dateOfDay } from "../../schemas/instant.js"\nexport const a = [Notes, dateOfDay]`)).toEqual([])
  })
})

describe("the kit", () => {
  it("imports neither the endpoint catalogue nor the resource registry, not even by type (the registry will import the generators)", () => {
    const { files, packages } = closureOf(join(TESTING, "arbitrary-kit.ts"), "all")
    expect(files).toContain("src/testing/arbitrary-values.ts")
    expect(packages).toContain("fast-check")
    expect(files).not.toContain("src/schemas/endpoints/catalogue.ts")
    expect(files).not.toContain("src/schemas/registry.ts")
    expect(files.filter((f) => /^src\/schemas\/.+\/arbitrary\.ts$/u.test(f))).toEqual([])
  })

  it("hands fast-check itself to the generators", async () => {
    const fc = await import("fast-check")
    expect(arbitraryKit.fc).toBe(fc)
  })
})
