import { RE2JS } from 're2js'
import { trimSpaceGo } from '../text.js'

/**
 * Where Kyverno finds `{{ }}` variables and `$( )` references in a string: its regular
 * expressions (pkg/engine/variables/regex), run on RE2 as Kyverno runs them on Go's regexp.
 *
 * A variable is `{{...}}` whose body holds no braces except one-level `{...}` groups (so the
 * innermost of nested `{{ a.{{b}} }}` is found first), at the start of the string or after any
 * character but a backslash: `\{{` is an escape. The preceding character is part of the match,
 * which is why `{{a}}{{b}}` yields only `{{a}}` on a first scan; Kyverno rescans after each pass.
 */

const VARIABLES = RE2JS.compile('(^|[^\\\\])(\\{\\{(?:\\{[^{}]*\\}|[^{}])*\\}\\})')
const VARIABLE_AT_START = RE2JS.compile('^\\{\\{(\\{[^{}]*\\}|[^{}])*\\}\\}')
const REFERENCES = RE2JS.compile('^\\$\\(.[^\\ ]*\\)|[^\\\\]\\$\\(.[^\\ ]*\\)')
const ESCAPED_REFERENCES = RE2JS.compile('\\\\\\$\\(.[^\\ \\)]*\\)')

/** Go's Regexp.FindAllString for patterns that cannot match the empty string. */
function findAll(pattern: RE2JS, text: string): string[] {
  const found: string[] = []
  const matcher = pattern.matcher(text)
  let position = 0
  while (position <= text.length && matcher.find(position)) {
    found.push(text.slice(matcher.start(), matcher.end()))
    position = matcher.end()
  }
  return found
}

/**
 * Policies substitute the same strings for every request, so the scans of strings up to this
 * length are kept (insertion-order eviction; a string evicted is merely scanned again).
 */
const CACHED_TEXT_LENGTH = 1_024
const CACHE_LIMIT = 4_096
const variableScans = new Map<string, readonly string[]>()

/** The variable matches of a string, each with its preceding character when it has one. */
export function findVariables(text: string): readonly string[] {
  if (!text.includes('{{')) return []
  const cached = variableScans.get(text)
  if (cached) return cached
  const found = findAll(VARIABLES, text)
  if (text.length <= CACHED_TEXT_LENGTH) {
    if (variableScans.size >= CACHE_LIMIT) variableScans.delete(variableScans.keys().next().value as string)
    variableScans.set(text, found)
  }
  return found
}

const startScans = new Map<string, boolean>()

export function startsWithVariable(match: string): boolean {
  const cached = startScans.get(match)
  if (cached !== undefined) return cached
  const starts = VARIABLE_AT_START.matcher(match).lookingAt()
  if (match.length <= CACHED_TEXT_LENGTH) {
    if (startScans.size >= CACHE_LIMIT) startScans.delete(startScans.keys().next().value as string)
    startScans.set(match, starts)
  }
  return starts
}

export function findReferences(text: string): string[] {
  return text.includes('$(') ? findAll(REFERENCES, text) : []
}

export function findEscapedReferences(text: string): string[] {
  return text.includes('\\$(') ? findAll(ESCAPED_REFERENCES, text) : []
}

/** The character before a match that does not start the string (a whole code point). */
export function leadingCharacter(match: string): string {
  return String.fromCodePoint(match.codePointAt(0) as number)
}

/**
 * Kyverno's replaceBracesAndTrimSpaces: the expression inside `{{ }}`, and whether it asks for a
 * shallow substitution (`{{- expr }}`, whose result is not scanned for further variables).
 */
const parsedVariables = new Map<string, { expression: string; shallow: boolean }>()

export function variableExpression(variable: string): { expression: string; shallow: boolean } {
  let parsed = parsedVariables.get(variable)
  if (parsed === undefined) {
    parsed = parseVariable(variable)
    if (variable.length <= CACHED_TEXT_LENGTH) {
      if (parsedVariables.size >= CACHE_LIMIT) parsedVariables.delete(parsedVariables.keys().next().value as string)
      parsedVariables.set(variable, parsed)
    }
  }
  return parsed
}

function parseVariable(variable: string): { expression: string; shallow: boolean } {
  const expression = trimSpaceGo(variable.split('{{').join('').split('}}').join(''))
  if (expression.startsWith('-')) return { expression: trimSpaceGo(expression.slice(1)), shallow: true }
  return { expression, shallow: false }
}

const wholeVariables = new Map<string, string | null>()

/**
 * The expression of a string that is exactly one variable (`{{ request.object.spec }}`), which
 * substitutes to the expression's value itself; undefined for anything else, including `{{@}}`
 * (it depends on where the string is) and strings holding `$(` (references resolve first).
 */
export function wholeVariableOf(text: string): string | undefined {
  const cached = wholeVariables.get(text)
  if (cached !== undefined) return cached ?? undefined
  const found = findVariables(text)
  const whole = found.length === 1 && found[0] === text && !text.includes('$(') && startsWithVariable(text) ? variableExpression(text).expression : '@'
  const expression = whole === '@' ? null : whole
  if (text.length <= CACHED_TEXT_LENGTH) {
    if (wholeVariables.size >= CACHE_LIMIT) wholeVariables.delete(wholeVariables.keys().next().value as string)
    wholeVariables.set(text, expression)
  }
  return expression ?? undefined
}
