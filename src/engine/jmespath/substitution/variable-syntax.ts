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

/** The variable matches of a string, each with its preceding character when it has one. */
export function findVariables(text: string): string[] {
  return text.includes('{{') ? findAll(VARIABLES, text) : []
}

export function startsWithVariable(match: string): boolean {
  return VARIABLE_AT_START.matcher(match).lookingAt()
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
export function variableExpression(variable: string): { expression: string; shallow: boolean } {
  const expression = trimSpaceGo(variable.split('{{').join('').split('}}').join(''))
  if (expression.startsWith('-')) return { expression: trimSpaceGo(expression.slice(1)), shallow: true }
  return { expression, shallow: false }
}
