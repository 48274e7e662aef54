/**
 * The campaign report as text (for a terminal) and as Markdown (a short summary for a status mail).
 *
 * @module
 */
import { printable } from "../schemas/printable.js"
import type { CampaignReport, CodeCounts, ProblemKind, Tally, TallyKey } from "./report-types.js"
import { exclusionCounts } from "./report-exclusions.js"

/**
 * Text from the ledger (legacy values, file names, the service's words) as a terminal can show it. Only
 * text and markdown need it: the CSV keeps every value as it is (it is mapped again), the HTML escapes
 * its own way.
 */
export { printable }

/** 1234567 → "1,234,567". */
export const count = (n: number): string => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/gu, ",")

/** A count and its noun, singular for one: "1 row", "2 rows". */
const counted = (n: number, word: string): string => `${count(n)} ${word}${Math.round(n) === 1 ? "" : "s"}`

/** Milliseconds since the epoch → "2025-01-31 14:05 UTC". */
export const when = (ms: number | null): string => (ms === null ? "—" : `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`)

/** The columns of the per-kind and per-supplier tables, with their headings. */
export const COLUMNS: ReadonlyArray<readonly [TallyKey | "not_sent", string]> = [
  ["map_rejected", "rejected at map"],
  ["map_warning", "warned at map"],
  ["records", "records"],
  ["created", "created"],
  ["already_existed", "already existed"],
  ["moved", "moved"],
  ["blocked", "blocked"],
  ["rejected", "rejected"],
  ["conflict", "conflict"],
  ["in_doubt", "in doubt"],
  ["failed", "failed"],
  ["invalid", "invalid"],
  ["not_sent", "not yet sent"]
]

export const cell = (tally: Tally, key: TallyKey | "not_sent"): number => (key === "not_sent" ? tally.pending + tally.in_flight : tally[key])

export const storedOf = (tally: Tally): number => tally.created + tally.already_existed + tally.moved

/** "blocked: supplier_not_ongoing 3, account_unknown 1; rejected: TRANSACTION_IMPORT_ERROR 2" */
export const codesLine = (codes: CodeCounts): string =>
  Object.entries(codes)
    .map(([problem, byCode]) => `${problem.replace(/_/gu, " ")}: ${Object.entries(byCode).sort((a, b) => b[1] - a[1]).map(([c, n]) => `${printable(c)} ${count(n)}`).join(", ")}`)
    .join("; ")

const table = (heading: string, named: ReadonlyArray<readonly [string, Tally]>): Array<string> => {
  const rows = named.map(([name, tally]) => [printable(name), tally] as const)
  const nameWidth = Math.max(heading.length, ...rows.map(([name]) => name.length))
  const head = [heading.padEnd(nameWidth), ...COLUMNS.map(([, label]) => label.padStart(Math.max(label.length, 7)))].join("  ")
  const lines = [head]
  for (const [name, tally] of rows) {
    lines.push([name.padEnd(nameWidth), ...COLUMNS.map(([key, label]) => count(cell(tally, key)).padStart(Math.max(label.length, 7)))].join("  "))
  }
  return lines
}

/** Payloads the latest map run of each export wrote. */
const mappedPayloads = (r: CampaignReport): number => {
  const latest = new Map<string, number>()
  for (const m of r.map_runs) latest.set(m.input, m.payloads)
  return [...latest.values()].reduce((sum, n) => sum + n, 0)
}

/** The report's verdict in one sentence; `why` is what to read when it is not complete. */
export const verdictOf = (r: CampaignReport, why: string): string => {
  if (r.complete) return "Complete: every record is stored and nothing is left to fix."
  const warnings = r.problems.counts.map_warning
  const problems = Object.values(r.problems.counts).reduce((sum, n) => sum + n, 0) - warnings
  const notSent = r.totals.pending + r.totals.in_flight
  // Nothing to fix: what is left is to send (a run stopped before it sent them, one in progress, or payload files never sent).
  const inProgress = r.runs.find((run) => run.ended === null)
  if (r.totals.records > 0 && problems === 0 && notSent > 0) {
    return inProgress !== undefined
      ? `Not complete: ${count(notSent)} records not yet answered while run #${inProgress.id} sends (nothing to fix so far).`
      : `Not complete: ${count(notSent)} records not yet sent (nothing to fix): run send again with this ledger.`
  }
  if (r.totals.records > 0 && problems === 0 && r.unsent_payload_files.length > 0) return "Not complete: payload files were mapped and not sent since (nothing to fix): send them with this ledger."
  // Only warnings of map are left: nothing failed, yet rows were let through that someone should look at.
  if (r.totals.records > 0 && problems === 0 && notSent === 0 && warnings > 0) {
    return `Not complete: every record is stored, and ${counted(warnings, "map warning")} ${warnings === 1 ? "is" : "are"} left to look at (nothing failed).`
  }
  if (r.totals.records > 0) return `Not complete: ${why}.`
  const mapped = mappedPayloads(r)
  return `Not complete: the ledger holds no records yet${mapped > 0 ? ` (${count(mapped)} payloads mapped, none sent with it)` : ""}: nothing is stored.`
}

