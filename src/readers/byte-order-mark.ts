/**
 * The byte-order mark (U+FEFF) that spreadsheet exports and editors put before a UTF-8 text: never part of
 * the data, dropped in one way wherever a text or its first cell is read.
 *
 * @module
 */

/**
 * `text` without the byte-order mark it may start with.
 *
 * @example
 * withoutBom("\uFEFFKonto;Betrag") // => "Konto;Betrag"
 * withoutBom("Konto") // => "Konto"
 */
export const withoutBom = (text: string): string => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
