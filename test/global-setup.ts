import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

/**
 * Builds `dist/` once before any test file runs: the build tests and the CLI tests run the built
 * package, and two files building at once would delete each other's output.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL("../", import.meta.url))
  execFileSync(process.execPath, [fileURLToPath(new URL("../node_modules/tsup/dist/cli-default.js", import.meta.url))], {
    cwd: root,
    stdio: "pipe"
  })
}
