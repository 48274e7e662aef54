/**
 * Secrets out of anything that is kept: the client's outcomes hold what the service answered, and a
 * service may echo the token it was sent (`{"detail": "Invalid token abc123"}`). Whatever is written to a
 * journal, a result file or a log goes through {@link redactSecrets} first.
 *
 * @module
 */
import type { ResponseOutcome, SendOutcome } from "./outcome.js"

/** What each occurrence of a secret becomes. */
const REDACTED = "[redacted]"

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/** One string without any of the secrets (longest first, so a secret inside a longer one is not left half). */
const redactText = (text: string, secrets: ReadonlyArray<string>): string => {
  let out = text
  for (const secret of secrets) out = out.replaceAll(secret, REDACTED)
  // A secret can reappear across a marker's edge (a secret ending in "]") or be part of the marker itself
  // ("dact"): those leftovers are removed outright. Each pass shortens the text, so this ends.
  while (secrets.some((secret) => out.includes(secret))) {
    for (const secret of secrets) out = out.replaceAll(secret, "")
  }
  return out
}

const redactWith = (value: unknown, secrets: ReadonlyArray<string>): unknown => {
  if (typeof value === "string") return redactText(value, secrets)
  if (typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) return value.map((item: unknown) => redactWith(item, secrets))
  if (!isPlainObject(value)) return value
  // Object.fromEntries defines every key as an own property, "__proto__" included (JSON.parse does too).
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactText(key, secrets), redactWith(item, secrets)]))
}

/**
 * A copy of `value` in which no string, and no key of an object, contains any of `secrets`: each
 * occurrence becomes `[redacted]`. Walks arrays and plain objects (a tree, as JSON is); numbers,
 * booleans, `null` and other objects (dates, class instances) are returned as they are. Empty secrets are
 * ignored. Pure: `value` is not changed. A short secret also hits unrelated text (`"t"` in every word),
 * so a real token, which is long, changes nothing else. Two keys that become the same: the last one stays.
 *
 * @example
 * redactSecrets({ status: 401, body: { detail: "Invalid token abc123-secret" } }, ["abc123-secret"])
 * // => { status: 401, body: { detail: "Invalid token [redacted]" } }
 * redactSecrets(["no secret here", 42], ["abc123-secret"]) // => ["no secret here", 42]
 *
 * @since 0.1.0
 */
export const redactSecrets = <T>(value: T, secrets: ReadonlyArray<string>): T => {
  const nonEmpty = [...new Set(secrets.filter((s) => typeof s === "string" && s !== ""))].sort((a, b) => b.length - a.length)
  return redactWith(value, nonEmpty) as T
}

/** Fields of an outcome that the client itself writes from fixed words: no answer's text is in them. */
const OWN_FIELDS: ReadonlySet<string> = new Set(["kind", "advice", "items"])

/** Whether the JSON text of `value` holds a secret, as it is or as JSON escapes it. */
const mentionsAny = (value: unknown, secrets: ReadonlyArray<string>): boolean => {
  const text = JSON.stringify(value) ?? ""
  return secrets.some((secret) => secret !== "" && (text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1))))
}

/**
 * An outcome with the secrets redacted from every text that came from outside (body, errors, warnings,
 * detail, reason, and the same in `last`), but not from its own fixed words: a short secret (`"t"` of a
 * test service) would otherwise turn `kind: "created"` into something no caller recognises.
 */
export const redactOutcome = <T extends SendOutcome | ResponseOutcome>(outcome: T, secrets: ReadonlyArray<string>): T =>
  // Most answers hold no secret: one native serialisation tells, and spares the walk over every body.
  !mentionsAny(outcome, secrets) ? outcome : Object.fromEntries(
    Object.entries(outcome).map(([key, value]) => [
      key,
      key === "last" ? redactOutcome(value as ResponseOutcome, secrets) : OWN_FIELDS.has(key) ? value : redactSecrets(value, secrets)
    ])
  ) as T
