import { celString } from '../catalog/pod-rule.js'
import type { Scalar } from './requirement.js'

export { celString }

export function celScalar(value: Scalar): string {
  if (typeof value === 'string') return celString(value)
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  return String(value)
}

export function celList(values: readonly Scalar[]): string {
  return `[${values.map(celScalar).join(', ')}]`
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
/** CEL reserved words cannot follow `.?`; they are reached with `[?'...']`. */
const RESERVED = new Set(['in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while', 'true', 'false', 'null'])

/** `base` followed by optional field selections: an optional value, absent when any step is missing. */
export function optionalPath(base: string, segments: readonly string[]): string {
  if (segments.length === 0) return `optional.of(${base})`
  return (
    base +
    segments
      .map((segment) => (IDENTIFIER.test(segment) && !RESERVED.has(segment) ? `.?${segment}` : `[?${celString(segment)}]`))
      .join('')
  )
}

/** Whether an optional holds a value that counts as given: not null, not an empty string, list or map. */
export function presentTest(optional: string): string {
  return `(${optional}.orValue(null) != null && ${optional}.orValue(null) != '' && ${optional}.orValue(null) != [] && ${optional}.orValue(null) != {})`
}
