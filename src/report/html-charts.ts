/**
 * The charts of the HTML report, as inline SVG (no script, no font, no image): outcomes by kind as
 * stacked bars, and records over time as columns.
 *
 * @module
 */
import { count, when } from "./render-text.js"
import type { CampaignReport, TallyKey } from "./report-types.js"

/** Escapes text for HTML (elements and attribute values). */
export const esc = (value: string | number | null): string =>
  value === null ? "" : String(value).replace(/[&<>"']/gu, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

/** The segments of a kind's bar, with their colours. */
export const SEGMENTS: ReadonlyArray<readonly [TallyKey | "not_sent", string, string]> = [
  ["created", "created", "#2e7d32"],
  ["already_existed", "already existed", "#66bb6a"],
  ["moved", "moved", "#a5d6a7"],
  ["blocked", "blocked", "#f9a825"],
  ["rejected", "rejected", "#c62828"],
  ["invalid", "invalid", "#ad1457"],
  ["failed", "failed", "#6a1b9a"],
  ["in_doubt", "in doubt", "#ef6c00"],
  ["not_sent", "not yet sent", "#90a4ae"]
]

/** Outcomes by kind: one stacked bar per kind, its length the kind's records. */
export const outcomesChart = (r: CampaignReport): string => {
  // Room for the longest kind's name (about 7 units a character at the page's font size), so that
  // `market-participant-definitions` is not cut off at the left edge.
  const label = Math.min(260, 16 + 7 * Math.max(10, ...r.kinds.map((k) => k.endpoint.length)))
  const width = 550 + label
  const barHeight = 22
  const max = Math.max(1, ...r.kinds.map((k) => k.tally.records))
  const rows = r.kinds.map((k, i) => {
    const y = 8 + i * (barHeight + 8)
    let x = label
    const parts = SEGMENTS.map(([key, name, colour]) => {
      const n = key === "not_sent" ? k.tally.pending + k.tally.in_flight : k.tally[key]
      if (n === 0) return ""
      const w = Math.max(1, ((width - label - 70) * n) / max)
      const rect = `<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="${colour}"><title>${esc(k.endpoint)}: ${esc(name)} ${count(n)}</title></rect>`
      x += w
      return rect
    }).join("")
    return `<text x="${label - 6}" y="${y + 15}" text-anchor="end">${esc(k.endpoint)}</text>${parts}<text x="${(x + 4).toFixed(1)}" y="${y + 15}">${count(k.tally.records)}</text>`
  })
  const height = 16 + r.kinds.length * (barHeight + 8)
  const legend = SEGMENTS.map(([, name, colour]) => `<span class="key"><i style="background:${colour}"></i>${esc(name)}</span>`).join(" ")
  return `<svg class="chart" id="chart-outcomes" role="img" aria-label="outcomes by kind" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${rows.join("")}</svg><div class="legend">${legend}</div>`
}

/** Records over time: one column per interval (the interval of each record's last change). */
export const timelineChart = (r: CampaignReport): string => {
  const points = r.timeline.points
  if (points.length === 0) return `<p class="muted">No records yet.</p>`
  const width = 720
  const height = 180
  const first = points[0]!.at
  const last = points[points.length - 1]!.at
  const slots = Math.round((last - first) / r.timeline.bucket_ms) + 1
  const max = Math.max(...points.map((p) => p.records))
  const slot = (width - 60) / slots
  const minutes = r.timeline.bucket_ms / 60_000
  const bars = points.map((p) => {
    const h = Math.max(1, ((height - 40) * p.records) / max)
    const x = 50 + ((p.at - first) / r.timeline.bucket_ms) * slot
    return `<rect x="${x.toFixed(1)}" y="${(height - 20 - h).toFixed(1)}" width="${Math.max(1, slot - 1).toFixed(1)}" height="${h.toFixed(1)}" fill="#1565c0"><title>${esc(when(p.at))}: ${count(p.records)} records (${count(p.records / minutes)} per minute)</title></rect>`
  })
  const axis = `<text x="46" y="14" text-anchor="end">${count(max)}</text><text x="46" y="${height - 20}" text-anchor="end">0</text>` +
    `<text x="50" y="${height - 4}">${esc(when(first))}</text><text x="${width - 10}" y="${height - 4}" text-anchor="end">${esc(when(last + r.timeline.bucket_ms))}</text>`
  return `<svg class="chart" id="chart-timeline" role="img" aria-label="records over time" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">${axis}${bars.join("")}</svg>` +
    `<p class="muted">Records by the interval of their last change (${count(minutes)} min per column).</p>`
}
