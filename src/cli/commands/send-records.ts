/**
 * `send`'s reading of its input: the digest of each file, its non-blank lines, and the plan for each
 * line (skip a settled record, journal an invalid one, or send it).
 *
 * @module
 */
import { createHash, hash } from "node:crypto"
import { createReadStream } from "node:fs"
import { createInterface } from "node:readline"
import {
  compileValidator,
  type EndpointId,
  inferEndpoint,
  isPostEndpointId,
  isRepeatHarmless,
  type PayloadValidator
} from "../../index.js"
import { type Journal, JournalMismatchError, SETTLED_STATUSES } from "../../client/journal.js"
import { describeError } from "../exit-codes.js"

/** What the plan of a line depends on among `send`'s options. */
export interface PlanOptions {
  readonly endpoint?: string | undefined
  readonly resendInDoubt?: boolean | undefined
}

/** The sha256 and size of a file, read as a stream. */
export const digestOf = (path: string): Promise<{ sha256: string; size: number }> =>
  new Promise((done, fail) => {
    const hash = createHash("sha256")
    let size = 0
    createReadStream(path)
      .on("data", (chunk) => {
        hash.update(chunk as Buffer)
        size += (chunk as Buffer).length
      })
      .on("error", fail)
      .on("end", () => done({ sha256: hash.digest("hex"), size }))
  })

// One call per record (no Hash object): the same sha256, at a fraction of the cost for short lines.
export const hashOf = (text: string): string => hash("sha256", text, "hex").slice(0, 32)

/** The non-blank lines of an NDJSON file with their physical line numbers (CRLF and a BOM are accepted). */
export async function* linesOf(path: string): AsyncGenerator<{ readonly line: number; readonly text: string }> {
  const reader = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity })
  let line = 0
  for await (const raw of reader) {
    line++
    const text = line === 1 ? raw.replace(/^\uFEFF/u, "") : raw
    if (text.trim() !== "") yield { line, text }
  }
}

/** A record ready to send. */
export interface Job {
  readonly file: string
  readonly line: number
  readonly hash: string
  readonly endpoint: EndpointId
  readonly payload: unknown
}

/** Decides what to do with one line: a settled record is skipped; an invalid one is journaled; else a job. */
export type Plan =
  | { readonly kind: "skip" }
  | { readonly kind: "invalid"; readonly endpoint: string | null; readonly errors: ReadonlyArray<unknown> }
  | { readonly kind: "keep_in_doubt"; readonly endpoint: string | null }
  | { readonly kind: "send"; readonly job: Job }

export interface Planner {
  plan(file: string, line: number, text: string): Plan
}

export const makePlanner = (journal: Journal | undefined, options: PlanOptions, newFiles: ReadonlySet<string>): Planner => {
  const validators = new Map<EndpointId, PayloadValidator<EndpointId>>()
  const validatorOf = (id: EndpointId): PayloadValidator<EndpointId> => {
    let v = validators.get(id)
    if (v === undefined) {
      // Every record comes straight from JSON.parse: no getters or prototypes to look for.
      v = compileValidator(id, { input: "json" })
      validators.set(id, v)
    }
    return v
  }
  return {
    plan: (file, line, text) => {
      const hash = hashOf(text)
      const entry = newFiles.has(file) ? undefined : journal?.entry(file, line)
      if (entry !== undefined && entry.hash !== hash) {
        throw new JournalMismatchError(`${file}:${line} is not the record the journal has for that line: use another journal`)
      }
      if (entry?.status != null && entry.state === "done" && SETTLED_STATUSES.has(entry.status)) return { kind: "skip" }
      let payload: unknown
      try {
        payload = JSON.parse(text)
      } catch (cause) {
        return { kind: "invalid", endpoint: null, errors: [{ detail: `Not JSON: ${describeError(cause)}`, code: "unparseable", attr: "non_field_errors" }] }
      }
      const inferred = options.endpoint !== undefined
        ? { ok: true as const, endpoint: options.endpoint as EndpointId }
        : inferEndpoint(payload)
      if (!inferred.ok) return { kind: "invalid", endpoint: null, errors: [{ detail: inferred.detail, code: inferred.code, attr: "non_field_errors" }] }
      const endpoint = inferred.endpoint
      if (!isPostEndpointId(endpoint)) {
        return { kind: "invalid", endpoint, errors: [{ detail: `${endpoint} is a status query, not data to send.`, code: "unknown_endpoint", attr: "non_field_errors" }] }
      }
      const result = validatorOf(endpoint)(payload)
      if (!result.ok) return { kind: "invalid", endpoint, errors: result.error.errors }
      // Unknown outcome from an earlier run: sent again only where a repeat is harmless, or when asked.
      const unknown = entry !== undefined && (entry.state === "in_flight" || entry.status === "in_doubt")
      if (unknown && options.resendInDoubt !== true && !isRepeatHarmless(endpoint, payload)) {
        return entry.state === "done" ? { kind: "skip" } : { kind: "keep_in_doubt", endpoint }
      }
      return { kind: "send", job: { file, line, hash, endpoint, payload } }
    }
  }
}