/**
 * What to do about the codes a format shows, each advice once with the codes it is for:
 * [["blocked supplier_not_ongoing", "rejected TRANSACTION_IMPORT_ERROR"], advice].
 */
export const adviceGroups = (shown: ReadonlyArray<{ readonly problem: ProblemKind; readonly code: string; readonly advice: string }>): Array<readonly [ReadonlyArray<string>, string]> => {
  const groups = new Map<string, Set<string>>()
  for (const c of shown) {
    const codes = groups.get(c.advice) ?? new Set<string>()
    codes.add(`${c.problem.replace(/_/gu, " ")} ${c.code}`)
    groups.set(c.advice, codes)
  }
  return [...groups].map(([advice, codes]) => [[...codes], advice] as const)
}

/** "STADTWERKE_NORD KD-1 T-1: 2023-12-15 → 2024-01-01 (legacy.csv:5)" */
export const movedLine = (m: CampaignReport["moved"]["listed"][number]): string =>
  `${m.supplier ?? "?"} ${m.account ?? "?"} ${m.transaction_id ?? "?"}: ${m.from ?? "?"} → ${m.to ?? "?"} (${m.source_file ?? "?"}:${m.source_lines ?? "?"})`

/** The sentence that says what the service changed, or `undefined` when it changed nothing. */
export const movedSummary = (r: CampaignReport): string | undefined =>
  r.moved.total === 0
    ? undefined
    : `${counted(r.moved.total, "transaction")} moved into the open statement period, on ${counted(r.moved.accounts, "account")}, each with a note the service pinned on the account.`

