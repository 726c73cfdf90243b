import type { Platform } from '../catalog/rule-template.js'
import { KIND_PHRASES, KIND_WORDS } from './kinds.js'
import { correctTypos } from './typos.js'

/** One clause of an instruction, prepared once for every template's `recognize`. */
export interface Clause {
  /** As the author wrote it, trimmed: parameters are read from here (case and punctuation intact). */
  text: string
  /**
   * Lowercase, typos of known words fixed, `+` and `&` read as "and", runs of spaces collapsed:
   * what templates match words against.
   */
  normalized: string
  /**
   * The clause forbids rather than requires: no, not, never, don't, disallow, forbid, deny,
   * block, prohibit, reject, without, must not, cannot, avoid.
   */
  negated: boolean
  /**
   * The clause permits rather than requires ("privileged pods are allowed", "hostPath is fine"):
   * no rule can come of it. "only allow images from X" is a requirement, not a permission.
   */
  permissive: boolean
  /** Kubernetes kinds the clause names, else those of the previous clause, else those of the labels. */
  kinds: string[]
  /** Whether `kinds` were named in this clause itself. */
  kindsNamed: boolean
  platform: Platform
}

const PERMISSION = /\b(allow(ed|s)?|permit(ted|s)?|may|can|fine|ok|okay|acceptable|tolerated)\b/
const RESTRICTION = /\b(only|just|except|unless|must|should|need|needs|required?|requires|at (most|least)|no (more|less|fewer) than|up to|make sure|ensure|limit(ed|s)?|max(imum)?|min(imum)?|between|exceed(s|ing)?|enforce[sd]?)\b|\ballowed [a-z ]+(:|\bare\b)/

const NEGATION = /\b(no|not|never|nothing|nobody|no one|dont|dont|don't|do not|does not|doesn't|disallow(ed)?|forbid(den)?|prohibit(ed)?|deny|denied|block(ed)?|reject(ed)?|ban(ned)?|without|cannot|can't|must not|mustn't|should not|shouldn't|avoid|none)\b/

export function normalizeText(text: string, vocabulary: ReadonlySet<string> = new Set()): string {
  const lower = text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    // Runs of white space are collapsed first: matched around "+" they would be retried from every position.
    .replace(/\s+/g, ' ')
    .replace(/ [+&] /g, ' and ')
    .trim()
  return correctTypos(lower, vocabulary)
}

/**
 * Whether a kind word at `index` names the kind rather than something else: "in the prod
 * namespace" says where, "host PID namespace" is a Linux namespace, "configMap and secret
 * volumes" are volume types.
 */
function namesTheKind(kind: string, normalized: string, index: number): boolean {
  const before = normalized.slice(Math.max(0, index - 40), index)
  if (kind === 'Namespace') return !NAMESPACE_AS_PLACE.test(before) && !LINUX_NAMESPACE.test(before)
  // "secrets in env vars", "configMap and secret volumes", "secretKeyRef": a source of data in a pod, not the kind.
  if (kind === 'ConfigMap' || kind === 'Secret') {
    return !/^[a-z]+[\w\s,]{0,30}?\b(volumes?|env|environment|variables?|vars?|key ?refs?|refs?|references?|files?|mounts?|secretkeyref|configmapkeyref|valuefrom|come from)\b/.test(normalized.slice(index)) && !/\b(from|via|using|use|reference|references|as)\s+(a\s+|the\s+)?$/.test(before)
  }
  // "50% of the replicas to be out of service", "back in service": the English phrase, not the kind.
  if (kind === 'Service') return !/\b(?:out of|in|into|back in|of)\s+$/.test(before)
  return true
}

const LINUX_NAMESPACE = /\b(host|pid|ipc|network|net|uts|user|mount|linux|kernel)\W*$/

const NAMESPACE_AS_PLACE = /\b(in|into|from|to|outside|within|inside|default|same|own|its|their|per)\b(\s+the)?(\s+[\w.-]+)?\s*$/

/** Kinds named in normalized text, in order of first mention, without duplicates. */
export function kindsNamedIn(normalized: string): string[] {
  const found: Array<[number, string]> = []
  // Two-word names first; their words are then blanked so "cron jobs" is not also Jobs.
  let rest = normalized
  for (const [pattern, kind] of KIND_PHRASES) {
    const global = new RegExp(pattern.source, 'g')
    for (const match of normalized.matchAll(global)) {
      if (namesTheKind(kind, normalized, match.index)) found.push([match.index, kind])
      rest = rest.slice(0, match.index) + ' '.repeat(match[0].length) + rest.slice(match.index + match[0].length)
    }
  }
  // Whole words only: NET_BIND_SERVICE and app.kubernetes.io/name hold no kinds.
  const wordPattern = /(?<![\w./-])[a-z]+(?![\w./-])/g
  for (let match = wordPattern.exec(rest); match; match = wordPattern.exec(rest)) {
    const kind = KIND_WORDS.get(match[0])
    if (!kind || !namesTheKind(kind, normalized, match.index)) continue
    found.push([match.index, kind])
  }
  found.sort((a, b) => a[0] - b[0])
  return [...new Set(found.map(([, kind]) => kind))]
}

export interface ClauseContext {
  platform: Platform
  inheritedKinds: readonly string[]
  /** Words typos are corrected to (the catalog's vocabulary). */
  vocabulary: ReadonlySet<string>
}

export function prepareClause(text: string, context: ClauseContext): Clause {
  const normalized = normalizeText(text, context.vocabulary)
  const named = kindsNamedIn(normalized)
  const negated = NEGATION.test(normalized)
  return {
    text: text.trim(),
    normalized,
    negated,
    permissive: !negated && PERMISSION.test(normalized) && !RESTRICTION.test(normalized),
    kinds: named.length > 0 ? named : [...context.inheritedKinds],
    kindsNamed: named.length > 0,
    platform: context.platform,
  }
}

/**
 * Whether the clause says any of these: strings match whole words or phrases of the normalized
 * text ("host network" does not match "hostnetworking" but does match "no host network."),
 * regular expressions match the normalized text as they are.
 */
export function mentions(clause: Clause, ...patterns: ReadonlyArray<string | RegExp>): boolean {
  return patterns.some((pattern) => (typeof pattern === 'string' ? phrasePattern(pattern).test(clause.normalized) : pattern.test(clause.normalized)))
}

/** How many of the concept groups the clause mentions (each group counts once). */
export function conceptsMentioned(clause: Clause, groups: ReadonlyArray<ReadonlyArray<string | RegExp>>): number {
  return groups.filter((group) => mentions(clause, ...group)).length
}

const phraseCache = new Map<string, RegExp>()

function phrasePattern(phrase: string): RegExp {
  let pattern = phraseCache.get(phrase)
  if (!pattern) {
    const escaped = phrase.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '[\\s-]*')
    pattern = new RegExp(`(^|[^a-z0-9])${escaped}($|[^a-z0-9])`)
    phraseCache.set(phrase, pattern)
  }
  return pattern
}
