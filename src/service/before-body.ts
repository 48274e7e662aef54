/**
 * What the reference service decides from a request's head alone, before it reads a byte of the body:
 * the path of an absolute-form target, a body too large by its `Content-Length` (413), and a POST whose
 * `Content-Type` is not JSON (415). Refusing early keeps an unwanted body out of memory.
 *
 * @module
 */
import type { IncomingHttpHeaders } from "node:http"
import type { Socket } from "node:net"
import type { Answer } from "./handler.js"
import type { Route } from "./routes.js"

/**
 * The origin form (`/path?query`) of a request target; an absolute-form target
 * (`http://host:port/path?query`, which HTTP/1.1 servers must accept) loses its scheme and authority.
 *
 * @example
 * originForm("http://127.0.0.1:8080/v1/data-import/all-account-import-processes/NORD/?x=1")
 * // => "/v1/data-import/all-account-import-processes/NORD/?x=1"
 * originForm("https://api.example.energy") // => "/"
 * originForm("/_reference/stats") // => "/_reference/stats"
 */
export const originForm = (target: string): string => {
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/u.exec(target)
  if (absolute === null) return target
  const rest = target.slice(absolute[0].length)
  return rest.startsWith("/") ? rest : `/${rest}`
}

/**
 * Whether a `Content-Type` names JSON: `application/json` or a `+json` type, parameters allowed.
 *
 * @example
 * isJsonMediaType("application/json; charset=utf-8") // => true
 * isJsonMediaType("text/plain") // => false
 */
export const isJsonMediaType = (contentType: string): boolean =>
  /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/isu.test(contentType.trim())

/**
 * The `charset` parameter of a `Content-Type`, lower case and unquoted, or `undefined` without one.
 *
 * @example
 * charsetOf('application/json; charset="UTF-8"') // => "utf-8"
 * charsetOf("application/json") // => undefined
 */
export const charsetOf = (contentType: string): string | undefined => {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/iu.exec(contentType)
  return match === null ? undefined : (match[1] ?? match[2] ?? "").toLowerCase()
}

/** Whether a request's body is read by its route: a POST to an endpoint or a control that takes POST. */
export const takesBody = (method: string, route: Route): boolean =>
  method === "POST" && route.kind !== "none" && route.kind !== "stats" && route.methodAllowed

/**
 * The answer to a request refused by its head (after its credentials were checked), or `undefined`:
 * 413 when `Content-Length` exceeds `limit`, 415 when a POST that the route takes declares a media type
 * that is not JSON, or JSON in a charset other than UTF-8 (JSON on the wire is UTF-8, RFC 8259). A POST
 * without `Content-Type` is read as JSON, as before.
 */
export const refusedByHead = (method: string, route: Route, headers: IncomingHttpHeaders, limit: number): Answer | undefined => {
  const length = Number(headers["content-length"] ?? "0")
  if (length > limit) return { status: 413, body: { detail: `The body is larger than ${limit} bytes.` } }
  const type = headers["content-type"]
  if (!takesBody(method, route) || type === undefined) return undefined
  if (!isJsonMediaType(type)) {
    return { status: 415, body: { detail: `Unsupported media type "${type}" in request: send application/json.` } }
  }
  const charset = charsetOf(type)
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    return { status: 415, body: { detail: `Unsupported charset "${charset}" in request: send JSON in UTF-8.` } }
  }
  return undefined
}

/** How long a refused request's connection stays open for reading (and dropping) what the client still sends. */
export const LINGER_MS = 2_000

/**
 * A lingering close for a request answered before its body was read: when the answer is out, the
 * connection is half-closed and what the client still sends is read and dropped (never kept) until it
 * closes its side, at most {@link LINGER_MS}. Closing at once, with unread bytes in the socket, makes the
 * kernel reset the connection, and a client still sending its body then loses the answer.
 */
export const lingerOnClose = (socket: Socket): void => {
  // Node's HTTP server ends a `Connection: close` exchange with `destroySoon` (end, then destroy): this
  // socket's only is replaced by end, then destroy once the client has closed or the time is up.
  Object.assign(socket, {
    destroySoon: () => {
      socket.end()
      // Not read at all: what the client sends stays in the kernel's buffers, and TCP stops it.
      socket.pause()
      setImmediate(() => socket.pause())
      const timer = setTimeout(() => socket.destroy(), LINGER_MS)
      timer.unref()
      socket.once("close", () => clearTimeout(timer))
    }
  })
}
