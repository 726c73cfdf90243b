import { EvaluationError, Optional, type Environment } from '@marcbachmann/cel-js'
import { charge } from '../cost-budget.js'
import { celEquals } from '../equality.js'
import type { MethodOverrides } from '../method-override.js'
import { registerNamespace } from '../namespaces.js'
import { compareCel } from '../ordering.js'
import { isCelDuration, isCelUint, makeCelDuration, makeCelUint, type CelDuration } from '../runtime-types.js'

/**
 * List functions: the Kubernetes list library (`isSorted`, `sum`, `min`, `max`, `indexOf`,
 * `lastIndexOf`, and `includes` from its version 1) and the cel-go ext lists functions Kubernetes
 * 1.34 enables (`distinct`, `flatten`, `reverse`, `slice`, `sort`, `first`, `last`, `lists.range`).
 * cel-js already has `join`, `size` and `+`. Each function charges the list length to the budget.
 */

const MIN_INT64 = -(2n ** 63n)
const MAX_INT64 = 2n ** 63n - 1n

const COMPARABLE = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'google.protobuf.Duration', 'google.protobuf.Timestamp']
const SUMMABLE = ['int', 'uint', 'double', 'google.protobuf.Duration']

type CelList = readonly unknown[] | ReadonlySet<unknown>

export function registerListsLibrary(env: Environment, overrides: MethodOverrides): void {
  const sync = { async: false }
  for (const type of COMPARABLE) {
    env.registerFunction(`list<${type}>.isSorted(): bool`, isSorted, sync)
    env.registerFunction(`list<${type}>.min(): ${type}`, (list: CelList) => extreme(list, 'min'), sync)
    env.registerFunction(`list<${type}>.max(): ${type}`, (list: CelList) => extreme(list, 'max'), sync)
    env.registerFunction(`list<${type}>.sort(): list<${type}>`, sortList, sync)
  }
  for (const type of SUMMABLE) env.registerFunction(`list<${type}>.sum(): ${type}`, sumList, sync)

  // cel-js has string.indexOf / string.lastIndexOf; both forms go through one override (see strings.ts).
  overrides.add('indexOf', { receiver: 'list', args: ['dyn'], result: 'int', impl: listIndexOf })
  overrides.add('lastIndexOf', { receiver: 'list', args: ['dyn'], result: 'int', impl: listLastIndexOf })

  env.registerFunction('list.includes(dyn): bool', (list: CelList, item: unknown) => listIndexOf(list, item) >= 0n, sync)
  env.registerFunction('list<A>.distinct(): list<A>', distinct, sync)
  env.registerFunction('list.flatten(): list', (list: CelList) => flatten(list, 1n), sync)
  env.registerFunction('list.flatten(int): list', flatten, sync)
  env.registerFunction('list<A>.reverse(): list<A>', (list: CelList) => items(list).slice().reverse(), sync)
  env.registerFunction('list<A>.slice(int, int): list<A>', slice, sync)
  env.registerFunction('list<A>.first(): optional<A>', (list: CelList) => optionalAt(list, 0), sync)
  env.registerFunction('list<A>.last(): optional<A>', (list: CelList) => optionalAt(list, -1), sync)
  const lists = registerNamespace(env, 'lists')
  env.registerFunction(`${lists}.range(int): list<int>`, (_ns: unknown, n: bigint) => range(n), sync)
}

/** The elements as an array, charging one unit per element for the walk the caller will do. */
function items(list: CelList): readonly unknown[] {
  const array = Array.isArray(list) ? (list as readonly unknown[]) : [...list]
  charge(1 + array.length)
  return array
}

function isSorted(list: CelList): boolean {
  const array = items(list)
  for (let i = 1; i < array.length; i++) if (compareCel(array[i - 1], array[i]) > 0) return false
  return true
}

function extreme(list: CelList, which: 'min' | 'max'): unknown {
  const array = items(list)
  if (array.length === 0) throw new EvaluationError(`${which} called on empty list`)
  let best = array[0]
  for (let i = 1; i < array.length; i++) {
    const order = compareCel(array[i], best)
    if (which === 'min' ? order < 0 : order > 0) best = array[i]
  }
  return best
}

