/**
 * The pre-account-import endpoints: market participants, their fee price sheets and time definitions.
 * Fees and definitions need the participants (network operators) they name to exist.
 *
 * @module
 */
import type { Handler } from "./handler.js"
import { businessError } from "./service-response.js"
import type { ServiceState } from "./state.js"

const participantExists = (state: ServiceState, code: number | string): boolean =>
  state.find("market_participants", null, String(code)).length > 0

/** `market-participant`: 201 with the data when imported; 200 with the stored record when the code exists (no change). */
export const marketParticipantHandler: Handler<"market-participant"> = ({ state, request }) => {
  const existing = state.find("market_participants", null, String(request.code))
  if (existing.length > 0) return { status: 200, body: existing[0] }
  state.add({ kind: "market_participants", account: null, key: String(request.code), data: request })
  return { status: 201, body: request }
}

/** `market-participant-fees`: 201 with the data, or 400 `market_participant_does_not_exist` per unknown code. */
export const marketParticipantFeesHandler: Handler<"market-participant-fees"> = ({ state, request }) => {
  const unknown = request.price_sheets.flatMap((sheet, index) =>
    participantExists(state, sheet.market_participant_code)
      ? []
      : [{ detail: `No market participant ${sheet.market_participant_code} exists.`, attr: `price_sheets.${index}.market_participant_code` }]
  )
  if (unknown.length > 0) return { status: 400, body: businessError("market_participant_does_not_exist", unknown) }
  for (const sheet of request.price_sheets) {
    state.add({ kind: "price_sheets", account: null, key: String(sheet.market_participant_code), data: sheet })
  }
  return { status: 201, body: request }
}

/** `market-participant-definitions`: 201 with the data (each definition stored), or 400 `network_operator_does_not_exist`. */
export const marketParticipantDefinitionsHandler: Handler<"market-participant-definitions"> = ({ state, request }) => {
  const code = request.network_operator_code
  if (!participantExists(state, code)) {
    return {
      status: 400,
      body: businessError("network_operator_does_not_exist", [{ detail: `No network operator ${code} exists.`, attr: "network_operator_code" }])
    }
  }
  for (const definition of [...(request.definitions ?? []), ...(request.rolled_out_definitions ?? [])]) {
    state.add({ kind: "time_definitions", account: null, key: code, data: definition })
  }
  return { status: 201, body: request }
}
