import { defineConfig } from "vitest/config"
import { builtTestFiles } from "./test/built-tests.js"

// Three projects: "unit" runs on the sources and starts at once; "built" runs the built package (the CLI
// as a child process, dist/ itself) and builds it first; "types" checks the type tests. `npm test` runs
// them all; `npx vitest run --project unit FILE` is the inner loop, without the build. Which files need
// the build is derived from the files (test/built-tests.ts).
const built = builtTestFiles(import.meta.dirname)

export default defineConfig({
  test: {
    environment: "node",
    testTimeout: 120_000,
    // Most files wait on child processes (the built CLI, a service), so two files at a time keep two cores
    // busy where one worker per core less one (vitest's default) leaves one idle on a 2-core runner.
    maxWorkers: 2,
    // A test that makes no `expect` call fails: a loop over cases that turns out empty, or a check that
    // only throws when it feels like it, cannot pass by asserting nothing.
    expect: { requireAssertions: true },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: built
        }
      },
      {
        extends: true,
        // Type tests (`*.test-d.ts`) are checked by the compiler, and count as tests of the run. A project
        // of their own: the compiler checks the whole program, which a unit file alone need not wait for.
        test: { name: "types", include: [], typecheck: { enabled: true, only: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" } }
      },
      {
        extends: true,
        test: { name: "built", include: built, globalSetup: ["test/global-setup.ts"] }
      }
    ]
  }
})
