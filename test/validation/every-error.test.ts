/**
 * Every error in one pass: a cross-field rule runs whenever the fields it reads are valid, also when
 * other fields of the same object are broken. Payloads broken in two independent places of one object (a
 * cross-field rule, and a field the rule does not read) report both errors.
 */
import type { SchemaAST } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { endpoints, POST_ENDPOINT_IDS, validatePayload } from "../../src/index.js"
import type { CrossFieldRule } from "../../src/schemas/conventions.js"
import { ruleBreakers } from "../../src/testing/arbitrary-invalid-payload.js"
import { arbitraryPayload, DEFAULT_NOW, type Json, type JsonObject } from "../../src/testing/index.js"
import { changedAt, type FieldInfo, fieldInfo, sitesOf } from "../../src/testing/payload-sites.js"
import { type Path, toAttr, valueAt } from "../../src/validation/path.js"
import { crossFieldRulesOf as rulesOf } from "../../src/schemas/rules.js"

/** A value of the wrong JSON type for a field, and the code it is reported with. */
const wrongType = (json: string): { readonly value: Json; readonly code: string } | undefined => {
  switch (json) {
    case "string":
    case "object":
      return { value: 12345, code: "invalid" }
    case "number":
    case "boolean":
      return { value: "x", code: "invalid" }
    case "array":
      return { value: 12345, code: "not_a_list" }
    default:
      return undefined
  }
}

/** The object a rule's finding speaks of: the site itself, or for a rule over a list's items, the item. */
const objectOf = (rule: CrossFieldRule, sitePath: Path, attrPath: Path): Path =>
  rule.scope === "items" ? attrPath.slice(0, sitePath.length + 1) : sitePath

const pathOfAttr = (payload: JsonObject, attr: string): Path | undefined => {
  // Attrs of generated payloads hold no escaped dots: steps are keys, or indexes of arrays.
  const path: Array<string | number> = []
  let node: Json | undefined = payload
  for (const step of attr.split(".")) {
    const key: string | number = Array.isArray(node) ? Number(step) : step
    path.push(key)
    node = valueAt(node, [key]) as Json | undefined
  }
  return attr === "non_field_errors" ? [] : path
}

/** Whether a schema declares a cross-field rule on an object or a list's items. */
const hasRules = (ast: SchemaAST.AST): boolean =>
  rulesOf(ast).some((rule) => rule.scope !== "list") ||
  (ast._tag === "Objects" && ast.propertySignatures.some((p) => hasRules(p.type))) ||
  (ast._tag === "Arrays" && ast.rest.some(hasRules)) ||
  (ast._tag === "Union" && ast.types.some(hasRules))

describe("every error in one pass", () => {
  for (const id of POST_ENDPOINT_IDS.filter((id) => hasRules(endpoints[id].request.ast))) {
    const ast = endpoints[id].request.ast
    it(`${id}: a broken cross-field rule and a broken field of the same object are both reported`, () => {
      let checked = 0
      fc.assert(
        fc.property(arbitraryPayload(id), fc.nat(), fc.nat(), fc.nat(), (generated, sitePick, fieldPick, variant) => {
          const payload = generated as JsonObject
          const candidates = sitesOf(ast, payload)
            .filter((site) => site.present)
            .flatMap((site) => site.info.rules.filter((rule) => rule.scope !== "list").map((rule) => ({ site, rule })))
          if (candidates.length === 0) return
          const { site, rule } = candidates[sitePick % candidates.length]!
          const breaks = ruleBreakers(site, rule)
          const broken = breaks[variant % breaks.length]?.apply(payload, variant)
          if (broken === undefined) return
          const attrPath = pathOfAttr(broken.payload, broken.expected.attr)
          if (attrPath === undefined) return
          const rulePath = objectOf(rule, site.path, attrPath)
          // A field of the rule's object that the rule does not read; where there is none (an interval zone
          // has two fields, both read), a field of the object that holds it.
          const lastKey = rulePath.map((step) => typeof step).lastIndexOf("string")
          const places = [rulePath, rulePath.slice(0, Math.max(lastKey, 0))]
          const sites = sitesOf(ast, broken.payload)
          const infoAt = (path: Path): FieldInfo | undefined =>
            path.length === 0 ? fieldInfo(ast) : sites.find((s) => toAttr(s.path) === toAttr(path))?.info
          const reads = new Set([...(rule.reads ?? rule.fields), ...Object.keys(rule.when ?? {}), ...rulePath.map(String)])
          const others = places.flatMap((objectPath) => {
            const object = valueAt(broken.payload, objectPath)
            const info = infoAt(objectPath)
            if (typeof object !== "object" || object === null || Array.isArray(object) || info === undefined) return []
            return Object.keys(object).filter((key) => !reads.has(key) && info.children.has(key)).flatMap((key) => {
              const wrong = wrongType(fieldInfo(info.children.get(key)!.ast).json)
              return wrong === undefined ? [] : [{ objectPath, key, wrong }]
            })
          })
          if (others.length === 0) return
          const { objectPath, key, wrong } = others[fieldPick % others.length]!
          const twice = changedAt(broken.payload, objectPath, (o) => {
            o[key] = wrong.value
          })
          const result = validatePayload(id, twice, { now: DEFAULT_NOW })
          expect(result.ok).toBe(false)
          const reported = result.ok ? [] : result.error.errors.map((e) => `${e.attr} ${e.code}`)
          expect(reported).toContain(`${broken.expected.attr} ${broken.expected.code}`)
          expect(reported).toContain(`${toAttr([...objectPath, key])} ${wrong.code}`)
          checked++
        }),
        { numRuns: 150, seed: 23 }
      )
      // Most runs find an object with a rule and another field to break.
      expect(checked).toBeGreaterThan(20)
    })
  }
})
