/**
 * A bounded shutdown of an HTTP server: connections without a request in flight (idle keep-alive ones,
 * ones that never sent a byte, ones still sending a request's head) are closed at once; the requests in
 * flight may finish within a grace period, after which their connections are destroyed too.
 *
 * @module
 */
import type { Server } from "node:http"
import type { Socket } from "node:net"

/** How long the requests in flight may take to finish once a shutdown starts. */
export const SHUTDOWN_GRACE_MS = 10_000

/** Tracks a server's connections; `shutdown` closes it as described in the module. */
export const trackConnections = (server: Server): { readonly closing: () => boolean; readonly shutdown: (graceMs?: number) => Promise<void> } => {
  const inFlight = new Map<Socket, number>()
  let closing = false
  server.on("connection", (socket: Socket) => {
    inFlight.set(socket, 0)
    socket.once("close", () => inFlight.delete(socket))
  })
  server.on("request", (req, res) => {
    const socket = req.socket
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1)
    res.once("close", () => {
      const left = (inFlight.get(socket) ?? 1) - 1
      inFlight.set(socket, left)
      // Its answer is out (with `Connection: close`): a connection cannot be idle while shutting down.
      if (closing && left === 0) socket.end()
    })
  })
  const shutdown = (graceMs = SHUTDOWN_GRACE_MS): Promise<void> =>
    new Promise((resolve) => {
      closing = true
      const timer = setTimeout(() => {
        for (const socket of inFlight.keys()) socket.destroy()
      }, graceMs)
      server.close(() => {
        clearTimeout(timer)
        resolve()
      })
      for (const [socket, requests] of inFlight) if (requests === 0) socket.destroy()
    })
  return { closing: () => closing, shutdown }
}
