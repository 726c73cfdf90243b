import { TYPE_ARRAY, TYPE_ARRAY_NUMBER, TYPE_ARRAY_STRING, TYPE_OBJECT, TYPE_STRING } from '@jmespath-community/jmespath'
import { charge, checkStringLength } from '../budget.js'
import { jsonEqual } from '../equality.js'
import { marshalGoJson } from '../go-json.js'
import { setOwn, type JsonObject, type JsonValue } from '../json.js'
import { compareCodePoints, runes } from '../text.js'
import { ANY, STRING, type JmespathFunction } from './function.js'

/**
 * Standard JMESPath functions where the library's behaviour differs from go-jmespath's, or where
 * its implementation cannot be bounded:
 *
 * - to_string writes Go's JSON (sorted keys, HTML-safe escapes); the library writes JavaScript's.
 * - to_number parses as Go's strconv.ParseFloat (no hex, no surrounding spaces, no Infinity);
 *   JavaScript's Number() accepts all three.
 * - contains compares elements by value; the library compares arrays and objects by identity.
 *   A string searched for a non-string is false, not null.
 * - sort orders numbers numerically and strings by code point; the library sorts numbers as text.
 * - max and min compare strings by code point, not by locale, and never spread a long array
 *   into a call (which overflows the stack).
 * - merge, join and reverse are rewritten to be safe on `__proto__` keys, to refuse a result over
 *   the size limit before building it, and to avoid spreading a long string into a call.
 *
 * Functions the library adds beyond the JMESPath Kyverno uses (find_first, zip, lower, ...) are
 * removed, so an expression using them fails as it does in Kyverno.
 */

export const REMOVED_LIBRARY_FUNCTIONS: readonly string[] = [
  'find_first',
  'find_last',
  'from_items',
  'group_by',
  'lower',
  'upper',
  'pad_left',
  'pad_right',
  'trim_left',
  'trim_right',
  'zip',
]

const DECIMAL_FLOAT = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/

/** Go's strconv.ParseFloat as go-jmespath's to_number uses it: null when it fails. */
export function parseGoFloat(text: string): number | null {
  if (!DECIMAL_FLOAT.test(text)) return null
  const value = Number(text)
  return Number.isFinite(value) ? value : null
}

const SORTABLE = { types: [TYPE_ARRAY_NUMBER, TYPE_ARRAY_STRING] }

function compareSortable(a: JsonValue, b: JsonValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0
  return compareCodePoints(a as string, b as string)
}

function extreme(values: readonly JsonValue[], wantLarger: boolean): JsonValue {
  let best: JsonValue = null
  for (const value of values) {
    if (best === null || (wantLarger ? compareSortable(value, best) > 0 : compareSortable(value, best) < 0)) best = value
  }
  return best
}

export const BUILTIN_OVERRIDES: readonly JmespathFunction[] = [
  {
    name: 'to_string',
    signature: [ANY],
    call: ([value]) => (typeof value === 'string' ? value : marshalGoJson(value as JsonValue)),
  },
  {
    name: 'to_number',
    signature: [ANY],
    call: ([value]) => (typeof value === 'number' ? value : typeof value === 'string' ? parseGoFloat(value) : null),
  },
  {
    name: 'contains',
    signature: [{ types: [TYPE_STRING, TYPE_ARRAY] }, ANY],
    call: ([subject, search]) => {
      if (typeof subject === 'string') return typeof search === 'string' && subject.includes(search)
      return (subject as JsonValue[]).some((item) => jsonEqual(item, search as JsonValue))
    },
  },
  {
    name: 'sort',
    signature: [SORTABLE],
    call: ([values]) => {
      const items = values as JsonValue[]
      charge(items.length * Math.max(1, Math.ceil(Math.log2(items.length + 1))))
      return [...items].sort(compareSortable)
    },
  },
  { name: 'max', signature: [SORTABLE], call: ([values]) => extreme(values as JsonValue[], true) },
  { name: 'min', signature: [SORTABLE], call: ([values]) => extreme(values as JsonValue[], false) },
  {
    name: 'merge',
    signature: [{ types: [TYPE_OBJECT], variadic: true }],
    call: (objects) => {
      const merged: JsonObject = {}
      for (const object of objects) {
        for (const key of Object.keys(object as JsonObject)) setOwn(merged, key, (object as JsonObject)[key] as JsonValue)
      }
      return merged
    },
  },
  {
    name: 'join',
    signature: [STRING, { types: [TYPE_ARRAY_STRING] }],
    call: ([separator, values]) => {
      const items = values as string[]
      const sep = separator as string
      const length = items.reduce((sum, item) => sum + item.length, 0) + Math.max(0, items.length - 1) * sep.length
      checkStringLength(length, 'join()')
      return items.join(sep)
    },
  },
  {
    name: 'reverse',
    signature: [{ types: [TYPE_STRING, TYPE_ARRAY] }],
    call: ([value]) => (typeof value === 'string' ? runes(value).reverse().join('') : [...(value as JsonValue[])].reverse()),
  },
]
