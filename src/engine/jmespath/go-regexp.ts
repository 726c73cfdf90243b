import { RE2JS, type Matcher } from 're2js'
import { chargeString, checkStringLength } from './budget.js'
import { JmespathError } from './errors.js'
import { runeWidthAt } from './text.js'

/**
 * Go's regexp package over re2js, the linear-time RE2 engine the project uses for every
 * user-supplied pattern (JavaScript's RegExp backtracks and can be made to run for ages).
 * Syntax, leftmost-first matching, ReplaceAll's rule for empty matches and Expand's `$name`
 * templates are Go's.
 */

const CACHE_LIMIT = 500
const cache = new Map<string, RE2JS>()

/** The compiled pattern; an invalid one throws with Go's message ("error parsing regexp: ..."). */
export function compileGoRegexp(pattern: string): RE2JS {
  const cached = cache.get(pattern)
  if (cached) return cached
  chargeString(pattern.length * 16)
  let compiled: RE2JS
  try {
    compiled = RE2JS.compile(pattern)
  } catch (error) {
    throw new JmespathError(error instanceof Error ? error.message : String(error), { cause: error })
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(pattern, compiled)
  return compiled
}

/** Regexp.MatchString: a match anywhere in the input. */
export function matchesGoRegexp(pattern: RE2JS, input: string): boolean {
  chargeString(input.length)
  return pattern.matcher(input).find()
}

/**
 * Regexp.ReplaceAll (with Expand's template) or ReplaceAllLiteral. An empty match right after a
 * previous match is not replaced, and the search always advances by at least one rune.
 */
export function replaceAllGo(source: string, pattern: RE2JS, replacement: string, literal: boolean): string {
  const names = pattern.namedGroups()
  const matcher = pattern.matcher(source)
  const parts: string[] = []
  let length = 0
  const push = (text: string): void => {
    length += text.length
    checkStringLength(length, 'the replaced string')
    parts.push(text)
  }
  let lastMatchEnd = 0
  let searchPos = 0
  while (searchPos <= source.length) {
    if (!matcher.find(searchPos)) break
    const start = matcher.start()
    const end = matcher.end()
    chargeString(end - searchPos)
    push(source.slice(lastMatchEnd, start))
    if (end > lastMatchEnd || start === 0) push(literal ? replacement : expandTemplate(replacement, matcher, names))
    lastMatchEnd = end
    const width = searchPos < source.length ? runeWidthAt(source, searchPos) : 0
    if (searchPos + width > end) searchPos += width
    else if (searchPos + 1 > end) searchPos++
    else searchPos = end
  }
  push(source.slice(lastMatchEnd))
  return parts.join('')
}

const NAME_CHAR = /[\p{L}\p{Nd}_]/u

/** Regexp.Expand: `$1`, `${1}`, `$name`, `${name}`, `$$`; an unknown group expands to nothing. */
function expandTemplate(template: string, matcher: Matcher, names: Record<string, number>): string {
  let out = ''
  let rest = template
  for (;;) {
    const dollar = rest.indexOf('$')
    if (dollar < 0) break
    out += rest.slice(0, dollar)
    rest = rest.slice(dollar + 1)
    if (rest.startsWith('$')) {
      out += '$'
      rest = rest.slice(1)
      continue
    }
    const reference = extractGroupReference(rest)
    if (reference === undefined) {
      out += '$'
      continue
    }
    rest = reference.rest
    const group = reference.number >= 0 ? reference.number : names[reference.name]
    if (group !== undefined && group <= matcher.groupCount()) out += matcher.group(group) ?? ''
  }
  return out + rest
}

interface GroupReference {
  readonly name: string
  readonly number: number
  readonly rest: string
}

function extractGroupReference(text: string): GroupReference | undefined {
  const braced = text.startsWith('{')
  const body = braced ? text.slice(1) : text
  let end = 0
  for (const char of body) {
    if (!NAME_CHAR.test(char)) break
    end += char.length
  }
  if (end === 0) return undefined
  const name = body.slice(0, end)
  let after = end
  if (braced) {
    if (body[end] !== '}') return undefined
    after++
  }
  let number = 0
  for (const char of name) {
    if (char < '0' || char > '9' || number >= 1e8) {
      number = -1
      break
    }
    number = number * 10 + Number(char)
  }
  if (name.length > 1 && name.startsWith('0')) number = -1
  return { name, number, rest: body.slice(after) }
}