function sortList(list: CelList): unknown[] {
  const array = items(list).slice()
  charge(array.length * Math.ceil(Math.log2(array.length + 1)))
  return array.sort(compareCel)
}

/** Sum in the elements' own type; an empty list sums to int 0, mixed types are an error (as in cel-go). */
function sumList(list: CelList): unknown {
  const array = items(list)
  const first = array[0]
  if (first === undefined) return 0n
  if (typeof first === 'bigint') {
    let total = 0n
    for (const item of array) total += expect(item, 'int', (v): v is bigint => typeof v === 'bigint')
    if (total < MIN_INT64 || total > MAX_INT64) throw new EvaluationError('integer overflow in sum()')
    return total
  }
  if (typeof first === 'number') {
    let total = 0
    for (const item of array) total += expect(item, 'double', (v): v is number => typeof v === 'number')
    return total
  }
  if (isCelUint(first)) {
    let total = 0n
    for (const item of array) total += expect(item, 'uint', isCelUint).valueOf()
    return makeCelUint(total)
  }
  if (isCelDuration(first)) {
    let total: CelDuration = makeCelDuration(0n, 0)
    for (const item of array) total = total.addDuration(expect(item, 'duration', isCelDuration))
    return total
  }
  throw new EvaluationError('no such overload: sum() needs a list of int, uint, double or duration')
}

function expect<T>(value: unknown, type: string, guard: (v: unknown) => v is T): T {
  if (guard(value)) return value
  throw new EvaluationError(`no such overload: sum() over a list mixing ${type} with other types`)
}

function listIndexOf(list: CelList, item: unknown): bigint {
  const array = items(list)
  for (let i = 0; i < array.length; i++) if (celEquals(array[i], item)) return BigInt(i)
  return -1n
}

function listLastIndexOf(list: CelList, item: unknown): bigint {
  const array = items(list)
  for (let i = array.length - 1; i >= 0; i--) if (celEquals(array[i], item)) return BigInt(i)
  return -1n
}

function distinct(list: CelList): unknown[] {
  const array = items(list)
  const out: unknown[] = []
  const seen = new Set<unknown>()
  for (const item of array) {
    // Primitives dedupe through the set; numbers of different kinds and containers need celEquals.
    if (typeof item === 'string' || typeof item === 'boolean') {
      if (seen.has(item)) continue
      seen.add(item)
      out.push(item)
      continue
    }
    charge(out.length)
    if (!out.some((kept) => celEquals(kept, item))) out.push(item)
  }
  return out
}

function flatten(list: CelList, depth: bigint): unknown[] {
  if (depth < 0n) throw new EvaluationError('flatten(): level must be non-negative')
  const out: unknown[] = []
  const walk = (values: readonly unknown[], level: bigint): void => {
    charge(values.length)
    for (const value of values) {
      if (level > 0n && (Array.isArray(value) || value instanceof Set)) walk([...(value as Iterable<unknown>)], level - 1n)
      else out.push(value)
    }
  }
  walk(items(list), depth)
  return out
}

function slice(list: CelList, start: bigint, end: bigint): unknown[] {
  const array = items(list)
  if (start < 0n || end < 0n) throw new EvaluationError(`cannot slice(${start}, ${end}), negative indexes not supported`)
  if (start > end) throw new EvaluationError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`)
  if (end > BigInt(array.length)) throw new EvaluationError(`cannot slice(${start}, ${end}), list is length ${array.length}`)
  return array.slice(Number(start), Number(end))
}

function optionalAt(list: CelList, index: number): Optional<unknown> {
  const array = items(list)
  return array.length === 0 ? Optional.none() : Optional.of(array.at(index))
}

function range(n: bigint): bigint[] {
  if (n < 0n) return []
  charge(Number(n))
  const out: bigint[] = []
  for (let i = 0n; i < n; i++) out.push(i)
  return out
}
