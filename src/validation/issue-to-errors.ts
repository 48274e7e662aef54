/**
 * Turns an Effect schema issue tree into the API's flat error list: one `{ detail, code, attr }` per
 * problem, with the contract's codes.
 *
 * @module
 */
import type { SchemaAST, SchemaIssue } from "effect"
import { CROSS_FIELD_RULE, type CrossFieldRule } from "../schemas/conventions.js"
import { jsonTypeOf, type Path, valueAt } from "./path.js"

/** A problem found at a path, before it is written as an {@link ApiError}. */
export interface PathError {
  readonly path: Path
  readonly code: string
  readonly detail: string
  /** For the error of a cross-field rule: the fields the rule relates, which it speaks for. */
  readonly covers?: ReadonlyArray<Path>
}

interface CheckContext {
  readonly code: string | undefined
  readonly message: string | undefined
  readonly covers: ReadonlyArray<Path> | undefined
}

const str = (u: unknown): string | undefined => (typeof u === "string" ? u : undefined)

const expectedName = (ast: SchemaAST.AST): string => {
  switch (ast._tag) {
    case "String":
      return "a string"
    case "Number":
      return "a number"
    case "Boolean":
      return "a boolean"
    case "Objects":
      return "an object"
    case "Arrays":
      return "a list"
    case "Null":
      return "null"
    case "Literal":
      return JSON.stringify(ast.literal)
    default:
      return "a valid value"
  }
}

/**
 * The error of a required field that is missing.
 *
 * @example
 * requiredError(["energy_amount", "malo_number"]).code // => "required"
 */
export const requiredError = (path: Path): PathError => ({ path, code: "required", detail: "This field is required." })

/**
 * The error of a field the schema does not name.
 *
 * @example
 * unknownFieldError(["zaehlernummer"]).code // => "unknown_field"
 */
export const unknownFieldError = (path: Path): PathError => ({
  path,
  code: "unknown_field",
  detail: "This field is not documented for this endpoint."
})

const isLiteralUnion = (ast: SchemaAST.Union): ast is SchemaAST.Union<SchemaAST.Literal> =>
  ast.types.length > 0 && ast.types.every((t) => t._tag === "Literal")

/**
 * Flattens a schema issue into path errors with contract codes. `input` is the value that was decoded:
 * the code of a type error depends on what was found there (`null` → `null`, otherwise `invalid`).
 */
export const issueToPathErrors = (root: SchemaIssue.Issue, input: unknown): Array<PathError> => {
  const out: Array<PathError> = []
  const typeError = (path: Path, ast: SchemaAST.AST): void => {
    const found = valueAt(input, path)
    if (found === null) out.push({ path, code: "null", detail: "This field may not be null." })
    else if (ast._tag === "Arrays") {
      out.push({ path, code: "not_a_list", detail: `Expected a list of items but got ${jsonTypeOf(found)}.` })
    } else {
      out.push({ path, code: "invalid", detail: `Expected ${expectedName(ast)} but got ${jsonTypeOf(found)}.` })
    }
  }
  const go = (issue: SchemaIssue.Issue, path: Path, check: CheckContext | undefined): void => {
    switch (issue._tag) {
      case "Pointer":
        return go(issue.issue, [...path, ...issue.path.map((k) => (typeof k === "symbol" ? String(k) : k))], check)
      case "Composite":
        for (const child of issue.issues) go(child, path, check)
        return
      case "Encoding":
        return go(issue.issue, path, check)
      case "Filter": {
        const annotations = issue.filter.annotations
        const rule = annotations?.[CROSS_FIELD_RULE] as CrossFieldRule | undefined
        return go(issue.issue, path, {
          code: str(annotations?.["code"]) ?? check?.code,
          message: str(annotations?.message) ?? check?.message,
          covers: rule !== undefined ? rule.fields.map((field) => [...path, field]) : check?.covers
        })
      }
      case "AnyOf": {
        if (issue.issues.length > 0) {
          for (const child of issue.issues) go(child, path, check)
          return
        }
        // No member took the input's type, so a union with a `Null` member never gets here with null.
        const found = valueAt(input, path)
        if (found === null) {
          out.push({ path, code: "null", detail: "This field may not be null." })
        } else if (isLiteralUnion(issue.ast) && typeof found === "string") {
          const choices = issue.ast.types.map((t) => String(t.literal)).join(", ")
          out.push({ path, code: "invalid_choice", detail: `"${found}" is not a valid choice (${choices}).` })
        } else {
          const names = issue.ast.types.map(expectedName)
          out.push({ path, code: "invalid", detail: `Expected ${names.join(" or ")} but got ${jsonTypeOf(found)}.` })
        }
        return
      }
      case "InvalidValue": {
        const code = str(issue.annotations?.["code"]) ?? check?.code ?? "invalid"
        const detail = str(issue.annotations?.message) ?? check?.message ?? "This value is not valid."
        out.push(check?.covers !== undefined ? { path, code, detail, covers: check.covers } : { path, code, detail })
        return
      }
      case "InvalidType":
        return typeError(path, issue.ast)
      case "MissingKey":
        out.push(requiredError(path))
        return
      case "UnexpectedKey":
        out.push(unknownFieldError(path))
        return
      case "Forbidden":
      case "OneOf":
        out.push({ path, code: "invalid", detail: "This value is not valid." })
        return
    }
  }
  go(root, [], undefined)
  return out
}

