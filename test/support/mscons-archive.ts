/**
 * A constructed archive of small MSCONS interchanges, one interchange per file, as German utilities'
 * archives hold them (10⁵–10⁶ files of 5–270 KB): `UNA` with a decimal comma, `UNB`, one to three load
 * profile messages (`BGM+Z48`, `RFF+Z13:13025`) per file, each a `LOC+172` MaLo, a `PIA+5` OBIS code and
 * quarter-hours as `QTY+220` with `DTM+163`/`DTM+164` in UTC. About 5 KB a file. Every (MaLo, OBIS,
 * quarter-hour) occurs once in the whole archive, so no value is a re-send of another.
 *
 * The QTYs carry no unit, as 99.96 % of real ones: the unit follows from the OBIS code (the example
 * reader's unit table gives `KWH` for both codes used); `unit` writes one on every QTY. Where asked, a
 * QTY of some files holds a quantity that is not a number, so that each such file carries one reject.
 *
 * Used by the tests (test/cli/map-many-files.test.ts) and by bench/map-many-files.mjs (which Node 22 runs
 * with the types stripped): it imports nothing but Node's own modules.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/** MaLos of `examples/market-messages/accounts.csv` with one account each from 2023 on. */
export const ARCHIVE_MALOS: ReadonlyArray<string> = ["51238696781", "51481308456", "51481308448"]
/** Active energy, consumption and feed-in. */
export const ARCHIVE_OBIS: ReadonlyArray<string> = ["1-1:1.29.0", "1-1:2.29.0"]

/** Options of {@link writeMsconsArchive}. */
export interface MsconsArchiveOptions {
  /** How many files (interchanges). */
  readonly files: number
  /** Quarter-hours per file, shared among its messages (56: about 5 KB a file). */
  readonly quantitiesPerFile?: number
  /** Every `brokenEvery`-th file (the 1st, the (n+1)-th, …) holds one QTY whose quantity is not a number; never when absent. */
  readonly brokenEvery?: number
  /** A unit written on every QTY (`KWH`); none when absent, as in the field. */
  readonly unit?: string
}

/** One QTY as written: where, and what a payload of it must hold. */
export interface ArchiveQuantity {
  /** The QTY's segment number in its file (UNA is segment 1). */
  readonly segment: number
  readonly malo: string
  readonly obis: string
  /** UTC start of the quarter-hour, `YYYY-MM-DDTHH:mm:00Z`. */
  readonly start: string
  /** The quantity with a decimal point (as a payload carries it); `undefined` for the broken one. */
  readonly quantity: string | undefined
}

/** One file of the archive. */
export interface ArchiveFile {
  readonly path: string
  readonly quantities: ReadonlyArray<ArchiveQuantity>
}

/** The first quarter-hour of every (MaLo, OBIS) series: 1 January 2023, 00:00 UTC. */
const FIRST_QUARTER = Date.UTC(2023, 0, 1)
const QUARTER_MS = 15 * 60_000

/** `YYYYMMDDHHmm` of a UTC instant, as DTM format 303 writes it before its offset. */
const stamp = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace(/[-T:]/gu, "")

/** A deterministic pseudo-random sequence (mulberry32): the same archive every time. */
const random = (seed: number): (() => number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/**
 * Writes `options.files` interchanges into `dir` (created if need be) as `mscons-000001.edi`, … and returns
 * what each file holds, in file order (the order of the names).
 *
 * @example
 * import { mkdtempSync } from "node:fs"
 * import { tmpdir } from "node:os"
 * import { join } from "node:path"
 * const files = writeMsconsArchive(mkdtempSync(join(tmpdir(), "archive-")), { files: 2 })
 * files.length // 2
 * files[0]!.quantities.length // 56
 */
export const writeMsconsArchive = (dir: string, options: MsconsArchiveOptions): ReadonlyArray<ArchiveFile> => {
  mkdirSync(dir, { recursive: true })
  const perFile = options.quantitiesPerFile ?? 56
  const next = random(42)
  // The next quarter-hour of each (MaLo, OBIS) series.
  const cursor = new Map<string, number>()
  const files: Array<ArchiveFile> = []
  let messageNumber = 0
  for (let f = 0; f < options.files; f++) {
    const name = `mscons-${String(f + 1).padStart(6, "0")}.edi`
    const reference = `ARC${String(f + 1).padStart(8, "0")}`
    // Sent a day after the file's quarter-hours end (about: six series advance together).
    const sent = FIRST_QUARTER + Math.ceil(((f + 1) * perFile) / (ARCHIVE_MALOS.length * ARCHIVE_OBIS.length)) * QUARTER_MS + 86_400_000
    const segments: Array<string> = [
      "UNA:+,? '",
      `UNB+UNOC:3+9900000000001:500+9900000000002:500+${stamp(sent).slice(2, 8)}:${stamp(sent).slice(8)}+${reference}++TL'`
    ]
    const quantities: Array<ArchiveQuantity> = []
    const messages = 1 + (f % 3)
    const broken = options.brokenEvery !== undefined && f % options.brokenEvery === 0
    for (let m = 0; m < messages; m++) {
      messageNumber++
      const malo = ARCHIVE_MALOS[messageNumber % ARCHIVE_MALOS.length]!
      const obis = ARCHIVE_OBIS[Math.floor(messageNumber / ARCHIVE_MALOS.length) % ARCHIVE_OBIS.length]!
      const series = `${malo} ${obis}`
      const first = cursor.get(series) ?? 0
      const count = Math.floor(perFile / messages) + (m < perFile % messages ? 1 : 0)
      cursor.set(series, first + count)
      const from = FIRST_QUARTER + first * QUARTER_MS
      const to = from + count * QUARTER_MS
      const unh = segments.length
      segments.push(
        `UNH+${m + 1}+MSCONS:D:04B:UN:2.4c'`,
        `BGM+Z48+${reference}-${m + 1}+9'`,
        `DTM+137:${stamp(sent)}?+00:303'`,
        "RFF+Z13:13025'",
        "NAD+MS+9900000000001::293'",
        "NAD+MR+9900000000002::293'",
        "UNS+D'",
        "NAD+DP'",
        `LOC+172+${malo}'`,
        `DTM+163:${stamp(from)}?+00:303'`,
        `DTM+164:${stamp(to)}?+00:303'`,
        "LIN+1'",
        `PIA+5+${obis.replace(":", "?:")}:SRW'`
      )
      for (let q = 0; q < count; q++) {
        const start = from + q * QUARTER_MS
        const thousandths = Math.floor(next() * 250_000)
        const written = `${Math.floor(thousandths / 1000)},${String(thousandths % 1000).padStart(3, "0")}`
        const isBroken = broken && m === 0 && q === 1
        quantities.push({
          segment: segments.length + 1,
          malo,
          obis,
          start: new Date(start).toISOString().replace(".000", ""),
          quantity: isBroken ? undefined : written.replace(",", ".")
        })
        segments.push(
          `QTY+220:${isBroken ? `${written},5` : written}${options.unit !== undefined ? `:${options.unit}` : ""}'`,
          `DTM+163:${stamp(start)}?+00:303'`,
          `DTM+164:${stamp(start + QUARTER_MS)}?+00:303'`
        )
      }
      segments.push(`UNT+${segments.length - unh + 1}+${m + 1}'`)
    }
    segments.push(`UNZ+${messages}+${reference}'`)
    const path = join(dir, name)
    writeFileSync(path, `${segments.join("\n")}\n`, "latin1")
    files.push({ path, quantities })
  }
  return files
}
