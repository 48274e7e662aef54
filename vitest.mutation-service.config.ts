import { defineConfig } from "vitest/config"
import { cappedFastCheck, failedLoadIsAFailedTest, ShortestFirst } from "./vitest.mutation.config.js"

/**
 * The tests of `npm run mutation:service` (`stryker.service.config.mjs`): the in-process tests of the client
 * and of the reference service. A run of their own, because a static mutant runs every test of its run: the
 * service's tests (about 9 s) added to the core's run would cost its 1,000 static mutants over an hour.
 * `serve-cli.test.ts` runs the built CLI, which a mutant does not change, so it is left out.
 */
export default defineConfig({
  plugins: [cappedFastCheck],
  test: {
    include: ["test/client/**/*.test.ts", "test/service/**/*.test.ts"],
    exclude: ["test/service/serve-cli.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    sequence: { sequencer: ShortestFirst },
    reporters: ["default", failedLoadIsAFailedTest]
  }
})
