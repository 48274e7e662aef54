import { defineConfig } from "tsup"

const external = ["effect", "date-fns", "@date-fns/tz", "fast-check", "commander", "csv-parse"]

export default defineConfig([
  {
    // The library: the main entry and the testing kit, as ES modules and CommonJS with declarations.
    entry: { index: "src/index.ts", testing: "src/testing/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node22",
    external
  },
  {
    // The command-line tool: one ES module with a shebang; workers load the same file. Effect is bundled
    // (tree-shaken) into it: loading the whole of effect's entry point took most of the start-up time,
    // paid again by every worker. `data-import-payloads` stays external: `sample` loads the testing kit
    // from the package at run time, so fast-check is only loaded there.
    entry: { cli: "src/cli/main.ts" },
    format: ["esm"],
    dts: false,
    sourcemap: true,
    clean: false,
    target: "node22",
    banner: { js: "#!/usr/bin/env node" },
    external: [...external.filter((name) => name !== "effect"), "data-import-payloads"],
    noExternal: ["effect"]
  }
])
