import type { Condition, Predicate, Requirement, Scalar, ValueRef } from './requirement.js'

/** One plain-English sentence saying what a compiled requirement checks. */
export function stateRequirement(requirement: Requirement): string {
  const subject = subjectPhrase(requirement)
  const values = requirement.values.map(valuePhrase)
  const joined = values.length <= 1 ? (values[0] ?? 'the value') : `${values.slice(0, -1).join(', ')} ${requirement.combine === 'any' ? 'or' : 'and'} ${values.at(-1) ?? ''}`
  const predicate = predicatePhrase(requirement.predicate, values.length > 1)
  const missing = missingPhrase(requirement)
  const conditions = requirement.conditions.map((condition) => `when ${conditionPhrase(condition)}`)
  const exemptions = requirement.exemptions.map((condition) => `unless ${conditionPhrase(condition)}`)
  const tail = [...conditions, ...exemptions].join(', ')
  return `${subject}${joined} ${predicate}${missing}${tail ? `, ${tail}` : ''}.`.replace(/^./, (first) => first.toUpperCase())
}

function subjectPhrase(requirement: Requirement): string {
  const scope = requirement.values[0]?.scope
  if (scope === 'container') {
    const set = requirement.values[0]?.containers
    const which = set?.init === false ? 'every app container' : set?.ephemeral === false ? 'every container and init container' : 'every container (init and ephemeral included)'
    return `In ${which}${kindsPhrase(requirement)}, `
  }
  if (scope === 'element') return `In every element of ${requirement.values[0]?.list?.join('.') ?? 'the list'}, `
  if (requirement.subject.platform === 'terraform') return `For every ${requirement.subject.kinds.join(' or ') || 'Terraform'} resource, `
  const kinds = requirement.subject.kinds
  return kinds.length > 0 ? `For ${kinds.join(', ')} objects, ` : ''
}

function kindsPhrase(requirement: Requirement): string {
  const kinds = requirement.subject.kinds
  return kinds.length > 0 ? ` of a ${kinds.join(' or ')}` : ''
}

function valuePhrase(ref: ValueRef): string {
  const path = ref.variants[0]?.segments.join('.').replace(/\.\[\]/g, '[]') ?? ref.label
  return `\`${path}\``
}

function list(values: readonly Scalar[], joiner = 'or'): string {
  const shown = values.map((value) => (typeof value === 'string' ? `"${value}"` : String(value)))
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} ${joiner} ${shown.at(-1) ?? ''}`
}

export function predicatePhrase(predicate: Predicate, plural = false): string {
  const be = plural ? 'must each be' : 'must be'
  switch (predicate.op) {
    case 'set':
      return 'must be set'
    case 'unset':
      return 'must not be set'
    case 'equals':
      return `${be} ${list([predicate.value])}`
    case 'oneOf':
      return `${be} one of ${list(predicate.values)}`
    case 'noneOf':
      return `must not be ${list(predicate.values)}`
    case 'compare':
      return predicate.bounds.map((bound) => `${be} ${comparisonWords(bound.cmp)} ${bound.display ?? bound.value}`).join(' and ')
    case 'format':
      return predicate.format === 'pattern' ? `${be === 'must be' ? 'must' : be.replace(/ be$/, '')} match the pattern ${predicate.pattern}` : `${be} ${FORMAT_WORDS[predicate.format]}`
    case 'notMatching':
      return `must not be ${predicate.description}`
    case 'keysNoneStartWith':
      return `must have no key starting with ${list(predicate.values)}`
    case 'listNoneMatching':
      return `must not have an entry ${predicate.description}`
    case 'startsWith':
      return `must start with ${list(predicate.values)}`
    case 'endsWith':
      return `must end with ${list(predicate.values)}`
    case 'notStartsWith':
      return `must not start with ${list(predicate.values)}`
    case 'notEndsWith':
      return `must not end with ${list(predicate.values)}`
    case 'contains':
      return `must contain ${list(predicate.values, 'and')}`
    case 'notContains':
      return `must not contain ${list(predicate.values)}`
    case 'compareField':
      return `${be} ${predicate.cmp === '==' ? 'equal to' : predicate.cmp === '!=' ? 'different from' : comparisonWords(predicate.cmp)} ${predicate.factor === undefined ? '' : `${predicate.factor} times `}${valuePhrase(predicate.other)}`
    case 'imageRegistry':
      return `must come from ${list(predicate.registries)}`
    case 'imageRegistryDenied':
      return `must not come from ${list(predicate.registries)}`
    case 'imageTag':
      return predicate.requirement === 'digest' ? 'must be pinned by a sha256 digest' : predicate.requirement === 'not-latest' ? 'must not use the latest tag (an untagged image is latest)' : 'must name an explicit tag other than latest, or a digest'
    case 'listNoneOf':
      return `must not include ${list(predicate.values)}`
    case 'listAllOf':
      return `must include ${list(predicate.values, 'and')}${predicate.capabilityNames ? ' (as a capability name: in any case, with or without `CAP_`)' : ''}`
    case 'listOnly':
      return `may only include ${list(predicate.values)}`
    case 'cidrPrefix':
      return `must be a CIDR range with a prefix of ${comparisonWords(predicate.cmp)} /${predicate.bits}`
    case 'namesElement':
      return `must be the name of ${/^[aeiou]/i.test(predicate.noun) ? 'an' : 'a'} ${predicate.noun} in \`${predicate.list.join('.')}\` whose ${predicate.where.map((field) => (field.predicate.op === 'unset' ? `${field.segments.join('.')} is not set` : `${field.segments.join('.')} ${predicatePhrase(field.predicate).replace(/^must be /, 'is ').replace(/^must /, '')}`)).join(' and ')}`
    case 'hasElement':
      return `must ${predicate.negated ? 'not ' : ''}have ${/s$/.test(predicate.noun) ? 'an entry' : `${/^[aeiou]/i.test(predicate.noun) ? 'an' : 'a'} ${predicate.noun}`} whose ${predicate.where.map((field) => (field.predicate.op === 'unset' ? `${field.segments.join('.')} is not set` : `${field.segments.join('.')} ${predicatePhrase(field.predicate).replace(/^must be /, 'is ').replace(/^must /, '')}`)).join(' and ')}`
  }
}

const FORMAT_WORDS: Record<string, string> = {
  email: 'an email address',
  'https-url': 'an https:// URL',
  url: 'a URL',
  semver: 'a semantic version (MAJOR.MINOR.PATCH)',
  'dns-label': 'lowercase letters, digits and dashes',
  date: 'a date formatted YYYY-MM-DD',
  'snake-case': 'snake_case',
  'kebab-case': 'kebab-case',
  lowercase: 'lowercase',
  sha: 'a full 40-character commit SHA',
  pattern: 'in the required format',
}

function comparisonWords(cmp: string): string {
  return cmp === '>=' ? 'at least' : cmp === '>' ? 'greater than' : cmp === '<=' ? 'at most' : 'less than'
}

function missingPhrase(requirement: Requirement): string {
  const op = requirement.predicate.op
  if (op === 'set' || op === 'unset') return ''
  return requirement.missing === 'pass' ? ' (unset is accepted)' : ' (unset fails)'
}

function conditionPhrase(condition: Condition): string {
  return `${valuePhrase(condition.value)} ${predicatePhrase(condition.predicate).replace(/^must be /, 'is ').replace(/^must not be /, 'is not ').replace(/^must /, '')}`
}
