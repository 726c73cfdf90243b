import { anchorText, parseAnchor } from './anchor.js'
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
}

interface MetadataTag {
  tag: 'labels' | 'annotations'
  /** The key holding the tag in the pattern's metadata (`labels`, `=(labels)`, ...). */
  patternKey: string
  /** Its entries whose pattern is a string: what Kyverno keeps. */
  strings: [string, string][]
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
    changes ||= strings.length !== entries.length || strings.some(([key]) => containsWildcard(key))
    tags.push({ tag, patternKey, strings })
  }
  return changes ? { metadataKey, tags } : undefined
}

/** The pattern's metadata map rewritten for this resource, or undefined when the resource gives nothing to rewrite with. */
export function expandMetadata(expansion: MetadataExpansion, patternMap: Readonly<Record<string, unknown>>, resource: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  const resourceMetadata = asMap(resource.metadata)
  if (!resourceMetadata) return undefined
  const patternMetadata = asMap(patternMap[expansion.metadataKey])
  if (!patternMetadata) return undefined
  let out: Record<string, unknown> | undefined
  for (const { tag, patternKey, strings } of expansion.tags) {
    const resourceKey = keyFor(tag, resourceMetadata)
    const resourceData = resourceKey === undefined ? undefined : asMap(resourceMetadata[resourceKey])
    if (!resourceData) continue
    const names = Object.keys(resourceData).filter((name) => typeof resourceData[name] === 'string')
    out ??= { ...patternMetadata }
    setOwn(out, patternKey, expandKeys(strings, names))
  }
  return out
}

function expandKeys(entries: readonly [string, string][], names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of entries) {
    if (!containsWildcard(key)) {
      setOwn(out, key, value)
      continue
    }
    const anchor = parseAnchor(key)
    const wanted = anchor ? anchor.key : key
    const found = names.find((name) => matchesWildcard(wanted, name)) ?? wanted
    setOwn(out, anchor ? anchorText({ kind: anchor.kind, key: found }) : found, value)
  }
  return out
}

/** Kyverno's getPatternValue: the key itself, or an anchor on it. */
function keyFor(tag: string, map: Readonly<Record<string, unknown>>): string | undefined {
  return Object.keys(map).find((key) => key === tag || parseAnchor(key)?.key === tag)
}

function asMap(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}
