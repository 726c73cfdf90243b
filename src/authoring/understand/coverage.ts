import type { Rule } from '../../engine/index.js'
import type { Condition, Predicate, Requirement, ValueRef } from './requirement.js'

/**
 * Coverage: every number and every quoted or code literal of a requirement sentence must be used
 * by what the sentence became. Reading half of "minReplicas >= 2 and maxReplicas <= 20" is a
 * refusal naming the unused words, never a rule about one of them.
 */

const EXAMPLES = /\b(?:like|e\.g\.?|for example|for instance|such as|including)\s+[^.;:()]*/gi

/** The numbers (with their unit) and the quoted or backticked literals a sentence writes. */
export function sentenceLiterals(text: string): string[] {
  const literals: string[] = []
  const quoted = /`([^`]+)`|"([^"]+)"|(?<![\w])'([^'\s][^']*)'(?![\w])/g
  // "short names like `nginx` or `redis:7`", "(e.g. CC-0042)": examples illustrate; they are not values to check.
  const stated = text.replace(EXAMPLES, ' ')
  for (const match of stated.matchAll(quoted)) {
    const literal = (match[1] ?? match[2] ?? match[3] ?? '').trim()
    if (literal !== '') literals.push(literal)
  }
  const unquoted = stated.replace(quoted, ' ')
  // A number standing as a word: "2", "20", "8 hours", "4Gi", "50%"; not part of a version (v1.19), an id (CVE-2022-0811) or a URL.
  for (const token of unquoted.split(/\s+/)) {
    const bare = token.replace(/^[([{]+/, '').replace(/[)\]},;:.!?]+$/, '')
    if (/^\d+(?:\.\d+)?(?:%|[A-Za-z]{1,2}i?)?$/.test(bare) && !/^\d+(?:\.\d+){2,}/.test(bare)) literals.push(bare)
  }
  return literals
}

/** The strings a structured requirement uses: its fields, values, bounds, conditions and exemptions. */
export function requirementStrings(requirement: Requirement): string[] {
  const refStrings = (ref: ValueRef): string[] => [ref.label, ...ref.variants.flatMap((variant) => variant.segments), ...(ref.list ?? [])]
  const conditionStrings = (condition: Condition): string[] => [...refStrings(condition.value), ...predicateStrings(condition.predicate), condition.text]
  return [
    ...requirement.subject.kinds,
    ...requirement.values.flatMap(refStrings),
    ...predicateStrings(requirement.predicate),
    ...requirement.conditions.flatMap(conditionStrings),
    ...requirement.exemptions.flatMap(conditionStrings),
  ]
}

function predicateStrings(predicate: Predicate): string[] {
  switch (predicate.op) {
    case 'equals':
      return [String(predicate.value)]
    case 'oneOf':
    case 'noneOf':
    case 'listNoneOf':
    case 'listAllOf':
    case 'listOnly':
      return predicate.values.map(String)
    case 'compare':
      return predicate.bounds.flatMap((bound) => [String(bound.value), bound.display ?? ''])
    case 'format':
      return [predicate.format, predicate.pattern]
    case 'notMatching':
      return [predicate.pattern, predicate.description]
    case 'startsWith':
    case 'endsWith':
    case 'notStartsWith':
    case 'notEndsWith':
    case 'contains':
    case 'notContains':
      return predicate.values
    case 'compareField':
      return [predicate.other.label, ...predicate.other.variants.flatMap((variant) => variant.segments), String(predicate.factor ?? '')]
    case 'imageRegistry':
    case 'imageRegistryDenied':
      return predicate.registries
    case 'imageTag':
      return [predicate.requirement, 'latest', 'sha256', 'digest']
    case 'cidrPrefix':
      return [String(predicate.bits)]
    case 'hasElement':
      return [predicate.noun, ...predicate.where.flatMap((field) => [...field.segments, ...predicateStrings(field.predicate)])]
    default:
      return []
  }
}

/** A named (catalog) rule uses what its parameters, scope and checks say. */
export function ruleStrings(rule: Rule): string[] {
  return [JSON.stringify(rule)]
}

/** The literals of `text` that none of `used` contains; a code literal counts as used when each of its names is. */
export function unusedLiterals(text: string, used: readonly string[]): string[] {
  const haystack = used.map((item) => item.toLowerCase())
  const isUsed = (word: string): boolean => {
    const lower = word.toLowerCase()
    // A number is used when a value holds that number, not merely its digits ("2" is not used by "20").
    const number = /^(\d+(?:\.\d+)?)(?:%|[a-z]{1,2}i?)?$/.exec(lower)?.[1]
    if (number !== undefined) return haystack.some((item) => new RegExp(String.raw`(?<![\d.])${number.replace('.', '\\.')}(?![\d])`).test(item))
    return haystack.some((item) => item === lower || item.includes(lower))
  }
  return sentenceLiterals(text).filter((literal) => {
    if (isUsed(literal)) return false
    const names = literal.split(/[^\w./*-]+/).filter((name) => /[A-Za-z0-9*]/.test(name))
    return names.length === 0 || !names.every(isUsed)
  })
}