/** The report as text. */
export const renderText = (r: CampaignReport): string => {
  const t = r.totals
  const out: Array<string> = []
  out.push(`Campaign report of ${printable(r.ledger)} (${when(r.generated_at)})`)
  out.push(`${count(t.records)} records: ${count(storedOf(t))} stored, ${count(t.records - storedOf(t))} not stored; ${count(t.map_rejected)} rows rejected at map, ${count(t.conflict)} conflicts${t.map_warning > 0 ? `; ${counted(t.map_warning, "map warning")} left to look at` : ""}`)
  out.push(verdictOf(r, "see the problems below (every one of them: --format csv)"))
  for (const f of r.unsent_payload_files) {
    out.push(`  mapped, not sent since: ${printable(f.output)} (${count(f.payloads)} payloads of ${printable(f.input)}, map run #${f.run}): send it with this ledger`)
  }
  out.push("", "By kind:", ...table("kind", r.kinds.map((k) => [k.endpoint, k.tally] as const)))
  for (const k of r.kinds) {
    const line = codesLine(k.codes)
    if (line !== "") out.push(`  ${printable(k.endpoint)}: ${line}`)
  }
  out.push("", "By supplier:", ...table("supplier", r.suppliers.map((s) => [s.supplier, s.tally] as const)))
  const a = r.accounts.totals
  out.push("", `Accounts: ${count(a.accounts)}: ${count(a.complete)} complete, ${count(a.partly)} partly stored, ${count(a.blocked)} blocked, ${count(a.not_stored)} nothing stored`)
  for (const s of r.suppliers) {
    if (s.accounts.accounts > 0) out.push(`  ${printable(s.supplier)}: ${count(s.accounts.accounts)} accounts, ${count(s.accounts.complete)} complete, ${count(s.accounts.partly)} partly, ${count(s.accounts.blocked)} blocked, ${count(s.accounts.not_stored)} nothing stored`)
  }
  const shown = r.accounts.listed.slice(0, 20)
  for (const acc of shown) {
    out.push(`  ${acc.status.replace("_", " ")} ${printable(acc.supplier)} ${printable(acc.account)}: ${count(acc.stored)} of ${count(acc.records)} stored${acc.map_rejected > 0 ? `, ${counted(acc.map_rejected, "row")} rejected at map` : ""}${acc.map_warning > 0 ? `, ${counted(acc.map_warning, "map warning")}` : ""}${acc.causes.length > 0 ? ` (${printable(acc.causes.join(", "))})` : ""}`)
  }
  const more = a.accounts - a.complete - shown.length
  if (more > 0) out.push(`  … ${count(more)} more accounts not complete (--format html or json)`)
  out.push(...unknownAccountLines(r, 20))
  const moved = movedSummary(r)
  if (moved !== undefined) {
    out.push("", `Changed by the service: ${moved} ${r.moved.advice}`)
    for (const m of r.moved.listed.slice(0, 20)) {
      out.push(`  ${printable(movedLine(m))}${m.service_note === null ? "" : `: ${printable(m.service_note)}`}`)
    }
    if (r.moved.total > 20) out.push(`  … ${count(r.moved.total - 20)} more moved transactions (--format html or json)`)
  }
  if (r.top_codes.length > 0) {
    out.push("", "Top codes:")
    for (const c of r.top_codes.slice(0, 10)) out.push(`  ${count(c.count).padStart(9)}  ${c.problem.replace(/_/gu, " ")} ${printable(c.code)}`)
  }
  const shownCodes = [...r.top_codes.slice(0, 10), ...r.problems.listed.slice(0, 20)]
  if (shownCodes.length > 0) {
    out.push("", "What to do:")
    for (const [codes, advice] of adviceGroups(shownCodes)) out.push(`  ${printable(codes.join(", "))}: ${advice}`)
  }
  if (r.map_runs.length > 0) {
    out.push("", "Map runs:")
    for (const m of r.map_runs) out.push(`  #${m.run} ${printable(m.input)} → ${printable(m.output ?? "stdout")}: ${counted(m.rows_read, "row")} read, ${counted(m.payloads, "payload")}, ${counted(m.rows_rejected, "row")} rejected${m.rows_excluded > 0 ? `, ${count(m.rows_excluded)} excluded` : ""}`)
  }
  out.push("", "Runs:")
  for (const run of r.runs) {
    const rate = run.per_minute === null ? "" : `, ${count(run.per_minute)} records/min`
    out.push(`  #${run.id} ${printable(run.command)} ${when(run.started_at)} → ${run.ended === null ? "in progress" : run.ended === "killed" ? "killed (never ended)" : `${run.ended} ${when(run.ended_at)}`}: ${counted(run.records, "record")} written last${rate}`)
  }
  out.push("", `Services: ${r.services.length === 0 ? "none" : r.services.map((s) => `${printable(s.url)} (runs ${s.first_run}–${s.last_run})`).join(", ")}`)
  const listed = Object.entries(r.problems.counts).filter(([k, n]) => n > 0 && k !== "map_warning")
  if (listed.length > 0) {
    out.push("", `Problems: ${listed.map(([k, n]) => `${k.replace(/_/gu, " ")} ${count(n)}`).join(", ")}`)
    for (const p of r.problems.listed.filter((p) => p.problem !== "map_warning").slice(0, 20)) {
      out.push(`  ${p.problem} ${printable(p.source_file ?? "?")}:${p.source_lines ?? "?"} ${printable(p.endpoint)} ${printable(p.code)}${p.detail === "" ? "" : `: ${printable(p.detail)}`}`)
    }
    out.push("  (the to-do list, one row per problem: --format csv)")
  }
  out.push(...exclusionLines(r, 20))
  if (r.problems.counts.map_warning > 0) {
    out.push("", `Left to look at: ${counted(r.problems.counts.map_warning, "map warning")} (rows that went out, and that someone should check)`)
    for (const p of r.problems.listed.filter((p) => p.problem === "map_warning").slice(0, 20)) {
      out.push(`  map warning ${printable(p.source_file ?? "?")}:${p.source_lines ?? "?"} ${printable(p.endpoint)} ${printable(p.code)}${p.detail === "" ? "" : `: ${printable(p.detail)}`}`)
    }
    if (r.problems.counts.map_warning > 20) out.push("  (every one of them: --format csv)")
  }
  return `${out.join("\n")}\n`
}

/** The rows left out on purpose: counted by outcome and reason, the first `shown` listed (nothing when none). */
const exclusionLines = (r: CampaignReport, shown: number): Array<string> => {
  const e = r.exclusions
  if (e.total === 0) return []
  const lines = ["", `Left out on purpose: ${counted(e.total, "row")} (${printable(exclusionCounts(e))}); not problems, nothing to fix`]
  for (const x of e.listed.slice(0, shown)) lines.push(`  ${x.outcome} ${printable(x.source_file)}:${x.source_lines ?? "?"} ${printable(x.reason)}: ${printable(x.detail)}`)
  if (e.total > Math.min(shown, e.listed.length)) lines.push(`  … ${count(e.total - Math.min(shown, e.listed.length))} more (every one of them: --format csv)`)
  return lines
}

