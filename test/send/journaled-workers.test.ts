/**
 * The request loops of `send` with grouped journal commits: whatever order the answers come in, no
 * request leaves before a commit marked it in flight, no outcome is committed before its answer, at most
 * `group` records are marked and not yet sent, every record ends exactly once, and the commits are
 * grouped. The journal is modelled as a map that changes only when a transaction commits, so its state at
 * any moment is what a run killed at that moment leaves behind.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { journaledWorkers, type JournaledStage } from "../../src/send/journaled-workers.js"

type State = "in_flight" | "done"

/** A journal that keeps what was committed, and the requests and answers seen. */
const model = (group: number) => {
  const committed = new Map<number, { state: State; result?: string }>()
  const sent = new Set<number>()
  const answered = new Map<number, string>()
  const ended: Array<number> = []
  let writes: Map<number, { state: State; result?: string }> | undefined
  let commits = 0
  /** What must hold in the committed state at every moment (after a kill, this is what the next run reads). */
  const check = (): void => {
    for (const job of sent) expect(committed.get(job)?.state, `job ${job} was sent`).toMatch(/^(in_flight|done)$/u)
    for (const [job, entry] of committed) {
      if (entry.state === "done") expect(entry.result).toBe(answered.get(job))
    }
    const markedNotSent = [...committed].filter(([job, e]) => e.state === "in_flight" && !sent.has(job)).length
    expect(markedNotSent).toBeLessThanOrEqual(group)
  }
  const stage = (send: (job: number) => Promise<string>): JournaledStage<number, string> => ({
    together: (work) => {
      writes = new Map()
      work()
      for (const [job, entry] of writes) committed.set(job, entry)
      writes = undefined
      commits++
      check()
    },
    begin: (job) => {
      if (writes === undefined) throw new Error("begin outside a transaction")
      writes.set(job, { state: "in_flight" })
    },
    send: async (job) => {
      expect(committed.get(job)?.state, `job ${job} leaves only once marked in flight`).toBe("in_flight")
      sent.add(job)
      const result = await send(job)
      answered.set(job, result)
      return result
    },
    end: (job, result) => {
      if (writes === undefined) throw new Error("end outside a transaction")
      ended.push(job)
      writes.set(job, { state: "done", result })
    }
  })
  return { committed, sent, answered, ended, stage, check, commits: () => commits }
}

describe("journaledWorkers", () => {
  it("any order of answers: marked before sent, answered before done, every job once, grouped commits", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 8 }),
        async (s, count, concurrency, group) => {
          const m = model(group)
          const loops = journaledWorkers({ concurrency, group, flushMs: 60_000, queueLimit: 1000 }, m.stage((job) => s.schedule(Promise.resolve(`answer ${job}`), `job ${job}`)))
          const jobs = Array.from({ length: count }, (_, i) => i)
          await loops.add(jobs)
          const drained = loops.drain()
          await s.waitFor(drained)
          expect([...m.ended].sort((a, b) => a - b)).toEqual(jobs)
          expect(m.sent.size).toBe(count)
          for (const job of jobs) expect(m.committed.get(job)).toEqual({ state: "done", result: `answer ${job}` })
          // One commit per group of jobs marked in flight, and one for the last answers.
          expect(m.commits()).toBeLessThanOrEqual(Math.ceil(count / group) + 1)
        }
      ),
      { numRuns: 200, seed: 14 }
    )
  })

  it("an answer that nothing else commits is committed after flushMs, before drain", async () => {
    const m = model(1)
    const loops = journaledWorkers({ concurrency: 2, group: 1, flushMs: 5, queueLimit: 10 }, m.stage(async (job) => `answer ${job}`))
    await loops.add([1])
    for (let i = 0; i < 100 && m.committed.get(1)?.state !== "done"; i++) await new Promise((r) => setTimeout(r, 5))
    expect(m.committed.get(1)).toEqual({ state: "done", result: "answer 1" })
    await loops.drain()
    expect(m.ended).toEqual([1])
  })

  it("answers arrived and not yet committed stay in flight in the journal (a kill then leaves them unknown, never unsent)", async () => {
    const m = model(4)
    const answers: Array<() => void> = []
    const loops = journaledWorkers(
      { concurrency: 4, group: 4, flushMs: 60_000, queueLimit: 100 },
      m.stage((job) => new Promise<string>((resolve) => answers.push(() => resolve(`answer ${job}`))))
    )
    await loops.add([0, 1, 2, 3, 4, 5, 6, 7])
    await new Promise((r) => setImmediate(r))
    expect(m.sent).toEqual(new Set([0, 1, 2, 3]))
    // Two answers arrive; the loops that got them take the next group, whose commit writes those answers.
    answers[0]!()
    answers[1]!()
    await new Promise((r) => setImmediate(r))
    expect(m.committed.get(0)).toEqual({ state: "done", result: "answer 0" })
    expect(m.committed.get(4)).toEqual({ state: "in_flight" })
    // The other two: answered, but the marked jobs 6 and 7 need no commit, so these stay in flight.
    answers[2]!()
    answers[3]!()
    await new Promise((r) => setImmediate(r))
    expect(m.answered.has(2) && m.answered.has(3)).toBe(true)
    expect(m.committed.get(2)).toEqual({ state: "in_flight" })
    expect(m.committed.get(3)).toEqual({ state: "in_flight" })
    m.check()
    for (let i = 4; i < 8; i++) answers[i]!()
    await loops.drain()
    for (let job = 0; job < 8; job++) expect(m.committed.get(job)).toEqual({ state: "done", result: `answer ${job}` })
  })

  it("a commit that fails stops the loops: drain rejects with its error, and add does not wait forever", async () => {
    let commits = 0
    const loops = journaledWorkers<number, string>({ concurrency: 2, group: 2, flushMs: 60_000, queueLimit: 4 }, {
      together: (work) => {
        if (++commits === 3) throw new Error("disk full")
        work()
      },
      begin: () => undefined,
      send: async (job) => `answer ${job}`,
      end: () => undefined
    })
    const added = loops.add(Array.from({ length: 50 }, (_, i) => i)).catch((error: unknown) => error)
    await expect(loops.drain()).rejects.toThrow("disk full")
    expect(await added).toBeInstanceOf(Error)
  })
})
