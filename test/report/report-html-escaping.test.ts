/**
 * The HTML report in Chromium with hostile legacy values: a raw row, a detail, a supplier and an account
 * that hold `</script>`, markup with event handlers, both quotes, `<!--`, an entity and U+2028/U+2029.
 * Each must show as the very text it is, in its cell and its filter, and none may run or break the page.
 * The report is written by the built CLI; the browser is Debian's headless Chromium, as in
 * report-html.test.ts. A missing browser fails the test; it is never skipped.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openLedger } from "../../src/index.js"
import { openMapJournal } from "../../src/ledger/map-journal.js"
import { runCli, tempDir } from "../cli/run-cli.js"

const CHROMIUM = "/usr/bin/chromium"
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

const RAW = `</script><script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> it's "quoted" <!-- x --> &amp; a\u2028b\u2029c`
const DETAIL = `Menge: "</td></tr></table><b id=injected>1,5</b>" is not a number\u2028next`
const SUPPLIER = `SW'><svg onload=window.__pwned=4>`
const ACCOUNT = `KD" autofocus onfocus="window.__pwned=3`

const dir = tempDir()
const profile = mkdtempSync(join(tmpdir(), "data-import-chromium-"))
afterAll(() => rmSync(profile, { recursive: true, force: true }))
let html = ""
beforeAll(async () => {
  const ledger = join(dir, `it's "the" <ledger>.ledger`)
  const journal = openMapJournal(ledger, { input: join(dir, "legacy <export>.csv"), output: join(dir, "out.ndjson"), endpoint: "energy-amount" })
  journal.rejected({ lines: [7], codes: ["invalid_decimal"], detail: DETAIL, raw: RAW, supplier: SUPPLIER, account: ACCOUNT })
  journal.end("completed", { rowsRead: 1, payloads: 0, rowsRejected: 1 })
  // A record of the same supplier and account, refused here: the account is listed among those not complete.
  const l = openLedger(ledger)
  const run = l.startRun("send", null, {})
  l.pending({ identity: "i1", endpoint: "energy-amount", key: "[]", supplier: SUPPLIER, account: ACCOUNT, content: "c", file: join(dir, "out.ndjson"), line: 1 }, run)
  l.settle("i1", { outcome: "invalid", cause: "invalid", detail: [{ attr: "energy_amount.quantity", code: "invalid", detail: RAW }] })
  l.endRun(run, "completed", {})
  l.close()
  html = join(dir, "report.html")
  const written = await runCli(["report", "--journal", ledger, "--format", "html", "--out", html])
  expect(written.code, written.stderr).toBe(1)
})

describe("the HTML report with hostile legacy values", () => {
  it("shows every value as its text, runs none of it, and its filters still work", async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`).toBe(true)
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS })
    try {
      const page = await context.newPage()
      const errors: Array<string> = []
      page.on("pageerror", (error) => errors.push(error.message))
      await page.goto(pathToFileURL(html).href, { waitUntil: "load" })
      await page.locator("#filter-account").focus()

      const pwned = () => page.evaluate(() => (globalThis as unknown as { __pwned?: unknown }).__pwned)
      expect(await pwned()).toBeUndefined()
      expect(await page.locator("#injected, #problems img, #problems svg, body > script ~ script").count()).toBe(0)
      // One script only: the report's own (the filters).
      expect(await page.locator("script").count()).toBe(1)

      const rows = page.locator("#problems tbody tr")
      expect(await rows.count()).toBe(2)
      const mapRow = page.locator('#problems tbody tr[data-outcome="map_rejected"]')
      const cells = mapRow.locator("td")
      expect(await cells.nth(3).textContent()).toBe(SUPPLIER)
      expect(await cells.nth(4).textContent()).toBe(ACCOUNT)
      expect(await cells.nth(7).textContent()).toBe(DETAIL)
      expect(await cells.nth(8).textContent()).toBe(RAW)
      expect(await mapRow.getAttribute("data-account")).toBe(ACCOUNT)
      expect(await mapRow.getAttribute("data-supplier")).toBe(SUPPLIER)
      const invalidRow = page.locator('#problems tbody tr[data-outcome="invalid"]')
      expect(await invalidRow.locator("td").nth(7).textContent()).toBe(`energy_amount.quantity: ${RAW}`)

      // The filters, by the hostile supplier and by (part of) the hostile account.
      const visible = (table: string) => page.locator(`#${table} tbody tr:not(.hidden)`)
      await page.selectOption("#filter-supplier", SUPPLIER)
      expect(await visible("problems").count()).toBe(2)
      expect(await visible("accounts").count()).toBe(1)
      await page.selectOption("#filter-supplier", "")
      await page.fill("#filter-account", `autofocus onfocus="window`)
      expect(await visible("problems").count()).toBe(2)
      await page.fill("#filter-account", "KD-1")
      expect(await visible("problems").count()).toBe(0)
      expect(await page.locator("p.muted").first().textContent()).toContain(`it's "the" <ledger>.ledger`)

      expect(await pwned()).toBeUndefined()
      expect(errors).toEqual([])
    } finally {
      await context.close()
    }
  })
})
