import type { PathSegment } from '../autogen/pod-template-path.js'
import { formatPath } from '../explain/field-finding.js'
import { parseAnchor, type Anchor, type AnchorKind } from './anchor.js'
import { compareGoStrings } from './go-text.js'
import { expandMetadata, metadataExpansionOf, type MetadataExpansion } from './metadata-wildcards.js'
import { adaptivePassCheck } from './adaptive-pass-check.js'
import type { PassCheck } from './pass-check.js'
import { scalarPatternOf, type ScalarPattern, type ScalarValue } from './scalar-pattern.js'
import { stringPatternProblems } from './string-pattern.js'
import { holdsReferences, holdsVariables } from './substitution.js'

/**
 * A validate pattern parsed once per ruleset version: anchors read from keys, string leaves
 * split into operators, and each map's keys put in the order Kyverno evaluates them, so that
 * matching a resource does no parsing and reports the same failure Kyverno reports first.
 */
export type PatternNode = MapNode | ArrayNode | LeafNode

export interface LeafNode {
  kind: 'leaf'
  raw: ScalarValue
  scalar: ScalarPattern
}

export interface ArrayNode {
  kind: 'array'
  items: PatternNode[]
}

export interface MapEntry {
  /** The key as written, anchor included. */
  text: string
  /** The resource field the entry reads: the anchor's key, or the key itself. */
  field: string
  anchor?: Anchor
  /** The anchor's kind, or 'plain'. */
  kind: AnchorKind | 'plain'
  node: PatternNode
  /** The pattern is the bare `"*"`, which asks only that the field be set. */
  star: boolean
  /** The field is also a name every object inherits (`constructor`), so presence needs an own-property check. */
  inheritedName: boolean
}

export interface MapNode {
  kind: 'map'
  /** The map as written, for the metadata wildcard expansion. */
  raw: Readonly<Record<string, unknown>>
  /** Conditional, existence, equality and negation anchors, in key order: Kyverno evaluates them first. */
  anchors: MapEntry[]
  /**
   * Everything else, global anchors and keys whose value holds anchors first (in reverse key
   * order, as Kyverno pushes them to the front of its list), then plain keys in key order.
   */
  rest: MapEntry[]
  /** Conditional and existence anchors, which Kyverno checks for presence (see anchor-presence.ts). */
  presence: { text: string; field: string }[]
  /** Set when label or annotation keys with wildcards must be resolved against the resource first. */
  metadata?: MetadataExpansion
  /** Kyverno's hasNestedAnchors: this map, or anything below it, has an anchor key. */
  holdsAnchors: boolean
}

export interface CompiledPattern {
  root: PatternNode
  /** The pattern as written. */
  raw: unknown
  /** Whether any map below asks for conditional or existence anchor presence tracking. */
  tracksPresence: boolean
  /** Paths of the strings holding `{{ }}` variables, which need a substitution before matching. */
  variables: string[]
  /** Paths of the strings holding `$(...)` references, which need a substitution too. */
  references: string[]
  /** True when a resource certainly matches (see pass-check.ts); false says only that it must be matched in full. */
  passes: PassCheck
}

export interface PatternProblem {
  /** Where in the pattern, e.g. `spec.containers[0]["=(securityContext)"].privileged`. */
  path: string
  message: string
}

/** Deeper than any Kubernetes object; a limit keeps a hostile pattern from exhausting the stack. */
export const MAX_PATTERN_DEPTH = 100

/**
 * Compiles a pattern and lists what makes it malformed: an anchor Kyverno refuses in validate
 * patterns, an existence anchor without a list of maps, an empty list, an unknown operator or an
 * ordering that can never hold, nesting past MAX_PATTERN_DEPTH. Strings holding `{{ }}` or
 * `$(...)` are listed in `variables` / `references`, not checked: their text is known only after
 * substitution, and the caller decides whether it can substitute (see substitution.ts).
 */
export function compilePattern(raw: unknown): { pattern: CompiledPattern; problems: PatternProblem[] } {
  const state: CompileState = { problems: [], variables: [], references: [], tracksPresence: false }
  const root = compileNode(raw, [], state)
  const pattern: CompiledPattern = {
    root,
    raw,
    tracksPresence: state.tracksPresence,
    variables: state.variables,
    references: state.references,
    passes: adaptivePassCheck(root, expandedMapNode),
  }
  return { pattern, problems: state.problems }
}

/** A map compiled on its own, as the matcher needs after rewriting label keys for one resource (problems were reported with the whole pattern). */
export function compileMapNode(raw: Record<string, unknown>): MapNode {
  return compileMap(raw, [], { problems: [], variables: [], references: [], tracksPresence: false })
}

/** The map as it applies to this resource: its label and annotation keys with wildcards resolved against the resource's (metadata-wildcards.ts). */
export function expandedMapNode(node: MapNode, resource: Readonly<Record<string, unknown>>): MapNode {
  if (!node.metadata) return node
  const metadata = expandMetadata(node.metadata, node.raw, resource)
  if (!metadata) return node
  // Resources mostly carry the same few label keys, so the same rewrites come back: compile each once.
  const key = JSON.stringify(metadata)
  const cached = node.metadata.compiled.get(key)
  if (cached) return cached
  const expanded = compileMapNode({ ...node.raw, [node.metadata.metadataKey]: metadata })
  // Expanded once per visit, as Kyverno does; the keys it could not resolve stay as written.
  delete expanded.metadata
  if (node.metadata.compiled.size >= EXPANSIONS_KEPT) node.metadata.compiled.clear()
  node.metadata.compiled.set(key, expanded)
  return expanded
}

