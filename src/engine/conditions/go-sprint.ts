import { compareStrings } from '../cel/ordering.js'
import { formatGoFloatV } from '../pattern/go-number.js'
import { isGoList, type GoValue } from './go-value.js'

/**
 * Go's `fmt.Sprint` of a decoded JSON value. Kyverno's set operators turn every key and value
 * element into text this way before comparing, so the spelling decides what matches: `true`,
 * `1.5`, `1e+06` for a float64 of a million, `[a b]` for a list, `map[k:v]` for a map.
 */
export function goSprint(value: GoValue): string {
  if (value === null) return '<nil>'
  switch (typeof value) {
    case 'string':
      return value
    case 'boolean':
    case 'bigint':
      return String(value)
    case 'number':
      return formatGoFloat(value)
  }
  if (isGoList(value)) return `[${value.map(goSprint).join(' ')}]`
  // fmt prints map entries in key order, and Go orders strings by their UTF-8 bytes.
  const keys = Object.keys(value).sort(compareStrings)
  return `map[${keys.map((key) => `${key}:${goSprint(value[key] ?? null)}`).join(' ')}]`
}

/** A float64 as `%v` prints it (`1e+06`, `0.0001`): the pattern engine's reading of Go's fmt, shared. */
export const formatGoFloat = formatGoFloatV
