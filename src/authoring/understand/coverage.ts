import type { Rule } from '../../engine/index.js'
import type { Condition, Predicate, Requirement, ValueRef } from './requirement.js'

/**
 * Coverage: every number and every quoted or code literal of a requirement sentence must be used
 * by what the sentence became. Reading half of "minReplicas >= 2 and maxReplicas <= 20" is a
 * refusal naming the unused words, never a rule about one of them.
 */

const EXAMPLES = /\b(?:like|e\.g\.?|for example|for instance|such as|including)\s+[^.;:()]*/gi
/**
 * What the default or an unset field means: "(the default is 1)", "defaults to 360", "not set = 0",
 * "replicas unset (= 1)", "left out counts as 1". The number describes what Kubernetes or the tool
 * does, not a bound the author sets.
 */
/** "the default is Allow", "defaults to IfNotPresent": a value the platform picks, written as the word it is. */
const DEFAULT_WORD = /\b[Dd]efaults?(?:\s+(?:is|to|value is))?:?\s*[`"']?[A-Z][a-z]+[A-Za-z]*/g

/** "Kubernetes defaults backoffLimit to 6", "leaving it unset is fine, AWS uses 30": what the platform does, not a bound. */
const PLATFORM_DEFAULTS = /\bdefaults?\s+[`"']?[\w.]+[`"']?\s+to\s+[`"']?\d[\w.%]*|\b(?:unset|not set|left out|omitted|leaving it (?:unset|out))\b[^.;]*?\b(?:uses|assumes|picks|applies|means)\s+[`"']?\d[\w.%]*/gi

const DEFAULTS = /(?:\b(?:defaults?(?:\s+(?:is|are|of|to|value is))?:?|(?:not set|unset|omitted|missing|left out|leaving it out)\s*(?:=|means|counts as|is treated as|is))|\(\s*=)\s*[`"']?\d[\w.%]*[`"']?(?:\s*(?:and|or|,)\s*[`"']?\d[\w.%]*[`"']?)*/gi

/** "so one bad scrape can't page someone at 3am", "because it pins you to TLSv1": why, not what. */
const RATIONALE = /\b(?:because|since|so that|so (?=(?:one|they|we|you|it|nobody|no one|people|teams?)\b)|otherwise)\b[^.;]*/gi

/** The spans of `text` that illustrate or describe defaults; literals inside them are not content. */
function asideSpans(text: string, quoted: RegExp): Array<[number, number]> {
  // Quoted text is masked first, so a quote inside an example ("like \"s3:*\" or \"iam:*\"") ends nothing.
  const masked = text.replace(quoted, (match) => `"${'x'.repeat(Math.max(0, match.length - 2))}"`)
  const spans: Array<[number, number]> = []
  for (const pattern of [EXAMPLES, DEFAULTS, DEFAULT_WORD, PLATFORM_DEFAULTS, RATIONALE]) {
    for (const match of masked.matchAll(pattern)) spans.push([match.index, match.index + match[0].length])
  }
  return spans
}

/** Whether the character at `index` is inside an example, a default or a rationale of `text`. */
export function insideAside(text: string, index: number): boolean {
  return asideSpans(text, QUOTED).some(([start, end]) => index >= start && index < end)
}

const QUOTED = /`([^`]+)`|"([^"]+)"|(?<![\w])'([^'\s][^']*)'(?![\w])/g

/** The numbers (with their unit), constants' names, and the quoted or backticked literals a sentence writes. */
export function sentenceLiterals(text: string, enumWords: ReadonlySet<string> = NO_WORDS): string[] {
  const literals: string[] = []
  const quoted = /`([^`]+)`|"([^"]+)"|(?<![\w])'([^'\s][^']*)'(?![\w])/g
  // "short names like `nginx` or `redis:7`", "(e.g. CC-0042)", "the default is 1": they illustrate; they are not values to check.
  const spans = asideSpans(text, quoted)
  const aside = (index: number): boolean => spans.some(([start, end]) => index >= start && index < end)
  for (const match of text.matchAll(quoted)) {
    const literal = (match[1] ?? match[2] ?? match[3] ?? '').trim()
    if (literal !== '' && !aside(match.index)) literals.push(literal)
  }
  // A number standing as a word: "2", "20", "8 hours", "4Gi", "50%"; not part of a version (v1.19), an id (CVE-2022-0811) or a URL.
  const unquoted = text.replace(quoted, (match) => ' '.repeat(match.length))
  for (const token of unquoted.matchAll(/\S+/g)) {
    const bare = token[0].replace(/^[([{]+/, '').replace(/[)\]},;:.!?]+$/, '')
    if (/^\d+(?:\.\d+)?(?:%|[A-Za-z]{1,2}i?)?$/.test(bare) && !/^\d+(?:\.\d+){2,}/.test(bare) && !aside(token.index)) literals.push(bare)
    // "the python3.8 runtime", "t2.micro", "nodejs20.x": a name with a version or size in it is a value written as one.
    else if (/^[A-Za-z]+\d+(?:\.[A-Za-z0-9]+)+$/.test(bare) && !/^v\d/i.test(bare) && !aside(token.index)) literals.push(bare)
    // "a 40-character SHA", "a 12-hour window": the number of a compound adjective is as much a bound.
    else if (/^\d+(?:\.\d+)?-[A-Za-z]{3,}$/.test(bare) && !aside(token.index)) literals.push(bare.slice(0, bare.indexOf('-')))
    // "/var/log", "registry.acme.io/team": a path or an image repository written unquoted is a value written as one
    // (a prefix length such as "/16" is a number, counted as one above when it is used).
    else if (((/^\/[\w.-]+(?:\/[\w.-]+)*\/?$/.test(bare) && !/^\/\d+$/.test(bare)) || /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?\/[\w./-]+$/.test(bare)) && !aside(token.index)) literals.push(bare)
    // "CAP_NET_RAW", "NET_BIND_SERVICE": a constant's name written unquoted is as much a literal as a quoted one.
    else if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(bare) && !aside(token.index)) literals.push(bare)
    // "operator Exists": a value only a field of the judged kinds takes, unless a plain capitalised word opens the sentence.
    // A CamelCase value ("LoadBalancer", "RuntimeDefault") is one wherever it stands.
    else if (enumWords.has(bare) && (/[a-z][A-Z]/.test(bare) || !sentenceStart(unquoted, token.index)) && !aside(token.index)) literals.push(bare)
  }
  // "no more than ten keys", "at least two replicas": a bound written as a word is as much a number; it is used as its digits.
  // "At least one eviction" says there is some, which a rule may check without the number.
  for (const match of unquoted.matchAll(BOUND_WORD)) {
    if (match[1] !== undefined && !/^at\s+least\s+one$/i.test(match[0]) && !aside(match.index)) literals.push(match[1])
  }
  return literals
}

const NUMBER_WORD_VALUES: Record<string, number> = { zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, sixty: 60, hundred: 100 }
const BOUND_WORD = new RegExp(String.raw`\b(?:no\s+(?:more|fewer|less)\s+than|at\s+(?:most|least)|more\s+than|fewer\s+than|less\s+than|greater\s+than|up\s+to|a\s+(?:maximum|minimum)\s+of|exactly)\s+(${Object.keys(NUMBER_WORD_VALUES).join('|')})\b`, 'gi')

const NO_WORDS: ReadonlySet<string> = new Set()

function sentenceStart(text: string, index: number): boolean {
  return /(?:^|[.!?:]\s+|\n\s*(?:[-*]|\d+[.)])?\s*)$/.test(text.slice(0, index))
}

/** The strings a structured requirement uses: its fields, values, bounds, conditions and exemptions. */
export function requirementStrings(requirement: Requirement): string[] {
  // "every container in `containers`": the container lists a value is read in are used by it.
  const containerStrings = (ref: ValueRef): string[] => (ref.scope === 'container' ? ['containers', ...(ref.containers?.init ? ['initContainers'] : []), ...(ref.containers?.ephemeral ? ['ephemeralContainers'] : [])] : [])
  const refStrings = (ref: ValueRef): string[] => [ref.label, ...ref.variants.flatMap((variant) => variant.segments), ...(ref.list ?? []), ...containerStrings(ref)]
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
    case 'keysNoneStartWith':
      return predicate.values
    case 'listNoneMatching':
      return [...predicate.values, predicate.description]
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
    case 'namesElement':
      return [predicate.noun, ...predicate.list, ...predicate.where.flatMap((field) => [...field.segments, ...predicateStrings(field.predicate)])]
    default:
      return []
  }
}

/**
 * A named (catalog) rule uses what its parameters, scope, checks and description say (the
 * description names what it checks: "PASSWORD, SECRET, TOKEN, API_KEY"); not what its message or
 * remediation gives as an example ("for example cpu: 100m"): that checks nothing, so it must not
 * cover a bound the author wrote.
 */
export function ruleStrings(rule: Rule): string[] {
  return [JSON.stringify(rule, (key, value: unknown) => (PROSE_KEYS.has(key) ? undefined : value))]
}

const PROSE_KEYS = new Set(['message', 'messageExpression', 'remediation'])

/** The literals of `text` that none of `used` contains; a code literal counts as used when each of its names is. */
export function unusedLiterals(text: string, used: readonly string[], enumWords?: ReadonlySet<string>): string[] {
  const haystack = used.map((item) => item.toLowerCase())
  const isUsed = (word: string): boolean => {
    const lower = String(NUMBER_WORD_VALUES[word.toLowerCase()] ?? word.toLowerCase())
    // A number is used when a value holds that number, not merely its digits ("2" is not used by "20").
    const number = /^(\d+(?:\.\d+)?)(?:%|[a-z]{1,2}i?)?$/.exec(lower)?.[1]
    if (number !== undefined) return haystack.some((item) => new RegExp(String.raw`(?<![\d.])${number.replace('.', '\\.')}(?![\d])`).test(item))
    return haystack.some((item) => item === lower || item.includes(lower))
  }
  return sentenceLiterals(text, enumWords).filter((literal) => {
    // "LoadBalancer Services": a value a field takes is used only as that value, not as part of a longer name (`loadBalancerSourceRanges`).
    if (enumWords?.has(literal)) return !haystack.some((item) => item === literal.toLowerCase() || item.split(/[^a-z0-9]+/).includes(literal.toLowerCase()))
    // "`uses:`", "under `ghcr.io/acme-platform/`", "`./...`": the punctuation that ends a key or a prefix is not part of the name.
    const name = literal.replace(/(?:\.{3}|[/:.])+$/, '')
    if (isUsed(literal) || (name !== '' && isUsed(name))) return false
    const names = literal.split(/[^\w./*-]+/).filter((name) => /[A-Za-z0-9*]/.test(name))
    return names.length === 0 || !names.every(isUsed)
  })
}
