/**
 * `data-import serve` as users run it (the built CLI as a child process): the listening line, the seed
 * check (exit 2 with the reason), state that survives SIGKILL and a restart with --state, SIGTERM that
 * lets requests in flight finish, and a token that never appears in the output.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { once } from "node:events"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { buildPath } from "../../src/index.js"
import { assertNoStackTrace, CLI, runCli, tempDir } from "../cli/run-cli.js"
import { call, ENERGY_AMOUNT, forAccount, IMPORTED, SEED, TOKEN } from "./support.js"

const dir = tempDir()
const seedFile = join(dir, "seed.json")
writeFileSync(seedFile, JSON.stringify(SEED))

interface Serving {
  readonly child: ChildProcessWithoutNullStreams
  readonly baseUrl: string
  readonly output: () => { stdout: string; stderr: string }
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const children = new Set<ChildProcessWithoutNullStreams>()
afterEach(() => {
  for (const child of children) child.kill("SIGKILL")
  children.clear()
})

/** Starts `data-import serve …args` and waits for its listening line. */
const serve = async (args: ReadonlyArray<string>): Promise<Serving> => {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], { stdio: ["pipe", "pipe", "pipe"] })
  children.add(child)
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString("utf8")))
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString("utf8")))
  const exited = once(child, "exit").then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }))
  const deadline = Date.now() + 20_000
  while (!stdout.includes("\n")) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start: ${stderr}`)
    await new Promise((r) => setTimeout(r, 20))
  }
  const firstLine = stdout.split("\n")[0]!
  expect(firstLine).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/u)
  return { child, baseUrl: firstLine.slice("listening on ".length), output: () => ({ stdout, stderr }), exited }
}

const energy = { path: buildPath("energy-amount", {}), body: forAccount(IMPORTED, { energy_amount: ENERGY_AMOUNT }) }
const note = { path: buildPath("notes", {}), body: forAccount(IMPORTED, { notes: [{ body: "Vor dem Absturz", created_at: "2024-05-01T10:00:00Z" }] }) }
const stats = async (baseUrl: string) => (await call(baseUrl, { path: "/_reference/stats" })).body as { stored: Record<string, number> }

describe("data-import serve", () => {
  it("state in a file survives SIGKILL: a restart with --state has every committed request", async () => {
    const state = join(dir, "kill.sqlite")
    const first = await serve(["--seed", seedFile, "--state", state])
    for (let i = 0; i < 20; i++) expect((await call(first.baseUrl, energy)).status).toBe(201)
    expect((await call(first.baseUrl, note)).status).toBe(201)
    first.child.kill("SIGKILL")
    expect((await first.exited).signal).toBe("SIGKILL")

    const second = await serve(["--seed", seedFile, "--state", state])
    expect((await stats(second.baseUrl)).stored).toMatchObject({ energy_amounts: 20, notes: 1 })
    const repeat = await call(second.baseUrl, note)
    expect((repeat.body as Array<{ status: string }>)[0]!.status).toBe("NOTE_ALREADY_EXISTS")
    second.child.kill("SIGKILL")
    await second.exited

    // Without --seed, the state file is used as it is.
    const third = await serve(["--state", state])
    expect((await stats(third.baseUrl)).stored).toMatchObject({ energy_amounts: 20, notes: 1 })
  })

  it("SIGTERM lets a request in flight finish, then exits 0", async () => {
    const state = join(dir, "term.sqlite")
    const running = await serve(["--seed", seedFile, "--state", state, "--latency-ms", "500"])
    const inFlight = call(running.baseUrl, energy)
    await new Promise((r) => setTimeout(r, 150))
    running.child.kill("SIGTERM")
    expect((await inFlight).status).toBe(201)
    expect(await running.exited).toEqual({ code: 0, signal: null })
    const again = await serve(["--state", state])
    expect((await stats(again.baseUrl)).stored["energy_amounts"]).toBe(1)
  })

  it("the token never appears in the output, also with faults and wrong tokens", async () => {
    const running = await serve(["--seed", seedFile, "--fail-rate", "0.3", "--reset-rate", "0.2", "--fault-seed", "5"])
    for (let i = 0; i < 10; i++) {
      await call(running.baseUrl, energy).catch(() => undefined)
      await call(running.baseUrl, { ...energy, authorization: `Token ${TOKEN}-wrong` }).catch(() => undefined)
    }
    running.child.kill("SIGTERM")
    expect((await running.exited).code).toBe(0)
    const { stdout, stderr } = running.output()
    expect(stderr).toContain("--fault-seed 5")
    for (const text of [stdout, stderr]) {
      expect(text).not.toContain(TOKEN)
      expect(text).not.toContain("second-token")
    }
    assertNoStackTrace({ stdout, stderr })
  })

  const badSeeds: ReadonlyArray<[string, string, RegExp]> = [
    ["not JSON", "{ tokens: [", /is not valid JSON/u],
    ["no token", JSON.stringify({ ...SEED, tokens: [] }), /tokens: At least one token is needed\. \(empty\)/u],
    ["a pending account with a number", JSON.stringify({ ...SEED, accounts: [{ ...SEED.accounts[2], service_account_number: "A-9" }] }), /accounts\.0\.service_account_number: .*pending/u],
    ["an imported account without its number", JSON.stringify({ ...SEED, accounts: [{ ...SEED.accounts[0], service_account_number: null }] }), /accounts\.0\.service_account_number: .*\(required\)/u],
    ["an account of an unknown supplier", JSON.stringify({ ...SEED, suppliers: [] }), /accounts\.0\.import_supplier: No supplier/u],
    ["an unknown supplier status", JSON.stringify({ ...SEED, suppliers: [{ code: "X", status: "Closed" }] }), /suppliers\.0\.status: .*\(invalid_choice\)/u],
    ["an undocumented field", JSON.stringify({ ...SEED, extra: 1 }), /extra: .*\(unknown_field\)/u],
    ["a duplicate account", JSON.stringify({ ...SEED, accounts: [SEED.accounts[0], SEED.accounts[0]] }), /accounts\.1\.external_account_number: .*more than once/u]
  ]

  it.each(badSeeds)("a bad seed (%s) exits 2 with the reason", async (_, text, reason) => {
    const file = join(dir, "bad-seed.json")
    writeFileSync(file, text)
    const run = await runCli(["serve", "--port", "0", "--seed", file])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(reason)
    expect(run.stdout).toBe("")
  })

  it("a state file seeded from another seed, or a new state without a seed, exits 2; a missing seed file exits 3", async () => {
    const state = join(dir, "other.sqlite")
    const first = await serve(["--seed", seedFile, "--state", state])
    first.child.kill("SIGTERM")
    await first.exited
    const other = join(dir, "other-seed.json")
    writeFileSync(other, JSON.stringify({ ...SEED, tokens: ["another"] }))
    const refused = await runCli(["serve", "--port", "0", "--seed", other, "--state", state])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("was seeded from another seed")
    expect((await runCli(["serve", "--port", "0", "--state", join(dir, "new.sqlite")])).code).toBe(2)
    expect((await runCli(["serve", "--port", "0"])).code).toBe(2)
    expect((await runCli(["serve", "--port", "0", "--seed", join(dir, "missing.json")])).code).toBe(3)
    expect((await runCli(["serve", "--port", "0", "--seed", seedFile, "--fail-rate", "1.5"])).code).toBe(2)
  })
})
