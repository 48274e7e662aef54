/**
 * The request loops of `send` and their journal writes, grouped into few commits.
 *
 * A job's request leaves only after a commit that marked it in flight (`begin`); its answer is written
 * (`end`) by a later commit. Commits are grouped: one commit marks the next `group` jobs in flight and
 * writes every answer that arrived since the last one. It happens when a loop needs a job and none is
 * marked yet, `flushMs` after an answer that nothing else committed, and at the end. So a run that dies
 * leaves each job not done in one of two states only: not marked (never sent), or in flight (maybe sent,
 * maybe answered: its outcome is unknown, and the next run treats it so).
 *
 * @module
 */

/** What the loops do with a job: its journal writes around the request, and the request. */
export interface JournaledStage<J, R> {
  /** Marks a job in flight; committed before its request leaves. */
  begin(job: J): void
  send(job: J): Promise<R>
  /** Writes a job's outcome once its answer has arrived. */
  end(job: J, result: R): void
  /** Runs writes as one transaction (one commit). */
  together(work: () => void): void
}

/** Options of {@link journaledWorkers}. */
export interface JournaledWorkersOptions {
  /** Request loops (requests in flight at once). */
  readonly concurrency: number
  /** Jobs marked in flight per commit; at most this many are marked and not yet sent. */
  readonly group: number
  /** Longest time an answer waits for its commit when no loop needs a job. */
  readonly flushMs: number
  /** `add` waits while more jobs than this are queued. */
  readonly queueLimit: number
}

/** The loops: `add` queues jobs (waits while the queue is long), `drain` waits for all and commits the last answers. */
export interface JournaledWorkers<J> {
  add(jobs: ReadonlyArray<J>): Promise<void>
  drain(): Promise<void>
}

/**
 * Starts `concurrency` loops that each send their next request as soon as their last one is answered, as
 * a plain request loop does, with the journal writes around every request grouped into few commits.
 *
 * @example
 * const written: Array<string> = []
 * const loops = journaledWorkers({ concurrency: 2, group: 2, flushMs: 20, queueLimit: 100 }, {
 *   begin: (job: number) => written.push(`in flight ${job}`),
 *   send: async (job: number) => `answer ${job}`,
 *   end: (job, answer) => written.push(`done ${job}: ${answer}`),
 *   together: (work) => {
 *     work()
 *     written.push("commit")
 *   }
 * })
 * await loops.add([1, 2])
 * await loops.drain()
 * written // => ["in flight 1", "in flight 2", "commit", "done 1: answer 1", "done 2: answer 2", "commit"]
 */
export const journaledWorkers = <J, R>(options: JournaledWorkersOptions, stage: JournaledStage<J, R>): JournaledWorkers<J> => {
  const queue: Array<J> = []
  let head = 0
  /** Jobs whose in-flight mark is committed, not yet taken by a loop. */
  let marked: Array<J> = []
  let markedHead = 0
  /** Answers not yet committed, as job and result in turn. */
  let answered: Array<J | R> = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let failure: { readonly error: unknown } | undefined
  let closed = false
  let waiting: Array<() => void> = []
  let room: (() => void) | undefined

  const take = (): J => {
    const job = queue[head++]!
    if (head > 4096) {
      queue.splice(0, head)
      head = 0
    }
    if (room !== undefined && queue.length - head <= options.queueLimit / 2) {
      room()
      room = undefined
    }
    return job
  }

  /** One commit: the answers so far and, when asked, the next group of jobs in flight. */
  const commit = (markNext: boolean): void => {
    if (timer !== undefined) {
      clearTimeout(timer)
      timer = undefined
    }
    const answers = answered
    answered = []
    if (markNext && markedHead === marked.length) {
      marked = []
      markedHead = 0
    }
    stage.together(() => {
      for (let i = 0; i < answers.length; i += 2) stage.end(answers[i] as J, answers[i + 1] as R)
      if (markNext) {
        for (let n = 0; n < options.group && head < queue.length; n++) {
          const job = take()
          stage.begin(job)
          marked.push(job)
        }
      }
    })
  }

  /** The first failure stops every loop and is thrown by `add` and `drain`. */
  const fail = (error: unknown): void => {
    failure ??= { error }
    room?.()
    room = undefined
    wake()
  }

  const flushLater = (): void => {
    try {
      commit(false)
    } catch (error) {
      fail(error)
    }
  }

  const wake = (): void => {
    const woken = waiting
    waiting = []
    for (const resume of woken) resume()
  }

  const loop = async (): Promise<void> => {
    for (;;) {
      if (failure !== undefined) throw failure.error
      if (markedHead === marked.length && head < queue.length) commit(true)
      if (markedHead < marked.length) {
        const job = marked[markedHead++]!
        const result = await stage.send(job)
        answered.push(job, result)
        timer ??= setTimeout(flushLater, options.flushMs)
      } else {
        if (closed) return
        await new Promise<void>((resolve) => waiting.push(resolve))
      }
    }
  }
  const running = Array.from({ length: Math.max(1, options.concurrency) }, () => loop().catch(fail))

  return {
    add: async (jobs) => {
      for (const job of jobs) queue.push(job)
      wake()
      if (failure === undefined && queue.length - head > options.queueLimit) await new Promise<void>((resolve) => (room = resolve))
      if (failure !== undefined) throw failure.error
    },
    drain: async () => {
      closed = true
      wake()
      await Promise.all(running)
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      if (failure !== undefined) throw failure.error
      if (answered.length > 0) commit(false)
    }
  }
}
