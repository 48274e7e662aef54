// `npm run docs:codes` (builds first): rewrites the tables of error and warning codes in docs/decisions.md
// from the built library's ERROR_CODES and WARNING_CODES, between the marker comments
// `<!-- error-codes:start -->` … `<!-- error-codes:end -->` (and `warning-codes`). Each row is a code and
// its description, in the lists' order: the generic codes, then those the resources' rules declare.
// test/docs/code-tables.test.ts checks that the page holds exactly these rows.
import { readFileSync, writeFileSync } from "node:fs"

const root = new URL("../", import.meta.url)
const page = new URL("docs/decisions.md", root)
const { ERROR_CODES, WARNING_CODES } = await import(new URL("dist/index.js", root).href)

/** A markdown table of `code → description`. */
const table = (codes) =>
  ["| code | when |", "|---|---|", ...Object.entries(codes).map(([code, description]) => `| \`${code}\` | ${description.replaceAll("|", "\\|")} |`)].join("\n")

/** `text` with the part between the markers of `name` replaced by `content`. */
const between = (text, name, content) => {
  const start = `<!-- ${name}:start -->`
  const end = `<!-- ${name}:end -->`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from < 0 || to < from) throw new Error(`docs/decisions.md has no ${start} … ${end}`)
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`
}

const before = readFileSync(page, "utf8")
const after = between(between(before, "error-codes", table(ERROR_CODES)), "warning-codes", table(WARNING_CODES))
if (after === before) console.log("docs/decisions.md: the code tables are up to date")
else {
  writeFileSync(page, after)
  console.log("docs/decisions.md: the code tables rewritten")
}
