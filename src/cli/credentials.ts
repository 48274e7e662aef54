/**
 * The credentials of `send` and `status`: an organisation API key from `DATA_IMPORT_API_KEY` (the
 * client obtains and renews tokens with it), or a fixed token from `DATA_IMPORT_TOKEN`. Never from an
 * argument: the arguments of a process are visible to every user of the machine (`/proc/PID/cmdline`).
 * Both set is a usage error: which one a run used would otherwise be a guess.
 *
 * @module
 */
import { isHeaderSafe } from "../client/build-request.js"
import { type Client, TokenError } from "../index.js"
import { ioError, usageError } from "../readers/index.js"

/** The environment variable that holds a fixed token. */
export const TOKEN_VARIABLE = "DATA_IMPORT_TOKEN"
/** The environment variable that holds the organisation API key. */
export const API_KEY_VARIABLE = "DATA_IMPORT_API_KEY"

/** What a run authenticates with: `createClient`'s `apiKey` or `token`. */
export type Credentials = { readonly apiKey: string } | { readonly token: string }

/** The credentials from the environment; a usage error (exit 2) when none, both, or one that no header can carry. */
export const readCredentials = (env: NodeJS.ProcessEnv = process.env): Credentials => {
  const apiKey = env[API_KEY_VARIABLE] ?? ""
  const token = env[TOKEN_VARIABLE] ?? ""
  if (apiKey !== "" && token !== "") throw usageError(`both ${API_KEY_VARIABLE} and ${TOKEN_VARIABLE} are set: set one of them`)
  if (apiKey === "" && token === "") {
    throw usageError(`the credentials come from the environment: ${API_KEY_VARIABLE} (an API key) or ${TOKEN_VARIABLE} (a token); neither is set`)
  }
  const [name, value] = apiKey !== "" ? [API_KEY_VARIABLE, apiKey] : [TOKEN_VARIABLE, token]
  if (!isHeaderSafe(value)) throw usageError(`${name} holds characters a header cannot carry (spaces, line breaks, non-ASCII)`)
  return apiKey !== "" ? { apiKey } : { token }
}

/** The secrets of credentials, to keep out of everything written. */
export const secretsOf = (credentials: Credentials): Array<string> => ["apiKey" in credentials ? credentials.apiKey : credentials.token]

/**
 * Obtains the first token before anything is sent: a refused key is a usage error (exit 2) with the
 * service's reason; no answer from the service an I/O error (exit 3).
 */
export const authenticate = async (client: Client): Promise<void> => {
  try {
    await client.authenticate()
  } catch (error) {
    if (!(error instanceof TokenError)) throw error
    throw error.refused ? usageError(`${API_KEY_VARIABLE}: ${error.message}`) : ioError(error.message)
  }
}
