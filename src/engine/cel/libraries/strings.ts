import { EvaluationError, type Environment } from '@marcbachmann/cel-js'
import { charge, stringCost } from '../cost-budget.js'
import type { MethodOverrides } from '../method-override.js'
import { registerNamespace } from '../namespaces.js'
import { formatString } from './format.js'

/**
 * The cel-go ext strings library as Kubernetes enables it (version 2), plus `reverse` (version 3).
 * Indexes count Unicode code points (Go runes), not UTF-16 units.
 *
 * cel-js already defines lowerAscii, upperAscii, trim, split, join, indexOf, lastIndexOf and
 * substring. indexOf, lastIndexOf and substring are replaced (see method-override.ts) because
 * cel-js counts UTF-16 units and raises errors where cel-go returns -1 (an offset past the end);
 * `join(separator)` and `split` are replaced, keeping cel-js behaviour, so that their result is
 * charged before it is built. The
 * zero-argument ones cannot be replaced (a cel-js macro needs an argument) and keep cel-js
 * behaviour: lowerAscii / upperAscii also map non-ASCII letters, trim uses JavaScript's
 * whitespace set.
 *
 * `replace` and `join` with a separator can return far more than they are given (a separator
 * repeated between ten thousand elements), and `split` a string per character, so they work out
 * their result's size first and charge it to the budget before building it; see value-cost.ts.
 */
export function registerStringsLibrary(env: Environment, overrides: MethodOverrides): void {
  const sync = { async: false }
  overrides.add('indexOf', { receiver: 'string', args: ['string'], result: 'int', impl: (s: string, sub: string) => indexOf(s, sub, 0n) })
  overrides.add('indexOf', { receiver: 'string', args: ['string', 'int'], result: 'int', impl: indexOf })
  overrides.add('lastIndexOf', { receiver: 'string', args: ['string'], result: 'int', impl: lastIndexOf })
  overrides.add('lastIndexOf', { receiver: 'string', args: ['string', 'int'], result: 'int', impl: lastIndexOfOffset })
  overrides.add('substring', { receiver: 'string', args: ['int'], result: 'string', impl: (s: string, start: bigint) => substring(s, start, undefined) })
  overrides.add('substring', { receiver: 'string', args: ['int', 'int'], result: 'string', impl: substring })
  overrides.add('join', { receiver: 'list', args: ['string'], result: 'string', impl: joinWith })
  overrides.add('split', { receiver: 'string', args: ['string'], result: 'list<string>', impl: (s: string, separator: string) => split(s, separator, -1n) })
  overrides.add('split', { receiver: 'string', args: ['string', 'int'], result: 'list<string>', impl: split })

  env.registerFunction('string.charAt(int): string', charAt, sync)
  env.registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => replace(s, from, to, -1n), sync)
  env.registerFunction('string.replace(string, string, int): string', replace, sync)
  env.registerFunction('string.reverse(): string', (s: string) => runes(s).reverse().join(''), sync)
  env.registerFunction('string.format(list): string', formatString, sync)
  const strings = registerNamespace(env, 'strings')
  env.registerFunction(`${strings}.quote(string): string`, (_ns: unknown, s: string) => quote(s), sync)
}

const SURROGATE = /[\uD800-\uDFFF]/

/** Code points of `s`; charges the walk. */
function runes(s: string): string[] {
  charge(stringCost(s.length))
  return Array.from(s)
}

/** True when UTF-16 indexes equal code point indexes, so native string methods can be used. */
function isBmpOnly(s: string): boolean {
  charge(stringCost(s.length))
  return !SURROGATE.test(s)
}

function outOfRange(index: bigint): EvaluationError {
  return new EvaluationError(`index out of range: ${index}`)
}

function charAt(s: string, index: bigint): string {
  const chars = runes(s)
  if (index < 0n || index > BigInt(chars.length)) throw outOfRange(index)
  return chars[Number(index)] ?? ''
}

function indexOf(s: string, sub: string, offset: bigint): bigint {
  if (offset < 0n) throw outOfRange(offset)
  if (isBmpOnly(s)) {
    const length = BigInt(s.length)
    if (sub === '') return offset > length ? length : offset
    if (offset >= length) return -1n
    return BigInt(s.indexOf(sub, Number(offset)))
  }
  const chars = runes(s)
  const wanted = runes(sub)
  if (wanted.length === 0) return offset > BigInt(chars.length) ? BigInt(chars.length) : offset
  for (let i = Number(offset); i <= chars.length - wanted.length; i++) {
    if (wanted.every((c, j) => chars[i + j] === c)) return BigInt(i)
  }
  return -1n
}

