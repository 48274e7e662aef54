/**
 * Which records of an interchange a reader file takes: by the message's Prüfidentifikator (`RFF+Z13`,
 * key `pids`), by its document type (`BGM` C002/1001, key `documentTypes`) and by the quantity's qualifier
 * (`QTY` C186/6063, key `qualifiers`). A record outside the selection is no payload and no reject: it
 * becomes an {@link EdifactExclusion} `skipped`, whose reason groups it in counts (`PID 13007`, `document
 * type 7`, `qualifier 187`, `no PID`) and whose detail names the code and its meaning from the shipped
 * tables ({@link MSCONS_PIDS}, {@link PARTIN_PIDS}, {@link PRICAT_PIDS}, {@link UTILTS_PIDS}, {@link MSCONS_DOCUMENT_TYPES}, {@link MSCONS_QTY_QUALIFIERS}).
 *
 * The PID is checked first, then the document type, then the qualifier: a forecast in a calorific-value
 * message is skipped as `PID 13007`. A message without `RFF+Z13` is skipped as `no PID` when `pids` is
 * set: a selection by PID promises that only the named kinds of message become payloads, and a message
 * that names no kind cannot be shown to be one. The document type tells apart what one PID carries: a
 * 13019 message is an energy quantity (`BGM+7`) or a Lieferschein (`BGM+Z41`).
 *
 * `skip` then leaves out records by the value of any cell, each value with why: a PARTIN contact (`CTA`)
 * of the message's sender (`NAD.1.1` `MS`), or every record of a withdrawn data sheet (`BGM.5.1` `11`).
 * Its reason groups it in counts as `CTA with NAD.1.1 MS`.
 *
 * @module
 */
import type { LegacyRecord } from "../../mappers/field-source.js"
import { codeWithName, MSCONS_DOCUMENT_TYPES, MSCONS_PIDS, MSCONS_QTY_QUALIFIERS } from "./mscons-codes.js"
import { PARTIN_PIDS } from "./partin-codes.js"
import { PRICAT_PIDS } from "./pricat-codes.js"
import { UTILTS_PIDS } from "./utilts-codes.js"
import type { EdifactExclusion, EdifactRecord } from "./records.js"

/** The names of the PIDs a skip is named with: those of every message type the project reads. */
const PID_NAMES: Readonly<Record<string, string>> = { ...MSCONS_PIDS, ...PARTIN_PIDS, ...PRICAT_PIDS, ...UTILTS_PIDS }

/** A rule of `skip`: the records whose `cell` holds one of the values are left out, each value with why. */
export interface SkipRule {
  /** Only records started by a segment of this tag (their `@record`: `CTA`); every record when absent. */
  readonly record?: string | undefined
  /** The cell looked at, trimmed: `NAD.1.1`, `BGM.5.1`. */
  readonly cell: string
  /** The values that leave a record out, each with why: `{ "MS": "the sender's contact for the exchange" }`. */
  readonly values: Readonly<Record<string, string>>
}

/** The reader file's selection: PIDs, document types and QTY qualifiers taken (each absent: all are taken), and records skipped by value. */
export interface EdifactSelection {
  /** Prüfidentifikatoren (`RFF+Z13`) whose messages are read: `["13025", "13019"]`. */
  readonly pids?: ReadonlyArray<string> | undefined
  /** Document types (`BGM` C002/1001) whose messages are read: `["Z41", "Z42"]`. */
  readonly documentTypes?: ReadonlyArray<string> | undefined
  /** QTY qualifiers (C186/6063) read: `["220", "67", "Z18"]`. */
  readonly qualifiers?: ReadonlyArray<string> | undefined
  /** Records left out by the value of a cell, checked in order after `pids` and `qualifiers`. */
  readonly skip?: ReadonlyArray<SkipRule> | undefined
}

/** The keys of a reader file that make its selection. */
export const SELECTION_KEYS = ["pids", "documentTypes", "qualifiers", "skip"] as const

/** The cell that names the tag of a record's segment. */
const RECORD_CELL = "@record"


/** The cells the selection reads: the PID and document type of the message and the qualifier of the quantity. */
export const PID_CELL = "RFF+Z13.1.2"
export const DOCUMENT_TYPE_CELL = "BGM.1.1"
export const QUALIFIER_CELL = "QTY.1.1"

/**
 * The selection a reader file makes (its `pids`, `documentTypes`, `qualifiers` and `skip`), whatever else it holds.
 *
 * @example
 * selectionOf({ record: "QTY", pids: ["13019"], documentTypes: ["Z41"] }) // => { pids: ["13019"], documentTypes: ["Z41"], qualifiers: undefined, skip: undefined }
 */
