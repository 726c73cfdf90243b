import { charge, chargeString, checkStringLength, JmespathBudgetError } from './budget.js'
import type { JsonValue } from './json.js'
import { compareCodePoints } from './text.js'

/**
 * JSON text as Kyverno's Go code writes it, for the places where that text shows: `to_string()`
 * (go-jmespath uses encoding/json) and a non-string value substituted inside a string
 * (`"{{ labels }}-x"`, json-iterator in its standard-library mode). Both sort object keys,
 * escape `<`, `>` and `&` as \u003c, \u003e, \u0026, and escape U+2028 and U+2029; they differ only
 * in that encoding/json writes \b and \f where json-iterator writes \u0008 and \u000c.
 */

export type GoJsonFlavour = 'encoding/json' | 'jsoniter'

/** Deeper values than this are refused rather than risk the stack; documents stop at 200 levels. */
const MAX_DEPTH = 1000

export function marshalGoJson(value: JsonValue, flavour: GoJsonFlavour = 'encoding/json'): string {
  const parts: string[] = []
  let length = 0
  const push = (text: string): void => {
    length += text.length
    checkStringLength(length, 'the JSON text')
    parts.push(text)
  }
  write(value, flavour, push, 0)
  return parts.join('')
}

function write(value: JsonValue, flavour: GoJsonFlavour, push: (text: string) => void, depth: number): void {
  if (depth > MAX_DEPTH) throw new JmespathBudgetError(`value nested more than ${MAX_DEPTH} levels deep`)
  charge(1)
  if (value === null) return push('null')
  if (typeof value === 'boolean') return push(value ? 'true' : 'false')
  if (typeof value === 'number') return push(formatGoFloat(value))
  if (typeof value === 'string') return push(quoteGoString(value, flavour))
  if (Array.isArray(value)) {
    push('[')
    value.forEach((item, index) => {
      if (index > 0) push(',')
      write(item, flavour, push, depth + 1)
    })
    return push(']')
  }
  const keys = Object.keys(value).sort(compareCodePoints)
  push('{')
  keys.forEach((key, index) => {
    if (index > 0) push(',')
    push(quoteGoString(key, flavour))
    push(':')
    write(value[key] as JsonValue, flavour, push, depth + 1)
  })
  push('}')
}

/** encoding/json's float64 text: JavaScript's number text, except that negative zero keeps its sign. */
export function formatGoFloat(value: number): string {
  return Object.is(value, -0) ? '-0' : String(value)
}

const HEX = '0123456789abcdef'

export function quoteGoString(text: string, flavour: GoJsonFlavour = 'encoding/json'): string {
  chargeString(text.length)
  let out = '"'
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    let escape: string | undefined
    if (code < 0x20) escape = controlEscape(code, flavour)
    else if (code === 0x22) escape = '\\"'
    else if (code === 0x5c) escape = '\\\\'
    else if (code === 0x3c || code === 0x3e || code === 0x26 || code === 0x2028 || code === 0x2029) escape = unicodeEscape(code)
    else if (code >= 0xd800 && code <= 0xdfff) {
      const pairs = code <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))
      if (pairs) {
        i++
        continue
      }
      // A lone surrogate is what invalid UTF-8 becomes here; Go writes the replacement character.
      escape = '\\ufffd'
    }
    if (escape === undefined) continue
    out += text.slice(start, i) + escape
    start = i + 1
  }
  return out + text.slice(start) + '"'
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

function controlEscape(code: number, flavour: GoJsonFlavour): string {
  if (code === 0x0a) return '\\n'
  if (code === 0x0d) return '\\r'
  if (code === 0x09) return '\\t'
  if (flavour === 'encoding/json' && code === 0x08) return '\\b'
  if (flavour === 'encoding/json' && code === 0x0c) return '\\f'
  return unicodeEscape(code)
}

function unicodeEscape(code: number): string {
  return `\\u${HEX[(code >> 12) & 15]}${HEX[(code >> 8) & 15]}${HEX[(code >> 4) & 15]}${HEX[code & 15]}`
}
