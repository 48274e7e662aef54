/**
 * The README is a runbook of at most 400 lines; the long material lives in docs/. Every relative link of
 * the README, of docs/*.md and of bench/README.md names a file that exists and, where it has an anchor, a
 * heading of that file (as GitHub names headings); every page of docs/ is linked from the README.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, normalize, relative } from "node:path"
import { describe, expect, it } from "vitest"

const ROOT = new URL("../../", import.meta.url).pathname
const DOCS = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)
const PAGES = ["README.md", ...DOCS, "bench/README.md"]

const read = (page: string): string => readFileSync(join(ROOT, page), "utf8")

/** The text outside fenced code blocks (their lines blanked, so line numbers stay). */
const prose = (text: string): string => {
  let fenced = false
  return text.split("\n").map((line) => {
    if (/^\s*(```|~~~)/u.test(line)) {
      fenced = !fenced
      return ""
    }
    return fenced ? "" : line
  }).join("\n")
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2, … */
const slugs = (text: string): Set<string> => {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  for (const match of prose(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gmu)) {
    const heading = match[1]!.replace(/\[([^\]]*)\]\([^)]*\)/gu, "$1")
    const base = heading.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /gu, "-")
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    out.add(count === 0 ? base : `${base}-${count}`)
  }
  return out
}

interface Link {
  readonly page: string
  readonly line: number
  readonly target: string
}

/** The relative links of a page: inline links and images outside code, with their line. */
const relativeLinks = (page: string): Array<Link> => {
  const lines = prose(read(page)).split("\n")
  return lines.flatMap((text, index) =>
    [...text.replace(/`[^`]*`/gu, "").matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/gu)]
      .map((m) => m[1]!)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/iu.test(target))
      .map((target) => ({ page, line: index + 1, target })))
}

/** What is wrong with a link, or undefined. */
const problem = (link: Link): string | undefined => {
  const [path, anchor] = link.target.split("#") as [string, string | undefined]
  const file = path === "" ? link.page : normalize(join(dirname(link.page), decodeURIComponent(path)))
  if (relative(ROOT, join(ROOT, file)).startsWith("..")) return "points outside the repository"
  if (!existsSync(join(ROOT, file))) return `${file} does not exist`
  if (anchor === undefined) return undefined
  if (!file.endsWith(".md") || statSync(join(ROOT, file)).isDirectory()) return `an anchor into ${file}, which is not a Markdown page`
  return slugs(read(file)).has(anchor) ? undefined : `${file} has no heading #${anchor}`
}

describe("the README is a runbook, the docs pages hold the rest", () => {
  it("the README has at most 400 lines", () => {
    const lines = read("README.md").split("\n")
    expect(lines.at(-1) === "" ? lines.length - 1 : lines.length).toBeLessThanOrEqual(400)
  })

  it("starts with the two set-up lines, each self-contained", () => {
    const setUp = read("README.md").split("\n").slice(0, 6).join("\n")
    expect(setUp).toMatch(/^npm install && npm run demo\b/mu)
    expect(setUp).toMatch(/^npm install && npm test\b/mu)
  })

  it("has the runbook's steps in order, then the command reference and the library", () => {
    const headings = [...read("README.md").matchAll(/^#{2,3} (.+)$/gmu)].map((m) => m[1]!)
    const at = (pattern: RegExp): number => headings.findIndex((h) => pattern.test(h))
    const order = [/^A migration, step by step$/u, /^1\. Map/u, /^2\. Validate/u, /^3\. Rehearse/u, /^4\. Send the pre-import/u,
      /^5\. Send the post-import/u, /^6\. Report/u, /^7\. Fix and run again/u, /^Command reference$/u, /^The library$/u]
    const found = order.map(at)
    expect(found.every((i) => i >= 0), `headings: ${headings.join(" | ")}`).toBe(true)
    expect([...found].sort((a, b) => a - b)).toEqual(found)
  })

  it("links every page of docs/ from the README", () => {
    const linked = new Set(relativeLinks("README.md").map((l) => normalize(l.target.split("#")[0]!)))
    expect(DOCS.length).toBeGreaterThanOrEqual(14)
    expect(DOCS.filter((page) => !linked.has(page))).toEqual([])
  })

  it("finds the links", () => {
    expect(relativeLinks("README.md").length).toBeGreaterThan(30)
    expect(DOCS.flatMap(relativeLinks).length).toBeGreaterThan(40)
    expect(DOCS.flatMap(relativeLinks).some((l) => l.target.includes("#"))).toBe(true)
  })

  it.each(PAGES)("every relative link of %s names an existing file and heading", (page) => {
    const broken = relativeLinks(page).flatMap((link) => {
      const why = problem(link)
      return why === undefined ? [] : [`${page}:${link.line} (${link.target}): ${why}`]
    })
    expect(broken).toEqual([])
  })

  it("checks what it says: a missing file, a missing heading and a link outside code", () => {
    expect(problem({ page: "README.md", line: 1, target: "docs/no-such-page.md" })).toMatch(/does not exist/u)
    expect(problem({ page: "README.md", line: 1, target: "docs/send.md#no-such-heading" })).toMatch(/no heading/u)
    expect(problem({ page: "docs/send.md", line: 1, target: "../README.md#exit-codes" })).toBeUndefined()
    expect(problem({ page: "docs/send.md", line: 1, target: "#outcomes" })).toBeUndefined()
    expect([...slugs("## `data-import map`: legacy exports\n## Records, not files: natural keys\n## A\n## A\n```\n## not a heading\n```")])
      .toEqual(["data-import-map-legacy-exports", "records-not-files-natural-keys", "a", "a-1"])
  })
})
