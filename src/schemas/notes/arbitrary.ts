/**
 * Valid request bodies of notes: a body, document paths or both; unpinned, pinned, or pinned until a time not before the note's creation.
 *
 * @module
 */
import type { Arbitrary } from "fast-check"
import type { ArbitraryKit, GeneratorContext, JsonObject, PayloadArbitrary } from "../../testing/arbitrary-kit.js"

const note = (kit: ArbitraryKit, ctx: GeneratorContext): Arbitrary<JsonObject> => {
  const { compactObject, documentPath, fc, freeText, isoDateTime, isoDateTimePair, nonEmptyList, oneof, optional, record } = kit
  return record({
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
}

/** A notes request body. */
export const notes: PayloadArbitrary = (kit, ctx) =>
  kit.record({ ...kit.account, notes: kit.nonEmptyList(note(kit, ctx), ctx) }).map(kit.compactObject)
