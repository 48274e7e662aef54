/**
 * The conservation check of `map`: every data line that was read must be settled exactly once, in a
 * payload (lineage), in a rejection, or left out on purpose (skipped, superseded, cancelled). One bit per line read and one per line settled, so the check
 * costs 2 bits a line and runs on every run, not only in tests.
 *
 * @module
 */

class Bits {
  // Small at first, doubled as lines come: a run over thousands of small files keeps one ledger per file.
  private bytes = new Uint8Array(1 << 6)

  has(n: number): boolean {
    const byte = n >>> 3
    return byte < this.bytes.length && (this.bytes[byte]! & (1 << (n & 7))) !== 0
  }

  add(n: number): void {
    const byte = n >>> 3
    if (byte >= this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, byte + 1))
      grown.set(this.bytes)
      this.bytes = grown
    }
    this.bytes[byte]! |= 1 << (n & 7)
  }
}

/** Lines read and settled; `violations` lists what broke "each line exactly once". */
export class LineLedger {
  private readonly read = new Bits()
  private readonly settled = new Bits()
  private pending = 0
  /** Data lines read (rows and refused lines; blank lines and the header are not data). */
  linesRead = 0
  linesInPayloads = 0
  linesRejected = 0
  /** Lines left out on purpose: skipped, superseded or cancelled records. */
  linesExcluded = 0
  readonly violations: Array<string> = []

  /** A data line was read. */
  markRead(line: number): void {
    if (this.read.has(line)) {
      this.violations.push(`line ${line} was read twice`)
      return
    }
    this.read.add(line)
    this.linesRead++
    this.pending++
  }

  /** Lines went into a payload or a rejection. */
  settle(lines: ReadonlyArray<number>, into: "payload" | "rejected" | "excluded"): void {
    for (const line of lines) {
      if (!this.read.has(line)) this.violations.push(`line ${line} was settled but never read`)
      else if (this.settled.has(line)) this.violations.push(`line ${line} was settled twice`)
      else {
        this.settled.add(line)
        this.pending--
        if (into === "payload") this.linesInPayloads++
        else if (into === "rejected") this.linesRejected++
        else this.linesExcluded++
      }
    }
  }

  /** The violations, including lines read but never settled (checked at the end). */
  check(): ReadonlyArray<string> {
    if (this.pending !== 0) return [...this.violations, `${this.pending} line(s) were read but are in no payload and no rejection`]
    return this.violations
  }
}
