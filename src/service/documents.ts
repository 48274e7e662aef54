/**
 * The reference service's file store check (`serve --documents DIR`): a note's `document_path` or a
 * historical statement's `statement_path` that names no file is refused with 400
 * `path_does_not_exist_in_file_store` at its attr, as the real API does when its check is on.
 *
 * @module
 */
import { documentReferencesOf, missingDocumentError } from "../validation/file-store.js"
import type { EndpointId } from "../schemas/endpoints/endpoint-id.js"
import { toValidationErrorBody } from "../validation/run-validation.js"
import type { Answer } from "./handler.js"

/** The 400 answer for a validated body whose documents are not all in the file store, or `undefined`. */
export const missingDocumentsAnswer = (
  endpointId: EndpointId,
  body: unknown,
  documentExists: ((path: string) => boolean) | undefined
): Answer | undefined => {
  if (documentExists === undefined) return undefined
  const errors = documentReferencesOf(endpointId, body).filter((r) => !documentExists(r.path)).map(missingDocumentError)
  if (errors.length === 0) return undefined
  return { status: 400, body: toValidationErrorBody(errors) }
}