function lastIndexOf(s: string, sub: string): bigint {
  const length = isBmpOnly(s) ? s.length : runes(s).length
  if (sub === '') return BigInt(length)
  if (length === 0) return -1n
  return lastIndexOfOffset(s, sub, BigInt(length - 1))
}

/** The last match starting at or before `offset`; an offset past the end finds nothing (cel-go). */
function lastIndexOfOffset(s: string, sub: string, offset: bigint): bigint {
  if (offset < 0n) throw outOfRange(offset)
  const chars = isBmpOnly(s) && isBmpOnly(sub) ? undefined : runes(s)
  const length = chars ? chars.length : s.length
  if (sub === '') return offset > BigInt(length) ? BigInt(length) : offset
  if (offset >= BigInt(length)) return -1n
  if (!chars) return BigInt(s.lastIndexOf(sub, Number(offset)))
  const wanted = runes(sub)
  for (let i = Math.min(Number(offset), chars.length - wanted.length); i >= 0; i--) {
    if (wanted.every((c, j) => chars[i + j] === c)) return BigInt(i)
  }
  return -1n
}

function substring(s: string, start: bigint, end: bigint | undefined): string {
  const bmp = isBmpOnly(s)
  const length = BigInt(bmp ? s.length : runes(s).length)
  const last = end ?? length
  if (end !== undefined && start > end) throw new EvaluationError(`invalid substring range. start: ${start}, end: ${end}`)
  if (start < 0n || start > length) throw outOfRange(start)
  if (last < 0n || last > length) throw outOfRange(last)
  if (bmp) return s.slice(Number(start), Number(last))
  return runes(s).slice(Number(start), Number(last)).join('')
}

/** Go's strings.Replace: at most `limit` replacements (all when negative); '' matches between runes. */
function replace(s: string, from: string, to: string, limit: bigint): string {
  charge(stringCost(s.length))
  if (limit === 0n || from === to) return s
  if (from !== '') {
    charge(stringCost(s.length + occurrences(s, from, limit) * (to.length - from.length)))
    if (limit < 0n) return s.split(from).join(to)
    let out = ''
    let start = 0
    for (let n = 0n; n < limit; n++) {
      const at = s.indexOf(from, start)
      if (at < 0) break
      out += s.slice(start, at) + to
      start = at + from.length
    }
    return out + s.slice(start)
  }
  const chars = runes(s)
  const insertions = limit < 0n || limit > BigInt(chars.length) ? chars.length + 1 : Number(limit)
  charge(stringCost(s.length + insertions * to.length))
  // `to` before each of the first `insertions` runes, and after the last one when all are taken.
  if (chars.length === 0) return to
  if (insertions > chars.length) return to + chars.join(to) + to
  return to + chars.slice(0, insertions).join(to) + chars.slice(insertions).join('')
}

/** How many of the first `limit` (all when negative) non-overlapping matches of `from` `s` holds. */
function occurrences(s: string, from: string, limit: bigint): number {
  let count = 0
  for (let at = s.indexOf(from); at >= 0 && (limit < 0n || count < limit); at = s.indexOf(from, at + from.length)) count++
  return count
}

/** `list.join(separator)` of cel-js (a list of strings only), with its result charged before it is built. */
function joinWith(list: readonly unknown[] | ReadonlySet<unknown>, separator: string): string {
  const items = Array.isArray(list) ? (list as readonly unknown[]) : [...list]
  let length = separator.length * Math.max(0, items.length - 1)
  for (const item of items) {
    if (typeof item !== 'string') throw new EvaluationError('string.join(separator): list must contain only strings')
    length += item.length
  }
  charge((items.length >>> 2) + stringCost(length))
  return items.join(separator)
}

/** cel-js's `split`: JavaScript's, by UTF-16 unit for '', and at most `limit` parts (all when negative), the last holding the rest. */
function split(s: string, separator: string, limit: bigint): string[] {
  if (limit === 0n) return []
  const parts = separator === '' ? s.length : occurrences(s, separator, -1n) + 1
  charge(stringCost(s.length) + (parts >>> 2))
  const all = s.split(separator)
  if (limit < 0n || BigInt(all.length) <= limit) return all
  const kept = all.slice(0, Number(limit) - 1)
  kept.push(all.slice(Number(limit) - 1).join(separator))
  return kept
}

const QUOTE_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
}

/** strings.quote: double-quoted with CEL escapes; unpaired surrogates (invalid UTF-8) become U+FFFD. */
function quote(s: string): string {
  let out = '"'
  for (const c of runes(s)) {
    const code = c.charCodeAt(0)
    if (c.length === 1 && code >= 0xd800 && code <= 0xdfff) out += '\uFFFD'
    else out += QUOTE_ESCAPES[c] ?? c
  }
  return `${out}"`
}
