/**
 * The HTTP layer of the reference service, on `node:http` (built in, well kept, and all this needs: a
 * router from the catalogue and JSON bodies). Each request runs the service's behaviour in one SQLite
 * transaction; the answer is sent after the commit. Injected faults (latency, 503, connection resets,
 * vendor failures) are decided per request from the fault seed.
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import type { Duplex } from "node:stream"
import { setTimeout as sleep } from "node:timers/promises"
import { lingerOnClose, originForm, refusedByHead, takesBody } from "./before-body.js"
import { trackConnections } from "./connections.js"
import { type FaultDecision, faultsFor, type FaultOptions, NO_FAULTS } from "./faults.js"
import { GRAPHQL_MAX_BODY_BYTES, GRAPHQL_PATH } from "./graphql.js"
import type { Answer } from "./handler.js"
import { handleRequest, NOT_FOUND, unauthorized } from "./handle-request.js"
import { routeOf } from "./routes.js"
import { type ServiceResponse, unparseableBody } from "./service-response.js"
import type { ReferenceStore } from "./store.js"

/** Options of {@link createReferenceServer}. */
export interface ReferenceServerOptions {
  readonly store: ReferenceStore
  readonly faults?: FaultOptions
  /** The service's clock (default: the current time). */
  readonly now?: () => Date
  /** Largest request body accepted; larger ones are answered 413. Default 32 MiB. */
  readonly maxBodyBytes?: number
  /** A folder laid out like the file store's root: a document path naming no file in it is refused. */
  readonly documentExists?: ((path: string) => boolean) | undefined
  /** Answers `POST /v1/graphql/` (`obtainKrakenToken`, see graphql.ts); without it that path is 404. */
  readonly graphql?: ((request: { readonly method: string; readonly body: string | undefined }) => Promise<Answer>) | undefined
  /** Told about a request that failed inside the service (a bug); the message never holds a header. */
  readonly onInternalError?: (message: string) => void
}

/**
 * A reference server: `listen`, then `close`, which closes idle connections at once and lets the
 * requests in flight finish within `graceMs` (default 10 s).
 */
export interface ReferenceServer {
  readonly server: Server
  listen(port: number, host: string): Promise<AddressInfo>
  close(graceMs?: number): Promise<void>
}

const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024
const NO_FAULT: FaultDecision = { fail: false, reset: false, vendorFails: false }

/** The body's bytes, or `undefined` when it is larger than `limit` bytes. */
const readBody = async (req: IncomingMessage, limit: number): Promise<Buffer | undefined> => {
  const chunks: Array<Buffer> = []
  let size = 0
  // Read to the end even past the limit: leaving the loop early would destroy the socket before the 413.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size <= limit) chunks.push(chunk)
  }
  return size > limit ? undefined : Buffer.concat(chunks)
}

// A byte order mark is kept, so that JSON.parse refuses it as before.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })

/** The bytes as UTF-8 text, or `undefined` when they are not UTF-8 (never text with U+FFFD in place of them). */
const utf8 = (bytes: Buffer): string | undefined => {
  try {
    return UTF8.decode(bytes)
  } catch {
    return undefined
  }
}

/**
 * Connections whose last answer closes them (`Connection: close`: a refusal before the body, a 413, a
 * shutdown, or a client that asked for it): nothing the client sent behind that request is executed
 * (RFC 9112 §9.6), though the HTTP parser has read it already.
 */
const closingConnections = new WeakSet<Socket | Duplex>()

const send = (res: ServerResponse, response: Pick<ServiceResponse, "status" | "body" | "headers">, closing: boolean): void => {
  if (closing || !res.shouldKeepAlive) closingConnections.add(res.req.socket)
  const text = JSON.stringify(response.body)
  res.writeHead(response.status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
    ...(closing ? { Connection: "close" } : {}),
    ...response.headers
  })
  res.end(text)
}

/**
 * Creates the reference service's HTTP server over a store (not yet listening).
 *
 * @example
 * const service = createReferenceServer({ store: openStore(":memory:", seed) })
 * const { port } = await service.listen(0, "127.0.0.1")
 * // … requests to http://127.0.0.1:${port}/v1/data-import/…
 * const stats = await fetch(`http://127.0.0.1:${port}/_reference/stats`, { headers: { Authorization: "Token rehearsal-token" } })
 * stats.status // => 200
 * await service.close()
 */
