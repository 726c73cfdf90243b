import { matchesGlob } from '../../match/glob.js'
import { goSprint } from '../go-sprint.js'
import { isGoList, type GoValue } from '../go-value.js'
import { decodeJsonStringList } from '../json-string-list.js'
import { isRangePattern, matchesStringPattern } from '../string-pattern.js'

export type SetOperator = 'AnyIn' | 'AllIn' | 'AnyNotIn' | 'AllNotIn'

/**
 * Kyverno's AnyIn, AllIn, AnyNotIn and AllNotIn. Key and value may each be one item or a list;
 * every item is compared as text (numbers and booleans as Go prints them: `1.5`, `true`, and a
 * float of a million as `1e+06`), and two items match when either is a glob matching the other.
 *
 * A scalar key is "in" a list value when it matches an element; in a string value when it matches
 * it, or falls in the range it writes (`1-10`, `0.5Gi-2Gi`: inclusive, by quantity or duration), or
 * equals an element of the JSON list of strings it holds. For a scalar key Any and All agree.
 *
 * A list key: AnyIn holds when some element is in the value, AllIn when every one is, AnyNotIn when
 * some is not, AllNotIn when none is (so an empty key is in nothing and AllIn/AllNotIn hold). The
 * value may be a list, a string (one item, a range, or a JSON list of strings; a one-element key
 * equal to it is simply in) or, for AnyIn/AnyNotIn only, a number or boolean.
 *
 * Every other combination (null or map key; map, null or, for a scalar key, number or boolean
 * value; a string that is JSON but not a list of strings) is false for all four operators, the
 * NotIn ones included: Kyverno treats them as unreadable rather than as "not in".
 */
export function setOperatorHolds(operator: SetOperator, key: GoValue, value: GoValue): boolean {
  if (isGoList(value)) return holdsOverItems(operator, key, new ItemSet(value))
  const negated = operator === 'AnyNotIn' || operator === 'AllNotIn'
  if (isGoList(key)) {
    const keys = key.map(goSprint)
    const outcome = operator === 'AnyIn' || operator === 'AnyNotIn' ? anyOfList(keys, value, negated) : allOfList(keys, value, negated)
    return outcome ?? false
  }
  if (key === null || typeof key === 'object') return false
  const found = scalarFound(goSprint(key), value)
  if (found === undefined) return false
  return negated ? !found : found
}

/** The operator against a value written in the definition: a list's items are read once, not per request. */
export function setOperatorWithValue(operator: SetOperator, value: GoValue): (key: GoValue) => boolean {
  if (!isGoList(value)) return (key) => setOperatorHolds(operator, key, value)
  const items = new ItemSet(value)
  return (key) => holdsOverItems(operator, key, items)
}

/** A list value: a key item is in it when it matches one of its items. */
function holdsOverItems(operator: SetOperator, key: GoValue, items: ItemSet): boolean {
  const negated = operator === 'AnyNotIn' || operator === 'AllNotIn'
  if (isGoList(key)) {
    // AnyIn: some key item in; AnyNotIn: some not in; AllIn: every one in; AllNotIn: none in.
    const any = operator === 'AnyIn' || operator === 'AnyNotIn'
    const sought = any ? !negated : negated
    for (const element of key) if (items.has(goSprint(element)) === sought) return any
    return !any
  }
  if (key === null || typeof key === 'object') return false
  const found = items.has(goSprint(key))
  return negated ? !found : found
}

/**
 * A list's items as text (numbers and booleans as Go prints them), for asking whether a key item
 * is in it. Two items match when either is a glob matching the other (equal text matches either
 * way), so exact texts are looked up and only globs are scanned.
 */
class ItemSet {
  readonly #texts: ReadonlySet<string>
  readonly #globs: readonly string[]
  readonly #all: readonly string[]

  constructor(list: readonly GoValue[]) {
    this.#all = list.map(goSprint)
    this.#texts = new Set(this.#all)
    this.#globs = this.#all.filter(holdsGlob)
  }

  has(text: string): boolean {
    if (this.#texts.has(text)) return true
    for (const glob of this.#globs) if (matchesGlob(text, glob)) return true
    if (!holdsGlob(text)) return false
    for (const candidate of this.#all) if (matchesGlob(candidate, text)) return true
    return false
  }
}

function holdsGlob(text: string): boolean {
  return text.includes('*') || text.includes('?')
}

/** Whether one key item is in a value that is not a list; undefined when the value cannot be read. */
function scalarFound(key: string, value: GoValue): boolean | undefined {
  if (typeof value !== 'string') return undefined
  if (matchesGlob(key, value)) return true
  if (isRangePattern(value)) return matchesStringPattern(key, value)
  const items = stringValueItems(value)
  return items === undefined ? undefined : items.includes(key)
}

/** AnyIn (some key item in the value) or AnyNotIn (some key item not in it), for a value that is not a list. */
function anyOfList(keys: readonly string[], value: GoValue, negated: boolean): boolean | undefined {
  let candidates: readonly string[]
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') candidates = [goSprint(value)]
  else if (typeof value === 'string') {
    if (keys.length === 1 && keys[0] === value) return !negated
    if (isRangePattern(value)) {
      // Kyverno asks "outside the range" by rewriting its first `-` into the `!-` of an exclusion.
      return negated ? keys.some((item) => matchesStringPattern(item, value.replace('-', '!-'))) : keys.some((item) => matchesStringPattern(item, value))
    }
    const items = stringValueItems(value)
    if (items === undefined) return undefined
    candidates = items
  } else return undefined
  const items = new ItemSet(candidates)
  return negated ? keys.some((key) => !items.has(key)) : keys.some((key) => items.has(key))
}

/** AllIn (every key item in the value) or AllNotIn (no key item in it), for a value that is not a list. */
function allOfList(keys: readonly string[], value: GoValue, negated: boolean): boolean | undefined {
  let candidates: readonly string[]
  if (typeof value === 'string') {
    if (keys.length === 1 && keys[0] === value) return !negated
    if (isRangePattern(value)) {
      return negated ? !keys.some((item) => matchesStringPattern(item, value)) : keys.every((item) => matchesStringPattern(item, value))
    }
    const items = stringValueItems(value)
    if (items === undefined) return undefined
    candidates = items
  } else return undefined
  const items = new ItemSet(candidates)
  return negated ? !keys.some((key) => items.has(key)) : keys.every((key) => items.has(key))
}

/** A string value's items: its JSON list of strings when it is JSON, else itself; undefined for other JSON. */
function stringValueItems(value: string): readonly string[] | undefined {
  const decoded = decodeJsonStringList(value)
  if (decoded.ok) return decoded.items
  return decoded.json ? undefined : [value]
}
