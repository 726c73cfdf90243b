import type { PathSegment } from '../autogen/pod-template-path.js'
import { decodedNumber } from '../cel/values.js'
import { expandedMapNode, type ArrayNode, type CompiledPattern, type LeafNode, type MapEntry, type MapNode, type PatternNode } from './compile-pattern.js'
import { formatGoType, formatGoValue } from './go-text.js'
import {
  conditionalMismatch,
  globalMismatch,
  isNegation,
  isSkip,
  Mismatch,
  negationMismatch,
  skippedMismatch,
  type Failure,
  type PatternField,
} from './mismatch.js'
import { childPath, kyvernoPathText, segmentsOf, type PathMapping, type ResourcePath } from './pattern-path.js'
import { matchesScalar } from './scalar-pattern.js'

/**
 * Kyverno's pattern matching (pkg/engine/validate): how one resource fares against one pattern.
 *
 * - pass;
 * - skip: a conditional or global anchor did not hold, so the pattern does not apply;
 * - fail at a path: the part of the resource that does not match;
 * - error: the pattern did not match and Kyverno names no path, either because a conditional or
 *   existence anchor's key is missing from the resource somewhere it looked, or because a list of
 *   lists was shorter than its pattern. Kyverno reports these as errors, and so does Verdict.
 */
export type PatternOutcome =
  | { status: 'pass' }
  | { status: 'skip'; reason: string }
  | { status: 'fail'; path: PathSegment[]; reason: string; field?: PatternField }
  | { status: 'error'; reason: string }

export interface MatchOptions {
  /** Where paths are reported: the submitted document when the subject is a controller's pod template. */
  mapPath?: PathMapping
  /**
   * What a whole JavaScript number stands for: `int64` (the default) for a resource as Kubernetes
   * decodes it, `float64` for a value JMESPath produced (a foreach element), as Kyverno holds each.
   * BigInts always read as int64.
   */
  wholeNumbers?: 'int64' | 'float64'
}

interface MatchState {
  /** Conditional and existence anchors seen, and whether the resource ever had their key (Kyverno's AnchorMap). */
  presence: Map<string, boolean> | undefined
  mapPath: PathMapping | undefined
  /** Whole numbers read as int64 (see MatchOptions.wholeNumbers). */
  ints: boolean
}

export function matchPattern(pattern: CompiledPattern, resource: unknown, options: MatchOptions = {}): PatternOutcome {
  // Most resources pass: a pass needs no path, message or anchor bookkeeping, which only a failure reads.
  if (pattern.passes(resource, options.wholeNumbers !== 'float64')) return { status: 'pass' }
  const state: MatchState = { presence: pattern.tracksPresence ? new Map() : undefined, mapPath: options.mapPath, ints: options.wholeNumbers !== 'float64' }
  const failure = matchElement(resource, pattern.root, undefined, state)
  if (!failure) return { status: 'pass' }
  const { mismatch, path } = failure
  if (isSkip(mismatch)) return { status: 'skip', reason: mismatch.message }
  // A negation that matched always fails at its path; other mismatches are errors when Kyverno names no path.
  if (path === 'none' || (!isNegation(mismatch) && keysAreMissing(state))) return { status: 'error', reason: mismatch.message }
  const outcome: PatternOutcome = { status: 'fail', path: reportedSegments(path, state), reason: mismatch.message }
  if (mismatch.finding) {
    const { field, actual, requirement } = mismatch.finding
    outcome.field = { path: reportedSegments(field, state), actual, requirement }
  }
  return outcome
}

/** A pattern that failed while some conditional or existence anchor never found its key: Kyverno calls that an error. */
function keysAreMissing(state: MatchState): boolean {
  if (!state.presence) return false
  for (const present of state.presence.values()) if (!present) return true
  return false
}

function reportedSegments(path: ResourcePath, state: MatchState): PathSegment[] {
  const segments = segmentsOf(path)
  return state.mapPath ? state.mapPath(segments) : segments
}

function pathText(path: ResourcePath, state: MatchState): string {
  return kyvernoPathText(reportedSegments(path, state))
}

