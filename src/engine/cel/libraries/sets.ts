import type { Environment } from '@marcbachmann/cel-js'
import { charge } from '../cost-budget.js'
import { celEquals } from '../equality.js'
import { registerNamespace } from '../namespaces.js'

/**
 * The cel-go ext sets functions Kubernetes enables (1.29+), on lists with CEL equality:
 * `sets.contains(a, b)` (every element of b is in a), `sets.equivalent(a, b)` (same elements,
 * ignoring order and repeats), `sets.intersects(a, b)` (at least one common element).
 */
export function registerSetsLibrary(env: Environment): void {
  const sync = { async: false }
  const sets = registerNamespace(env, 'sets')
  env.registerFunction(`${sets}.contains(list, list): bool`, (_ns: unknown, a: Iterable<unknown>, b: Iterable<unknown>) => containsAll(a, b), sync)
  env.registerFunction(
    `${sets}.equivalent(list, list): bool`,
    (_ns: unknown, a: Iterable<unknown>, b: Iterable<unknown>) => containsAll(a, b) && containsAll(b, a),
    sync,
  )
  env.registerFunction(`${sets}.intersects(list, list): bool`, (_ns: unknown, a: Iterable<unknown>, b: Iterable<unknown>) => intersects(a, b), sync)
}

function includes(list: readonly unknown[], item: unknown): boolean {
  charge(list.length)
  for (const candidate of list) if (celEquals(candidate, item)) return true
  return false
}

function containsAll(a: Iterable<unknown>, b: Iterable<unknown>): boolean {
  const haystack = [...a]
  for (const item of b) if (!includes(haystack, item)) return false
  return true
}

function intersects(a: Iterable<unknown>, b: Iterable<unknown>): boolean {
  const haystack = [...a]
  for (const item of b) if (includes(haystack, item)) return true
  return false
}
