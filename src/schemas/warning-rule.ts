/**
 * A warning rule: a check over one object of a payload that reports allowed but suspicious data.
 *
 * @module
 */

/** A warning found by a {@link WarningRule}: where (relative to the object) and why. */
export interface RuleWarning {
  readonly path: ReadonlyArray<string | number>
  readonly code: string
  readonly detail: string
}

/**
 * A rule over one object of a payload that reports allowed but suspicious data. It sees the raw input
 * object (which may be malformed elsewhere), so it must check the types it reads.
 */
export type WarningRule = (input: Readonly<Record<string, unknown>>) => ReadonlyArray<RuleWarning>
