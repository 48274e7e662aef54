// @ts-check
import core from "./stryker.config.mjs"

/**
 * Mutation testing of the client and the reference service: `npm run mutation:service`. The same settings as
 * `stryker.config.mjs`, with their own tests (`vitest.mutation-service.config.ts`), incremental file and
 * reports, so that neither run's static mutants pay for the other's tests.
 *
 * @type {import("@stryker-mutator/api/core").PartialStrykerOptions}
 */
export default {
  ...core,
  vitest: { configFile: "vitest.mutation-service.config.ts" },
  mutate: ["src/client/**/*.ts", "src/service/**/*.ts", "!src/**/index.ts"],
  incrementalFile: "reports/stryker-incremental-service.json",
  htmlReporter: { fileName: "reports/mutation-service/mutation.html" },
  jsonReporter: { fileName: "reports/mutation-service/mutation.json" }
}
