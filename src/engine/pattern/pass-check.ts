import { decodedNumber } from '../cel/values.js'
import type { ArrayNode, LeafNode, MapEntry, MapNode, PatternNode } from './compile-pattern.js'
import { matchesScalar, type ScalarPattern } from './scalar-pattern.js'

/**
 * Whether a resource certainly matches a pattern: true only when match-pattern.ts would find no
 * failure and no skip anywhere, so its answer is a pass; false when anything did not hold, which
 * leaves the full matcher to say what (a failure, a skip, an error, or a pass after all, as when
 * some items of a list were skipped). Most resources pass, and a pass needs none of the paths,
 * messages and anchor bookkeeping the full matcher keeps for reporting, so this is built once per
 * pattern as closures. `ints` is MatchOptions.wholeNumbers === 'int64'.
 */
export type PassCheck = (resource: unknown, ints: boolean) => boolean

/** The map a metadata map becomes for one resource (expandedMapNode): passed in, as it compiles patterns itself. */
export type ExpandMap = (node: MapNode, resource: Readonly<Record<string, unknown>>) => MapNode

export function passCheckOf(node: PatternNode, expand: ExpandMap): PassCheck {
  switch (node.kind) {
    case 'map':
      return node.metadata ? expandingMapCheck(node, expand) : mapCheck(node, expand)
    case 'array':
      return arrayCheck(node, expand)
    case 'leaf':
      return leafCheck(node)
  }
}

function isMap(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Anchors first, then the rest, as the full matcher goes; every entry must hold. */
function mapCheck(node: MapNode, expand: ExpandMap): PassCheck {
  const entries = [...node.anchors, ...node.rest].map((entry) => entryCheck(entry, expand))
  const count = entries.length
  return (resource, ints) => {
    if (!isMap(resource)) return false
    for (let i = 0; i < count; i++) if (!(entries[i] as EntryCheck)(resource, ints)) return false
    return true
  }
}

/** A map with wildcard label or annotation keys: the check of the map as expanded for the resource, built once per expansion. */
function expandingMapCheck(node: MapNode, expand: ExpandMap): PassCheck {
  const checks = new WeakMap<MapNode, PassCheck>()
  const own = mapCheck(node, expand)
  return (resource, ints) => {
    if (!isMap(resource)) return false
    const expanded = expand(node, resource)
    if (expanded === node) return own(resource, ints)
    let check = checks.get(expanded)
    if (check === undefined) {
      check = passCheckOf(expanded, expand)
      checks.set(expanded, check)
    }
    return check(resource, ints)
  }
}

type EntryCheck = (resource: Readonly<Record<string, unknown>>, ints: boolean) => boolean

/** One key of a map, as match-pattern.ts handleEntry reads it, holding only when it reports nothing. */
function entryCheck(entry: MapEntry, expand: ExpandMap): EntryCheck {
  const field = entry.field
  const child = passCheckOf(entry.node, expand)
  // JSON holds no undefined, so a defined value is present unless the name is one every object inherits.
  const valueOf = entry.inheritedName
    ? (resource: Readonly<Record<string, unknown>>) => (Object.hasOwn(resource, field) ? resource[field] : undefined)
    : (resource: Readonly<Record<string, unknown>>) => resource[field]
  switch (entry.kind) {
    case 'condition':
      return (resource, ints) => {
        const value = valueOf(resource)
        return value !== undefined && child(value, ints)
      }
    case 'global':
    case 'equality':
      return (resource, ints) => {
        const value = valueOf(resource)
        return value === undefined || child(value, ints)
      }
    case 'negation':
      return (resource) => valueOf(resource) === undefined
    case 'existence': {
      const patterns = (entry.node.kind === 'array' ? entry.node.items : [entry.node]).map((pattern) => passCheckOf(pattern, expand))
      return (resource, ints) => {
        const value = valueOf(resource)
        if (value === undefined) return true
        if (!Array.isArray(value)) return false
        return patterns.every((pattern) => value.some((item) => pattern(item, ints)))
      }
    }
    default:
      if (entry.star) return (resource) => {
        const value = valueOf(resource)
        return value !== undefined && value !== null
      }
      return (resource, ints) => child(valueOf(resource), ints)
  }
}

/** A list pattern: its first map or scalar against every item, or lists of lists item by item. */
function arrayCheck(node: ArrayNode, expand: ExpandMap): PassCheck {
  const first = node.items[0]
  if (first === undefined) return () => false
  if (first.kind === 'leaf') {
    const scalar = first.scalar
    return (resource, ints) => Array.isArray(resource) && everyScalarHolds(resource, scalar, ints)
  }
  if (first.kind === 'map') {
    const item = passCheckOf(first, expand)
    return (resource, ints) => {
      if (!Array.isArray(resource)) return false
      for (let i = 0; i < resource.length; i++) if (!item(resource[i], ints)) return false
      return true
    }
  }
  const items = node.items.map((pattern) => passCheckOf(pattern, expand))
  return (resource, ints) => Array.isArray(resource) && resource.length >= items.length && items.every((item, index) => item(resource[index], ints))
}

/** A scalar pattern; against a list it holds for every item. */
function leafCheck(node: LeafNode): PassCheck {
  const scalar = node.scalar
  return (resource, ints) => (Array.isArray(resource) ? everyScalarHolds(resource, scalar, ints) : scalarHolds(resource, scalar, ints))
}

export function everyScalarHolds(items: readonly unknown[], scalar: ScalarPattern, ints: boolean): boolean {
  for (let i = 0; i < items.length; i++) if (!scalarHolds(items[i], scalar, ints)) return false
  return true
}

export function scalarHolds(value: unknown, scalar: ScalarPattern, ints: boolean): boolean {
  return matchesScalar(ints && typeof value === 'number' ? decodedNumber(value) : value, scalar)
}
