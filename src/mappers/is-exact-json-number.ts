/**
 * Whether a decimal string survives the trip through a JSON number unchanged: declared in validation,
 * which `validate` and `send` share with the `number` converter.
 *
 * @module
 */
export { isExactJsonNumber } from "../validation/is-exact-json-number.js"
