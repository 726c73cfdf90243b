import type { Condition, Predicate, ValueRef } from './requirement.js'
import { scalarOf } from './read-values.js'

/**
 * "the Service carries either `service.beta.kubernetes.io/aws-load-balancer-internal: "true"` or
 * `...-scheme: internal`": metadata keys written with their values, without the word label or
 * annotation. A key with a DNS prefix is looked for among the annotations, then the labels.
 * "either A or B" is A unless B holds; "A and B" is both.
 */
export interface WrittenPairs {
  requirements: Array<{ values: ValueRef[]; predicate: Predicate; missing: 'pass' | 'fail'; exemptions: Condition[] }>
}

const PAIR = /`\s*([a-z0-9][\w.-]*\/[\w.-]+|[a-z0-9.-]+\.[a-z]{2,}\/[\w.-]+)\s*[:=]\s*["']?([^"'`]*?)["']?\s*`/gi

const NEGATED = /\b(must not|mustn'?t|may not|can'?t|cannot|never|no|not allowed|forbidden|banned)\b/i

function metadataRef(key: string): ValueRef {
  return { scope: 'object', variants: [{ segments: ['metadata', 'annotations', key] }, { segments: ['metadata', 'labels', key] }], label: `metadata key ${key}`, type: 'string', explicit: true }
}

export function readWrittenPairs(text: string): WrittenPairs | undefined {
  const pairs = [...text.matchAll(PAIR)].map((match) => ({ key: match[1] ?? '', value: scalarOf(match[2] ?? ''), index: match.index ?? 0, end: (match.index ?? 0) + match[0].length }))
  const [first] = pairs
  if (!first || first.value === '') return undefined
  const negated = NEGATED.test(text.slice(0, first.index))
  const between = pairs.slice(1).map((pair, index) => text.slice(pairs[index]?.end ?? 0, pair.index))
  const either = between.length > 0 && between.every((gap) => /\bor\b/i.test(gap))
  if (negated) {
    return { requirements: pairs.map((pair) => ({ values: [metadataRef(pair.key)], predicate: { op: 'noneOf', values: [pair.value] }, missing: 'pass', exemptions: [] })) }
  }
  if (either) {
    const exemptions: Condition[] = pairs.slice(1).map((pair) => ({ value: metadataRef(pair.key), predicate: { op: 'equals', value: pair.value }, missing: 'fail', text: `${pair.key}: ${String(pair.value)}` }))
    return { requirements: [{ values: [metadataRef(first.key)], predicate: { op: 'equals', value: first.value }, missing: 'fail', exemptions }] }
  }
  return { requirements: pairs.map((pair) => ({ values: [metadataRef(pair.key)], predicate: { op: 'equals', value: pair.value }, missing: 'fail', exemptions: [] })) }
}
