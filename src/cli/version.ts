/**
 * The package version for `--version`, read from the package's own `package.json` (found from the
 * running module, whether that is the bundle in `dist/` or the source in `src/cli/`).
 *
 * @module
 */
import { readFileSync } from "node:fs"

/** The version of the installed `data-import-payloads` package, or `unknown`. */
export const packageVersion = (from: URL): string => {
  for (let dir = new URL("./", from); ; dir = new URL("../", dir)) {
    try {
      const manifest = JSON.parse(readFileSync(new URL("package.json", dir), "utf8")) as { name?: unknown; version?: unknown }
      if (manifest.name === "data-import-payloads" && typeof manifest.version === "string") return manifest.version
    } catch {
      // Not here: look one directory up.
    }
    if (new URL("../", dir).href === dir.href) return "unknown"
  }
}
