import { requirementStrings } from './coverage.js'
import type { Predicate, Requirement } from './requirement.js'

/**
 * "..., unless the flag is marked permanent: true", "except for routes whose path is /healthz": what is taken out.
 * Not the field `except` ("that ipBlock's except list", "it has except entries").
 */
const EXCEPTION = /(?<!\b(?:the|its|their|an?|has|have|with)\s+|'s\s+|`)\b(?!except\s+(?:lists?|entries|entry|fields?|keys?|arrays?|blocks?)\b)(?:unless|except(?:\s+(?:for|when|if|where|in|on))?|excepting|excluding|apart from|save for)\s+([^.;]+)/i

/** Exceptions the container modifiers and the absence qualifiers read (not exemptions of objects). */
const READ_ELSEWHERE = /^(?:the\s+|any\s+|its\s+)?(?:init|ephemeral|sidecar|debug)\b|\bcontainers?\b|\b(?:missing|absent|unset|not set|omitted|left out|empty)\b/i

/** Words of an exception that say nothing about which objects are exempt. */
const FILLER = new Set(['the', 'a', 'an', 'is', 'are', 'be', 'it', 'its', 'their', 'they', 'them', 'that', 'which', 'whose', 'of', 'for', 'in', 'on', 'to', 'with', 'has', 'have', 'where', 'when', 'if', 'or', 'and', 'one', 'ones', 'those', 'any', 'set', 'exactly', 'marked'])

/**
 * A requirement read from a clause that also takes something out of it ("auth.required must be
 * true, except for routes whose path is /healthz"), where nothing of the exception became an
 * exemption, a condition or a value the predicate allows: the rule would demand the requirement
 * of the excepted objects too (or, worse, the exception was read as the requirement). Returns
 * the exception's words, or undefined when it was read or is about containers or absence.
 */
export function unreadException(text: string, requirement: Requirement): string | undefined {
  const match = EXCEPTION.exec(text)
  const words = match?.[1]?.trim()
  if (!match || !words || READ_ELSEWHERE.test(words)) return undefined
  const scopes = [...requirement.conditions, ...requirement.exemptions]
  const used = new Set(
    [
      ...requirementStrings({ ...requirement, values: [], predicate: { op: 'set' } }).filter((_, index) => index >= requirement.subject.kinds.length),
      ...scopes.map((scope) => scope.text),
      ...allowedValues(requirement.predicate),
    ].flatMap(tokens),
  )
  const said = tokens(words).filter((token) => !FILLER.has(token))
  if (said.length === 0 || said.some((token) => used.has(token))) return undefined
  return match[0].trim()
}

/** Values a list predicate allows or names: "no registry except `a.io`" reads the exception as what is allowed. */
function allowedValues(predicate: Predicate): string[] {
  switch (predicate.op) {
    case 'oneOf':
    case 'noneOf':
    case 'listNoneOf':
    case 'listOnly':
    case 'listAllOf':
      return predicate.values.filter((value) => typeof value !== 'boolean').map(String)
    case 'startsWith':
    case 'endsWith':
    case 'notStartsWith':
    case 'notEndsWith':
    case 'contains':
    case 'notContains':
    case 'imageRegistry':
    case 'imageRegistryDenied':
      return 'values' in predicate ? predicate.values : predicate.registries
    case 'equals':
      return typeof predicate.value === 'boolean' ? [] : [String(predicate.value)]
    default:
      return []
  }
}

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9_./:*-]+/)
    .map((token) => token.replace(/^[./:-]+|[./:-]+$/g, ''))
    .filter((token) => token.length > 0)
}
