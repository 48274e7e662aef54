/**
 * The field tables of the POST endpoints' requests, each declared in its resource's test folder
 * (`test/schemas/<resource>/fields.ts`, keyed by endpoint id) as attrs of the endpoint's example payload
 * (examples/payloads/<id>.json): which are required, which are optional and not nullable, which other
 * places refuse `null` (array items), and which strings may not be blank (contract-decisions.md).
 * fields.test.ts checks every endpoint alike from them; a resource's own test file reads its own table
 * for its other cases.
 */
import { existsSync, readdirSync } from "node:fs"

/** One endpoint's fields. */
export interface FieldTable {
  /** Removed: `required`; `null`: `null`. */
  readonly required: ReadonlyArray<string>
  /** Optional and not nullable: may be removed; `null`: `null`. */
  readonly optional: ReadonlyArray<string>
  /** Other places where `null` is refused (array items): `null`. */
  readonly notNull: ReadonlyArray<string>
  /** Strings that may not be blank: `blank`. */
  readonly strings: ReadonlyArray<string>
}

const ROOT = new URL("./", import.meta.url)
const tables = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/fields.ts`, ROOT)))
  .map((entry) => new URL(`${entry.name}/fields.ts`, ROOT).href)

/** A resource folder's tables, by endpoint id. */
interface Tables {
  readonly FIELDS: Readonly<Record<string, FieldTable>>
  readonly APPLICABLE: Readonly<Record<string, ReadonlyArray<string>>>
}
const loaded = await Promise.all(tables.map(async (href) => (await import(href)) as Tables))

/** Every resource folder's field tables, by endpoint id. */
export const FIELDS: Readonly<Record<string, FieldTable>> = Object.assign({}, ...loaded.map((t) => t.FIELDS))

/** Every resource folder's error codes that apply, by endpoint id (arbitrary-invalid-payload.test.ts). */
export const APPLICABLE: Readonly<Record<string, ReadonlyArray<string>>> = Object.assign({}, ...loaded.map((t) => t.APPLICABLE))
