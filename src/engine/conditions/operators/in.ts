import { matchesGlob } from '../../match/glob.js'
import { goSprint } from '../go-sprint.js'
import { isGoList, type GoValue } from '../go-value.js'
import { decodeJsonStringList } from '../json-string-list.js'
import { ConditionOperandError } from './operand-error.js'

/**
 * Kyverno's deprecated In and NotIn, kept because older policies still use them. They predate
 * AnyIn/AllIn and are looser and stricter in odd places, all kept here:
 * - a scalar key (numbers and booleans as Go prints them) is in a list when it matches an element
 *   as a glob either way round; in a string value when it matches it as a glob, or equals an
 *   element of the JSON list of strings that string holds;
 * - a list key must hold only strings (Kyverno's engine fails otherwise: an error here); it is in
 *   the value when every element is exactly (no globs) an element of a list of strings, or of the
 *   JSON list in a string value; a one-element key equal to a string value counts as in, for In and
 *   NotIn alike;
 * - any other value (a number, a map, a string that is not a JSON list of strings, a list holding
 *   a non-string for a list key) makes both In and NotIn false, as does a null or map key.
 */
export function inHolds(key: GoValue, value: GoValue, negated: boolean): boolean {
  if (isGoList(key)) {
    const keys = key.map((element) => {
      if (typeof element !== 'string') throw new ConditionOperandError(`${negated ? 'NotIn' : 'In'} takes a list key only of strings, not ${goSprint(element)}`)
      return element
    })
    return listKeyHolds(keys, value, negated) ?? false
  }
  if (key === null || typeof key === 'object') return false
  const found = scalarKeyFound(goSprint(key), value)
  if (found === undefined) return false
  return negated ? !found : found
}

/** Whether a scalar key is in the value; undefined when the value is of a kind In cannot read. */
function scalarKeyFound(key: string, value: GoValue): boolean | undefined {
  if (isGoList(value)) {
    return value.some((element) => {
      const text = goSprint(element)
      return matchesGlob(key, text) || matchesGlob(text, key)
    })
  }
  if (typeof value !== 'string') return undefined
  if (matchesGlob(key, value)) return true
  const decoded = decodeJsonStringList(value)
  return decoded.ok ? decoded.items.includes(key) : undefined
}

/** In: every key is in the value; NotIn: some key is not. Undefined for a value In cannot read. */
function listKeyHolds(keys: readonly string[], value: GoValue, negated: boolean): boolean | undefined {
  let candidates: readonly string[]
  if (isGoList(value)) {
    if (!value.every((element) => typeof element === 'string')) return undefined
    candidates = value as readonly string[]
  } else if (typeof value === 'string') {
    if (keys.length === 1 && keys[0] === value) return true
    const decoded = decodeJsonStringList(value)
    if (!decoded.ok) return undefined
    candidates = decoded.items
  } else return undefined
  const present = new Set(candidates)
  const allPresent = keys.every((element) => present.has(element))
  return negated ? !allPresent : allPresent
}
