/**
 * The Node the command line needs (the package's `engines`, effect 4's own requirement; `send`,
 * `serve` and `report` also need `node:sqlite`), and the one message an older Node gets instead of an
 * internal error somewhere later.
 *
 * @module
 */

/** The oldest Node the tool runs on: `engines.node` of package.json (a test keeps the two equal). */
export const REQUIRED_NODE = "22.19.0"

const parts = (version: string): Array<number> => version.replace(/^v/u, "").split(".").map((n) => Number.parseInt(n, 10) || 0)

/**
 * `undefined` when `version` (as `process.versions.node` gives it) is recent enough, else the message
 * that says which Node is needed and how to run the pinned one.
 */
export const nodeVersionProblem = (version: string): string | undefined => {
  const have = parts(version)
  const need = parts(REQUIRED_NODE)
  for (let i = 0; i < need.length; i++) {
    if ((have[i] ?? 0) > need[i]!) return undefined
    if ((have[i] ?? 0) < need[i]!) {
      return `data-import needs Node ${REQUIRED_NODE} or later; this is Node ${version}. Install Node 22, or, in a project that ` +
        "pins it as a dependency (as this package's own repository does), run `npm exec -- data-import …`."
    }
  }
  return undefined
}
