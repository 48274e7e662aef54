/**
 * Parsers of option values: each turns the text of a flag into a value or refuses it with a message
 * commander prints (exit 2).
 *
 * @module
 */
import { InvalidArgumentError } from "commander"

/** A whole number of at least `min`. */
export const wholeNumber = (min: number) => (value: string): number => {
  if (!/^\d+$/u.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError(`a whole number of at least ${min} is expected`)
  }
  return Number(value)
}

/** A TCP port, 0 to 65535 (0: any free one). */
export const portNumber = (value: string): number => {
  const n = wholeNumber(0)(value)
  if (n > 65_535) throw new InvalidArgumentError("a port from 0 to 65535 is expected")
  return n
}

/** A fraction from 0 to 1. */
export const rate = (value: string): number => {
  const n = /^(?:0|1|0?\.\d+|1\.0*)$/u.test(value.trim()) ? Number(value) : Number.NaN
  if (!(n >= 0 && n <= 1)) throw new InvalidArgumentError("a fraction from 0 to 1 is expected, such as 0.1")
  return n
}

/** A positive number of requests per second. */
export const perSecond = (value: string): number => {
  const n = /^\d+(?:\.\d+)?$/u.test(value.trim()) ? Number(value) : Number.NaN
  if (!(n > 0)) throw new InvalidArgumentError("a positive number of requests per second is expected, such as 50")
  return n
}

/** A 32-bit unsigned seed. */
export const faultSeed = (value: string): number => {
  const n = wholeNumber(0)(value)
  if (n > 0xffff_ffff) throw new InvalidArgumentError("a whole number from 0 to 4294967295 is expected")
  return n
}

const UNITS: Readonly<Record<string, number>> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }

/** A byte size: `1048576`, `512k`, `16M`, `1G` (binary units). */
export const byteSize = (value: string): number => {
  const match = /^(\d+)\s*([kmg]?)(?:i?b)?$/iu.exec(value.trim())
  const n = match === null ? Number.NaN : Number(match[1]) * (UNITS[(match[2] ?? "").toLowerCase()] ?? Number.NaN)
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError("a size in bytes is expected, such as 1048576, 512k or 16M")
  return n
}

/** A safe integer, negative allowed (a fast-check seed). */
export const integer = (value: string): number => {
  if (!/^-?\d+$/u.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError("an integer is expected")
  return Number(value)
}
