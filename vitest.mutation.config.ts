import type { TestModule } from "vitest/node"
import { defineConfig } from "vitest/config"

/**
 * A test file that fails to load has no tests, so a runner that counts failed tests sees nothing wrong
 * in it: a mutant that breaks an import would "survive". This reporter gives such a file one failed
 * test of its own, so the mutant counts as killed (as `vitest run` would fail) and an unmutated run
 * that cannot load a file stops.
 */
const failedLoadIsAFailedTest = {
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

/**
 * The tests a mutation run (`npm run mutation`) executes: the in-process tests of the schemas, the
 * validation and the mappers. The tests of the built CLI, the service and the build run `dist/`, which a
 * mutant does not change, so they are left out (and `dist/` is not built); so is the Standard Schema
 * consumer test, which runs the built CLI too.
 */
export default defineConfig({
  test: {
    include: [
      "test/schemas/**/*.test.ts",
      "test/validation/**/*.test.ts",
      "test/mappers/**/*.test.ts",
      "test/testing/arbitrary-*.test.ts",
      "test/json-schema/to-json-schema.test.ts",
      "test/json-schema/differential.test.ts",
      "test/docs/**/*.test.ts"
    ],
    environment: "node",
    testTimeout: 120_000,
    reporters: ["default", failedLoadIsAFailedTest]
  }
})
