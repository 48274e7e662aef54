/**
 * A payload validator that also checks document paths against a file store folder: a path naming no
 * file there is the error `path_does_not_exist_in_file_store` at its attr, after the validator's own
 * errors. Every safe path it meets is told to `onReference` (to find the folder's unreferenced files).
 *
 * @module
 */
import type { EndpointId } from "../schemas/endpoints/endpoint-id.js"
import type { PayloadValidator } from "./compile-validator.js"
import { toValidationErrorBody } from "./run-validation.js"
import { documentPathsOf, documentReferencesOf, type FileStoreFolder, missingDocumentError } from "./file-store.js"

/** `validator` with the documents of each body checked against `folder`. */
export const withDocumentCheck = <E extends EndpointId>(
  validator: PayloadValidator<E>,
  endpoint: E,
  folder: Pick<FileStoreFolder, "exists">,
  onReference?: (path: string) => void
): PayloadValidator<E> => {
  if (documentPathsOf(endpoint).length === 0) return validator
  return (input, options) => {
    const result = validator(input, options)
    const references = documentReferencesOf(endpoint, input)
    if (onReference !== undefined) for (const r of references) onReference(r.path)
    const missing = references.filter((r) => !folder.exists(r.path)).map(missingDocumentError)
    if (missing.length === 0) return result
    return { ok: false, error: toValidationErrorBody([...(result.ok ? [] : result.error.errors), ...missing]), warnings: result.warnings }
  }
}
