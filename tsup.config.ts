import { defineConfig } from "tsup"

const external = ["effect", "date-fns", "@date-fns/tz", "fast-check", "commander"]

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
    // paid again by every worker. The testing kit is bundled from the sources too, behind `sample`'s
    // dynamic import: code splitting puts it in a chunk of its own, the only one importing fast-check
    // (external, an optional peer dependency), so no other command loads it.
    entry: { cli: "src/cli/main.ts" },
    format: ["esm"],
    splitting: true,
    dts: false,
    sourcemap: true,
    clean: false,
    target: "node22",
    banner: { js: "#!/usr/bin/env node" },
    external: external.filter((name) => name !== "effect"),
    noExternal: ["effect"]
  }
])
