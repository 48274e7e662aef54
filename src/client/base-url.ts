/**
 * The base URL of the service: http(s) only, no credentials, query or fragment, and plain http only to
 * this machine unless allowed (the token, or the API key, would travel unencrypted).
 *
 * @module
 */

/**
 * The base URL would send the token in clear text to a host that is not this machine.
 *
 * @example
 * let refused: unknown
 * try { createClient({ baseUrl: "http://api.example.energy", token: "my-token" }) } catch (error) { refused = error }
 * refused instanceof InsecureBaseUrlError // => true
 * typeof createClient({ baseUrl: "http://localhost:8000", token: "my-token" }).send // => "function"
 *
 * @since 0.1.0
 */
export class InsecureBaseUrlError extends Error {
  constructor(host: string) {
    super(`refusing plain http:// to ${host}: the token would travel unencrypted (use https://, or allow insecure http explicitly)`)
    this.name = "InsecureBaseUrlError"
  }
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/iu

/** Checks a base URL: http(s) only, and plain http only to loopback unless allowed. */
export const checkBaseUrl = (baseUrl: string, allowInsecureHttp = false): URL => {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new TypeError(`not a URL: ${baseUrl}`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError(`not an http(s) URL: ${baseUrl}`)
  if (url.username !== "" || url.password !== "") throw new TypeError("the base URL must not hold credentials")
  // Every request appends its path (and query) to the base URL: after a query or a fragment the path
  // would be lost. An empty "?" or "#" leaves url.search and url.hash empty, hence the raw text too.
  if (url.search !== "" || baseUrl.includes("?")) throw new TypeError("the base URL must not have a query (?…): requests add their own path and query")
  if (url.hash !== "" || baseUrl.includes("#")) throw new TypeError("the base URL must not have a fragment (#…): requests add their own path")
  if (url.protocol === "http:" && !LOOPBACK.test(url.hostname) && !allowInsecureHttp) throw new InsecureBaseUrlError(url.hostname)
  return url
}
