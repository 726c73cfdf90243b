import type { Requirement } from './requirement.js'

/** Nouns that count the elements of whatever list is meant. */
const ANY_ELEMENT = /^(?:items?|entries|entry|elements?|ones?|values?|times?|of)$/

/**
 * "no more than 2 replicas" read as a bound on the size of `topologySpreadConstraints` (the list
 * of the clause before): a count of elements whose noun the sentence writes ("2 replicas") is a
 * count of those, and a list named otherwise is another field. Returns the noun, or undefined.
 */
export function countedOtherNoun(text: string, requirement: Requirement): string | undefined {
  const { predicate } = requirement
  if (predicate.op !== 'compare') return undefined
  const ref = requirement.values[0]
  if (!ref || ref.type !== 'array' || requirement.values.length !== 1) return undefined
  const leaf = (ref.variants[0]?.segments.filter((segment) => segment !== '[]').at(-1) ?? '').toLowerCase()
  for (const bound of predicate.bounds) {
    const counted = new RegExp(String.raw`\b${String(bound.value).replace('.', '\\.')}\s+([a-z]+)`, 'i').exec(text)?.[1]?.toLowerCase()
    if (!counted || ANY_ELEMENT.test(counted)) continue
    const stem = counted.replace(/(?:ies|es|s)$/, '')
    if (stem.length >= 3 && !leaf.startsWith(stem) && !leaf.includes(stem)) return counted
  }
  return undefined
}
