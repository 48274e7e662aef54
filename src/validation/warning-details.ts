/**
 * The texts of the warnings that schemas raise by their shape (not by a warning rule), declared once:
 * the warning walk and the generated validators both write them.
 *
 * @module
 */

/**
 * The `detail` of an `unknown_choice` warning: `value` is not among the values the spec lists (`list`,
 * comma-separated).
 *
 * @example
 * unknownChoiceDetail("MWH", "KWH") // => "\"MWH\" is not among the values the spec lists (KWH)."
 */
export const unknownChoiceDetail = (value: string, list: string): string =>
  `"${value}" is not among the values the spec lists (${list}).`

/**
 * The `detail` of an `empty_optional` warning for the optional list `name`, sent empty.
 *
 * @example
 * emptyOptionalDetail("document_paths") // => "document_paths is empty: omit an optional list that carries no data."
 */
export const emptyOptionalDetail = (name: string): string => `${name} is empty: omit an optional list that carries no data.`

/** The `detail` of an `undocumented_shape` warning: an item whose shape the spec does not give. */
export const UNDOCUMENTED_SHAPE_DETAIL = "The spec does not give the shape of this item: it is passed on unchecked."
