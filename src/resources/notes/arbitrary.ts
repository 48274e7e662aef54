/**
 * Valid request bodies of notes: a body, document paths or both; unpinned, pinned, or pinned until a time not before the note's creation.
 *
 * @module
 */
import * as fc from "fast-check"
import { isoDateTime, isoDateTimePair } from "../../testing/arbitrary-dates.js"
import { account, compactObject, documentPath, freeText, type GeneratorContext, type JsonObject, nonEmptyList, oneof, optional, record } from "../../testing/arbitrary-values.js"

const note = (ctx: GeneratorContext): fc.Arbitrary<JsonObject> =>
  record({
    // A body, document paths, or both: the note must carry one of them.
    content: oneof(
      record({ body: freeText }),
      record({ document_paths: nonEmptyList(record({ document_path: documentPath }), ctx) }),
      record({ body: freeText, document_paths: nonEmptyList(record({ document_path: documentPath }), ctx) })
    ),
    // Unpinned, pinned for good, or pinned until a time not before the note's creation.
    pin: oneof(
      record({ created_at: optional(isoDateTime) }),
      record({ created_at: optional(isoDateTime), is_pinned: fc.boolean() }),
      isoDateTimePair.chain(([createdAt, unpinAt]) =>
        record({ created_at: optional(fc.constant(createdAt)), is_pinned: fc.constant(true), unpin_at: fc.constant(unpinAt) })
      ),
      ...(ctx.withWarnings ? [record({ is_pinned: fc.constant(false), unpin_at: isoDateTime })] : [])
    )
  }).map(({ content, pin }) => compactObject({ ...content, ...pin }))

/** A notes request body. */
export const notes = (ctx: GeneratorContext) =>
  record({ ...account, notes: nonEmptyList(note(ctx), ctx) }).map(compactObject)
