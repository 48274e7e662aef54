/**
 * `--documents DIR` (the built CLI): document paths of notes and historical statements are checked
 * against a folder laid out like the file store's root. `validate` reports a missing file as
 * `path_does_not_exist_in_file_store` at its attr (and lists the folder's files no record names, as
 * information), `send` does not send such a record, and `serve` answers it 400 as the real API does.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { buildPath } from "../../src/index.js"
import { startServe } from "../service/serve-child.js"
import { SEED, TOKEN } from "../service/support.js"
import { ROOT, runCli, tempDir } from "./run-cli.js"

const CODE = "path_does_not_exist_in_file_store"
const example = (id: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(ROOT, "examples", "payloads", `${id}.json`), "utf8")) as Record<string, unknown>
const NOTES = example("notes")
const STATEMENTS = example("historical-statements")

const dir = tempDir()
/** A folder with some of the examples' documents, and one file no example names. */
const folder = (name: string, files: ReadonlyArray<string>): string => {
  const root = join(dir, name)
  for (const file of files) {
    mkdirSync(dirname(join(root, file)), { recursive: true })
    writeFileSync(join(root, file), "%PDF-1.4\n")
  }
  mkdirSync(root, { recursive: true })
  return root
}
const PRESENT = ["notes/KD-0045127/vertrag-2019.pdf", "statements/2023/JA-2023-0045127.pdf"]
const EVERY = [...PRESENT, "notes/KD-0045127/zaehlerwechsel-2024-06-12.pdf", "notes/KD-0045127/sepa-mandat.pdf", "statements/2024/JA-2024-0045127.pdf"]
const partial = folder("partial", [...PRESENT, "notes/KD-0045127/nie-verwendet.pdf"])
const complete = folder("complete", EVERY)

const inputs = (): Array<string> => {
  const ndjson = join(dir, "records.ndjson")
  writeFileSync(ndjson, `${JSON.stringify(NOTES)}\n${JSON.stringify(STATEMENTS)}\n`)
  const json = join(dir, "records.json")
  writeFileSync(json, JSON.stringify([NOTES, STATEMENTS], null, 2))
  return [ndjson, json]
}

interface Report {
  readonly ok: boolean
  readonly byCode: Record<string, number>
  readonly results: ReadonlyArray<{ readonly line: number; readonly error: { readonly errors: ReadonlyArray<{ code: string; attr: string }> } }>
}

describe("validate --documents", () => {
  it.each([["1"], ["2"]])("finds the notes' and statements' missing files at their attrs (-j %s), and lists the unreferenced file", async (jobs) => {
    const run = await runCli(["validate", ...inputs(), "--documents", partial, "--format", "json", "-j", jobs])
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout) as Report
    // Each input holds the two examples: two notes' files and one statement are missing in each.
    expect(report.byCode).toEqual({ [CODE]: 6 })
    const attrs = report.results.flatMap((r) => r.error.errors.filter((e) => e.code === CODE).map((e) => e.attr)).sort()
    expect(attrs).toEqual([
      "notes.1.document_paths.0.document_path",
      "notes.1.document_paths.0.document_path",
      "notes.2.document_paths.1.document_path",
      "notes.2.document_paths.1.document_path",
      "statements.1.statement_path",
      "statements.1.statement_path"
    ])
    expect(run.stderr).toContain("information: 1 file in")
    expect(run.stderr).toContain("notes/KD-0045127/nie-verwendet.pdf")
    expect(run.stderr).not.toContain("vertrag-2019.pdf")
  })

  it("passes when every file is there, and says nothing of unreferenced files when there are none", async () => {
    const run = await runCli(["validate", ...inputs(), "--documents", complete, "--format", "json"])
    expect(run.code).toBe(0)
    expect((JSON.parse(run.stdout) as Report).ok).toBe(true)
    expect(run.stderr).not.toContain("information")
  })

  it("keeps the safety rule: an unsafe path is invalid_document_path and never looked up", async () => {
    const file = join(dir, "unsafe.ndjson")
    writeFileSync(file, `${JSON.stringify({ ...STATEMENTS, statements: [{ ...(STATEMENTS["statements"] as Array<object>)[0], statement_path: "../complete/statements/2023/JA-2023-0045127.pdf" }] })}\n`)
    const run = await runCli(["validate", file, "--documents", partial, "--format", "json"])
    expect((JSON.parse(run.stdout) as Report).byCode).toEqual({ invalid_document_path: 1 })
  })

  it("keeps links to files, never walks out of the folder through a linked folder, and lists a link loop once", async () => {
    // Outside the folder: a file a link inside names, and a folder with a file of its own.
    const outsideFile = join(folder("elsewhere", ["statements/JA-2024.pdf"]), "statements", "JA-2024.pdf")
    const outsideFolder = folder("elsewhere-folder", ["secret-outside.pdf"])
    const root = folder("linked", [...EVERY.filter((f) => f !== "statements/2024/JA-2024-0045127.pdf"), "notes/unnamed.pdf"])
    mkdirSync(join(root, "statements", "2024"))
    symlinkSync(outsideFile, join(root, "statements", "2024", "JA-2024-0045127.pdf"))
    symlinkSync(outsideFolder, join(root, "outside"))
    symlinkSync("/", join(root, "root"))
    symlinkSync("/etc", join(root, "etc"))
    // A loop inside the folder: notes/KD-0045127/loop is notes again.
    symlinkSync("..", join(root, "notes", "KD-0045127", "loop"))
    const throughLink = join(dir, "through-link.ndjson")
    const statement = (STATEMENTS["statements"] as Array<object>)[0]
    writeFileSync(throughLink, `${JSON.stringify({ ...STATEMENTS, statements: [{ ...statement, statement_path: "outside/secret-outside.pdf" }] })}\n`)

    const run = await runCli(["validate", ...inputs(), throughLink, "--documents", root, "--format", "json"])
    expect(run.code).toBe(1)
    const report = JSON.parse(run.stdout) as Report
    // The link to a file outside is the statement of 2024; the path through the linked folder is missing.
    expect(report.byCode).toEqual({ [CODE]: 1 })
    expect(report.results.flatMap((r) => r.error.errors.map((e) => `${r.line} ${e.attr}`))).toEqual(["1 statements.0.statement_path"])
    // The one file no record names, once (not again through the loop); nothing of the linked folders.
    expect(run.stderr).toContain("information: 1 file in")
    expect(run.stderr.match(/unnamed\.pdf/gu)).toEqual(["unnamed.pdf"])
    expect(run.stderr).not.toContain("secret-outside")
    expect(run.stderr).not.toContain("passwd")
    expect(run.stderr).toMatch(/3 links to folders outside .*: not read: etc, outside, root/u)
  })

  it("a --documents that is no folder is a usage error (exit 2)", async () => {
    const run = await runCli(["validate", inputs()[0]!, "--documents", join(dir, "no-such-folder")])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("--documents")
  })
})

