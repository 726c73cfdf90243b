import { decodedNumber } from '../cel/values.js'
import { formatGoFloatV } from './go-number.js'

/**
 * Go's string helpers and value printing as Kyverno's pattern code uses them: which spaces are
 * trimmed, how keys sort, and how values read inside its messages (`%v`, `%T`).
 */

// Unicode White_Space, which is what strings.TrimSpace removes (JavaScript's trim also drops U+FEFF).
const GO_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000'
const LEADING_SPACE = new RegExp(`^[${GO_SPACE}]+`)
const TRAILING_SPACE = new RegExp(`[${GO_SPACE}]+$`)

/** strings.TrimSpace. */
export function trimGoSpace(text: string): string {
  return text.replace(LEADING_SPACE, '').replace(TRAILING_SPACE, '')
}

/** strings.Trim(text, " "): only the space character. */
export function trimSpaces(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && text.charCodeAt(start) === 32) start++
  while (end > start && text.charCodeAt(end - 1) === 32) end--
  return start === 0 && end === text.length ? text : text.slice(start, end)
}

/** sort.Strings order: UTF-8 bytes, which is code point order (UTF-16 units differ above U+FFFF). */
export function compareGoStrings(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    const surrogateX = x >= 0xd800 && x <= 0xdfff
    const surrogateY = y >= 0xd800 && y <= 0xdfff
    // A surrogate pair encodes a code point above every BMP character.
    if (surrogateX !== surrogateY) return surrogateX ? 1 : -1
    return x - y
  }
  return a.length - b.length
}

/**
 * fmt's `%v` of a decoded JSON value: `<nil>`, `[a b]`, `map[k:v]` with sorted keys. With
 * `wholeAsInt`, a whole number prints as the int64 Kubernetes decodes it to (BigInts always do).
 */
export function formatGoValue(value: unknown, wholeAsInt = false): string {
  if (value === null || value === undefined) return '<nil>'
  switch (typeof value) {
    case 'string':
      return value
    case 'bigint':
      return value.toString()
    case 'number':
      return wholeAsInt ? decodedNumberText(value) : formatGoFloatV(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'object':
      if (Array.isArray(value)) return `[${value.map((item) => formatGoValue(item, wholeAsInt)).join(' ')}]`
      return `map[${Object.keys(value)
        .sort(compareGoStrings)
        .map((key) => `${key}:${formatGoValue((value as Record<string, unknown>)[key], wholeAsInt)}`)
        .join(' ')}]`
    default:
      return String(value)
  }
}

function decodedNumberText(value: number): string {
  const decoded = decodedNumber(value)
  return typeof decoded === 'bigint' ? decoded.toString() : formatGoFloatV(decoded)
}

/** fmt's `%T` of a decoded JSON value, as Kyverno names types in its structure errors (`wholeAsInt` as for formatGoValue). */
export function formatGoType(value: unknown, wholeAsInt = false): string {
  if (value === null || value === undefined) return '<nil>'
  switch (typeof value) {
    case 'string':
      return 'string'
    case 'bigint':
      return 'int64'
    case 'number':
      return wholeAsInt && typeof decodedNumber(value) === 'bigint' ? 'int64' : 'float64'
    case 'boolean':
      return 'bool'
    case 'object':
      return Array.isArray(value) ? '[]interface {}' : 'map[string]interface {}'
    default:
      return typeof value
  }
}