/** The rows of accounts that cannot be told, each with its file and lines (at most `shown`), and how many more. */
const unknownAccountLines = (r: CampaignReport, shown: number): Array<string> => {
  const unknown = r.accounts.unknown
  if (unknown.rows === 0) return []
  const lines = [`  ${counted(unknown.rows, "row")} of no known account (the supplier or account could not be told):`]
  for (const u of unknown.listed.slice(0, shown)) {
    lines.push(`  account unknown: ${printable(u.source_file ?? "?")}:${u.source_lines ?? "?"} (${u.problem.replace(/_/gu, " ")} ${printable(u.code)}${u.account !== null ? `, account ${printable(u.account)}` : ""}${u.supplier !== null ? `, supplier ${printable(u.supplier)}` : ""})`)
  }
  if (unknown.rows > Math.min(shown, unknown.listed.length)) lines.push(`  … ${count(unknown.rows - Math.min(shown, unknown.listed.length))} more (--format csv: the rows without an account)`)
  return lines
}

const mdEscape = (text: string): string => printable(text).replace(/[|\\`*_[\]<>]/gu, (c) => `\\${c}`)

/** The report as Markdown: a short summary fit for a status mail. */
export const renderMarkdown = (r: CampaignReport): string => {
  const t = r.totals
  const stored = storedOf(t)
  const share = t.records === 0 ? 0 : Math.floor((stored / t.records) * 1000) / 10
  const a = r.accounts.totals
  const out = [
    `## Migration status (${when(r.generated_at)})`,
    "",
    `- **${count(stored)} of ${count(t.records)} records stored (${share} %)**${r.complete ? ": complete" : ""}`,
    `- Accounts: ${count(a.complete)} of ${count(a.accounts)} complete, ${count(a.partly)} partly stored, ${count(a.blocked)} blocked, ${count(a.not_stored)} with nothing stored`,
    `- To fix: ${(["map_rejected", "invalid", "rejected", "conflict"] as const).map((k) => `${count(t[k])} ${k.replace(/_/gu, " ")}`).join(", ")}`,
    ...(r.unsent_payload_files.length === 0 ? [] : [`- Mapped, not sent since: ${r.unsent_payload_files.map((f) => `${mdEscape(f.output)} (${count(f.payloads)} payloads)`).join(", ")}`]),
    `- Waiting: ${count(t.blocked)} blocked, ${count(t.failed)} failed, ${count(t.in_doubt)} in doubt, ${count(t.pending + t.in_flight)} not yet sent`,
    ...(r.accounts.unknown.rows === 0 ? [] : [`- Rows of no known account (supplier or account could not be told): ${count(r.accounts.unknown.rows)}: ${r.accounts.unknown.listed.slice(0, 5).map((u) => `${mdEscape(u.source_file ?? "?")}:${u.source_lines ?? "?"}`).join(", ")}${r.accounts.unknown.rows > 5 ? ", …" : ""}`]),
    ...(t.map_warning === 0 ? [] : [`- ${counted(t.map_warning, "map warning")} left to look at: ${r.problems.listed.filter((p) => p.problem === "map_warning").slice(0, 5).map((p) => `${mdEscape(p.code)} at ${mdEscape(p.source_file ?? "?")}:${p.source_lines ?? "?"}`).join(", ")}${t.map_warning > 5 ? ", …" : ""}`]),
    ...(r.exclusions.total === 0 ? [] : [`- Left out on purpose (not problems): ${count(r.exclusions.total)}: ${mdEscape(exclusionCounts(r.exclusions))}`]),
    ...(r.moved.total === 0 ? [] : [`- Changed by the service: ${movedSummary(r)!} Check that this is what the business wanted.`]),
    "",
    "| kind | records | stored | blocked | rejected | invalid | other open |",
    "|---|---:|---:|---:|---:|---:|---:|"
  ]
  for (const k of r.kinds) {
    const s = storedOf(k.tally)
    const other = k.tally.records - s - k.tally.blocked - k.tally.rejected - k.tally.invalid
    out.push(`| ${mdEscape(k.endpoint)} | ${count(k.tally.records)} | ${count(s)} | ${count(k.tally.blocked)} | ${count(k.tally.rejected)} | ${count(k.tally.invalid)} | ${count(other)} |`)
  }
  if (r.top_codes.length > 0) {
    out.push("", `Top codes: ${r.top_codes.slice(0, 5).map((c) => `${mdEscape(c.code)} (${c.problem.replace(/_/gu, " ")}) ${count(c.count)}`).join(", ")}`)
    out.push("", "What to do:", ...adviceGroups(r.top_codes.slice(0, 5)).map(([codes, advice]) => `- ${codes.map(mdEscape).join(", ")}: ${mdEscape(advice)}`))
  }
  const last = r.runs[r.runs.length - 1]
  if (last !== undefined) out.push("", `Last run: #${last.id} ${printable(last.command)}, ${when(last.started_at)}, ${last.ended ?? "in progress"}.`)
  return `${out.join("\n")}\n`
}
