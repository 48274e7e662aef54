/**
 * The HTML report in a real browser: Debian's headless Chromium (/usr/bin/chromium, installed by
 * .ci/run when missing) driven by playwright-core. The report of a ledger with known counts is written
 * by the built CLI, opened from its file, and read as a person sees it: the totals, the filters applied
 * through the page's own controls, and not one request but the file itself. A screenshot goes to
 * .tmp/report-html/ (not committed). A missing browser fails the test; it is never skipped.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir } from "../cli/run-cli.js"
import { buildCampaignLedger, EXPECTED } from "./campaign-ledger.js"

const CHROMIUM = "/usr/bin/chromium"
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

const dir = tempDir()
const profile = mkdtempSync(join(tmpdir(), "data-import-chromium-"))
afterAll(() => rmSync(profile, { recursive: true, force: true }))
let html = ""
beforeAll(async () => {
  const ledger = await buildCampaignLedger(dir)
  html = join(dir, "report.html")
  const run = await runCli(["report", "--journal", ledger, "--format", "html", "--out", html])
  expect(run.code).toBe(1)
})

describe("the HTML report in Chromium", () => {
  it("shows the known totals, filters its tables through its controls, and requests nothing", async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`).toBe(true)
    // A persistent context on a fresh directory: Chromium's --user-data-dir, as playwright wants it given.
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS })
    try {
      const requests: Array<string> = []
      context.on("request", (request) => requests.push(request.url()))
      const page = await context.newPage()
      const errors: Array<string> = []
      page.on("pageerror", (error) => errors.push(error.message))
      const url = pathToFileURL(html).href
      await page.goto(url, { waitUntil: "load" })

      const total = async (id: string) => (await page.locator(`#total-${id}`).textContent())?.trim()
      expect(await total("records")).toBe(String(EXPECTED.records))
      expect(await total("stored")).toBe(String(EXPECTED.created))
      expect(await total("blocked")).toBe(String(EXPECTED.blocked))
      expect(await total("conflict")).toBe(String(EXPECTED.conflict))
      expect(await total("map_rejected")).toBe(String(EXPECTED.map_rejected))
      expect(await total("accounts")).toBe(String(EXPECTED.accounts.accounts))
      expect(await page.locator("#chart-outcomes rect").count()).toBeGreaterThan(0)
      expect(await page.locator("#chart-timeline rect").count()).toBeGreaterThan(0)

      const visible = (table: string) => page.locator(`#${table} tbody tr:not(.hidden)`)
      expect(await visible("problems").count()).toBe(EXPECTED.problems.length)
      await page.selectOption("#filter-outcome", "blocked")
      expect(await visible("problems").count()).toBe(EXPECTED.blocked)
      expect(await page.locator('[data-shown-for="problems"]').textContent()).toBe(String(EXPECTED.blocked))
      await page.selectOption("#filter-supplier", "STADTWERKE_SUED")
      expect(await visible("problems").count()).toBe(1)
      expect(await visible("problems").locator("td").nth(2).textContent()).toBe("supplier_not_ongoing")
      expect(await visible("accounts").count()).toBe(1)
      await page.selectOption("#filter-supplier", "")
      await page.selectOption("#filter-outcome", "")
      await page.fill("#filter-account", "KD-3")
      expect(await visible("problems").count()).toBe(EXPECTED.blockedBy.account_not_imported)
      await page.fill("#filter-account", "")
      await page.selectOption("#filter-kind", "transactions")
      expect(await visible("problems").count()).toBe(1)
      expect(await visible("kinds").count()).toBe(1)
      await page.selectOption("#filter-kind", "")

      const shots = join(ROOT, ".tmp", "report-html")
      mkdirSync(shots, { recursive: true })
      await page.screenshot({ path: join(shots, "report.png"), fullPage: true })
      expect(existsSync(join(shots, "report.png"))).toBe(true)
      expect(errors).toEqual([])
      expect(requests).toEqual([url])
    } finally {
      await context.close()
    }
  })
})