function matchElement(resource: unknown, node: PatternNode, path: ResourcePath, state: MatchState): Failure | undefined {
  switch (node.kind) {
    case 'map': {
      if (!isMap(resource)) {
        const message = `pattern and resource have different structures. Path: ${pathText(path, state)}. Expected map[string]interface {}, found ${formatGoType(resource, state.ints)}`
        return { path, mismatch: new Mismatch('plain', message, { field: path, actual: resource, requirement: resource === undefined || resource === null ? { kind: 'set' } : { kind: 'object' } }) }
      }
      if (state.presence) notePresence(node, resource, state.presence)
      return matchMap(resource, node, path, state)
    }
    case 'array': {
      if (!Array.isArray(resource)) {
        const message = `validation rule failed at path ${pathText(path, state)}, resource does not satisfy the expected overlay pattern`
        return { path, mismatch: new Mismatch('plain', message, { field: path, actual: resource, requirement: resource === undefined || resource === null ? { kind: 'set' } : { kind: 'list' } }) }
      }
      return matchArray(resource, node, path, state)
    }
    case 'leaf':
      return matchLeaf(resource, node, path, state)
  }
}

/** A scalar pattern against a list checks every item (an empty list passes); the failure names the list. */
function matchLeaf(resource: unknown, node: LeafNode, path: ResourcePath, state: MatchState): Failure | undefined {
  if (Array.isArray(resource)) {
    for (const item of resource) if (!matchesScalar(scalarOf(item, state), node.scalar)) return leafFailure(resource, node, path, state)
    return undefined
  }
  return matchesScalar(scalarOf(resource, state), node.scalar) ? undefined : leafFailure(resource, node, path, state)
}

/** A resource value as the scalar comparisons read it: Go's int64 as a BigInt, float64 as a number. */
function scalarOf(value: unknown, state: MatchState): unknown {
  return state.ints && typeof value === 'number' ? decodedNumber(value) : value
}

function leafFailure(resource: unknown, node: LeafNode, path: ResourcePath, state: MatchState): Failure {
  const patternText = node.scalar.kind === 'int' ? node.scalar.value.toString() : formatGoValue(node.raw)
  const message = `resource value '${formatGoValue(resource, state.ints)}' does not match '${patternText}' at path ${pathText(path, state)}`
  return { path, mismatch: new Mismatch('plain', message, { field: path, actual: resource, requirement: { kind: 'match', pattern: node.raw } }) }
}

/**
 * Anchors first, in key order: a conditional anchor that does not hold skips the map (unless
 * another anchor applied and the skip came from deeper down); then global anchors and keys
 * holding anchors, then the plain keys; the first failure is the one reported.
 */
function matchMap(resource: Readonly<Record<string, unknown>>, compiled: MapNode, path: ResourcePath, state: MatchState): Failure | undefined {
  const node = expandedMapNode(compiled, resource)
  let skips: Mismatch[] | undefined
  let applied = 0
  for (const entry of node.anchors) {
    const failure = handleEntry(entry, resource, path, state)
    if (!failure) {
      applied++
      continue
    }
    if (isSkip(failure.mismatch)) {
      ;(skips ??= []).push(failure.mismatch)
      continue
    }
    // A conditional anchor of this very map that did not hold wins over any failure of its siblings.
    if (!skips?.some(isOwnSkip)) return failure
  }
  if (skips && (applied === 0 || skips.some(isOwnSkip))) return { path, mismatch: skippedMismatch(skips) }
  for (const entry of node.rest) {
    const failure = handleEntry(entry, resource, path, state)
    if (failure) return failure
  }
  return undefined
}

/** A skip raised by an anchor of this map, not one passed up from a map below (Kyverno's non-PatternError skip). */
function isOwnSkip(mismatch: Mismatch): boolean {
  return mismatch.kind !== 'skipped'
}

function handleEntry(entry: MapEntry, resource: Readonly<Record<string, unknown>>, path: ResourcePath, state: MatchState): Failure | undefined {
  const field = entry.field
  // JSON holds no undefined, so a defined value is present unless the name is one every object inherits.
  let value = resource[field]
  let present = value !== undefined
  if (entry.inheritedName) {
    present = Object.hasOwn(resource, field)
    value = present ? value : undefined
  }
  switch (entry.kind) {
    case 'condition': {
      const here = childPath(path, field)
      if (!present) return { path: here, mismatch: conditionalMismatch("conditional anchor key doesn't exist in the resource") }
      const failure = matchElement(value, entry.node, here, state)
      return failure ? { path: failure.path, mismatch: conditionalMismatch(failure.mismatch.message) } : undefined
    }
    case 'global': {
      if (!present) return undefined
      const failure = matchElement(value, entry.node, childPath(path, field), state)
      return failure ? { path: failure.path, mismatch: globalMismatch(failure.mismatch.message) } : undefined
    }
    case 'equality':
      return present ? matchChild(value, entry.node, path, field, state) : undefined
    case 'negation': {
      if (!present) return undefined
      const here = childPath(path, field)
      return { path: here, mismatch: negationMismatch(`${pathText(here, state)} is not allowed`, { field: here, actual: value, requirement: { kind: 'unset' } }) }
    }
    case 'existence':
      return present ? matchExistence(value, entry.node, childPath(path, field), state) : undefined
    default:
      return matchField(entry, value, path, state)
  }
}