export const selectionOf = (spec: EdifactSelection): EdifactSelection => ({ pids: spec.pids, documentTypes: spec.documentTypes, qualifiers: spec.qualifiers, skip: spec.skip })

/**
 * The problems of a reader file's `pids` and `qualifiers`, one a line (none when both are absent or lists
 * of codes).
 *
 * @example
 * selectionProblems({ pids: ["13025"], qualifiers: "220" }) // => ["qualifiers: a list of QTY qualifiers taken ([\"220\", \"67\"])"]
 */
export const selectionProblems = (spec: Readonly<Record<string, unknown>>): Array<string> => {
  const codes = (value: unknown): boolean => Array.isArray(value) && value.length > 0 && value.every((code) => typeof code === "string" && code.trim() !== "")
  return [
    ...(spec["pids"] !== undefined && !codes(spec["pids"]) ? ["pids: a list of Prüfidentifikatoren (RFF+Z13) taken ([\"13025\", \"13019\"])"] : []),
    ...(spec["documentTypes"] !== undefined && !codes(spec["documentTypes"]) ? ["documentTypes: a list of document types (BGM 1001) taken ([\"Z41\", \"Z42\"])"] : []),
    ...(spec["qualifiers"] !== undefined && !codes(spec["qualifiers"]) ? ["qualifiers: a list of QTY qualifiers taken ([\"220\", \"67\"])"] : []),
    ...(spec["skip"] !== undefined ? skipProblems(spec["skip"]) : [])
  ]
}

const SKIP_USAGE = "skip: a list of rules { \"record\": \"CTA\" (optional), \"cell\": \"NAD.1.1\", \"values\": { \"MS\": \"why it is left out\" } }"

/** The problems of a reader file's `skip`, one a line. */
const skipProblems = (skip: unknown): Array<string> => {
  if (!Array.isArray(skip) || skip.length === 0) return [SKIP_USAGE]
  return skip.flatMap((rule, i): Array<string> => {
    if (typeof rule !== "object" || rule === null || Array.isArray(rule)) return [`skip[${i}]: not an object; ${SKIP_USAGE}`]
    const r = rule as Record<string, unknown>
    const values = r["values"]
    return [
      ...Object.keys(r).filter((k) => !["record", "cell", "values"].includes(k)).map((k) => `skip[${i}]: unknown key ${JSON.stringify(k)} (known: record, cell, values)`),
      ...(r["record"] !== undefined && (typeof r["record"] !== "string" || r["record"].trim() === "") ? [`skip[${i}].record: the tag of the records the rule looks at ("CTA")`] : []),
      ...(typeof r["cell"] !== "string" || r["cell"].trim() === "" ? [`skip[${i}].cell: the cell looked at ("NAD.1.1")`] : []),
      // A value with space around it would never meet a cell, which is trimmed: the rule would skip nothing without a word.
      ...(typeof values !== "object" || values === null || Array.isArray(values) || Object.keys(values).length === 0 ||
          Object.entries(values).some(([k, why]) => k.trim() !== k || k === "" || typeof why !== "string" || why.trim() === "")
        ? [`skip[${i}].values: the values that leave a record out, each with why ({ "MS": "the sender's contact" }); no blank value, no space around one`]
        : [])
    ]
  })
}

/** The cells a selection needs beside the mapping's. */
export const selectionColumns = (selection: EdifactSelection): Array<string> => [
  ...(selection.pids !== undefined ? [PID_CELL] : []),
  ...(selection.documentTypes !== undefined ? [DOCUMENT_TYPE_CELL] : []),
  ...(selection.qualifiers !== undefined ? [QUALIFIER_CELL] : []),
  ...(selection.skip ?? []).map((rule) => rule.cell)
]

const cellText = (record: LegacyRecord, cell: string): string => {
  const value = record[cell]
  return typeof value === "string" ? value.trim() : ""
}

