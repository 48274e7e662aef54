/**
 * Keys repeated in one object of a JSON text. `JSON.parse` keeps the last value of a repeated key without
 * a word, so a legacy row `{"Menge":1,"Menge":2}` or a BO4E document with a member written twice would
 * lose a value; the readers refuse such a record instead.
 *
 * @module
 */

/** A key met a second time in one object, and the element of a top-level array it is in (else `undefined`). */
export interface RepeatedJsonKey {
  readonly key: string
  readonly element: number | undefined
}

/**
 * The first repeated key of each top-level array element of a valid JSON text (of the value itself when
 * it is no array), in the order they are written. Keys are compared as parsed (`"A"` and `"\u0041"` are
 * one key); a key repeated only across objects is no repeat.
 *
 * @example
 * repeatedJsonKeys('{"Konto":"KD-1","Menge":1,"Menge":2}') // => [{ key: "Menge", element: undefined }]
 * repeatedJsonKeys('[{"a":1},{"a":1,"a":2}]') // => [{ key: "a", element: 1 }]
 */
export const repeatedJsonKeys = (text: string): Array<RepeatedJsonKey> => {
  const found: Array<RepeatedJsonKey> = []
  // One frame per open container: the keys of an object so far, `undefined` for an array.
  const frames: Array<Set<string> | undefined> = []
  let topArray = false
  let element = 0
  let reported = -1
  let keyNext = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      let end = i + 1
      let escaped = false
      while (text.charCodeAt(end) !== 0x22) {
        if (text.charCodeAt(end) === 0x5c) {
          escaped = true
          end += 2
        } else end++
      }
      const keys = frames[frames.length - 1]
      if (keyNext && keys !== undefined) {
        const key = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end)
        if (!keys.has(key)) keys.add(key)
        else if (reported !== element) {
          reported = element
          found.push({ key, element: topArray ? element : undefined })
        }
        keyNext = false
      }
      i = end
    } else if (c === 0x7b) {
      frames.push(new Set())
      keyNext = true
    } else if (c === 0x5b) {
      if (frames.length === 0) topArray = true
      frames.push(undefined)
      keyNext = false
    } else if (c === 0x7d || c === 0x5d) {
      frames.pop()
      keyNext = false
    } else if (c === 0x2c) {
      keyNext = frames[frames.length - 1] !== undefined
      if (topArray && frames.length === 1) element++
    }
  }
  return found
}
