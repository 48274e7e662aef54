// @ts-check
/**
 * Mutation testing of the core (schemas, validation, mappers): `npm run mutation` (all of it), or one file at a time:
 * `npm run mutation -- --mutate src/mappers/to-decimal-string.ts`. Incremental: a run retests only the
 * mutants whose code or covering tests changed since the last one (`--force` retests all). The incremental
 * file, `bench/mutation/stryker-incremental.json`, is committed: a whole run takes longer than a working
 * session on 2 cores, and a run keeps the results of the files outside its `--mutate`, so the whole run is
 * done in parts that each finish, and the results of each part outlive the machine it ran on.
 * Reports: `reports/mutation/` (git-ignored). Not part of CI: too slow on 2 cores.
 * Scope a run with `--mutate`, not with `testFiles`: with `testFiles` the static mutants (module-level
 * constants) were not activated and all "survived".
 * The client and the reference service have a run of their own: `npm run mutation:service` (`stryker.service.config.mjs`).
 *
 * @type {import("@stryker-mutator/api/core").PartialStrykerOptions}
 */
export default {
  packageManager: "npm",
  testRunner: "vitest",
  // The in-process tests only (see vitest.mutation.config.ts): a mutant never reaches the built CLI.
  vitest: { configFile: "vitest.mutation.config.ts" },
  coverageAnalysis: "perTest",
  // Not the generated validators: `npm run generate` writes them from the schemas, and
  // test/validation/generated-validators.test.ts checks byte for byte that the file is what the generator
  // (src/validation/generate-validators.ts and generator/, mutated here) gives today. Mutating the output
  // would add 16,399 mutants (of 22,149), and an instrumented copy of it fails that check in the
  // initial run, which stops the whole run.
  mutate: [
    "src/schemas/**/*.ts",
    "src/validation/**/*.ts",
    "src/mappers/**/*.ts",
    "!src/**/index.ts",
    "!src/validation/generated/**"
  ],
  ignorePatterns: ["reports", "dist", ".tmp*"],
  // Stryker would otherwise put \`// @ts-nocheck\` atop every source file of its sandbox, and the test that the
  // generated validators are up to date compares that file byte for byte; vitest never type-checks anyway.
  disableTypeChecks: false,
  // The machine's two cores are shared.
  concurrency: 1,
  incremental: true,
  incrementalFile: "bench/mutation/stryker-incremental.json",
  reporters: ["html", "json", "clear-text", "progress"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 90, low: 80, break: null },
  tempDirName: ".tmp-stryker",
  cleanTempDir: "always"
}
