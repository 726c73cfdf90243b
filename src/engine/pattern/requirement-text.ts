import type { Requirement } from './mismatch.js'
import { containsWildcard } from './wildcard.js'

/** What a failed pattern asks of a field, in words, and a compliant value when there is exactly one. */
export interface RequirementText {
  requirement: string
  expected?: unknown
}

const OPERATORS = /[|&<>!]/
const RANGE = /^[-+]?\d+(?:\.\d+)?[A-Za-z]*!?-[-+]?\d+(?:\.\d+)?[A-Za-z]*$/
const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/

export function describeRequirement(requirement: Requirement, actual?: unknown): RequirementText {
  switch (requirement.kind) {
    case 'object':
      return { requirement: 'must be an object' }
    case 'list':
      return { requirement: 'must be a list' }
    case 'set':
      return { requirement: 'must be set' }
    case 'unset':
      return { requirement: 'must not be set' }
    case 'some-item':
      return { requirement: 'at least one item must match the pattern' }
    case 'match':
      return describeMatch(requirement.pattern, actual)
  }
}

function describeMatch(pattern: string | number | boolean | null, actual: unknown): RequirementText {
  if (pattern === null) return { requirement: 'must be unset or empty' }
  if (typeof pattern !== 'string') return { requirement: `must be ${String(pattern)}`, expected: pattern }
  const text = pattern.trim()
  if (text === '*') return { requirement: 'must be set' }
  if (text === '?*') return { requirement: 'must be set and not empty' }
  const negated = text.startsWith('!') ? text.slice(1).trim() : undefined
  if (negated !== undefined && !OPERATORS.test(negated)) {
    return { requirement: `must not ${containsWildcard(negated) ? 'match' : 'be'} ${JSON.stringify(negated)}` }
  }
  if (!OPERATORS.test(text) && !containsWildcard(text) && !RANGE.test(text)) {
    return { requirement: `must be ${JSON.stringify(text)}`, expected: typeof actual === 'string' ? text : literalOf(text) }
  }
  return { requirement: `must match ${JSON.stringify(pattern)}` }
}

/** Kyverno compares `"false"` with a boolean and `"2"` with a number by their text, so the compliant value is typed. */
function literalOf(text: string): unknown {
  if (text === 'true') return true
  if (text === 'false') return false
  if (NUMBER.test(text)) return Number(text)
  return text
}
