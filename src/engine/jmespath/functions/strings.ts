import { checkStringLength } from '../budget.js'
import { functionError } from '../errors.js'
import { joinGoPath } from '../go-path.js'
import { compareCodePoints, equalFoldGo, runes, runeWidthAt, toLowerGo, toUpperGo } from '../text.js'
import { NUMBER, STRING, numberArg, stringArg, type JmespathFunction } from './function.js'

/**
 * Kyverno's string functions, with the semantics of the Go functions they wrap (strings.Replace,
 * strings.Trim, strings.Split, ...): Go counts and cuts by rune, so do these.
 */

/** Go's strings.Replace; n < 0 replaces all, and an empty `old` matches before every rune and at the end. */
export function replaceGo(text: string, old: string, replacement: string, limit: number): string {
  if (old === replacement || limit === 0) return text
  const found = old === '' ? runes(text).length + 1 : countOccurrences(text, old)
  if (found === 0) return text
  const n = limit < 0 || found < limit ? found : limit
  checkStringLength(text.length + n * (replacement.length - old.length), 'the replaced string')
  let out = ''
  let start = 0
  for (let i = 0; i < n; i++) {
    let end = start
    if (old === '') {
      if (i > 0) end += start < text.length ? runeWidthAt(text, start) : 0
    } else {
      end = text.indexOf(old, start)
    }
    out += text.slice(start, end) + replacement
    start = end + old.length
  }
  return out + text.slice(start)
}

function countOccurrences(text: string, part: string): number {
  let count = 0
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++
  return count
}

/** Go's strings.Trim: drops leading and trailing runes found in `cutset`. */
export function trimGo(text: string, cutset: string): string {
  if (text === '' || cutset === '') return text
  const cut = new Set(runes(cutset))
  const chars = runes(text)
  let start = 0
  let end = chars.length
  while (start < end && cut.has(chars[start] as string)) start++
  while (end > start && cut.has(chars[end - 1] as string)) end--
  return chars.slice(start, end).join('')
}

/** Go's strings.Split: an empty separator splits into runes. */
export function splitGo(text: string, separator: string): string[] {
  return separator === '' ? runes(text) : text.split(separator)
}

/** aquilax/truncate's CutStrategy as Kyverno calls it: the first `length` runes. */
export function truncateGo(text: string, length: number): string {
  const keep = length < 0 ? 0 : Math.trunc(length)
  const chars = runes(text)
  return keep >= chars.length ? text : chars.slice(0, keep).join('')
}

const BASE64_STD = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Go's base64.StdEncoding.DecodeString: padding required, line breaks ignored, bytes read as UTF-8. */
export function decodeBase64Std(text: string): string {
  const cleaned = text.replace(/[\r\n]/g, '')
  if (!BASE64_STD.test(cleaned)) {
    const bad = cleaned.search(/[^A-Za-z0-9+/=]/)
    throw new Error(`illegal base64 data at input byte ${bad >= 0 ? bad : Math.max(0, cleaned.length - (cleaned.length % 4))}`)
  }
  return Buffer.from(cleaned, 'base64').toString('utf8')
}

export const STRING_FUNCTIONS: readonly JmespathFunction[] = [
  {
    name: 'compare',
    signature: [STRING, STRING],
    call: (args) => compareCodePoints(stringArg(args, 0), stringArg(args, 1)),
  },
  {
    name: 'equal_fold',
    signature: [STRING, STRING],
    call: (args) => equalFoldGo(stringArg(args, 0), stringArg(args, 1)),
  },
  {
    name: 'replace',
    signature: [STRING, STRING, STRING, NUMBER],
    call: (args) => replaceGo(stringArg(args, 0), stringArg(args, 1), stringArg(args, 2), Math.trunc(numberArg(args, 3))),
  },
  {
    name: 'replace_all',
    signature: [STRING, STRING, STRING],
    call: (args) => replaceGo(stringArg(args, 0), stringArg(args, 1), stringArg(args, 2), -1),
  },
  { name: 'to_upper', signature: [STRING], call: (args) => toUpperGo(stringArg(args, 0)) },
  { name: 'to_lower', signature: [STRING], call: (args) => toLowerGo(stringArg(args, 0)) },
  { name: 'trim', signature: [STRING, STRING], call: (args) => trimGo(stringArg(args, 0), stringArg(args, 1)) },
  {
    name: 'trim_prefix',
    signature: [STRING, STRING],
    call: (args) => {
      const text = stringArg(args, 0)
      const prefix = stringArg(args, 1)
      return text.startsWith(prefix) ? text.slice(prefix.length) : text
    },
  },
  { name: 'split', signature: [STRING, STRING], call: (args) => splitGo(stringArg(args, 0), stringArg(args, 1)) },
  { name: 'truncate', signature: [STRING, NUMBER], call: (args) => truncateGo(stringArg(args, 0), numberArg(args, 1)) },
  {
    name: 'to_boolean',
    signature: [STRING],
    call: (args) => {
      const text = stringArg(args, 0)
      const lowered = text.toLowerCase()
      if (lowered === 'true') return true
      if (lowered === 'false') return false
      throw functionError('to_boolean', `lowercase argument must be 'true' or 'false' (provided: '${text}')`)
    },
  },
  {
    name: 'base64_decode',
    signature: [STRING],
    call: (args) => {
      try {
        return decodeBase64Std(stringArg(args, 0))
      } catch (error) {
        throw functionError('base64_decode', (error as Error).message)
      }
    },
  },
  {
    name: 'base64_encode',
    signature: [STRING],
    call: (args) => {
      const bytes = Buffer.from(stringArg(args, 0), 'utf8')
      checkStringLength(Math.ceil(bytes.length / 3) * 4, 'base64_encode()')
      return bytes.toString('base64')
    },
  },
  {
    // filepath.Join of one element: the cleaned path, or '' for ''.
    name: 'path_canonicalize',
    signature: [STRING],
    call: (args) => joinGoPath(stringArg(args, 0)),
  },
]
