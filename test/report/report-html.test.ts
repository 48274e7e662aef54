/**
 * The HTML report in a real browser: Debian's headless Chromium (/usr/bin/chromium, installed by
 * .ci/run when missing) driven by playwright-core. The report of a ledger with known counts is written
 * by the built CLI, opened from its file, and read as a person sees it: the totals, the filters applied
 * through the page's own controls, and not one request but the file itself. A screenshot goes to
 * .tmp/report-html/ (not committed). A missing browser fails the test; it is never skipped. A second
 * ledger holds long values in every kind of cell (supplier, account, file names, details, raw rows, the
 * service's note on a moved transaction): at 1,280 × 800 px no table is wider than the window and the
 * totals are on the first screen.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { chromium } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ROOT, runCli, tempDir } from "../cli/run-cli.js"
import { openLedger, type SourceLine, sendRecords } from "../../src/index.js"
import { openMapJournal } from "../../src/ledger/map-journal.js"
import { energyAmount, modelService, SEED, transactions } from "../send/model-service.js"
import { buildCampaignLedger, EXPECTED, SERVICE } from "./campaign-ledger.js"

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
let longHtml = ""

/** A ledger whose cells hold long values, with and without spaces to break them at. */
const buildLongValuesLedger = async (): Promise<string> => {
  const path = join(dir, "long-values.ledger")
  const folder = `/srv/${"exports-of-the-legacy-billing-system-".repeat(12)}`
  const legacy = `${folder}/Abrechnungsdaten_${"Zaehlerstaende".repeat(20)}.csv`
  const journal = openMapJournal(path, { input: legacy, output: `${folder}/amounts.ndjson`, endpoint: "energy-amount", mapping: "amounts.mapping.json" })
  journal.lineage({ payloadLine: 1, lines: [2], raw: `KD-1;${"0123456789".repeat(200)}` })
  journal.rejected({ lines: [3], codes: ["invalid_date"], detail: `Von: ${"31.02.2024".repeat(80)} is not a date`, raw: "X".repeat(3000), supplier: "STADTWERKE_NORD", account: `KD-${"9".repeat(300)}` })
  journal.end("completed", { rowsRead: 3, payloads: 1, rowsRejected: 1 })
  const service = modelService(SEED)
  const ledger = openLedger(path, { service: SERVICE })
  const longSupplier = `STADTWERKE_${"LANGER_NAME_".repeat(25)}`
  const forced = { ...transactions("KD-1", [{ id: `T-${"7".repeat(200)}`, date: "2023-12-15" }]) }
  ;(forced["transactions"] as Array<Record<string, unknown>>)[0]!["note"] = "Gutschrift ".repeat(5) + "N".repeat(800)
  const lines = (file: string, bodies: ReadonlyArray<unknown>): Array<SourceLine> => bodies.map((body, i) => ({ file, line: i + 1, text: JSON.stringify(body) }))
  try {
    await sendRecords(lines(`${folder}/forced.ndjson`, [forced]), { ledger, client: service.client(), service: SERVICE, forceAddToCurrentStatement: true })
    await sendRecords(
      lines(`${folder}/amounts.ndjson`, [energyAmount("KD-1", 1, "9".repeat(400)), energyAmount(`KD-${"4".repeat(250)}`, 2, "1", longSupplier), energyAmount("KD-3", 3)]),
      { ledger, client: service.client(), service: SERVICE }
    )
  } finally {
    ledger.close()
  }
  return path
}

beforeAll(async () => {
  const ledger = await buildCampaignLedger(dir)
  html = join(dir, "report.html")
  const run = await runCli(["report", "--journal", ledger, "--format", "html", "--out", html])
  expect(run.code).toBe(1)
  longHtml = join(dir, "long-values.html")
  const long = await runCli(["report", "--journal", await buildLongValuesLedger(), "--format", "html", "--out", longHtml])
  expect(long.code, long.stderr).toBe(1)
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

  it("fits a 1,280 px window with long values in its cells: no table wider than the window, the totals on the first 800 px", async () => {
    const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1280, height: 800 } })
    try {
      const page = await context.newPage()
      await page.goto(pathToFileURL(longHtml).href, { waitUntil: "load" })
      // Every kind of table is there, with its long values.
      for (const id of ["codes", "kinds", "suppliers", "accounts", "problems", "moved", "runs", "map-runs"]) expect(await page.locator(`#${id}`).count(), id).toBe(1)
      expect(await page.locator("#moved tbody tr").count()).toBe(1)
      // (Run in the page: the tests are compiled without the DOM's types.)
      const widths = (await page.evaluate(`({
        window: document.documentElement.clientWidth,
        page: document.documentElement.scrollWidth,
        tables: [...document.querySelectorAll("table")].map((t) => ({ id: t.id, right: t.getBoundingClientRect().right })),
        wider: [...document.querySelectorAll("body > *")].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth).map((e) => e.tagName + "#" + e.id + "." + e.className)
      })`)) as { window: number; page: number; tables: Array<{ id: string; right: number }>; wider: Array<string> }
      expect(widths.window).toBe(1280)
      for (const t of widths.tables) expect(t.right, `#${t.id} ends at ${t.right} px`).toBeLessThanOrEqual(widths.window)
      // Nothing else makes the page scroll sideways either (a filter's list of long supplier codes, a paragraph).
      expect(widths.wider).toEqual([])
      expect(widths.page).toBeLessThanOrEqual(widths.window)
      // The totals: every card on the first screen.
      const cards = (await page.evaluate(`[...document.querySelectorAll(".cards .card")].map((c) => ({ top: c.getBoundingClientRect().top, bottom: c.getBoundingClientRect().bottom }))`)) as Array<{ top: number; bottom: number }>
      expect(cards.length).toBeGreaterThanOrEqual(12)
      for (const c of cards) {
        expect(c.top).toBeGreaterThanOrEqual(0)
        expect(c.bottom).toBeLessThanOrEqual(800)
      }
      expect(await page.locator("#total-moved").textContent()).toBe("1")
      const shots = join(ROOT, ".tmp", "report-html")
      mkdirSync(shots, { recursive: true })
      await page.screenshot({ path: join(shots, "long-values-1280.png") })
      await page.screenshot({ path: join(shots, "long-values-1280-whole.png"), fullPage: true })
    } finally {
      await context.close()
    }
  })
})
