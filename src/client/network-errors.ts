/**
 * What a failed `fetch` says about the request: the error code undici hides in the cause chain, and
 * whether it means that nothing left this machine.
 *
 * @module
 */

/**
 * TLS refusals of the handshake, before any byte of the request: the client refuses the service's
 * certificate (OpenSSL's verify codes, the host name not in it) or the other end does not speak TLS. A
 * certificate that expired or a proxy's own certificate is such a case: it must not leave every record in
 * doubt.
 */
const HANDSHAKE_REFUSED = [
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_DECRYPT_CERT_SIGNATURE",
  "UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY",
  "CERT_SIGNATURE_FAILURE",
  "CERT_NOT_YET_VALID",
  "CERT_HAS_EXPIRED",
  "ERROR_IN_CERT_NOT_BEFORE_FIELD",
  "ERROR_IN_CERT_NOT_AFTER_FIELD",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "CERT_CHAIN_TOO_LONG",
  "CERT_REVOKED",
  "INVALID_CA",
  "PATH_LENGTH_EXCEEDED",
  "INVALID_PURPOSE",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "HOSTNAME_MISMATCH",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERR_SSL_WRONG_VERSION_NUMBER"
] as const

/** Network error codes that mean the request never left: no connection was made, or its handshake was refused. */
export const NOT_SENT: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT", ...HANDSHAKE_REFUSED])

/** The first `code` in an error's cause chain (`ECONNREFUSED`, `UND_ERR_SOCKET`, …), if any. */
export const codeOf = (error: unknown): string | undefined => {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === "string") return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}