/**
 * The selection as a function of a record: `undefined` when it is taken, else its exclusion (`skipped`,
 * the record's cells kept so that its account can still be told); `undefined` for a selection that takes
 * everything. The record must carry {@link selectionColumns}.
 *
 * @example
 * const select = recordSelection({ pids: ["13025"], qualifiers: ["220", "67"] })!
 * const at = { offset: 0, segment: 12, message: 1, messageReference: "M1" }
 * select({ kind: "record", record: { "RFF+Z13.1.2": "13025", "QTY.1.1": "220" }, at, raw: "QTY+220:4'" }) // => undefined
 * select({ kind: "record", record: { "RFF+Z13.1.2": "13007", "QTY.1.1": "220" }, at, raw: "QTY+220:11.2'" })
 * // => { kind: "exclusion", code: "skipped", reason: "PID 13007", detail: "PID 13007 (Gasbeschaffenheit) is not among the PIDs the reader file takes (13025)", … }
 * select({ kind: "record", record: { "RFF+Z13.1.2": "13025", "QTY.1.1": "187" }, at, raw: "QTY+187:4'" })?.detail
 * // => "qualifier 187 (Prognosewert) is not among the qualifiers the reader file takes (220, 67)"
 * select({ kind: "record", record: { "QTY.1.1": "220" }, at, raw: "QTY+220:4'" })?.reason // => "no PID"
 * const lieferscheine = recordSelection({ pids: ["13016", "13019"], documentTypes: ["Z41", "Z42"] })!
 * lieferscheine({ kind: "record", record: { "RFF+Z13.1.2": "13019", "BGM.1.1": "7", "QTY.1.1": "220" }, at, raw: "QTY+220:4'" })?.detail
 * // => "document type 7 (Prozessdatenbericht) is not among the document types the reader file takes (Z41, Z42)"
 * const contacts = recordSelection({ skip: [{ record: "CTA", cell: "NAD.1.1", values: { MS: "the sender's contact for the exchange" } }] })!
 * contacts({ kind: "record", record: { "@record": "CTA", "NAD.1.1": "MS" }, at, raw: "CTA+IC+:EDI'" })?.reason // => "CTA with NAD.1.1 MS"
 * contacts({ kind: "record", record: { "@record": "CTA", "NAD.1.1": "Z10" }, at, raw: "CTA+IC+:Mako'" }) // => undefined
 */
export const recordSelection = (selection: EdifactSelection): ((record: EdifactRecord) => EdifactExclusion | undefined) | undefined => {
  const { pids, documentTypes, qualifiers, skip = [] } = selection
  if (pids === undefined && documentTypes === undefined && qualifiers === undefined && skip.length === 0) return undefined
  const rules = skip.map((rule) => ({ record: rule.record?.trim(), cell: rule.cell.trim(), values: new Map(Object.entries(rule.values)) }))
  const pidSet = pids === undefined ? undefined : new Set(pids.map((p) => p.trim()))
  const documentTypeSet = documentTypes === undefined ? undefined : new Set(documentTypes.map((d) => d.trim()))
  const qualifierSet = qualifiers === undefined ? undefined : new Set(qualifiers.map((q) => q.trim()))
  const skipped = (item: EdifactRecord, reason: string, detail: string): EdifactExclusion => ({
    kind: "exclusion",
    code: "skipped",
    reason,
    detail,
    at: item.at,
    raw: item.raw,
    record: item.record
  })
  return (item) => {
    if (pidSet !== undefined) {
      const pid = cellText(item.record, PID_CELL)
      if (pid === "") return skipped(item, "no PID", `the message has no Prüfidentifikator (RFF+Z13), and the reader file takes only PIDs ${[...pidSet].join(", ")}`)
      if (!pidSet.has(pid)) return skipped(item, `PID ${pid}`, `PID ${codeWithName(PID_NAMES, pid)} is not among the PIDs the reader file takes (${[...pidSet].join(", ")})`)
    }
    if (documentTypeSet !== undefined) {
      const documentType = cellText(item.record, DOCUMENT_TYPE_CELL)
      if (!documentTypeSet.has(documentType)) {
        const named = documentType === "" ? "(none)" : codeWithName(MSCONS_DOCUMENT_TYPES, documentType)
        return skipped(item, `document type ${documentType === "" ? "(none)" : documentType}`, `document type ${named} is not among the document types the reader file takes (${[...documentTypeSet].join(", ")})`)
      }
    }
    if (qualifierSet !== undefined) {
      const qualifier = cellText(item.record, QUALIFIER_CELL)
      if (!qualifierSet.has(qualifier)) {
        const named = qualifier === "" ? "(none)" : codeWithName(MSCONS_QTY_QUALIFIERS, qualifier)
        return skipped(item, `qualifier ${qualifier === "" ? "(none)" : qualifier}`, `qualifier ${named} is not among the qualifiers the reader file takes (${[...qualifierSet].join(", ")})`)
      }
    }
    for (const rule of rules) {
      const tag = cellText(item.record, RECORD_CELL)
      if (rule.record !== undefined && tag !== rule.record) continue
      const value = cellText(item.record, rule.cell)
      const why = rule.values.get(value)
      if (why === undefined) continue
      const what = rule.record ?? "record"
      return skipped(item, `${what} with ${rule.cell} ${value}`, `${tag === "" ? "the record" : `the ${tag}`} with ${rule.cell} ${JSON.stringify(value)} is left out: ${why}`)
    }
    return undefined
  }
}
