/**
 * The campaign report as one self-contained HTML file: inline CSS, inline SVG charts, a little inline
 * script for the filters, and a Content-Security-Policy that forbids every request (no network access,
 * no external script, font or image). Its size is bounded whatever the ledger's: tables list at most the
 * report's limit of rows and say how many more there are.
 *
 * @module
 */
import { esc, outcomesChart, timelineChart } from "./html-charts.js"
import { cell, COLUMNS, count, movedSummary, storedOf, verdictOf, when } from "./render-text.js"
import type { CampaignReport } from "./report-types.js"
import { exclusionCounts } from "./report-exclusions.js"

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1b1b1b;background:#fafafa}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px}
.muted{color:#666}.cards{display:flex;flex-wrap:wrap;gap:10px;margin:16px 0}
.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:110px}
.card b{display:block;font-size:20px}.ok{color:#2e7d32}.bad{color:#c62828}
table{border-collapse:collapse;background:#fff;margin:6px 0}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f0f0f0;position:sticky;top:0}
.chart text{font-size:12px;fill:#333}.legend .key{margin-right:10px;white-space:nowrap}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}
.filters{position:sticky;top:0;background:#fafafa;padding:8px 0;border-bottom:1px solid #ddd;z-index:1}
.filters label{margin-right:14px}tr.hidden{display:none}pre{margin:0;white-space:pre-wrap;max-width:480px;min-width:16em;font-size:12px}
table{display:block;max-width:100%;overflow-x:auto}td,p,pre,.card{overflow-wrap:anywhere}svg.chart{max-width:100%;height:auto}
.filters select,.filters input{max-width:18em}`

/** The filters: a table names the filters that apply to it (data-filters); its rows carry data-kind, data-supplier, data-account, data-outcome (a row without one does not match a filter set on it). */
const SCRIPT = `
(function(){
  var names=["kind","supplier","account","outcome"];
  function apply(){
    var want={};names.forEach(function(n){want[n]=document.getElementById("filter-"+n).value.trim();});
    document.querySelectorAll("table.filterable").forEach(function(t){
      var shown=0,applies=(t.getAttribute("data-filters")||"").split(" ");
      t.querySelectorAll("tbody tr").forEach(function(row){
        var ok=names.every(function(n){
          var v=row.getAttribute("data-"+n)||"";
          if(want[n]===""||applies.indexOf(n)<0)return true;
          return n==="account"?v.toLowerCase().indexOf(want[n].toLowerCase())>=0:v===want[n];
        });
        row.classList.toggle("hidden",!ok);if(ok)shown++;
      });
      var c=document.querySelector('[data-shown-for="'+t.id+'"]');if(c)c.textContent=String(shown);
    });
  }
  names.forEach(function(n){var e=document.getElementById("filter-"+n);e.addEventListener("input",apply);e.addEventListener("change",apply);});
  apply();
})();`

const attrs = (data: Readonly<Record<string, string | null>>): string =>
  Object.entries(data).filter(([, v]) => v !== null).map(([k, v]) => ` data-${k}="${esc(v)}"`).join("")

const select = (name: string, label: string, values: ReadonlyArray<string>): string =>
  `<label>${esc(label)} <select id="filter-${name}"><option value="">all</option>${values.map((v) => `<option value="${esc(v)}">${esc(v)}</option>`).join("")}</select></label>`

const shownOf = (id: string, rows: number, total: number, more = "every problem: --format csv"): string =>
  `<p class="muted"><span data-shown-for="${id}">${rows}</span> shown of ${count(rows)} listed${total > rows ? `; ${count(total - rows)} more not listed (${more})` : ""}.</p>`

const card = (id: string, label: string, n: number, tone = ""): string => `<div class="card"><span>${esc(label)}</span><b id="total-${id}" class="${tone}">${count(n)}</b></div>`

/** The rows of no known account (their supplier or account could not be told), with file and lines. */
const unknownAccounts = (r: CampaignReport): string => {
  const unknown = r.accounts.unknown
  if (unknown.rows === 0) return ""
  const rows = unknown.listed.map((u) =>
    `<tr${attrs({ kind: u.endpoint, outcome: u.problem })}><td>${esc(u.problem.replace(/_/gu, " "))}</td><td>${esc(u.endpoint)}</td><td>${esc(u.code)}</td><td>${esc(u.supplier)}</td><td>${esc(u.account)}</td><td>${esc(u.source_file)}</td><td>${esc(u.source_lines)}</td></tr>`
  )
  return `<p id="unknown-accounts" class="bad">${count(unknown.rows)} rows of no known account: their supplier or account could not be told, so they are counted under no account.</p>
<table id="unknown-account-rows" class="filterable" data-filters="kind outcome"><thead><tr><th>problem</th><th>kind</th><th>code</th><th>supplier</th><th>account</th><th>source file</th><th>lines</th></tr></thead><tbody>${rows.join("")}</tbody></table>
${shownOf("unknown-account-rows", rows.length, unknown.rows)}`
}

/** The rows left out on purpose: counted by outcome and reason, and listed (nothing when none). */
const exclusionsSection = (r: CampaignReport): string => {
  const e = r.exclusions
  if (e.total === 0) return ""
  const rows = e.listed.map((x) =>
    `<tr${attrs({ kind: x.endpoint, supplier: x.supplier, account: x.account })}><td>${esc(x.outcome)}</td><td>${esc(x.reason)}</td><td>${esc(x.endpoint)}</td><td>${esc(x.supplier)}</td><td>${esc(x.account)}</td><td>${esc(x.source_file)}</td><td>${esc(x.source_lines)}</td><td>${esc(x.detail)}</td><td><pre>${esc(x.raw)}</pre></td></tr>`
  )
  return `<h2>Left out on purpose</h2><p id="exclusions-summary">${count(e.total)} rows, not problems (nothing to fix): ${esc(exclusionCounts(e))}.</p>
<table id="exclusions" class="filterable" data-filters="kind supplier account"><thead><tr><th>outcome</th><th>reason</th><th>kind</th><th>supplier</th><th>account</th><th>source file</th><th>lines</th><th>detail</th><th>raw row</th></tr></thead><tbody>${rows.join("")}</tbody></table>
${shownOf("exclusions", rows.length, e.total)}`
}

/** The report as one HTML document. */
export const renderHtml = (r: CampaignReport): string => {
  const t = r.totals
  const stored = storedOf(t)
  const a = r.accounts.totals
  const kinds = r.kinds.map((k) => k.endpoint)
  const suppliers = r.suppliers.map((s) => s.supplier)
  const outcomes = ["map_rejected", "invalid", "rejected", "blocked", "failed", "in_doubt", "conflict", "map_warning", "partly", "not_stored"]
  const tallyCells = (tally: CampaignReport["totals"]): string => COLUMNS.map(([key]) => `<td class="n">${count(cell(tally, key))}</td>`).join("")
  const head = `<tr><th>%s</th>${COLUMNS.map(([, label]) => `<th>${esc(label)}</th>`).join("")}</tr>`
  const kindRows = r.kinds.map((k) => {
    const codes = Object.entries(k.codes).map(([p, byCode]) => `${esc(p.replace(/_/gu, " "))}: ${Object.entries(byCode).sort((x, y) => y[1] - x[1]).slice(0, 8).map(([c, n]) => `${esc(c)} ${count(n)}`).join(", ")}`).join("<br>")
    return `<tr${attrs({ kind: k.endpoint })}><td>${esc(k.endpoint)}</td>${tallyCells(k.tally)}<td>${codes}</td></tr>`
  })
  const supplierRows = r.suppliers.map((s) =>
    `<tr${attrs({ supplier: s.supplier })}><td>${esc(s.supplier)}</td>${tallyCells(s.tally)}<td class="n">${count(s.accounts.accounts)}</td><td class="n">${count(s.accounts.complete)}</td><td class="n">${count(s.accounts.partly)}</td><td class="n">${count(s.accounts.blocked)}</td><td class="n">${count(s.accounts.not_stored)}</td></tr>`
  )
  const accountRows = r.accounts.listed.map((acc) =>
    `<tr${attrs({ supplier: acc.supplier, account: acc.account, outcome: acc.status })}><td>${esc(acc.supplier)}</td><td>${esc(acc.account)}</td><td>${esc(acc.status.replace("_", " "))}</td><td class="n">${count(acc.stored)}</td><td class="n">${count(acc.records)}</td><td class="n">${count(acc.map_rejected)}</td><td class="n">${count(acc.map_warning)}</td><td>${esc(acc.causes.join(", "))}</td></tr>`
  )
  const problemRows = r.problems.listed.map((p) =>
    `<tr${attrs({ kind: p.endpoint, supplier: p.supplier, account: p.account, outcome: p.problem })}><td>${esc(p.problem)}</td><td>${esc(p.endpoint)}</td><td>${esc(p.code)}</td><td>${esc(p.supplier)}</td><td>${esc(p.account)}</td><td>${esc(p.source_file)}</td><td>${esc(p.source_lines)}</td><td>${esc(p.detail)}</td><td><pre>${esc(p.raw)}</pre></td><td class="advice">${esc(p.advice)}</td></tr>`
  )
  const problemTotal = Object.values(r.problems.counts).reduce((s, n) => s + n, 0)
  const runRows = r.runs.map((run) =>
    `<tr><td class="n">${run.id}</td><td>${esc(run.command)}</td><td>${esc(run.service)}</td><td>${esc(when(run.started_at))}</td><td>${esc(when(run.ended_at))}</td><td>${esc(run.ended ?? "in progress")}</td><td class="n">${count(run.records)}</td><td class="n">${run.per_minute === null ? "" : count(run.per_minute)}</td></tr>`
  )
  const codeRows = r.top_codes.map((c) => `<tr${attrs({ outcome: c.problem })}><td>${esc(c.problem.replace(/_/gu, " "))}</td><td>${esc(c.code)}</td><td class="n">${count(c.count)}</td><td class="advice">${esc(c.advice)}</td></tr>`)
  const movedRows = r.moved.listed.map((m) =>
    `<tr${attrs({ supplier: m.supplier, account: m.account })}><td>${esc(m.supplier)}</td><td>${esc(m.account)}</td><td>${esc(m.transaction_id)}</td><td>${esc(m.from)}</td><td>${esc(m.to)}</td><td>${esc(m.service_note)}</td><td>${esc(m.source_file)}</td><td>${esc(m.source_lines)}</td></tr>`
  )
  const moved = movedSummary(r)
  const movedSection = moved === undefined ? "" : `<h2>Changed by the service</h2><p id="moved-summary">${esc(moved)} ${esc(r.moved.advice)}</p>
<table id="moved" class="filterable" data-filters="supplier account"><thead><tr><th>supplier</th><th>account</th><th>transaction</th><th>date sent</th><th>date stored</th><th>the service's note on it</th><th>source file</th><th>lines</th></tr></thead><tbody>${movedRows.join("")}</tbody></table>
${shownOf("moved", movedRows.length, r.moved.total, "a higher --limit lists them")}`
  const mapRows = r.map_runs.map((m) => `<tr><td class="n">${m.run}</td><td>${esc(m.input)}</td><td>${esc(m.output)}</td><td>${esc(m.endpoint)}</td><td class="n">${count(m.rows_read)}</td><td class="n">${count(m.payloads)}</td><td class="n">${count(m.rows_rejected)}</td></tr>`)
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Migration campaign report</title><style>${STYLE}</style></head>
<body>
<h1>Migration campaign report</h1>
<p id="status" class="${r.complete ? "ok" : "bad"}">${esc(verdictOf(r, "records are not stored or problems are left to fix"))}</p>
<div class="cards">${card("records", "records", t.records)}${card("stored", "stored", stored, "ok")}${card("blocked", "blocked", t.blocked)}${card("rejected", "rejected", t.rejected, "bad")}${card("invalid", "invalid", t.invalid, "bad")}${card("conflict", "conflicts", t.conflict)}${card("in_doubt", "in doubt", t.in_doubt)}${card("failed", "failed", t.failed)}${card("not_sent", "not yet sent", t.pending + t.in_flight)}${card("map_rejected", "rejected at map", t.map_rejected, "bad")}${card("map_warning", "map warnings (to look at)", t.map_warning)}${card("accounts", "accounts", a.accounts)}${card("accounts_complete", "accounts complete", a.complete, "ok")}${card("moved", "moved by the service", t.moved)}</div>
<p class="muted">Ledger ${esc(r.ledger)}, ${esc(when(r.generated_at))}. Services: ${r.services.map((s) => esc(s.url)).join(", ") || "none"}.</p>
${r.unsent_payload_files.length === 0 ? "" : `<p id="unsent-files" class="bad">Mapped, not sent since: ${r.unsent_payload_files.map((f) => `${esc(f.output)} (${count(f.payloads)} payloads of ${esc(f.input)}, map run #${f.run})`).join("; ")}.</p>`}
<h2>Outcomes by kind</h2>${outcomesChart(r)}
<h2>Over time</h2>${timelineChart(r)}
<h2>Top error codes</h2><table id="codes" class="filterable" data-filters="outcome"><thead><tr><th>problem</th><th>code</th><th>count</th><th>what to do</th></tr></thead><tbody>${codeRows.join("")}</tbody></table>
<div class="filters">${select("kind", "kind", kinds)}${select("supplier", "supplier", suppliers)}<label>account <input id="filter-account" type="search" placeholder="account"></label>${select("outcome", "outcome", outcomes)}</div>
<h2>By kind</h2><table id="kinds" class="filterable" data-filters="kind"><thead>${head.replace("%s", "kind").replace("</tr>", "<th>codes</th></tr>")}</thead><tbody>${kindRows.join("")}</tbody></table>
<h2>By supplier</h2><table id="suppliers" class="filterable" data-filters="supplier"><thead>${head.replace("%s", "supplier").replace("</tr>", "<th>accounts</th><th>complete</th><th>partly</th><th>blocked</th><th>nothing stored</th></tr>")}</thead><tbody>${supplierRows.join("")}</tbody></table>
<h2>Accounts not complete</h2><p>${count(a.accounts)} accounts: ${count(a.complete)} complete, ${count(a.partly)} partly stored, ${count(a.blocked)} blocked, ${count(a.not_stored)} nothing stored.</p>
<table id="accounts" class="filterable" data-filters="supplier account outcome"><thead><tr><th>supplier</th><th>account</th><th>status</th><th>stored</th><th>records</th><th>rows rejected at map</th><th>map warnings</th><th>blocked because</th></tr></thead><tbody>${accountRows.join("")}</tbody></table>
${shownOf("accounts", accountRows.length, a.accounts - a.complete)}
${unknownAccounts(r)}
<h2>Problems</h2><table id="problems" class="filterable" data-filters="kind supplier account outcome"><thead><tr><th>problem</th><th>kind</th><th>code</th><th>supplier</th><th>account</th><th>source file</th><th>lines</th><th>detail</th><th>raw row</th><th>what to do</th></tr></thead><tbody>${problemRows.join("")}</tbody></table>
${shownOf("problems", problemRows.length, problemTotal)}
${movedSection}
${exclusionsSection(r)}
<h2>Runs</h2><table id="runs"><thead><tr><th>run</th><th>command</th><th>service</th><th>started</th><th>ended</th><th>how</th><th>records written last</th><th>per minute</th></tr></thead><tbody>${runRows.join("")}</tbody></table>
${mapRows.length > 0 ? `<h2>Map runs</h2><table id="map-runs"><thead><tr><th>run</th><th>input</th><th>output</th><th>kind</th><th>rows read</th><th>payloads</th><th>rows rejected</th></tr></thead><tbody>${mapRows.join("")}</tbody></table>` : ""}
<script>${SCRIPT}</script>
</body></html>
`
}