/** Rewrites kept per map; past it the cache starts over, so label keys chosen by a hostile client cannot grow memory. */
const EXPANSIONS_KEPT = 64

interface CompileState {
  problems: PatternProblem[]
  variables: string[]
  references: string[]
  tracksPresence: boolean
}

function compileNode(raw: unknown, at: PathSegment[], state: CompileState): PatternNode {
  if (at.length > MAX_PATTERN_DEPTH) {
    state.problems.push({ path: patternPathText(at), message: `nests deeper than ${MAX_PATTERN_DEPTH} levels` })
    return leaf(null)
  }
  if (Array.isArray(raw)) {
    if (raw.length === 0) state.problems.push({ path: patternPathText(at), message: 'an empty list matches nothing (Kyverno fails it as "pattern Array empty")' })
    return { kind: 'array', items: raw.map((item, index) => compileNode(item, [...at, index], state)) }
  }
  if (typeof raw === 'object' && raw !== null) return compileMap(raw as Record<string, unknown>, at, state)
  if (raw === undefined || typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean' || raw === null) {
    const value = raw ?? null
    if (typeof value === 'string') checkString(value, at, state)
    return leaf(value)
  }
  state.problems.push({ path: patternPathText(at), message: `a pattern holds JSON values, not ${typeof raw}` })
  return leaf(null)
}

function leaf(raw: ScalarValue): LeafNode {
  return { kind: 'leaf', raw, scalar: scalarPatternOf(raw) }
}

function checkString(text: string, at: PathSegment[], state: CompileState): void {
  if (holdsVariables(text)) {
    state.variables.push(patternPathText(at))
    return
  }
  if (holdsReferences(text)) {
    state.references.push(patternPathText(at))
    return
  }
  const scalar = scalarPatternOf(text)
  if (scalar.kind !== 'string') return
  for (const message of stringPatternProblems(scalar.pattern)) state.problems.push({ path: patternPathText(at), message })
}

function compileMap(raw: Record<string, unknown>, at: PathSegment[], state: CompileState): MapNode {
  const entries: MapEntry[] = []
  for (const text of Object.keys(raw)) {
    const here = [...at, text]
    const anchor = parseAnchor(text)
    if (holdsVariables(text)) state.variables.push(`${patternPathText(here)} (key)`)
    if (anchor?.kind === 'addIfNotPresent') {
      state.problems.push({ path: patternPathText(here), message: `the anchor "${text}" adds a field in mutate overlays; validate patterns do not accept it` })
    }
    if (anchor?.kind === 'existence') checkExistence(raw[text], here, state)
    const node = compileNode(raw[text], here, state)
    // Kyverno reads `+(key)` (refused above, but possible after a substitution) as a plain key, anchor and all.
    const plain = anchor === undefined || anchor.kind === 'addIfNotPresent'
    const field = plain ? text : anchor.key
    const star = node.kind === 'leaf' && node.raw === '*'
    const entry: MapEntry = { text, field, kind: plain ? 'plain' : anchor.kind, node, star, inheritedName: field in Object.prototype }
    if (anchor) entry.anchor = anchor
    entries.push(entry)
  }
  const sorted = [...entries].sort((a, b) => compareGoStrings(a.text, b.text))
  const anchors = sorted.filter((entry) => isPhaseOneAnchor(entry.anchor))
  const front: MapEntry[] = []
  const back: MapEntry[] = []
  for (const entry of sorted) {
    if (isPhaseOneAnchor(entry.anchor)) continue
    if (entry.anchor?.kind === 'global' || holdsAnchors(entry.node)) front.unshift(entry)
    else back.push(entry)
  }
  const presence = entries
    .filter((entry) => entry.anchor?.kind === 'condition' || entry.anchor?.kind === 'existence')
    .map((entry) => ({ text: entry.text, field: entry.field }))
  if (presence.length > 0) state.tracksPresence = true
  const node: MapNode = {
    kind: 'map',
    raw,
    anchors,
    rest: [...front, ...back],
    presence,
    holdsAnchors: entries.some((entry) => (entry.anchor !== undefined && entry.anchor.kind !== 'addIfNotPresent') || holdsAnchors(entry.node)),
  }
  const metadata = metadataExpansionOf(raw)
  if (metadata) node.metadata = metadata
  return node
}

function isPhaseOneAnchor(anchor: Anchor | undefined): boolean {
  return anchor !== undefined && (anchor.kind === 'condition' || anchor.kind === 'existence' || anchor.kind === 'equality' || anchor.kind === 'negation')
}

function holdsAnchors(node: PatternNode): boolean {
  if (node.kind === 'map') return node.holdsAnchors
  if (node.kind === 'array') return node.items.some(holdsAnchors)
  return false
}

/** Kyverno refuses an existence anchor without a non-empty list, and can only match maps in it. */
function checkExistence(value: unknown, at: PathSegment[], state: CompileState): void {
  if (!Array.isArray(value)) {
    state.problems.push({ path: patternPathText(at), message: 'an existence anchor needs a list of patterns, one of which some item must match' })
    return
  }
  if (value.length === 0) {
    state.problems.push({ path: patternPathText(at), message: 'an existence anchor needs at least one pattern in its list' })
    return
  }
  value.forEach((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      state.problems.push({ path: patternPathText([...at, index]), message: 'the patterns of an existence anchor must be maps' })
    }
  })
}

/** Dotted where keys are plain, bracketed and quoted where they hold anchors, dots or slashes. */
export function patternPathText(path: readonly PathSegment[]): string {
  return formatPath(path)
}
