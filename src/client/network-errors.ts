/**
 * What a failed `fetch` says about the request: the error code undici hides in the cause chain, and
 * whether it means that nothing left this machine.
 *
 * @module
 */

/** Network error codes that mean the request never left: no connection was made. */
export const NOT_SENT: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT"])

/** The first `code` in an error's cause chain (`ECONNREFUSED`, `UND_ERR_SOCKET`, …), if any. */
export const codeOf = (error: unknown): string | undefined => {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === "string") return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}
