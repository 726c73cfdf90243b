import type { Environment } from '@marcbachmann/cel-js'
import { charge } from '../cost-budget.js'
import { registerNamespace } from '../namespaces.js'

/**
 * `document.holders(doc, keys)`: the maps of a generic document that hold the fields a rule is
 * about, for rules written without a path ("every route's path must start with /api/", said
 * of a document whose routes are in `routes[]`).
 *
 * - `doc` itself when it has one of `keys`: a key at the top wins.
 * - Otherwise the shallowest collections that have one of the keys in some member, and every
 *   member of those collections: a list's map elements, a map's map values (a workflow's `jobs`
 *   keyed by name), or a nested map on its own (`upstream.retries`). A member that lacks the key
 *   is still returned, so "every route needs a rate limit" fails the route without one.
 * - `[doc]` when no map has any of the keys: the rule then judges the value as missing there,
 *   never passes for want of a place to look.
 *
 * The walk is breadth-first, at most MAX_HOLDER_DEPTH levels and MAX_HOLDER_NODES maps, charged
 * to the evaluation's cost budget: documents are hostile.
 */

export const MAX_HOLDER_DEPTH = 6
export const MAX_HOLDER_NODES = 20_000

type Node = Record<string, unknown> | Map<unknown, unknown>

export function registerDocumentLibrary(env: Environment): void {
  const document = registerNamespace(env, 'document')
  env.registerFunction(`${document}.holders(dyn, list): list`, (_ns: unknown, doc: unknown, keys: unknown[]) => holders(doc, keys.filter((key): key is string => typeof key === 'string')), { async: false })
}

export function holders(doc: unknown, keys: readonly string[]): unknown[] {
  if (!isNode(doc) || hasAnyKey(doc, keys)) return [doc]
  let level: Node[] = [doc]
  let visited = 1
  for (let depth = 0; depth < MAX_HOLDER_DEPTH && level.length > 0; depth += 1) {
    const found: Node[] = []
    const next: Node[] = []
    for (const node of level) {
      for (const group of groupsUnder(node, depth > 0)) {
        visited += group.length
        charge(group.length + 1)
        if (visited > MAX_HOLDER_NODES) return [doc]
        if (group.some((member) => hasAnyKey(member, keys))) found.push(...group)
        else next.push(...group)
      }
    }
    if (found.length > 0) return found
    level = next
  }
  return [doc]
}

/**
 * The collections under a map: each list of maps, each nested map on its own, and, below the
 * top, the map's own values when they are alike (a map of jobs keyed by name: members sharing a
 * key), so one member without the key is judged with its siblings.
 */
function groupsUnder(node: Node, keyedCollection: boolean): Node[][] {
  const values = valuesOf(node)
  const maps = values.filter(isNode)
  if (keyedCollection && maps.length >= 2 && maps.length === values.length && shareAKey(maps)) {
    return [maps]
  }
  const groups: Node[][] = []
  for (const value of values) {
    if (Array.isArray(value)) groups.push(value.filter(isNode))
    else if (isNode(value)) groups.push([value])
  }
  return groups
}

function shareAKey(maps: readonly Node[]): boolean {
  const [first, ...rest] = maps
  if (!first) return false
  return keysOf(first).some((key) => rest.every((map) => hasAnyKey(map, [key])))
}

function keysOf(node: Node): string[] {
  return node instanceof Map ? [...node.keys()].filter((key): key is string => typeof key === 'string') : Object.keys(node)
}

function valuesOf(node: Node): unknown[] {
  return node instanceof Map ? [...node.values()] : Object.values(node)
}

function hasAnyKey(node: Node, keys: readonly string[]): boolean {
  return node instanceof Map ? keys.some((key) => node.has(key)) : keys.some((key) => Object.hasOwn(node, key))
}

function isNode(value: unknown): value is Node {
  return value instanceof Map || (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype) || (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === null)
}
