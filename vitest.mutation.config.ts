import { fileURLToPath } from "node:url"
import { defineConfig, type Plugin } from "vitest/config"
import { BaseSequencer, type TestModule, type TestSpecification } from "vitest/node"

/**
 * A test file that fails to load has no tests, so a runner that counts failed tests sees nothing wrong
 * in it: a mutant that breaks an import would "survive". This reporter gives such a file one failed
 * test of its own, so the mutant counts as killed (as `vitest run` would fail) and an unmutated run
 * that cannot load a file stops.
 */
export const failedLoadIsAFailedTest = {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    for (const module of testModules) {
      const errors = module.errors()
      if (errors.length === 0) continue
      const file = module.task
      file.tasks.push({
        type: "test",
        id: `${file.id}_load`,
        name: "(test file failed to load or its hooks failed)",
        mode: "run",
        fullName: `${file.name} (test file failed to load or its hooks failed)`,
        file,
        suite: file,
        context: undefined as never,
        annotations: [],
        artifacts: [],
        fullTestName: "(test file failed to load or its hooks failed)",
        timeout: 0,
        meta: {},
        result: { state: "fail", errors: [...errors] }
      } as unknown as (typeof file.tasks)[number])
    }
  }
}

const CAPPED_FAST_CHECK = fileURLToPath(new URL("test/support/capped-fast-check.ts", import.meta.url))

/**
 * Every import of `fast-check` (tests and the testing kit alike) gets `test/support/capped-fast-check.ts`,
 * which imports the real library itself. A mutation run repeats the suite for each mutant of module-level
 * code, and a few properties of 10,000 inputs per endpoint were most of each repetition; the cap only lets
 * more mutants survive, never fewer, so the score stays a lower bound (see that file).
 */
export const cappedFastCheck: Plugin = {
  name: "capped-fast-check",
  enforce: "pre",
  resolveId(source, importer) {
    return source === "fast-check" && importer !== CAPPED_FAST_CHECK ? CAPPED_FAST_CHECK : null
  }
}

/**
 * Files that failed last time first (vitest's own rule), then the shortest first, where vitest runs the
 * longest first. A mutation run stops at the first failed test (`bail`), so a mutant that a quick test
 * kills no longer waits for the slow property files; a mutant that survives runs them all either way.
 */
export class ShortestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const longestFirst = await super.sort(files)
    const cache = this.ctx.cache
    const stateOf = (file: TestSpecification) =>
      cache.getFileTestResults(`${file.project.name}:${file.moduleId.slice(this.ctx.config.root.length + 1)}`)
    const failed = longestFirst.filter((file) => stateOf(file)?.failed === true)
    const rest = longestFirst.filter((file) => stateOf(file)?.failed !== true)
    return [...failed, ...rest.reverse()]
  }
}

/**
 * The tests a mutation run (`npm run mutation`) executes: the in-process tests of the schemas, the
 * validation and the mappers. The tests of the built CLI, the service and the build run `dist/`, which a
 * mutant does not change, so they are left out (and `dist/` is not built); so is the Standard Schema
 * consumer test, which runs the built CLI too, and the Python differential, which needs Python's
 * `jsonschema`. The in-process tests of the JSON Schema and OpenAPI export, of the endpoint catalogue and
 * of the public API are in: they check the schemas too (the component names pinned by
 * `component-names.test.ts` are the `identifier` annotations of the schemas).
 */
export default defineConfig({
  plugins: [cappedFastCheck],
  test: {
    include: [
      "test/schemas/**/*.test.ts",
      "test/validation/**/*.test.ts",
      "test/mappers/**/*.test.ts",
      "test/testing/arbitrary-*.test.ts",
      "test/json-schema/to-json-schema.test.ts",
      "test/json-schema/differential.test.ts",
      "test/json-schema/to-open-api.test.ts",
      "test/json-schema/component-names.test.ts",
      "test/json-schema/portable-patterns.test.ts",
      "test/endpoints/**/*.test.ts",
      "test/public-api.test.ts",
      "test/docs/**/*.test.ts"
    ],
    // `MUTATION_EXCLUDE_TESTS=a,b` leaves test files out, to see what kills a file's mutants without them
    // (bench/README.md, "Mutation testing").
    exclude: (process.env["MUTATION_EXCLUDE_TESTS"] ?? "").split(",").filter((glob) => glob !== ""),
    environment: "node",
    testTimeout: 120_000,
    // As in vitest.config.ts: a mutant that empties the cases a test loops over fails that test.
    expect: { requireAssertions: true },
    sequence: { sequencer: ShortestFirst },
    reporters: ["default", failedLoadIsAFailedTest]
  }
})
