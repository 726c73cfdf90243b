import { charge } from '../budget.js'
import { isAbsoluteGoPath, joinGoPath } from '../go-path.js'
import { isJsonObject, type JsonValue } from '../json.js'
import { childPath, removeAnchorsFromPath } from './document-path.js'
import { SubstitutionError } from './substitution-error.js'
import { findEscapedReferences, findReferences, leadingCharacter } from './variable-syntax.js'

/**
 * Kyverno's `$(path)` references: a string in a pattern may name another value of the same
 * document by a path relative to its own (`$(./../../limits/memory)`) or absolute
 * (`$(/spec/x)`), optionally after a comparison operator (`$(<=./../limits/memory)`). The value
 * is taken from the document as written (before any substitution), comparing paths without
 * anchors, so `/(spec)/x` answers `$(/spec/x)`. `\$(` escapes. Kyverno resolves references in
 * every document it substitutes, before variables.
 */

const OPERATORS = ['>=', '<=', '>', '<', '!']
const IN_RANGE = /^([-|+]?\d+(?:\.\d+)?[A-Za-z]*)-([-|+]?\d+(?:\.\d+)?[A-Za-z]*)$/
const NOT_IN_RANGE = /^([-|+]?\d+(?:\.\d+)?[A-Za-z]*)!-([-|+]?\d+(?:\.\d+)?[A-Za-z]*)$/

/** operator.GetOperatorFromStringPattern. */
function operatorOf(pattern: string): string {
  if (pattern.length < 2) return ''
  for (const operator of OPERATORS) if (pattern.startsWith(operator)) return operator
  if (NOT_IN_RANGE.test(pattern)) return '!-'
  if (IN_RANGE.test(pattern)) return '-'
  return ''
}

/** The value of every path of the document as Kyverno's lookup sees it: leaves, and each map's keys. */
function indexDocument(document: JsonValue): Map<string, JsonValue> {
  const index = new Map<string, JsonValue>()
  const stack: Array<[JsonValue, string]> = [[document, '']]
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [JsonValue, string]
    charge(1)
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i] as JsonValue, childPath(path, i)])
    } else if (isJsonObject(value)) {
      const keys = Object.keys(value)
      const anchorFree = removeAnchorsFromPath(path)
      // A map's path holds its last key (Kyverno's walk visits keys at their parent's path).
      if (keys.length > 0) index.set(anchorFree, keys[keys.length - 1] as string)
      for (let i = keys.length - 1; i >= 0; i--) stack.push([value[keys[i] as string] as JsonValue, childPath(path, keys[i] as string)])
    } else {
      index.set(removeAnchorsFromPath(path), value)
    }
  }
  return index
}

function formatReferenceValue(value: JsonValue | undefined, operator: string): string {
  if (typeof value === 'string') return value
  // Go's %f: six decimals.
  if (typeof value === 'number') return value.toFixed(6)
  throw new Error(`incorrect expression: operator ${operator} does not match with value ${value === undefined || value === null ? '<nil>' : JSON.stringify(value)}`)
}

/** Resolves references in one string of a document (a leaf or a key) at `path`. */
export class ReferenceResolver {
  readonly #document: JsonValue
  #index: Map<string, JsonValue> | undefined

  constructor(document: JsonValue) {
    this.#document = document
  }

  resolve(text: string, path: string): string {
    let value = text
    for (const match of findReferences(text)) {
      const initial = match.startsWith('$(')
      const reference = initial ? match : match.slice(leadingCharacter(match).length)
      const resolved = this.#lookup(reference, path)
      if (resolved === undefined || resolved === null) {
        throw new SubstitutionError(`got nil resolved variable ${reference} at path ${path}: <nil>`, { path })
      }
      if (typeof resolved !== 'string') {
        throw new SubstitutionError(`NotResolvedReferenceErr,reference ${reference} not resolved at path ${path}`, { path })
      }
      value = replaceFirst(value, match, (initial ? '' : leadingCharacter(match)) + resolved)
    }
    for (const escaped of findEscapedReferences(value)) value = value.split(escaped).join(escaped.slice(1))
    return value
  }

  #lookup(reference: string, path: string): JsonValue | undefined {
    let target = reference.replace(/^[$()]+/, '').replace(/[$()]+$/, '')
    const operator = operatorOf(target)
    target = target.slice(operator.length)
    if (target === '') throw new SubstitutionError(`failed to resolve ${reference} at path ${path}: expected path, found empty reference`, { path })
    const absolute = isAbsoluteGoPath(target) ? target : joinGoPath(path, target)
    this.#index ??= indexDocument(this.#document)
    const found = this.#index.get(absolute)
    if (operator === '') return found
    try {
      return operator + formatReferenceValue(found, operator)
    } catch (error) {
      throw new SubstitutionError(`failed to resolve ${reference} at path ${path}: ${(error as Error).message}`, { path, cause: error })
    }
  }
}

/** strings.Replace(text, old, replacement, 1), without JavaScript's `$` patterns. */
export function replaceFirst(text: string, old: string, replacement: string): string {
  const at = text.indexOf(old)
  return at < 0 ? text : text.slice(0, at) + replacement + text.slice(at + old.length)
}