/** A plain key; `"*"` only asks that the field be set to something other than null. */
function matchField(entry: MapEntry, value: unknown, path: ResourcePath, state: MatchState): Failure | undefined {
  if (entry.star) {
    if (value !== undefined && value !== null) return undefined
    // Kyverno names the parent here, and writes the key after the parent's trailing slash.
    const message = `${pathText(path, state)}/${entry.text} not found`
    return { path, mismatch: new Mismatch('plain', message, { field: childPath(path, entry.field), actual: value, requirement: { kind: 'set' } }) }
  }
  return matchChild(value, entry.node, path, entry.field, state)
}

/** A field of a map: a scalar leaf is compared without building the field's path, which is only needed to report a failure. */
function matchChild(value: unknown, node: PatternNode, path: ResourcePath, key: PathSegment, state: MatchState): Failure | undefined {
  if (node.kind === 'leaf' && !Array.isArray(value)) return matchesScalar(scalarOf(value, state), node.scalar) ? undefined : leafFailure(value, node, childPath(path, key), state)
  return matchElement(value, node, childPath(path, key), state)
}

/** `^(key)`: for each pattern in the list, some item of the resource's list must match it. */
function matchExistence(value: unknown, node: PatternNode, here: ResourcePath, state: MatchState): Failure | undefined {
  if (!Array.isArray(value)) {
    const message = `invalid resource type ${formatGoType(value, state.ints)}: Existence ^ () anchor can be used only on list/array type resource`
    return { path: here, mismatch: new Mismatch('plain', message, { field: here, actual: value, requirement: { kind: 'list' } }) }
  }
  // Compilation refuses anything but a non-empty list of maps here.
  const patterns = node.kind === 'array' ? node.items : [node]
  for (const pattern of patterns) {
    const found = value.some((item, index) => matchElement(item, pattern, childPath(here, index), state) === undefined)
    if (!found) {
      const message = `existence anchor validation failed at path ${pathText(here, state)}`
      return { path: here, mismatch: new Mismatch('plain', message, { field: here, actual: undefined, requirement: { kind: 'some-item' } }) }
    }
  }
  return undefined
}

/**
 * A list pattern: a map (the first item) is matched against every item, a scalar (the first
 * item) against every item, and lists of lists item by item. Further pattern items are not read,
 * as in Kyverno.
 */
function matchArray(resource: readonly unknown[], node: ArrayNode, path: ResourcePath, state: MatchState): Failure | undefined {
  const first = node.items[0]
  if (first === undefined) return { path, mismatch: new Mismatch('plain', 'pattern Array empty') }
  if (first.kind === 'map') return matchEach(resource, resource.length, [first], path, state)
  if (first.kind === 'leaf') return matchLeaf(resource, first, path, state)
  if (resource.length < node.items.length) {
    const message = `validate Array failed, array length mismatch, resource Array len is ${resource.length} and pattern Array len is ${node.items.length}`
    return { path: 'none', mismatch: new Mismatch('plain', message) }
  }
  return matchEach(resource, node.items.length, node.items, path, state)
}

/**
 * Items one by one: a failure stops at once; items whose conditional anchors did not hold are
 * left out, and when every item was left out the whole list is skipped.
 */
function matchEach(resource: readonly unknown[], count: number, patterns: readonly PatternNode[], path: ResourcePath, state: MatchState): Failure | undefined {
  const skips: Mismatch[] = []
  let applied = 0
  for (let index = 0; index < count; index++) {
    // One pattern for every item (a list of maps), or one pattern per item (a list of lists).
    const pattern = (patterns.length === 1 ? patterns[0] : patterns[index]) as PatternNode
    const failure = matchElement(resource[index], pattern, childPath(path, index), state)
    if (!failure) {
      applied++
      continue
    }
    if (!isSkip(failure.mismatch)) return failure
    skips.push(failure.mismatch)
  }
  return applied === 0 && skips.length > 0 ? { path, mismatch: skippedMismatch(skips) } : undefined
}

/** Kyverno's CheckAnchorInResource: a key of an anchor counts as present once any map it was checked against had it. */
function notePresence(node: MapNode, resource: Readonly<Record<string, unknown>>, presence: Map<string, boolean>): void {
  for (const { text, field } of node.presence) {
    if (presence.get(text) === true) continue
    presence.set(text, Object.hasOwn(resource, field))
  }
}

function isMap(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
