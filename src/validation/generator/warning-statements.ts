/**
 * The generated statements that push one warning, written once for the check (which collects a valid
 * request's warnings) and the warning collector (a request with errors): the two give the same warnings
 * as `collectWarnings`, with the texts of `warning-details.ts`.
 *
 * @module
 */
import type { WarningRule } from "../../schemas/conventions.js"
import { emptyOptionalDetail, UNDOCUMENTED_SHAPE_DETAIL } from "../warning-details.js"
import type { Constants, EndpointNames } from "./generated-names.js"
import { js, pathSource } from "./schema-reading.js"

/** An expression true when the string in `v` is not among `known` (a comparison for one value, a set for more). */
export const notKnownTest = (v: string, known: ReadonlyArray<unknown>, constants: Constants): string =>
  known.length === 1 ? `${v} !== ${js(known[0])}` : `!${constants.add("KNOWN", `new Set(${js(known)})`)}.has(${v})`

/** Pushes `unknown_choice` for the string in `v` at `path`, whose values the spec lists as `known`. */
export const unknownChoicePush = (v: string, path: ReadonlyArray<string>, known: ReadonlyArray<unknown>): string =>
  `out.push({ path: ${pathSource(path)}, code: "unknown_choice", detail: unknownChoiceDetail(${v}, ${js(known.join(", "))}) })`

/** Pushes the warnings of an object's warning rule (its findings, relative to the object at `path`). */
export const warningRulePush = (rule: WarningRule, v: string, path: ReadonlyArray<string>, names: EndpointNames): string =>
  `for (const w of ${names.ref(`warning ${rule.name}`, rule)}(${v})) out.push({ path: ${pathSource(path, ["...w.path"])}, code: w.code, detail: w.detail })`

/** Pushes `empty_optional` for the optional list `name`, sent empty, at `path`. */
export const emptyOptionalPush = (name: string, path: ReadonlyArray<string>): string =>
  `out.push({ path: ${pathSource(path)}, code: "empty_optional", detail: ${js(emptyOptionalDetail(name))} })`

/** Pushes `undocumented_shape` for the item at `index` of the list at `path`. */
export const undocumentedShapePush = (path: ReadonlyArray<string>, index: string): string =>
  `out.push({ path: ${pathSource(path, [index])}, code: "undocumented_shape", detail: ${js(UNDOCUMENTED_SHAPE_DETAIL)} })`
