/**
 * What the reference service decides from a request's head alone, before it reads a byte of the body:
 * the path of an absolute-form target, a body too large by its `Content-Length` (413), and a POST whose
 * `Content-Type` is not JSON (415). Refusing early keeps an unwanted body out of memory.
 *
 * @module
 */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http"
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

/** How long a refused request's connection stays open with nothing coming, for reading (and dropping) the rest of its body. */
export const LINGER_MS = 2_000
/** The longest a refused request's connection stays open for that, however slowly its body comes. */
export const LINGER_MAX_MS = 30_000
/** The most of a refused body read and dropped; a body declared larger is not read at all. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024

/**
 * A lingering close for a request answered before its body was read: when the answer is out, the
 * connection is half-closed, and the connection is destroyed once the client has closed its side or
 * after {@link LINGER_MS}. Closing at once, with unread bytes in the socket, makes the kernel reset the
 * connection, and a client still sending its body then loses the answer.
 *
 * With `drain` (a 413: the body is refused for its size, so the client may well be sending it all), what
 * the client still sends is read and dropped (never kept), until it closes its side, nothing came for
 * {@link LINGER_MS}, {@link LINGER_MAX_MS} passed, or more than {@link DRAIN_MAX_BYTES} came: a client
 * that writes its whole body before it reads (Python's http.client) would otherwise be stopped by TCP
 * and then reset. Without it, or for a body declared larger than the bound, nothing more is read (TCP
 * stops the sender): a refusal for who sends (401) or what (415, 404) costs no reading of a large body.
 */
export const lingerOnClose = (req: IncomingMessage, drain = false): void => {
  const socket = req.socket
  const declared = Number(req.headers["content-length"] ?? "0")
  // Node's HTTP server ends a `Connection: close` exchange with `destroySoon` (end, then destroy): this
  // socket's only is replaced by end, then destroy once the client has closed or a bound is reached.
  Object.assign(socket, {
    destroySoon: () => {
      socket.end()
      const timers = [setTimeout(() => socket.destroy(), LINGER_MS)]
      socket.once("close", () => timers.forEach(clearTimeout))
      for (const timer of timers) timer.unref()
      if (!drain || !(declared <= DRAIN_MAX_BYTES)) {
        socket.pause()
        setImmediate(() => socket.pause())
        return
      }
      const [idle] = timers
      timers.push(setTimeout(() => socket.destroy(), LINGER_MAX_MS).unref())
      let dropped = 0
      socket.on("data", (chunk: Buffer) => {
        dropped += chunk.length
        idle!.refresh()
        if (dropped > DRAIN_MAX_BYTES) socket.destroy()
      })
      socket.once("end", () => socket.destroy())
      // The body goes through the HTTP parser to the request, whose data nobody keeps.
      req.resume()
      socket.resume()
    }
  })
}
