/**
 * Text from outside (legacy values, file names, the service's words) as a terminal can show it.
 *
 * @module
 */

/** The characters a terminal acts on instead of showing them, and those that reorder or break a line. */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu
const ESCAPES: Readonly<Record<string, string>> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" }

/**
 * Control characters, line and paragraph separators and bidirectional overrides written as `\t`, `\n`,
 * `\r` or `\uXXXX`, so that a value can neither clear the screen, move the cursor, set the window's
 * title nor reverse the text after it, and every message stays on its line.
 *
 * @example
 * printable("ok\u001b[2J\nfake") // "ok\\u001b[2J\\nfake"
 */
export const printable = (text: string): string =>
  text.replace(UNPRINTABLE, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
