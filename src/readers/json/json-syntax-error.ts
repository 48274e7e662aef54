/**
 * Where a JSON text goes wrong: the offset and a plain message, the same on every Node version
 * (`JSON.parse` messages differ between versions and do not always give a position). Runs only on text
 * that `JSON.parse` already refused, so it is written for clarity, not speed; it uses no recursion, so
 * deeply nested input cannot overflow the stack.
 *
 * @module
 */

/** The first syntax error of a JSON text: its offset (UTF-16 units) and what was expected there. */
export interface JsonSyntaxError {
  readonly offset: number
  readonly message: string
}

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39

const describeAt = (text: string, offset: number): string => {
  if (offset >= text.length) return "the end of the text"
  const c = text.codePointAt(offset) ?? 0
  return c < 0x20 ? `control character U+${c.toString(16).toUpperCase().padStart(4, "0")}` : `'${String.fromCodePoint(c)}'`
}

type Frame = "array" | "object"

/**
 * Finds the first syntax error of `text`, or `undefined` when the text is valid JSON (one value,
 * surrounded by optional whitespace).
 */
export const findJsonSyntaxError = (text: string): JsonSyntaxError | undefined => {
  let i = 0
  const stack: Array<Frame> = []
  const fail = (message: string, at = i): JsonSyntaxError => ({ offset: at, message })
  const skipWhitespace = (): void => {
    while (i < text.length && isWhitespace(text.charCodeAt(i))) i++
  }
  const readString = (): JsonSyntaxError | undefined => {
    i++ // the opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i)
      if (c === 0x22) {
        i++
        return undefined
      }
      if (c < 0x20) return fail(`Unescaped ${describeAt(text, i)} in a string`)
      if (c === 0x5c) {
        const e = text.charCodeAt(i + 1)
        if (e === 0x75) {
          for (let k = 2; k < 6; k++) {
            if (!/[0-9a-fA-F]/u.test(text.charAt(i + k))) return fail("Invalid \\u escape: four hex digits expected", i)
          }
          i += 6
          continue
        }
        if ("\"\\/bfnrt".includes(text.charAt(i + 1)) && i + 1 < text.length) {
          i += 2
          continue
        }
        return fail(i + 1 >= text.length ? "Unterminated string" : `Invalid escape \\${text.charAt(i + 1)}`, i)
      }
      i++
    }
    return fail("Unterminated string")
  }
  const readNumber = (): JsonSyntaxError | undefined => {
    const start = i
    if (text.charCodeAt(i) === 0x2d) i++
    if (text.charCodeAt(i) === 0x30) i++
    else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++
    else return fail(`Invalid number: a digit expected, found ${describeAt(text, i)}`)
    if (text.charCodeAt(i) === 0x2e) {
      i++
      if (!isDigit(text.charCodeAt(i))) return fail(`Invalid number: a digit expected after '.', found ${describeAt(text, i)}`)
      while (isDigit(text.charCodeAt(i))) i++
    }
    if (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45) {
      i++
      if (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d) i++
      if (!isDigit(text.charCodeAt(i))) return fail(`Invalid number: a digit expected in the exponent, found ${describeAt(text, i)}`)
      while (isDigit(text.charCodeAt(i))) i++
    }
    return i > start ? undefined : fail("Invalid number")
  }
  // A value starts at i. Scalars are read whole; arrays and objects push a frame.
  const readValueStart = (): JsonSyntaxError | "opened" | undefined => {
    skipWhitespace()
    if (i >= text.length) return fail("Unexpected end of the text: a value was expected")
    const c = text.charCodeAt(i)
    if (c === 0x7b) {
      stack.push("object")
      i++
      return "opened"
    }
    if (c === 0x5b) {
      stack.push("array")
      i++
      return "opened"
    }
    if (c === 0x22) return readString()
    if (c === 0x2d || isDigit(c)) return readNumber()
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, i)) {
        i += word.length
        return undefined
      }
    }
    return fail(`Unexpected ${describeAt(text, i)}: a value was expected`)
  }
  const readKey = (): JsonSyntaxError | undefined => {
    skipWhitespace()
    if (text.charCodeAt(i) !== 0x22) return fail(`Expected a property name in double quotes, found ${describeAt(text, i)}`)
    const bad = readString()
    if (bad !== undefined) return bad
    skipWhitespace()
    if (text.charCodeAt(i) !== 0x3a) return fail(`Expected ':' after the property name, found ${describeAt(text, i)}`)
    i++
    return undefined
  }

  let opened = readValueStart()
  if (opened !== undefined && opened !== "opened") return opened
  for (;;) {
    if (opened === "opened") {
      // Just inside a new array or object: it may be empty.
      skipWhitespace()
      const frame = stack[stack.length - 1]
      const close = frame === "array" ? 0x5d : 0x7d
      if (text.charCodeAt(i) === close) {
        stack.pop()
        i++
      } else {
        if (frame === "object") {
          const bad = readKey()
          if (bad !== undefined) return bad
        }
        opened = readValueStart()
        if (opened !== undefined && opened !== "opened") return opened
        if (opened === "opened") continue
      }
    }
    // After a complete value: close frames or go on with the next element.
    skipWhitespace()
    const frame = stack[stack.length - 1]
    if (frame === undefined) {
      return i < text.length ? fail(`Unexpected ${describeAt(text, i)} after the end of the value`) : undefined
    }
    const c = text.charCodeAt(i)
    const close = frame === "array" ? 0x5d : 0x7d
    if (c === close) {
      stack.pop()
      i++
      opened = undefined
      continue
    }
    if (c !== 0x2c) {
      return fail(`Expected ',' or '${frame === "array" ? "]" : "}"}', found ${describeAt(text, i)}`)
    }
    i++
    if (frame === "object") {
      const bad = readKey()
      if (bad !== undefined) return bad
    }
    opened = readValueStart()
    if (opened !== undefined && opened !== "opened") return opened
  }
}

/** The 1-based line and column (in characters) of an offset of `text`, counted from `text`'s start. */
export const lineAndColumn = (text: string, offset: number): { readonly line: number; readonly column: number } => {
  let line = 1
  let lineStart = 0
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++
    lineStart = i + 1
  }
  // Characters, not UTF-16 units: a letter outside the BMP is one column, as in editors.
  let column = 1
  for (let i = lineStart; i < Math.min(offset, text.length); i++) {
    const c = text.charCodeAt(i)
    if (c < 0xdc00 || c > 0xdfff || i === lineStart) column++
  }
  return { line, column }
}
