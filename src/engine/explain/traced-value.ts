import type { PathSegment } from '../autogen/pod-template-path.js'
import type { CelAstNode } from '../cel/macro-api.js'

/** Comprehension variables, innermost first, each with where its value came from. */
export interface Locals {
  readonly name: string
  readonly value: Traced
  readonly outer: Locals | undefined
}

/**
 * A value computed while re-running an expression, with where it came from in the judged object.
 * Only what the field finder needs is tracked: the path of values read straight from `object`,
 * the elements of lists assembled from several fields, and why a filter kept what it kept.
 */
export interface Traced {
  readonly value: unknown
  /** Where the value sits in `object`; undefined for computed values and other roots (request, oldObject). */
  readonly path?: readonly PathSegment[]
  /** The path names a field that is not there: the value is a fallback (`orValue`) or an empty optional. */
  readonly missing?: boolean
  /** Each element's own trace, for lists whose elements come from different places (`a + b`, filter, map). */
  readonly elements?: readonly Traced[]
  /** For a list a filter made: the list filtered, the predicate, and the scope in which it held for each kept element. */
  readonly keptBy?: { readonly source: Traced; readonly predicate: CelAstNode; readonly scopes: readonly Locals[] }
  /** For `size(x)`: the traced x. */
  readonly sizeOf?: Traced
  /** For `type(x)`: the traced x. */
  readonly typeOf?: Traced
  /** For a type test (`type(x) == list`): the traced x, which a guarded default then stands for. */
  readonly typeGuardOf?: Traced
  /** A map key a comprehension iterates: the value is the key, the path its entry. */
  readonly key?: boolean
  /** For a map literal (`{'values': r.values}`): each string key's own trace, so a field read from it keeps its path. */
  readonly entries?: ReadonlyMap<string, Traced>
}

export function traced(value: unknown, path?: readonly PathSegment[], missing = false): Traced {
  if (path === undefined) return { value }
  return missing ? { value, path, missing } : { value, path }
}

/** The traces of a list's elements: its own record when it has one, else path + index. */
export function elementsOf(list: Traced): readonly Traced[] {
  if (list.elements) return list.elements
  if (!Array.isArray(list.value)) return []
  const items = list.value as unknown[]
  return items.map((item, index) => traced(item, list.path === undefined ? undefined : [...list.path, index]))
}

export function lookup(locals: Locals | undefined, name: string): Traced | undefined {
  for (let scope = locals; scope; scope = scope.outer) if (scope.name === name) return scope.value
  return undefined
}
