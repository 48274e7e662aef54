/**
 * The keys of the annotations the schemas carry for validation, warnings, the compiled accept-only
 * check and the testing kit.
 *
 * @module
 */

// Stryker disable StringLiteral: equivalent, a key is only compared with itself: any text no other annotation uses works alike

/** Annotation key: the values a field of an open enumeration is known to take (outside them: a warning). */
export const KNOWN_VALUES = "dataImport/knownValues"
/** Annotation key: a structural warning rule attached to an object schema (see {@link WarningRule}). */
export const WARNING_RULES = "dataImport/warningRules"
/** Annotation key: items of this array have a shape the spec does not give (`undocumented_shape`). */
export const UNDOCUMENTED_SHAPE = "dataImport/undocumentedShape"
/**
 * Annotation key: on a cross-field filter, the rule it checks (see {@link CrossFieldRule}). Validation reads
 * it to run the rule wherever the fields it reads are valid; tooling such as the testing kit reads it to find
 * every place a rule applies without keeping its own list.
 *
 * @example
 * const rule: CrossFieldRule = { name: "definitions_required", description: "Neither list given.", fields: ["definitions"], check: () => [] }
 * const filter = Schema.makeFilter(check, { [CROSS_FIELD_RULE]: rule })
 * filter.annotations?.[CROSS_FIELD_RULE] === rule // => true
 */
export const CROSS_FIELD_RULE = "dataImport/crossFieldRule"
/**
 * Annotation key: on a filter that is not one of Effect's own, the name of the function that checks it
 * (`"isCalendarDate"`, `"isInstantInRange"`), so the accept-only check compiled from the schemas can
 * call it.
 */
export const NAMED_CHECK = "dataImport/namedCheck"
