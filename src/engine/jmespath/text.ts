/**
 * Go's view of strings, over JavaScript's UTF-16 ones. Go walks strings by rune (code point) and
 * orders them by UTF-8 bytes, which is code point order; JavaScript indexes code units and orders
 * by them. Kyverno's functions are Go's, so lengths, cuts and comparisons here go by code point.
 */

/** Code point order: what Go's byte-wise comparison of UTF-8 gives (the CEL library orders strings the same way). */
export { compareStrings as compareCodePoints } from '../cel/ordering.js'

/** The string's code points as strings ("runes"). */
export function runes(text: string): string[] {
  return Array.from(text)
}

/** Width in code units of the code point starting at `index` (1 or 2). */
export function runeWidthAt(text: string, index: number): number {
  const code = text.charCodeAt(index)
  if (code < 0xd800 || code > 0xdbff || index + 1 >= text.length) return 1
  const next = text.charCodeAt(index + 1)
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1
}

// Go maps case rune by rune with Unicode's simple mappings; JavaScript applies the full (special)
// mappings, which can change the length ('ß' → 'SS'). A rune whose JavaScript mapping is not a
// single rune keeps Go's answer: unchanged, except the one such rune Go does map.
const SIMPLE_LOWER_EXCEPTIONS: Readonly<Record<string, string>> = { '\u0130': 'i' }

function mapRunes(text: string, map: (rune: string) => string, exceptions: Readonly<Record<string, string>>): string {
  let out = ''
  for (const rune of text) {
    const exception = exceptions[rune]
    if (exception !== undefined) {
      out += exception
      continue
    }
    const mapped = map(rune)
    out += mapped.length === rune.length || Array.from(mapped).length === 1 ? mapped : rune
  }
  return out
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false
  return true
}

/** Go's strings.ToUpper. */
export function toUpperGo(text: string): string {
  // ASCII fast path: most Kubernetes strings are ASCII.
  if (isAscii(text)) return text.toUpperCase()
  return mapRunes(text, (rune) => rune.toUpperCase(), {})
}

/** Go's strings.ToLower. */
export function toLowerGo(text: string): string {
  if (isAscii(text)) return text.toLowerCase()
  return mapRunes(text, (rune) => rune.toLowerCase(), SIMPLE_LOWER_EXCEPTIONS)
}

/** Go's strings.EqualFold: equal under simple Unicode case folding. */
export function equalFoldGo(a: string, b: string): boolean {
  if (a === b) return true
  const x = runes(a)
  const y = runes(b)
  if (x.length !== y.length) return false
  for (let i = 0; i < x.length; i++) {
    if (x[i] !== y[i] && fold(x[i] as string) !== fold(y[i] as string)) return false
  }
  return true
}

function fold(rune: string): string {
  return toLowerGo(toUpperGo(rune))
}

/** Go's unicode.IsSpace, for TrimSpace. */
export function isGoSpace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  )
}

/** Go's strings.TrimSpace. */
export function trimSpaceGo(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && isGoSpace(text.charCodeAt(start))) start++
  while (end > start && isGoSpace(text.charCodeAt(end - 1))) end--
  return text.slice(start, end)
}
