/**
 * `npm run demo` (scripts/demo.mjs) after the build: the whole campaign on the bundled examples (map with
 * --journal, validate, serve, send, report) answers as expected and leaves an HTML report whose totals are
 * the ones counted here by hand from the example exports.
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { CLI, ROOT } from "./run-cli.js"

/**
 * Records the examples make, counted from examples/mappings/*.csv: 2 market participants, 2 price sheets
 * (one per participant), 1 set of time definitions, 2 delivery notes, 4 energy amounts (5 rows, 1 rejected),
 * 3 historical statements, 2 invoices, 3 notes (KD-0045128's note without text rejected alone), 3 payment
 * instructions, 5 transactions (6 rows, 1 rejected). Rejected at map: 3 (one per export with a bad row).
 */
const RECORDS = 2 + 2 + 1 + 2 + 4 + 3 + 2 + 3 + 3 + 5
const MAP_REJECTED = 3

const runDemo = (): Promise<{ code: number | null; stdout: string }> =>
  new Promise((resolve, reject) => {
    // The test's private copy of the built CLI: a build started meanwhile cannot pull dist/ away.
    const child = spawn(process.execPath, [join(ROOT, "scripts", "demo.mjs")], { cwd: ROOT, env: { ...process.env, DATA_IMPORT_DEMO_CLI: CLI }, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")))
    child.stderr.resume()
    child.on("error", reject)
    child.on("close", (code) => resolve({ code, stdout }))
  })

describe("npm run demo", () => {
  it("exits 0 and prints where the HTML report is, with the campaign's totals in it", async () => {
    const { code, stdout } = await runDemo()
    const html = /^HTML report: (.+)$/mu.exec(stdout)?.[1]
    try {
      expect(code, stdout.slice(-3000)).toBe(0)
      expect(stdout).toContain("Demo complete: every command answered as expected.")
      expect(stdout).not.toContain("<- unexpected")
      expect(html).toBeDefined()
      expect(existsSync(html!)).toBe(true)
      const text = readFileSync(html!, "utf8")
      expect(text).toContain(`<b id="total-records" class="">${RECORDS}</b>`)
      expect(text).toContain(`<b id="total-stored" class="ok">${RECORDS}</b>`)
      expect(text).toContain(`<b id="total-map_rejected" class="bad">${MAP_REJECTED}</b>`)
      // The markdown report on stdout says the same.
      expect(stdout).toContain(`**${RECORDS} of ${RECORDS} records stored (100 %)**`)
      // The token travels in send's environment, never as an argument: no command line shows it.
      expect(stdout).not.toContain("demo-rehearsal-token")
    } finally {
      if (html !== undefined) rmSync(dirname(html), { recursive: true, force: true })
    }
  })
})
