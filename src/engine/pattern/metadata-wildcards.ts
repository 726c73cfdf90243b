import { anchorText, parseAnchor } from './anchor.js'
import type { MapNode } from './compile-pattern.js'
import { containsWildcard, matchesWildcard } from './wildcard.js'

/**
 * Wildcards in label and annotation keys (Kyverno's wildcards.ExpandInMetadata). Before a map
 * holding `metadata` is matched, each key of `metadata.labels` / `metadata.annotations` with `*`
 * or `?` is replaced by the first key of the resource's labels (annotations) it matches, anchors
 * kept: `X(fluxcd.io/*)` becomes `X(fluxcd.io/sync)` when that annotation exists, and stays as
 * written (so matches no field) when none does. As in Kyverno, the rewritten map keeps only the
 * entries whose pattern is a string, and the rewrite happens only when the resource has labels
 * (annotations) at all. Go picks "the first" matching key in random map order; here it is the
 * first in the resource's own order.
 */

export interface MetadataExpansion {
  /** The key of the pattern map holding metadata: `metadata`, or an anchor on it. */
  metadataKey: string
  tags: MetadataTag[]
  /** The pattern map compiled for each rewrite met so far, by the rewritten metadata (see expandedMapNode in compile-pattern.ts). */
  compiled: Map<string, MapNode>
}

interface MetadataTag {
  tag: 'labels' | 'annotations'
  /** The key holding the tag in the pattern's metadata (`labels`, `=(labels)`, ...). */
  patternKey: string
  /** Its entries whose pattern is a string: what Kyverno keeps. */
  strings: [string, string][]
  /** Some entries were not strings, so Kyverno's rewrite drops them whatever the resource. */
  drops: boolean
}

const TAGS = ['labels', 'annotations'] as const

/** What needs expanding in a pattern map; undefined when the expansion would change nothing (the common case). */
export function metadataExpansionOf(patternMap: Readonly<Record<string, unknown>>): MetadataExpansion | undefined {
  const metadataKey = keyFor('metadata', patternMap)
  if (metadataKey === undefined) return undefined
  const metadata = asMap(patternMap[metadataKey])
  if (!metadata) return undefined
  const tags: MetadataTag[] = []
  let changes = false
  for (const tag of TAGS) {
    const patternKey = keyFor(tag, metadata)
    if (patternKey === undefined) continue
    const data = asMap(metadata[patternKey])
    if (!data) continue
    const entries = Object.entries(data)
    const strings = entries.filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    const drops = strings.length !== entries.length
    changes ||= drops || strings.some(([key]) => containsWildcard(key))
    tags.push({ tag, patternKey, strings, drops })
  }
  return changes ? { metadataKey, tags, compiled: new Map() } : undefined
}

/** The pattern's metadata map rewritten for this resource, or undefined when the rewrite would change nothing. */
export function expandMetadata(expansion: MetadataExpansion, patternMap: Readonly<Record<string, unknown>>, resource: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  const resourceMetadata = asMap(resource.metadata)
  if (!resourceMetadata) return undefined
  const patternMetadata = asMap(patternMap[expansion.metadataKey])
  if (!patternMetadata) return undefined
  let out: Record<string, unknown> | undefined
  for (const { tag, patternKey, strings, drops } of expansion.tags) {
    const resourceKey = keyFor(tag, resourceMetadata)
    const resourceData = resourceKey === undefined ? undefined : asMap(resourceMetadata[resourceKey])
    if (!resourceData) continue
    const keys = expandedKeys(strings, resourceData)
    // The common case: no wildcard key found a label, and every pattern was a string already.
    if (!drops && keys.every((key, index) => key === strings[index]?.[0])) continue
    const map: Record<string, string> = {}
    strings.forEach(([, value], index) => setOwn(map, keys[index] ?? '', value))
    out ??= { ...patternMetadata }
    setOwn(out, patternKey, map)
  }
  return out
}

function expandedKeys(entries: readonly [string, string][], resourceData: Readonly<Record<string, unknown>>): string[] {
  let names: string[] | undefined
  return entries.map(([key]) => {
    if (!containsWildcard(key)) return key
    names ??= Object.keys(resourceData).filter((name) => typeof resourceData[name] === 'string')
    const anchor = parseAnchor(key)
    const wanted = anchor ? anchor.key : key
    const found = names.find((name) => matchesWildcard(wanted, name))
    if (found === undefined) return key
    return anchor ? anchorText({ kind: anchor.kind, key: found }) : found
  })
}

/** Kyverno's getPatternValue: the key itself, or an anchor on it. */
function keyFor(tag: string, map: Readonly<Record<string, unknown>>): string | undefined {
  if (Object.hasOwn(map, tag)) return tag
  // Only a key ending in `)` can be an anchor; resources hardly ever have one, so this rarely parses.
  return Object.keys(map).find((key) => key.trimEnd().endsWith(')') && parseAnchor(key)?.key === tag)
}

function asMap(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}
