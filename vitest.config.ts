import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 120_000,
    // Most files wait on child processes (the built CLI, a service), so two files at a time keep two cores
    // busy where one worker per core less one (vitest's default) leaves one idle on a 2-core runner.
    maxWorkers: 2,
    // A test that makes no `expect` call fails: a loop over cases that turns out empty, or a check that
    // only throws when it feels like it, cannot pass by asserting nothing.
    expect: { requireAssertions: true },
    // Type tests (`*.test-d.ts`) are checked by the compiler, and count as tests of the run.
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json"
    }
  }
})