export const createReferenceServer = (options: ReferenceServerOptions): ReferenceServer => {
  const faults = options.faults ?? NO_FAULTS
  const now = options.now ?? (() => new Date())
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  let received = 0

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? "GET"
    const path = originForm(req.url ?? "/")
    const route = routeOf(method, path)
    // Only endpoint requests draw faults: the statistics stay observable, and the n-th request to an
    // endpoint gets the same faults in every run.
    const fault = route.kind === "endpoint" ? faultsFor(faults, received++) : NO_FAULT
    const endpointId = route.kind === "endpoint" ? route.endpointId : undefined
    if (options.graphql !== undefined && route.kind === "none" && path.split("?")[0] === GRAPHQL_PATH) {
      const graphqlLimit = Math.min(limit, GRAPHQL_MAX_BODY_BYTES)
      const tooLarge = { status: 413, body: { detail: `The body is larger than ${graphqlLimit} bytes.` } }
      if (Number(req.headers["content-length"] ?? "0") > graphqlLimit) {
        lingerOnClose(req, true)
        send(res, tooLarge, true)
        return
      }
      const body = await readBody(req, graphqlLimit)
      send(res, body === undefined ? tooLarge : await options.graphql({ method, body: body.toString("utf8") }), body === undefined)
      return
    }
    // The path, credentials, size and media type are judged from the head: a refused body is never read.
    const refused = route.kind === "none" ? NOT_FOUND : options.store.transact((state) => {
      const answer = unauthorized(state, req.headers.authorization) ?? refusedByHead(method, route, req.headers, limit)
      if (answer !== undefined && endpointId !== undefined) state.countResponse(endpointId, answer.status)
      return answer
    })
    if (refused !== undefined) {
      lingerOnClose(req, refused.status === 413)
      send(res, refused, true)
      return
    }
    const bytes = await readBody(req, limit)
    if (faults.latencyMs > 0) await sleep(faults.latencyMs)
    if (bytes === undefined) {
      if (endpointId !== undefined) options.store.transact((state) => state.countResponse(endpointId, 413))
      send(res, { status: 413, body: { detail: `The body is larger than ${limit} bytes.` } }, true)
      return
    }
    const body = takesBody(method, route) ? utf8(bytes) : bytes.toString("utf8")
    if (body === undefined) {
      if (endpointId !== undefined) options.store.transact((state) => state.countResponse(endpointId, 400))
      send(res, { status: 400, body: unparseableBody("The body is not valid UTF-8: a JSON object in UTF-8 is expected.") }, connections.closing())
      return
    }
    if (fault.fail && endpointId !== undefined) {
      options.store.transact((state) => state.countResponse(endpointId, 503))
      send(res, {
        status: 503,
        body: { detail: "The service is unavailable (an injected fault). Retry later." },
        headers: { "Retry-After": String(faults.retryAfterSeconds) }
      }, connections.closing())
      return
    }
    const response = options.store.transact((state) =>
      handleRequest(state, { method, path, authorization: req.headers.authorization, body }, {
        now: now(),
        vendorFails: fault.vendorFails,
        documentExists: options.documentExists
      })
    )
    if (fault.reset) {
      // Committed, and now the client cannot know: the connection breaks before any answer.
      req.socket.destroy()
      return
    }
    send(res, response, connections.closing())
  }

  // The answer being written on each connection, if any: an error of the parser must not cut into it.
  const answering = new WeakMap<Socket | Duplex, ServerResponse>()
  /**
   * The request being served on each connection: a request pipelined behind it waits for its answer
   * (Node's parser hands it over at once), so requests run in the order they came, and none runs after
   * an answer that closes the connection.
   */
  const served = new WeakMap<Socket | Duplex, Promise<void>>()
  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    const socket = req.socket
    const turn = (served.get(socket) ?? Promise.resolve()).then(() => {
      if (closingConnections.has(socket)) {
        // Never executed nor answered; its body is dropped as it comes, until the connection closes.
        req.resume()
        return
      }
      answering.set(socket, res)
      res.once("close", () => {
        if (answering.get(socket) === res) answering.delete(socket)
      })
      return serve(req, res).catch((cause: unknown) => {
        // The client went away before its body was complete: nothing to answer, and no fault of the service.
        if (!req.complete && socket.destroyed) return
        options.onInternalError?.(cause instanceof Error ? cause.message : String(cause))
        if (!res.headersSent) send(res, { status: 500, body: { detail: "Internal error of the reference service." } }, true)
        else res.destroy()
      })
    })
    served.set(socket, turn)
  })
  // What the HTTP parser refuses (an unknown method, a broken header line, a head too large) gets the
  // status Node would answer, with a `{detail}` body like every other answer instead of none.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code !== "ECONNRESET" && socket.writable && answering.get(socket)?.headersSent !== true) {
      const [status, detail] = error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "The request's head is too large."]
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "The request did not arrive in time."]
        : [400, "The request is not valid HTTP/1.1."]
      const text = JSON.stringify({ detail })
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`
      )
    }
    socket.destroy(error)
  })
  const connections = trackConnections(server)

  return {
    server,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once("error", reject)
        server.listen(port, host, () => {
          server.off("error", reject)
          resolve(server.address() as AddressInfo)
        })
      }),
    close: (graceMs) => connections.shutdown(graceMs)
  }
}