describe("serve --documents", () => {
  const seedFile = join(dir, "seed.json")
  writeFileSync(seedFile, JSON.stringify(SEED))
  const post = (baseUrl: string, id: "notes" | "historical-statements", body: unknown) =>
    fetch(`${baseUrl}${buildPath(id, {})}`, {
      method: "POST",
      headers: { Authorization: `Token ${TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify(body)
    })

  it("answers 400 path_does_not_exist_in_file_store at each missing document, and stores nothing of that request", async () => {
    const serving = await startServe(["--seed", seedFile, "--documents", partial])
    const notes = await post(serving.baseUrl, "notes", NOTES)
    expect(notes.status).toBe(400)
    const notesBody = (await notes.json()) as { code: string; errors: Array<{ code: string; attr: string }> }
    expect(notesBody.errors).toEqual([
      expect.objectContaining({ code: CODE, attr: "notes.1.document_paths.0.document_path" }),
      expect.objectContaining({ code: CODE, attr: "notes.2.document_paths.1.document_path" })
    ])
    const statements = await post(serving.baseUrl, "historical-statements", STATEMENTS)
    expect(statements.status).toBe(400)
    expect(((await statements.json()) as { errors: unknown }).errors).toEqual([expect.objectContaining({ code: CODE, attr: "statements.1.statement_path" })])
    const stats = (await (await fetch(`${serving.baseUrl}/_reference/stats`, { headers: { Authorization: `Token ${TOKEN}` } })).json()) as { stored: Record<string, number> }
    expect(stats.stored["notes"]).toBe(0)
  })

  it("takes the request once the files are there (a file added while it runs is found)", async () => {
    const growing = folder("growing", PRESENT)
    const serving = await startServe(["--seed", seedFile, "--documents", growing])
    expect((await post(serving.baseUrl, "historical-statements", STATEMENTS)).status).toBe(400)
    folder("growing", ["statements/2024/JA-2024-0045127.pdf"])
    expect((await post(serving.baseUrl, "historical-statements", STATEMENTS)).status).toBe(201)
  })

  it("without --documents every path is taken (the real service's check is off by default)", async () => {
    const serving = await startServe(["--seed", seedFile])
    expect((await post(serving.baseUrl, "notes", NOTES)).status).toBe(201)
  })
})

describe("send --documents", () => {
  it("does not send a record whose document is missing: it ends invalid with the code, the others are created", async () => {
    const seedFile = join(dir, "seed-send.json")
    writeFileSync(seedFile, JSON.stringify(SEED))
    const serving = await startServe(["--seed", seedFile])
    const results = join(dir, "send-results.ndjson")
    const run = await runCli(
      ["send", inputs()[0]!, "--base-url", serving.baseUrl, "--journal", join(dir, "send.sqlite"), "--new-ledger", "--documents", partial, "--format", "json", "--results", results],
      { env: { DATA_IMPORT_TOKEN: TOKEN } }
    )
    expect(run.code).toBe(1)
    const lines = readFileSync(results, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { outcome: string; cause: string | null; key: unknown })
    const invalid = lines.filter((l) => l.outcome === "invalid")
    // notes.1 and notes.2 lack a file, and statements.1: three records kept back; notes.0 and statements.0 sent.
    expect(invalid).toHaveLength(3)
    for (const l of invalid) expect(l.cause).toBe(CODE)
    expect(lines.filter((l) => l.outcome === "created")).toHaveLength(2)
  })
})
