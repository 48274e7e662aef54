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

/** A secret shorter than this is redacted as it is only: its other spellings would hit unrelated text. */
const MIN_SPELLED = 8

/** Base64 of a string's UTF-8 bytes. */
const base64 = (text: string): string => btoa(Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join(""))
const base64url = (b64: string): string => b64.replace(/\+/gu, "-").replace(/\//gu, "_").replace(/=+$/u, "")
const lowerHex = (encoded: string): string => encoded.replace(/%[0-9A-F]{2}/gu, (e) => e.toLowerCase())

/**
 * The ways a service may spell a secret in a message: as it is; JSON-escaped (also `\/`); URL-encoded
 * (upper and lower hex, also twice) and form-encoded; base64 and base64url, whole, and as the part that
 * stays the same wherever in a longer base64 it sits (each of the three alignments, without the edges
 * that depend on the bytes around it).
 */
const spellingsOf = (secret: string): ReadonlyArray<string> => {
  if (secret.length < MIN_SPELLED) return [secret]
  const json = JSON.stringify(secret).slice(1, -1)
  const url = encodeURIComponent(secret)
  const form = new URLSearchParams({ s: secret }).toString().slice(2)
  const whole = base64(secret)
  const cores = [0, 1, 2].map((offset) => {
    const shifted = base64(`${"\u0000".repeat(offset)}${secret}`)
    const bytes = offset + new TextEncoder().encode(secret).length
    return shifted.slice(offset === 0 ? 0 : 4, 4 * Math.floor(bytes / 3))
  }).filter((core) => core.length >= MIN_SPELLED)
  const all = [secret, json, json.replaceAll("/", "\\/"), url, lowerHex(url), encodeURIComponent(url), form, lowerHex(form), whole, whole.replace(/=+$/u, ""), base64url(whole), ...cores, ...cores.map(base64url)]
  return [...new Set(all)]
}

/** The spellings of a list of secrets, longest first; the last few lists asked for are kept. */
const spelledCache = new Map<string, ReadonlyArray<string>>()
const spellingsOfAll = (secrets: ReadonlyArray<string>): ReadonlyArray<string> => {
  const key = secrets.join("\u0000")
  let spelled = spelledCache.get(key)
  if (spelled === undefined) {
    spelled = [...new Set(secrets.flatMap(spellingsOf))].sort((a, b) => b.length - a.length)
    if (spelledCache.size >= 8) spelledCache.clear()
    spelledCache.set(key, spelled)
  }
  return spelled
}

/** One string without any of the spellings (longest first, so a secret inside a longer one is not left half). */
const redactText = (text: string, spellings: ReadonlyArray<string>): string => {
  let out = text
  for (const spelled of spellings) out = out.replaceAll(spelled, REDACTED)
  // A secret can reappear across a marker's edge (a secret ending in "]") or be part of the marker itself
  // ("dact"): those leftovers are removed outright. Each pass shortens the text, so this ends.
  while (spellings.some((spelled) => out.includes(spelled))) {
    for (const spelled of spellings) out = out.replaceAll(spelled, "")
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
  const nonEmpty = secrets.filter((s) => typeof s === "string" && s !== "")
  return redactWith(value, spellingsOfAll(nonEmpty)) as T
}

/** Fields of an outcome that the client itself writes from fixed words: no answer's text is in them. */
const OWN_FIELDS: ReadonlySet<string> = new Set(["kind", "advice", "items"])

/** Whether the JSON text of `value` holds a secret in any of its spellings, as it is or as JSON escapes it. */
const mentionsAny = (value: unknown, secrets: ReadonlyArray<string>): boolean => {
  const nonEmpty = secrets.filter((s) => typeof s === "string" && s !== "")
  if (nonEmpty.length === 0) return false
  const text = JSON.stringify(value) ?? ""
  return spellingsOfAll(nonEmpty).some((spelled) => text.includes(spelled) || text.includes(JSON.stringify(spelled).slice(1, -1)))
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
