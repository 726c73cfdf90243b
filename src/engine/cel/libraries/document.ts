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
  let level: Placed[] = [{ node: doc, at: '' }]
  let visited = 1
  for (let depth = 0; depth < MAX_HOLDER_DEPTH && level.length > 0; depth += 1) {
    const groups = level.flatMap((placed) => groupsUnder(placed, depth > 0))
    const seen = groups.reduce((sum, group) => sum + group.members.length, 0)
    charge(seen + groups.length)
    visited += seen
    if (visited > MAX_HOLDER_NODES) return [doc]
    // Where one group holds a key, every group at the same place does: the rules of every group in groups[].rules[].
    const places = new Set(groups.filter((group) => group.members.some((member) => hasAnyKey(member, keys))).map((group) => group.at))
    if (places.size > 0) return groups.filter((group) => places.has(group.at)).flatMap((group) => group.members)
    level = groups.flatMap((group) => group.members.map((node) => ({ node, at: group.at })))
  }
  return [doc]
}

/** A map and where it sits, by key names with list positions left out (`groups[].rules[]`). */
interface Placed {
  node: Node
  at: string
}

interface Group {
  members: Node[]
  at: string
}

/**
 * The collections under a map: each list of maps, each nested map on its own, and, below the
 * top, the map's own values when they are alike (a map of jobs keyed by name: members sharing a
 * key), so one member without the key is judged with its siblings.
 */
function groupsUnder({ node, at }: Placed, keyedCollection: boolean): Group[] {
  const entries = entriesOf(node)
  const maps = entries.map(([, value]) => value).filter(isNode)
  if (keyedCollection && maps.length >= 2 && maps.length === entries.length && shareAKey(maps)) return [{ members: maps, at: `${at}.*` }]
  const groups: Group[] = []
  for (const [key, value] of entries) {
    if (Array.isArray(value)) groups.push({ members: value.filter(isNode), at: `${at}.${key}[]` })
    else if (isNode(value)) groups.push({ members: [value], at: `${at}.${key}` })
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

function entriesOf(node: Node): Array<[string, unknown]> {
  return node instanceof Map ? [...node.entries()].map(([key, value]): [string, unknown] => [String(key), value]) : Object.entries(node)
}

function hasAnyKey(node: Node, keys: readonly string[]): boolean {
  return node instanceof Map ? keys.some((key) => node.has(key)) : keys.some((key) => Object.hasOwn(node, key))
}

/** A CEL map: a Map, or a plain object (documents are converted to plain objects; see toCelValue). */
function isNode(value: unknown): value is Node {
  if (value instanceof Map) return true
  if (typeof value !== 'object' || value === null) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}
