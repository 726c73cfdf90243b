import { RE2JS } from 're2js'
import type { Rule, Severity } from '../../../engine/index.js'
import { mentions, type Clause } from '../../text/clause.js'
import type { JsonValue } from '../named-requirement.js'
import { celString, celStringList } from '../pod-rule.js'
import type { Parameters, Recognition, SampleEdit, TemplateSamples } from '../rule-template.js'
import { ruleNameFrom } from '../rule-name.js'
import type { Options, Values, Vocabulary } from '../vocabulary.js'

/**
 * The pieces the generic JSON entries (entries/generic-json.ts) name: rules on one field of any
 * JSON document, addressed by a dotted path (`server.port`, `database.tls.enabled`,
 * `items[0].name`). One reader of clauses (`json-field-reading`) decides which of the entries a
 * clause asks for, and reads the field, the values and the conditions; `json-field` computes what
 * the entries' texts and CEL say of them; `json-field-rule` adds the conditions; and
 * `json-field-samples` makes the samples of every kind of check.
 *
 * Conditions skip the rule (match.conditions) rather than pass it, so reports say the rule did
 * not apply. "in prod configs" means: the document's top-level `environment` or `env` field
 * equals "prod", case-insensitively, or its usual long/short form ("production"); "when <path> is
 * <value>" compares that field exactly, typed like any value.
 */

type Scalar = string | number | boolean
type Segment = string | number

const NONE: Recognition = { score: 0, parameters: {}, missing: [] }

// ---------------------------------------------------------------------------------------------
// Reading clauses

const PATH = String.raw`(?:"[^"]+"|'[^']+'|\x60[^\x60]+\x60|[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*|\[\d+\])*)`
const LIST_SEPARATOR = String.raw`(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)`
const PATH_LIST = `(${PATH}(?:${LIST_SEPARATOR}${PATH})*)`
const FIELD_WORD = String.raw`(?:fields?|keys?|propert(?:y|ies)|attributes?|settings?|options?|entr(?:y|ies)|paths?|flags?|parameters?|variables?)`
const DOCUMENT = String.raw`(?:(?:json|yaml|config|configuration|app)\s+)?(?:configs?|configurations?|documents?|docs?|files?|json|objects?|payloads?|records?|manifests?|inputs?)`
const QUANTIFIER = String.raw`(?:(?:every|each|all|any|the|a|an)\s+)`
const SUBJECT = String.raw`(?:the\s+)?(?:(?:json|config|configuration|document)\s+)?(?:${FIELD_WORD}\s+)?(${PATH})(?:\s+${FIELD_WORD})?`
const SUBJECTS = String.raw`(?:the\s+)?(?:${FIELD_WORD}\s+)?${PATH_LIST}(?:\s+${FIELD_WORD})?`
const MODAL = String.raw`(?:must|should|shall|has to|have to|needs? to|is required to|are required to|(?:may|can)\s+only)`
const NEGATED_MODAL = String.raw`(?:must not|mustn't|must never|should not|shouldn't|should never|shall not|cannot|can't|can not|may not|may never|never|is not allowed to|are not allowed to)`
const VERB = `(${NEGATED_MODAL}|${MODAL})`
const VALUE = String.raw`("[^"]*"|'[^']*'|\x60[^\x60]*\x60|[^\s"'\x60,]+)`
const NUMBER = String.raw`(-?\d+(?:\.\d+)?)`
/** A unit after a bound is the author's gloss: "at most 300 seconds" bounds the number. */
const UNIT = String.raw`(?:\s*(?:%|percent|ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hours?|days?|bytes?|[kmgt]i?b|items?|connections?|replicas?|retries|times|requests?|workers?|threads?|instances?|nodes?|pods?|characters?|chars?))?`
const PRESENCE = String.raw`(?:set|present|defined|specified|provided|included|populated|given|configured|used|exist|there)`

const pattern = (source: string): RegExp => new RegExp(`^${source}$`, 'i')

/** Words that are never a field on their own: pronouns, quantifiers, the document itself. */
const NOT_A_FIELD = new Set(
  'it its they them this that these those there everything anything nothing all each every any some the a an no not must should value values field fields key keys config configs configuration configurations document documents doc docs file files json object objects payload payloads record records manifest manifests input inputs'.split(' '),
)

/** Single words after "must be" that describe a state or a type, not a value to compare with. */
const NOT_A_VALUE = new Set(
  'set present defined specified provided included populated given configured absent unset omitted missing removed empty blank null nil forbidden allowed disallowed prohibited banned required mandatory optional enabled disabled on off yes no valid invalid unique positive negative nonnegative non-negative lowercase uppercase numeric string number integer boolean array list object map used there true false one either any between'.split(' '),
)

/** Environments "in prod configs" may name without a noun after them. */
const KNOWN_ENVIRONMENTS = 'prod|production|staging|stage|dev|development|test|testing|qa|uat|sandbox|preprod|pre-prod|live|local|demo'
const ENVIRONMENT_ALIASES: Record<string, string[]> = {
  prod: ['prod', 'production'],
  production: ['production', 'prod'],
  dev: ['dev', 'development'],
  development: ['development', 'dev'],
  stage: ['stage', 'staging'],
  staging: ['staging', 'stage'],
  test: ['test', 'testing'],
  testing: ['testing', 'test'],
}
const ENVIRONMENT_NOUN = String.raw`(?:${DOCUMENT}|environments?|envs?|deployments?|clusters?|stages?|systems?|services?|settings)`
const ENVIRONMENT_WORD = String.raw`(?!(?:every|each|all|any|the|a|an|some)\b)([A-Za-z][\w-]*)`

/** Grammar words typo correction may restore ("requried" -> "required"); other words are kept as written. */
const KEYWORDS = new Set(
  'and required require requires mandatory present defined specified provided included populated configured forbidden forbid disallow disallowed prohibit prohibited allowed permitted between greater fewer lower smaller larger higher above below under least exceed exceeds maximum minimum match matches pattern regex regexp expression equal equals exactly either should field fields property properties attribute attributes setting settings option options config configs configuration configurations document documents contain contains include includes define defines specify never whenever where value values absent omitted missing exist exists inclusive through positive negative limited restricted'.split(' '),
)

/** The kinds of check a clause may ask of a field: each is one entry's (its `reads`). */
type Check = 'required' | 'forbidden' | 'equals' | 'one-of' | 'pattern' | 'range' | 'boolean'

/** What a clause says about a field. `kind` is the check, and so the entry, that owns the reading. */
interface Reading {
  kind: Check
  parameters: Parameters
  missing: string[]
}

/** Every generic JSON entry's recognizer reads every clause: each clause is read once. */
const readings = new WeakMap<Clause, Reading | null>()

function readClause(clause: Clause): Reading | undefined {
  let reading = readings.get(clause)
  if (reading === undefined) {
    reading = aboutKubernetes(clause) ? null : (readText(workingText(clause)) ?? null)
    readings.set(clause, reading)
  }
  return reading ?? undefined
}

/**
 * Without a platform label, clauses default to Kubernetes, where a generic field rule must not
 * take a clause that is about Kubernetes objects ("containers must be ...").
 */
function aboutKubernetes(clause: Clause): boolean {
  if (clause.platform !== 'kubernetes') return false
  return clause.kindsNamed || mentions(clause, /\b(containers?|images?|labels?|annotations?|registr(y|ies)|capabilit(y|ies)|privileged|probes?|volumes?|namespaces?|nodes?|clusters?)\b/)
}

/**
 * The clause as written (case and values intact), with only grammar words taken from the
 * normalized text, where typos were fixed: normalization keeps one token per token.
 */
function workingText(clause: Clause): string {
  const original = clause.text.replace(/[’‘]/g, "'").replace(/[“”]/g, '"').split(/\s+/)
  const normalized = clause.normalized.split(/\s+/)
  const words =
    original.length === normalized.length
      ? original.map((word, index) => {
          const fixed = normalized[index] ?? word
          return fixed !== word.toLowerCase() && KEYWORDS.has(fixed) ? fixed : word
        })
      : original
  return words.join(' ').replace(/[.!]+$/, '').trim()
}

interface Conditions {
  environment?: string
  whenField?: string
  whenValue?: Scalar
}

interface ConditionForm {
  regex: RegExp
  /** Which side of the clause it sits on. */
  at: 'start' | 'end'
  read: (match: RegExpExecArray) => Conditions | undefined
}

const WHEN_OPERATOR = String.raw`(?:is\s+set\s+to|is\s+equal\s+to|is|equals|==|=)`

const CONDITION_FORMS: ConditionForm[] = [
  // "in every config, ..." scopes nothing: every document is judged anyway.
  { regex: new RegExp(String.raw`^(?:in|for|on)\s+(?:every|each|all|any)\s+${DOCUMENT}\s*(?:,\s*|\s+)`, 'i'), at: 'start', read: () => ({}) },
  { regex: new RegExp(String.raw`\s*,?\s+(?:in|for|on)\s+(?:every|each|all|any)\s+${DOCUMENT}$`, 'i'), at: 'end', read: () => ({}) },
  {
    regex: new RegExp(String.raw`^(?:in|for|on)\s+(?:all\s+|every\s+|each\s+)?${ENVIRONMENT_WORD}\s+${ENVIRONMENT_NOUN}\s*(?:,\s*|\s+)`, 'i'),
    at: 'start',
    read: (match) => environmentCondition(match[1]),
  },
  {
    regex: new RegExp(String.raw`^(?:in|for)\s+(${KNOWN_ENVIRONMENTS})\s*(?:,\s*|\s+)`, 'i'),
    at: 'start',
    read: (match) => environmentCondition(match[1]),
  },
  {
    regex: new RegExp(String.raw`^(?:when|if|where|whenever|(?:in|for)\s+${DOCUMENT}\s+(?:where|with))\s+(${PATH})\s+${WHEN_OPERATOR}\s+${VALUE}\s*(?:,\s*then\s+|,\s*|\s+then\s+|\s+)`, 'i'),
    at: 'start',
    read: (match) => whenCondition(match[1], match[2]),
  },
  {
    regex: new RegExp(String.raw`\s*,?\s+(?:in|for|on)\s+(?:all\s+|every\s+|each\s+)?${ENVIRONMENT_WORD}\s+${ENVIRONMENT_NOUN}$`, 'i'),
    at: 'end',
    read: (match) => environmentCondition(match[1]),
  },
  {
    regex: new RegExp(String.raw`\s*,?\s+(?:in|for)\s+(${KNOWN_ENVIRONMENTS})$`, 'i'),
    at: 'end',
    read: (match) => environmentCondition(match[1]),
  },
  {
    regex: new RegExp(String.raw`\s*,?\s+(?:when|if|where|whenever)\s+(${PATH})\s+${WHEN_OPERATOR}\s+${VALUE}$`, 'i'),
    at: 'end',
    read: (match) => whenCondition(match[1], match[2]),
  },
]

function environmentCondition(word: string | undefined): Conditions | undefined {
  if (!word || NOT_A_FIELD.has(word.toLowerCase()) || new RegExp(`^${DOCUMENT}$`, 'i').test(word)) return undefined
  return { environment: word.toLowerCase() }
}

function whenCondition(path: string | undefined, value: string | undefined): Conditions | undefined {
  if (!path || value === undefined || !isField(path)) return undefined
  return { whenField: unquote(path), whenValue: scalar(value) }
}

/** The reading of a clause: conditions taken off either end, then the assertion about a field. */
function readText(text: string): Reading | undefined {
  // A condition is only one when what is left still says something ("must be in prod" is not).
  const attempts: Array<{ rest: string; conditions: Conditions }> = [{ rest: text, conditions: {} }]
  for (let index = 0; index < attempts.length && index < 8; index += 1) {
    const attempt = attempts[index]
    if (!attempt) break
    for (const form of CONDITION_FORMS) {
      const match = form.regex.exec(attempt.rest)
      if (!match) continue
      const found = form.read(match)
      if (!found || conflicts(attempt.conditions, found)) continue
      const rest = (form.at === 'start' ? attempt.rest.slice(match[0].length) : attempt.rest.slice(0, match.index)).trim()
      if (rest.length > 0) attempts.push({ rest, conditions: { ...attempt.conditions, ...found } })
    }
  }
  // The most conditions first: "debug must be false in prod configs" is about prod configs.
  const ordered = attempts.slice().sort((a, b) => Object.keys(b.conditions).length - Object.keys(a.conditions).length)
  for (const attempt of ordered) {
    const reading = readAssertion(attempt.rest)
    if (reading) return { ...reading, parameters: { ...reading.parameters, ...conditionParameters(attempt.conditions) } }
  }
  return undefined
}

function conditionParameters(conditions: Conditions): Parameters {
  const parameters: Parameters = {}
  if (conditions.environment !== undefined) parameters.environment = conditions.environment
  if (conditions.whenField !== undefined) parameters.whenField = conditions.whenField
  if (conditions.whenValue !== undefined) parameters.whenValue = conditions.whenValue
  return parameters
}

function conflicts(have: Conditions, found: Conditions): boolean {
  return (have.environment !== undefined && found.environment !== undefined) || (have.whenField !== undefined && found.whenField !== undefined)
}

type Reader = (text: string) => Reading | undefined

/** Order matters: numeric bounds and booleans are read before the catch-all "must be <value>". */
function readAssertion(text: string): Reading | undefined {
  for (const reader of [readRange, readBoolean, readPattern, readOneOf, readRequired, readForbidden, readEquals] as Reader[]) {
    const reading = reader(text)
    if (reading) return reading
  }
  return readRequiredAnd(text)
}

const REQUIRED_AND = new RegExp(String.raw`^(${SUBJECT})\s+(?:(?:is|are)\s+(?:required|mandatory)|${MODAL}\s+(?:be\s+)?${PRESENCE})\s*,?\s+and\s+(?:it\s+)?`, 'i')

/**
 * "name is required and must match ^[a-z]+$": every positive check already fails a missing
 * field, so the second half says it all. A prohibition would not ("required and must not be
 * debug" passes a missing field), so it is not read this way.
 */
function readRequiredAnd(text: string): Reading | undefined {
  const match = REQUIRED_AND.exec(text)
  if (!match?.[1]) return undefined
  const rest = text.slice(match[0].length)
  const reading = readAssertion(`${match[1]} ${/^(must|should|shall|has|have|needs?)\b/i.test(rest) ? '' : 'must '}${rest}`)
  return reading && reading.parameters.negate !== true && reading.kind !== 'forbidden' ? reading : undefined
}

// -- ranges

type Operator = '<=' | '>=' | '<' | '>'

const OPERATOR_PHRASES: Record<Operator, string[]> = {
  '<=': ['at most', 'no more than', 'not more than', 'no greater than', 'not greater than', 'no higher than', 'no larger than', 'less than or equal to', 'lower than or equal to', 'smaller than or equal to', 'up to', 'maximum of', 'maximum', 'max', '<=', '=<', '≤'],
  '>=': ['at least', 'no less than', 'not less than', 'no lower than', 'no fewer than', 'no smaller than', 'greater than or equal to', 'more than or equal to', 'higher than or equal to', 'larger than or equal to', 'minimum of', 'minimum', 'min', '>=', '=>', '≥'],
  '>': ['greater than', 'more than', 'larger than', 'higher than', 'bigger than', 'above', 'over', 'exceeds', 'exceed', '>'],
  '<': ['less than', 'lower than', 'smaller than', 'fewer than', 'below', 'under', '<'],
}
const OPERATOR_OF = new Map<string, Operator>(Object.entries(OPERATOR_PHRASES).flatMap(([operator, phrases]) => phrases.map((phrase) => [phrase, operator as Operator])))
const OPERATOR = `(${[...OPERATOR_OF.keys()]
  .sort((a, b) => b.length - a.length)
  .map((phrase) => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'))
  .join('|')})`
const INVERSE: Record<Operator, Operator> = { '<=': '>', '>=': '<', '<': '>=', '>': '<=' }

/** "may be at most 100" limits rather than permits: in a range, may and can are modal verbs too. */
const RANGE_VERB = `(${NEGATED_MODAL}|${MODAL}|may|can|will)`

const BETWEEN = pattern(String.raw`${SUBJECT}\s+(?:${RANGE_VERB}\s+)?(?:always\s+)?(?:be\s+|is\s+|are\s+|stay\s+|lie\s+|fall\s+)?(?:between|from|in\s+(?:the\s+)?range(?:\s+of)?|within(?:\s+the\s+range(?:\s+of)?)?)\s+${NUMBER}${UNIT}\s*(?:and|to|-|–|through|\.\.)\s*${NUMBER}${UNIT}(?:\s*\(?(inclusive|exclusive)\)?)?`)
const BOUNDS = pattern(String.raw`${SUBJECT}\s+(?:${RANGE_VERB}\s+(?:always\s+)?)?(?:be\s+|is\s+|are\s+|stay\s+|remain\s+)?${OPERATOR}\s+${NUMBER}${UNIT}(?:\s+(?:and|but)\s+(?:${RANGE_VERB}\s+)?(?:be\s+|is\s+)?${OPERATOR}\s+${NUMBER}${UNIT})?`)
const OR_MORE = pattern(String.raw`${SUBJECT}\s+(?:${RANGE_VERB}\s+)?(?:be\s+|is\s+)?${NUMBER}\s+or\s+(less|fewer|lower|below|smaller|under|more|greater|higher|above|larger|over)`)
const SIGN = pattern(String.raw`${SUBJECT}\s+${VERB}\s+(?:always\s+)?be\s+(?:a\s+)?(positive|negative|non-negative|nonnegative|non-positive|nonpositive)(?:\s+number)?`)
const LIMIT_FIRST = pattern(String.raw`(?:the\s+)?(maximum|max|minimum|min)\s+(?:value\s+)?(?:(?:of|for)\s+)?${SUBJECT}\s+(?:is\s+|=\s*|:\s*)?${NUMBER}`)

function readRange(text: string): Reading | undefined {
  const bounds: Bounds = {}
  let field: string | undefined
  let match = BETWEEN.exec(text)
  if (match) {
    // "must not be between" would be a hole in the range: not a bound a range check can state.
    if (isNegated(match[2])) return undefined
    field = match[1]
    const [low, high] = [Number(match[3]), Number(match[4])].sort((a, b) => a - b) as [number, number]
    if (match[5]?.toLowerCase() === 'exclusive') Object.assign(bounds, { exclusiveMinimum: low, exclusiveMaximum: high })
    else Object.assign(bounds, { minimum: low, maximum: high })
  } else if ((match = BOUNDS.exec(text))) {
    field = match[1]
    const first = operatorOf(match[3], match[2])
    if (!first || !addBound(bounds, first, Number(match[4]))) return undefined
    if (match[7] !== undefined) {
      const second = operatorOf(match[6], match[5] ?? match[2])
      if (!second || !addBound(bounds, second, Number(match[7]))) return undefined
    }
  } else if ((match = OR_MORE.exec(text))) {
    if (isNegated(match[2])) return undefined
    field = match[1]
    addBound(bounds, /less|fewer|lower|below|smaller|under/i.test(match[4] ?? '') ? '<=' : '>=', Number(match[3]))
  } else if ((match = SIGN.exec(text))) {
    field = match[1]
    const sign = (match[3] ?? '').toLowerCase().replace('-', '')
    const positive: Record<string, Operator> = { positive: '>', negative: '<', nonnegative: '>=', nonpositive: '<=' }
    const operator = positive[sign]
    if (!operator) return undefined
    addBound(bounds, isNegated(match[2]) ? INVERSE[operator] : operator, 0)
  } else if ((match = LIMIT_FIRST.exec(text))) {
    field = match[2]
    addBound(bounds, /^max/i.test(match[1] ?? '') ? '<=' : '>=', Number(match[3]))
  }
  if (!field || !isField(field) || Object.keys(bounds).length === 0 || !consistent(bounds)) return undefined
  return { kind: 'range', parameters: { field: unquote(field), ...(bounds as Parameters) }, missing: [] }
}

interface Bounds {
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
}

function operatorOf(phrase: string | undefined, verb: string | undefined): Operator | undefined {
  const operator = OPERATOR_OF.get((phrase ?? '').toLowerCase().replace(/\s+/g, ' '))
  if (!operator) return undefined
  return isNegated(verb) ? INVERSE[operator] : operator
}

function isNegated(verb: string | undefined): boolean {
  return verb !== undefined && new RegExp(`^${NEGATED_MODAL}$`, 'i').test(verb)
}

function addBound(bounds: Bounds, operator: Operator, value: number): boolean {
  const key = ({ '<=': 'maximum', '>=': 'minimum', '<': 'exclusiveMaximum', '>': 'exclusiveMinimum' } as const)[operator]
  const sameSide = operator === '<=' || operator === '<' ? ['maximum', 'exclusiveMaximum'] : ['minimum', 'exclusiveMinimum']
  if (sameSide.some((name) => bounds[name as keyof Bounds] !== undefined)) return false
  bounds[key] = value
  return true
}

/** A range no number satisfies is a misreading, not a rule. */
function consistent(bounds: Bounds): boolean {
  const low = bounds.minimum ?? bounds.exclusiveMinimum
  const high = bounds.maximum ?? bounds.exclusiveMaximum
  if (low === undefined || high === undefined) return true
  return bounds.minimum !== undefined && bounds.maximum !== undefined ? low <= high : low < high
}

// -- booleans

const BOOLEAN = pattern(String.raw`${SUBJECT}\s+${VERB}\s+(?:always\s+)?(?:be\s+set\s+to|be\s+equal\s+to|be|equal|equal\s+to|==|=)\s+(true|false)`)
const BOOLEAN_OPERATOR = pattern(String.raw`${SUBJECT}\s*(==|=|!=|\s+equals\s+|\s+is\s+set\s+to\s+)\s*(true|false)`)

/**
 * "enabled" is the boolean true. "disabled" (or "not enabled") is anything but true, so a flag
 * left out, which every config reads as off, passes.
 */
const BOOLEAN_STATE = pattern(String.raw`${SUBJECT}\s+${VERB}\s+(?:always\s+)?(?:be\s+)?(?:(?:turned|switched|set)\s+)?(enabled|disabled|on|off|active|inactive)`)

function readBoolean(text: string): Reading | undefined {
  const state = BOOLEAN_STATE.exec(text)
  if (state?.[1] && isField(state[1])) {
    const enabled = /^(enabled|on|active)$/i.test(state[3] ?? '') !== isNegated(state[2])
    return { kind: 'boolean', parameters: { field: unquote(state[1]), value: true, negate: !enabled }, missing: [] }
  }
  let match = BOOLEAN.exec(text)
  let negate = false
  if (match) negate = isNegated(match[2])
  else if ((match = BOOLEAN_OPERATOR.exec(text))) negate = match[2]?.trim() === '!='
  if (!match || !match[1] || !isField(match[1])) return undefined
  return { kind: 'boolean', parameters: { field: unquote(match[1]), value: (match[3] ?? '').toLowerCase() === 'true', negate }, missing: [] }
}

// -- patterns

const MATCHES = pattern(String.raw`${SUBJECT}\s+(?:${VERB}\s+(?:always\s+)?)?(?:match(?:es)?|follows?|conforms?\s+to|satisf(?:y|ies)|=~|!~)\s+(?:(?:the|this|a)\s+)?(?:(?:regular\s+expression|regex|regexp|pattern|format)\s*:?\s+)?(.+)`)

function readPattern(text: string): Reading | undefined {
  const match = MATCHES.exec(text)
  if (!match || !match[1] || !isField(match[1])) return undefined
  const negate = isNegated(match[2]) || /\s!~\s/.test(text)
  const written = (match[3] ?? '').trim()
  const regex = unquote(written.length > 2 && written.startsWith('/') && written.endsWith('/') ? written.slice(1, -1) : written)
  const parameters: Parameters = { field: unquote(match[1]), pattern: regex, negate }
  return { kind: 'pattern', parameters, missing: compiles(regex) ? [] : ['pattern'] }
}

function compiles(regex: string): boolean {
  if (regex === '') return false
  try {
    RE2JS.compile(regex)
    return true
  } catch {
    return false
  }
}

// -- one of

const ONE_OF = pattern(String.raw`${SUBJECT}\s+${VERB}\s+(?:always\s+)?(?:be\s+)?(?:one\s+of|any\s+of|in|among|either)\b\s*:?\s*(?:the\s+(?:values?|set|list)\s+)?(.+)`)
const LISTED = pattern(String.raw`${SUBJECT}\s+${VERB}\s+(?:be|equal)\s+(.+)`)
const ALLOWED_VALUES = pattern(String.raw`(?:the\s+)?(?:only\s+)?(?:allowed|valid|permitted|accepted)\s+values\s+(?:for|of)\s+${SUBJECT}\s*(?:are|is|:)\s*(.+)`)
const LIMITED_TO = pattern(String.raw`${SUBJECT}\s+(?:${MODAL}\s+be\s+|is\s+|are\s+)?(?:limited|restricted)\s+to\s+(?:one\s+of\s+)?(.+)`)

function readOneOf(text: string): Reading | undefined {
  let field: string | undefined
  let negate = false
  let values: Scalar[] | undefined
  let match = ONE_OF.exec(text)
  if (match) {
    ;[field, negate, values] = [match[1], isNegated(match[2]), valueList(match[3] ?? '')]
  } else if ((match = LISTED.exec(text))) {
    const listed = valueList(match[3] ?? '')
    // "must be info" is a single value (json-field-equals); a list needs two.
    if (!listed || listed.length < 2) return undefined
    ;[field, negate, values] = [match[1], isNegated(match[2]), listed]
  } else if ((match = ALLOWED_VALUES.exec(text) ?? LIMITED_TO.exec(text))) {
    ;[field, values] = [match[1], valueList(match[2] ?? '')]
  }
  if (!field || !values || values.length === 0 || !isField(field)) return undefined
  const numeric = values.every((value) => typeof value === 'number')
  const listed = numeric ? (values as number[]) : values.map(String)
  return { kind: 'one-of', parameters: { field: unquote(field), values: listed, negate }, missing: [] }
}

/** "dev, staging or prod", "[1, 2, 3]", "'a b' | c": single-word or quoted items only. */
function valueList(text: string): Scalar[] | undefined {
  const body = text.trim().replace(/^[[({]\s*/, '').replace(/\s*[\])}]$/, '')
  if (body === '') return undefined
  const items = body.split(/\s*,\s*(?:(?:and|or)\s+)?|\s+(?:or|and)\s+|\s*\|\s*/)
  if (items.some((item) => item === '' || (/\s/.test(item) && !/^(["'`]).*\1$/.test(item)))) return undefined
  const values = items.map(scalar)
  if (values.some((value) => typeof value === 'string' && NOT_A_VALUE.has(value.toLowerCase()) && !items.some((item) => /^["'`]/.test(item)))) return undefined
  return [...new Set(values)]
}

// -- presence

const REQUIRE = pattern(String.raw`(?:require[sd]?|mandate)\s+(?:that\s+)?${SUBJECTS}(?:\s+(?:to\s+)?be\s+${PRESENCE})?`)
const IS_REQUIRED = pattern(String.raw`${SUBJECTS}\s+(?:(?:is|are)\s+(?:always\s+)?|${MODAL}\s+be\s+)(?:required|mandatory|compulsory)`)
const MUST_BE_SET = pattern(String.raw`${SUBJECTS}\s+${MODAL}\s+(?:always\s+)?(?:be\s+)?${PRESENCE}`)
const DOCUMENT_HAS = pattern(String.raw`${QUANTIFIER}?${DOCUMENT}\s+(?:${MODAL}\s+)?(?:have|has|contain|contains|include|includes|define|defines|set|sets|specify|specifies|declare|declares|provide|provides|needs?|requires?)\s+(?:a\s+|an\s+|the\s+)?(?:${FIELD_WORD}\s+)?(?:(?:named|called)\s+)?${PATH_LIST}(?:\s+${FIELD_WORD})?`)

function readRequired(text: string): Reading | undefined {
  const match = REQUIRE.exec(text) ?? IS_REQUIRED.exec(text) ?? MUST_BE_SET.exec(text) ?? DOCUMENT_HAS.exec(text)
  const fields = match ? fieldList(match[1]) : undefined
  return fields ? { kind: 'required', parameters: { fields }, missing: [] } : undefined
}

const NO_FIELD = pattern(String.raw`(?:no|never\s+(?:a|any))\s+${FIELD_WORD}\s+(?:(?:named|called)\s+)?${PATH_LIST}(?:\s+(?:is|are|may\s+be)\s+(?:allowed|permitted))?`)
const NO_NAMED_FIELD = pattern(String.raw`no\s+${PATH_LIST}\s+${FIELD_WORD}(?:\s+(?:is|are|may\s+be)\s+(?:allowed|permitted))?`)
const MUST_NOT_BE_SET = pattern(String.raw`${SUBJECTS}\s+${NEGATED_MODAL}\s+(?:be\s+)?${PRESENCE}`)
const IS_FORBIDDEN = pattern(String.raw`${SUBJECTS}\s+(?:(?:is|are)\s+|${MODAL}\s+be\s+)(?:forbidden|not\s+allowed|disallowed|prohibited|banned|not\s+permitted|absent|unset|omitted|removed)`)
const FORBID = pattern(String.raw`(?:forbid|disallow|prohibit|ban|reject|deny|(?:do\s+not|don't|dont|never)\s+(?:set|define|include|specify|use|add))\s+${SUBJECTS}`)
const DOCUMENT_LACKS = pattern(String.raw`${QUANTIFIER}?${DOCUMENT}\s+${NEGATED_MODAL}\s+(?:have|contain|include|define|set|specify|declare)\s+(?:a\s+|an\s+|the\s+|any\s+)?(?:${FIELD_WORD}\s+)?(?:(?:named|called)\s+)?${PATH_LIST}(?:\s+${FIELD_WORD})?`)
const NO_DOCUMENT_HAS = pattern(String.raw`no\s+${DOCUMENT}\s+(?:may|can|should|must|shall)\s+(?:have|contain|include|define|set|specify|declare)\s+(?:a\s+|an\s+|the\s+|any\s+)?(?:${FIELD_WORD}\s+)?${PATH_LIST}(?:\s+${FIELD_WORD})?`)

function readForbidden(text: string): Reading | undefined {
  const forms = [NO_FIELD, NO_NAMED_FIELD, MUST_NOT_BE_SET, IS_FORBIDDEN, FORBID, DOCUMENT_LACKS, NO_DOCUMENT_HAS]
  for (const form of forms) {
    const match = form.exec(text)
    const fields = match ? fieldList(match[1]) : undefined
    if (fields) return { kind: 'forbidden', parameters: { fields }, missing: [] }
  }
  return undefined
}

function fieldList(text: string | undefined): string[] | undefined {
  if (!text) return undefined
  const fields = text.split(new RegExp(LIST_SEPARATOR, 'i')).map((field) => field.trim())
  if (fields.length === 0 || !fields.every(isField)) return undefined
  return [...new Set(fields.map(unquote))]
}

// -- equality

const EQUALS = pattern(String.raw`${SUBJECT}\s+${VERB}\s+(?:always\s+)?(?:be\s+set\s+to|be\s+equal\s+to|equal\s+to|be\s+exactly|equal|equals|be|==|=|!=)\s+${VALUE}`)
const EQUALS_OPERATOR = pattern(String.raw`${SUBJECT}\s*(==|=|!=|\s+equals\s+|\s+is\s+set\s+to\s+)\s*${VALUE}`)

function readEquals(text: string): Reading | undefined {
  let match = EQUALS.exec(text)
  let negate = false
  if (match) negate = isNegated(match[2])
  else if ((match = EQUALS_OPERATOR.exec(text))) negate = match[2]?.trim() === '!='
  const written = match?.[3]
  if (!match || !match[1] || written === undefined || !isField(match[1])) return undefined
  if (!/^["'`]/.test(written) && NOT_A_VALUE.has(written.toLowerCase())) return undefined
  return { kind: 'equals', parameters: { field: unquote(match[1]), value: scalar(written), negate }, missing: [] }
}

// -- values and paths

function unquote(text: string): string {
  return text.replace(/^(["'`])(.*)\1$/, '$2')
}

/** A value as typed by the author: quoted text stays a string. */
function scalar(written: string): Scalar {
  const quotedValue = /^(["'`])(.*)\1$/.exec(written)
  if (quotedValue) return quotedValue[2] ?? ''
  if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(written)) return Number(written)
  if (/^(true|false)$/i.test(written)) return written.toLowerCase() === 'true'
  return written
}

function isField(written: string): boolean {
  if (/^["'`]/.test(written)) return unquote(written).trim() !== ''
  return !NOT_A_FIELD.has(written.toLowerCase()) && !new RegExp(`^${DOCUMENT}$`, 'i').test(written)
}

function segmentsOf(path: string): Segment[] {
  const segments: Segment[] = []
  for (const part of path.split('.')) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part)
    if (!match) {
      segments.push(part)
      continue
    }
    if (match[1]) segments.push(match[1])
    for (const index of (match[2] ?? '').matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]))
  }
  return segments
}

const CEL_RESERVED = new Set('as break const continue else false for function if import in let loop package namespace null return true var void while'.split(' '))

/** An optional of the field's value: `object.?a.?b[?0]`, `object[?'cost-center']`. */
function celField(path: string): string {
  let expression = 'object'
  for (const segment of segmentsOf(path)) {
    if (typeof segment === 'number') expression += `[?${segment}]`
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment) && !CEL_RESERVED.has(segment)) expression += `.?${segment}`
    else expression += `[?${celString(segment)}]`
  }
  return expression
}

/** The field's value, null when it or any object on the way is missing. */
function celValue(path: string): string {
  return `${celField(path)}.orValue(null)`
}

function celLiteral(value: Scalar): string {
  if (typeof value === 'string') return celString(value)
  if (typeof value === 'boolean') return String(value)
  return String(value)
}

function celDouble(value: number): string {
  const text = String(value)
  return /^-?\d+$/.test(text) ? `${text}.0` : text
}

/** What was found, for messages: the value as CEL prints it, or "missing". */
function celFound(value: string): string {
  return `(${value} == null ? 'missing' : '%s'.format([${value}]))`
}

function shown(value: Scalar): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value)
}

// ---------------------------------------------------------------------------------------------
// Rules

function conditionsOf(parameters: Parameters): Conditions {
  const conditions: Conditions = {}
  if (typeof parameters.environment === 'string' && parameters.environment !== '') conditions.environment = parameters.environment
  if (typeof parameters.whenField === 'string' && parameters.whenField !== '') {
    const value = parameters.whenValue
    conditions.whenField = parameters.whenField
    conditions.whenValue = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : ''
  }
  return conditions
}

function environmentNames(environment: string): string[] {
  return ENVIRONMENT_ALIASES[environment] ?? [environment]
}

/** Words appended to titles and messages: " in prod documents", " when environment is prod". */
function conditionText(conditions: Conditions): string {
  const parts: string[] = []
  if (conditions.environment) parts.push(` in ${conditions.environment} documents`)
  if (conditions.whenField !== undefined) parts.push(` when ${conditions.whenField} is ${shown(conditions.whenValue ?? '')}`)
  return parts.join('')
}

function conditionName(conditions: Conditions): string[] {
  const parts: string[] = []
  if (conditions.environment) parts.push('in', conditions.environment)
  if (conditions.whenField !== undefined) parts.push('when', conditions.whenField, String(conditions.whenValue))
  return parts
}

interface FieldRuleOptions {
  nameParts: string[]
  description: string
  severity: Severity
  expression: string
  message: string
  messageExpression?: string
  remediation: string
  variables?: Array<{ name: string; expression: string }>
}

function fieldRule(parameters: Parameters, options: FieldRuleOptions): Rule {
  const conditions = conditionsOf(parameters)
  const suffix = conditionText(conditions)
  const message = `${options.message}${suffix}`
  const rule: Rule = {
    name: ruleName([...options.nameParts, ...conditionName(conditions)]),
    description: `${options.description}${suffix ? ` Applies${suffix}.` : ''}`,
    severity: options.severity,
    validate: {
      cel: [
        {
          expression: options.expression,
          message,
          ...(options.messageExpression ? { messageExpression: `${celString(`${message}: `)} + ${options.messageExpression}` } : {}),
        },
      ],
    },
    message,
    remediation: options.remediation,
  }
  const matchConditions: Array<{ name: string; expression: string }> = []
  if (conditions.environment) {
    matchConditions.push({
      name: `environment-is-${conditions.environment}`,
      expression: `[object.?environment.orValue(null), object.?env.orValue(null)].exists(e, type(e) == string && e.lowerAscii() in ${celStringList(environmentNames(conditions.environment))})`,
    })
  }
  if (conditions.whenField !== undefined) {
    matchConditions.push({ name: `when-${conditions.whenField}`, expression: `${celValue(conditions.whenField)} == ${celLiteral(conditions.whenValue ?? '')}` })
  }
  if (matchConditions.length > 0) rule.match = { conditions: matchConditions }
  if (options.variables) rule.variables = options.variables
  return rule
}

/** A DNS-label-like rule name from the parameters. */
function ruleName(parts: readonly string[]): string {
  return ruleNameFrom(parts, 'json-field')
}

// Parameter accessors: rule() and samples() receive what recognize() produced, or an author's edit.

function textParameter(parameters: Values, name: string, fallback = ''): string {
  const value = parameters[name]
  return typeof value === 'string' ? value : fallback
}

function scalarParameter(parameters: Values, name: string): Scalar {
  const value = parameters[name]
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : ''
}

function flag(parameters: Values, name: string): boolean {
  return parameters[name] === true
}

function textList(parameters: Values, name: string): string[] {
  const value = parameters[name]
  if (typeof value === 'string') return [value]
  return Array.isArray(value) ? value.map(String) : []
}

function numberParameter(parameters: Values, name: string): number | undefined {
  const value = parameters[name]
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

function boundsOf(parameters: Values): Bounds {
  const bounds: Bounds = {}
  for (const name of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'] as const) {
    const value = numberParameter(parameters, name)
    if (value !== undefined) bounds[name] = value
  }
  return bounds
}

// ---------------------------------------------------------------------------------------------
// Samples

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Sets a field, creating the objects and arrays on the way (replacing anything else there). */
function setField(document: Json, path: string, value: unknown): void {
  const segments = segmentsOf(path)
  let current: Json | unknown[] = document
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1
    const next = segments[index + 1]
    const container = current as Record<string | number, unknown>
    if (last) {
      container[segment] = value
      return
    }
    const existing = container[segment]
    const fits = typeof next === 'number' ? Array.isArray(existing) : isObject(existing)
    if (!fits) container[segment] = typeof next === 'number' ? [] : {}
    const child = container[segment] as Json | unknown[]
    if (Array.isArray(child) && typeof next === 'number') while (child.length <= next) child.push({})
    current = child
  })
}

function deleteField(document: Json, path: string): void {
  const segments = segmentsOf(path)
  let current: unknown = document
  for (const segment of segments.slice(0, -1)) {
    if (!isObject(current) && !Array.isArray(current)) return
    current = (current as Record<string | number, unknown>)[segment]
  }
  const last = segments[segments.length - 1]
  if (last === undefined) return
  if (Array.isArray(current) && typeof last === 'number') current.splice(last, 1)
  else if (isObject(current)) delete current[String(last)]
}

function hasField(document: Json, path: string): boolean {
  let current: unknown = document
  for (const segment of segmentsOf(path)) {
    if (!isObject(current) && !Array.isArray(current)) return false
    current = (current as Record<string | number, unknown>)[segment]
  }
  return current !== undefined && current !== null
}

/** Good edits that make the rule apply: the document is in the environment, the `when` field holds. */
function conditionEdits(parameters: Parameters): SampleEdit[] {
  const conditions = conditionsOf(parameters)
  const edits: SampleEdit[] = []
  const environment = conditions.environment
  if (environment) {
    edits.push((document) => {
      const current = [document.environment, document.env].find((value) => typeof value === 'string')
      if (typeof current !== 'string' || !environmentNames(environment).includes(current.toLowerCase())) document.environment = environment
    })
  }
  const whenField = conditions.whenField
  if (whenField !== undefined) edits.push((document) => setField(document, whenField, conditions.whenValue))
  return edits
}

function samplesWith(parameters: Parameters, samples: TemplateSamples): TemplateSamples {
  return { good: [...conditionEdits(parameters), ...samples.good], bad: samples.bad }
}

function differentValue(value: Scalar): Scalar {
  if (typeof value === 'boolean') return !value
  if (typeof value === 'number') return value + 1
  return value === 'other' ? 'another' : 'other'
}

function matchesRegex(regex: string, text: string): boolean {
  try {
    return RE2JS.compile(regex).test(text)
  } catch {
    return false
  }
}

const NON_MATCHING_CANDIDATES = ['', '!', '#not a match#', 'Z', '0', 'sample', 'v1']
const MATCHING_CANDIDATES = ['v1', 'v1.0.0', '1.0.0', 'sample', 'a', 'A', '0', 'abc-123', 'example.com']

/** A string that matches a pattern: built from the pattern's first choices, else a common guess. */
function stringMatching(regex: string): string | undefined {
  const built = exampleOf(regex)
  if (built !== undefined && matchesRegex(regex, built)) return built
  return MATCHING_CANDIDATES.find((candidate) => matchesRegex(regex, candidate))
}

function stringNotMatching(regex: string): string | undefined {
  return NON_MATCHING_CANDIDATES.find((candidate) => !matchesRegex(regex, candidate))
}

/**
 * A string from the first alternative of each choice of a regular expression, each repeated
 * the fewest times its quantifier allows (at least once for `+`). Good enough for the patterns
 * authors write for versions, names and ids; the caller checks the result.
 */
function exampleOf(regex: string): string | undefined {
  let position = 0
  const parseAlternatives = (): string => {
    const first = parseSequence()
    while (regex[position] === '|') {
      position += 1
      parseSequence()
    }
    return first
  }
  const parseSequence = (): string => {
    let out = ''
    while (position < regex.length && regex[position] !== '|' && regex[position] !== ')') {
      const atom = parseAtom()
      out += atom.repeat(parseQuantifier())
    }
    return out
  }
  const parseAtom = (): string => {
    const char = regex[position] ?? ''
    position += 1
    if (char === '^' || char === '$') return ''
    if (char === '.') return 'a'
    if (char === '(') {
      if (regex[position] === '?') {
        const named = /^\?(?:P?<[^>]+>|:|[imsU-]+:)/.exec(regex.slice(position))
        position += named ? named[0].length : 1
      }
      const inner = parseAlternatives()
      position += 1
      return inner
    }
    if (char === '[') return parseClass()
    if (char === '\\') {
      const escaped = regex[position] ?? ''
      position += 1
      const classes: Record<string, string> = { d: '0', w: 'a', s: ' ', D: 'a', W: '-', S: 'a', b: '', B: '', A: '', z: '' }
      return classes[escaped] ?? escaped
    }
    return char
  }
  const parseClass = (): string => {
    const negated = regex[position] === '^'
    if (negated) position += 1
    const members: string[] = []
    let first = true
    while (position < regex.length && (regex[position] !== ']' || first)) {
      first = false
      let char = regex[position] ?? ''
      position += 1
      if (char === '\\') {
        char = ({ d: '0', w: 'a', s: ' ' } as Record<string, string>)[regex[position] ?? ''] ?? regex[position] ?? ''
        position += 1
      }
      if (regex[position] === '-' && regex[position + 1] !== ']' && position + 1 < regex.length) {
        const end = regex[position + 1] ?? char
        position += 2
        for (let code = char.charCodeAt(0); code <= end.charCodeAt(0) && members.length < 500; code += 1) members.push(String.fromCharCode(code))
      } else {
        members.push(char)
      }
    }
    position += 1
    if (!negated) return members[0] ?? 'a'
    return ['a', '0', 'x', '-', '_'].find((candidate) => !members.includes(candidate)) ?? 'a'
  }
  /** How many times to repeat the atom before it: the least its quantifier allows. */
  const parseQuantifier = (): number => {
    const char = regex[position]
    let least: number
    if (char === '*' || char === '?') least = 0
    else if (char === '+') least = 1
    else if (char === '{') {
      const match = /^\{(\d+)(?:,\d*)?\}/.exec(regex.slice(position))
      if (!match) return 1
      least = Number(match[1])
      position += match[0].length - 1
    } else return 1
    position += 1
    // A lazy quantifier (x+?) repeats as few times as a greedy one here.
    if (regex[position] === '?') position += 1
    return least
  }
  try {
    return parseAlternatives()
  } catch {
    return undefined
  }
}

/** A number inside the bounds, preferring a whole one near the middle. */
function numberInside(bounds: Bounds): number {
  const inside = (value: number): boolean =>
    (bounds.minimum === undefined || value >= bounds.minimum) &&
    (bounds.maximum === undefined || value <= bounds.maximum) &&
    (bounds.exclusiveMinimum === undefined || value > bounds.exclusiveMinimum) &&
    (bounds.exclusiveMaximum === undefined || value < bounds.exclusiveMaximum)
  const low = bounds.minimum ?? bounds.exclusiveMinimum
  const high = bounds.maximum ?? bounds.exclusiveMaximum
  const middle = low !== undefined && high !== undefined ? (low + high) / 2 : low !== undefined ? low + 1 : high !== undefined ? high - 1 : 0
  return [Math.round(middle), Math.floor(middle), Math.ceil(middle), middle, low ?? 0, high ?? 0].find(inside) ?? middle
}
// ---------------------------------------------------------------------------------------------
// Pieces

const CHECKS: readonly Check[] = ['required', 'forbidden', 'equals', 'one-of', 'pattern', 'range', 'boolean']

function checkOf(options: Options): Check {
  const check = CHECKS.find((each) => each === options.check)
  if (!check) throw new Error(`a generic JSON catalog entry names the check ${JSON.stringify(options.check)}, not one of ${CHECKS.join(', ')}`)
  return check
}

function optionText(options: Options, name: string): string {
  const value = options[name]
  if (typeof value !== 'string') throw new Error(`a generic JSON catalog entry's rule needs the text "${name}"`)
  return value
}

/** Words of a rule name: scalars as text, lists (a placeholder's) flattened. */
function nameWords(value: JsonValue | undefined): string[] {
  if (Array.isArray(value)) return (value as readonly JsonValue[]).flatMap(nameWords)
  return value === null || value === undefined || typeof value === 'object' ? [] : [String(value)]
}

/** Inside a filter over field names `f`: the names whose field compares so with null. */
function byName(fields: readonly string[], comparison: '==' | '!='): string {
  return fields.map((field) => `(f == ${celString(field)} && ${celValue(field)} ${comparison} null)`).join(' || ')
}

/** The values of a one-of list: numbers when every one is, else text. */
function listedValues(parameters: Values): { numeric: boolean; values: Scalar[] } {
  const raw = parameters.values
  const numeric = Array.isArray(raw) && raw.length > 0 && raw.every((value) => typeof value === 'number')
  return { numeric, values: numeric ? (raw as number[]) : textList(parameters, 'values') }
}

/** What the entries' texts and CEL say of a check's parameters (see the `json-field` values). */
function fieldValues(parameters: Values, check: Check): Record<string, JsonValue> {
  const field = textParameter(parameters, 'field')
  const current = celValue(field)
  const common = { field, current, found: celFound(current) }
  switch (check) {
    case 'required':
    case 'forbidden': {
      const fields = textList(parameters, 'fields')
      return {
        fields,
        'field-names': celStringList(fields),
        s: fields.length > 1 ? 's' : '',
        'fields-code': fields.map((each) => `\`${each}\``),
        'missing-test': byName(fields, '=='),
        'present-test': byName(fields, '!='),
      }
    }
    case 'equals': {
      const value = scalarParameter(parameters, 'value')
      return { ...common, value, shown: shown(value), literal: celLiteral(value), type: typeof value, 'string-note': typeof value === 'string' ? ' (a string)' : '' }
    }
    case 'boolean': {
      const value = flag(parameters, 'value')
      return { ...common, value, other: !value }
    }
    case 'one-of': {
      const { numeric } = listedValues(parameters)
      const values = textList(parameters, 'values')
      const list = numeric ? `[${(parameters.values as number[]).join(', ')}]` : celStringList(values)
      // A list of words with numbers in it ("1, 2, auto") accepts the number 1 as well as "1".
      const loose = !numeric && values.some((value) => /^-?\d+(\.\d+)?$/.test(value)) ? ` || (type(${current}) in [int, uint, double] && string(${current}) in ${list})` : ''
      return { ...common, values, member: `(${current} in ${list}${loose})` }
    }
    case 'pattern': {
      const regex = textParameter(parameters, 'pattern')
      return { ...common, pattern: regex, 'pattern-literal': celString(regex) }
    }
    case 'range': {
      const bounds = boundsOf(parameters)
      const checks: string[] = []
      const words: string[] = []
      if (bounds.minimum !== undefined) {
        checks.push(` && double(${current}) >= ${celDouble(bounds.minimum)}`)
        words.push(`at least ${bounds.minimum}`)
      }
      if (bounds.exclusiveMinimum !== undefined) {
        checks.push(` && double(${current}) > ${celDouble(bounds.exclusiveMinimum)}`)
        words.push(`greater than ${bounds.exclusiveMinimum}`)
      }
      if (bounds.maximum !== undefined) {
        checks.push(` && double(${current}) <= ${celDouble(bounds.maximum)}`)
        words.push(`at most ${bounds.maximum}`)
      }
      if (bounds.exclusiveMaximum !== undefined) {
        checks.push(` && double(${current}) < ${celDouble(bounds.exclusiveMaximum)}`)
        words.push(`less than ${bounds.exclusiveMaximum}`)
      }
      return { ...common, limits: words.join(' and '), 'bound-checks': checks.join(''), bounds: Object.values(bounds).map(String) }
    }
  }
}

/**
 * A check of one field's value, for samples: a value it accepts (if one can be found) and values
 * it rejects. A negated check swaps them; a missing field fails a positive check only.
 */
interface ValueCheck {
  negatable: boolean
  accepted(parameters: Parameters): Scalar | undefined
  rejected(parameters: Parameters): Scalar[]
}

const VALUE_CHECKS: Record<Exclude<Check, 'required' | 'forbidden'>, ValueCheck> = {
  equals: { negatable: true, accepted: (parameters) => scalarParameter(parameters, 'value'), rejected: (parameters) => [differentValue(scalarParameter(parameters, 'value'))] },
  boolean: { negatable: true, accepted: (parameters) => flag(parameters, 'value'), rejected: (parameters) => [!flag(parameters, 'value')] },
  'one-of': {
    negatable: true,
    accepted: (parameters) => listedValues(parameters).values[0] ?? 'sample',
    rejected: (parameters) => {
      const { numeric, values } = listedValues(parameters)
      return [numeric ? Math.max(...(values as number[])) + 1 : (['other', 'another', 'not-listed'].find((value) => !values.includes(value)) ?? 'not-listed-value')]
    },
  },
  pattern: {
    negatable: true,
    accepted: (parameters) => stringMatching(textParameter(parameters, 'pattern')),
    rejected: (parameters) => {
      const notMatching = stringNotMatching(textParameter(parameters, 'pattern'))
      return notMatching === undefined ? [] : [notMatching]
    },
  },
  range: {
    negatable: false,
    accepted: (parameters) => numberInside(boundsOf(parameters)),
    rejected: (parameters) => {
      const bounds = boundsOf(parameters)
      const low = bounds.minimum ?? bounds.exclusiveMinimum
      const high = bounds.maximum ?? bounds.exclusiveMaximum
      return [...(low !== undefined ? [low - 1] : []), ...(high !== undefined ? [high + 1] : [])]
    },
  },
}

function fieldSamples(parameters: Parameters, check: Check): TemplateSamples {
  const missing = (field: string) => ({ description: `${field} is missing`, edit: (document: Json) => deleteField(document, field) })
  if (check === 'required' || check === 'forbidden') {
    const fields = textList(parameters, 'fields')
    if (check === 'forbidden') {
      return samplesWith(parameters, {
        good: fields.map((field) => (document: Json) => deleteField(document, field)),
        bad: fields.slice(0, 2).map((field) => ({ description: `${field} is set`, edit: (document: Json) => setField(document, field, 'sample') })),
      })
    }
    return samplesWith(parameters, {
      // Another clause may already have given the field a value it checks: keep it.
      good: fields.map((field) => (document: Json) => {
        if (!hasField(document, field)) setField(document, field, 'sample')
      }),
      bad: fields.slice(0, 2).map(missing),
    })
  }
  const field = textParameter(parameters, 'field')
  const valueCheck = VALUE_CHECKS[check]
  const accepted = valueCheck.accepted(parameters)
  const rejected = valueCheck.rejected(parameters)
  const set = (value: Scalar): SampleEdit => (document) => setField(document, field, value)
  const sample = (value: Scalar) => ({ description: `${field} is ${shown(value)}`, edit: set(value) })
  if (valueCheck.negatable && flag(parameters, 'negate')) {
    const [other] = rejected
    // Nothing the check rejects: a missing field passes a prohibition.
    return samplesWith(parameters, { good: [other === undefined ? (document) => deleteField(document, field) : set(other)], bad: accepted === undefined ? [] : [sample(accepted)] })
  }
  return samplesWith(parameters, { good: accepted === undefined ? [] : [set(accepted)], bad: [...rejected.map(sample), missing(field)] })
}

export const GENERIC_JSON_VOCABULARY: Vocabulary = {
  recognizers: {
    /** The clause's reading when it is the `check`'s, at `score`; every generic JSON entry shares one reading of a clause. */
    'json-field-reading': (clause, options) => {
      const reading = readClause(clause)
      const score = options.score
      return reading && reading.kind === checkOf(options) && typeof score === 'number' ? { score, parameters: reading.parameters, missing: reading.missing } : NONE
    },
  },
  values: {
    /**
     * What a `check`'s rule says of its parameters. Every check: `field`, `current` (CEL: its
     * value, null when missing), `found` (CEL: that value as text, or "missing"). required and
     * forbidden: `fields`, `field-names` (a CEL list), `s` (a plural's), `fields-code`,
     * `missing-test` and `present-test` (CEL over a name `f`). equals: `value`, `shown` (quoted
     * when text), `literal` (CEL), `type`, `string-note`. boolean: `value`, `other`. one-of:
     * `values`, `member` (CEL). pattern: `pattern`, `pattern-literal` (CEL). range: `limits`
     * (words), `bound-checks` (CEL, each after " && "), `bounds`.
     */
    'json-field': (parameters, options) => fieldValues(parameters, checkOf(options)),
  },
  rules: {
    /** A rule on a document's fields, applying only where the parameters' conditions hold (see conditionsOf). */
    'json-field-rule': (parameters, options) => {
      const messageExpression = options.messageExpression
      const variables = Array.isArray(options.variables)
        ? (options.variables as readonly JsonValue[]).map((variable) => {
            const given = (variable ?? {}) as Options
            return { name: optionText(given, 'name'), expression: optionText(given, 'expression') }
          })
        : undefined
      return fieldRule(parameters, {
        nameParts: nameWords(options.name),
        description: optionText(options, 'description'),
        severity: optionText(options, 'severity') as Severity,
        expression: optionText(options, 'expression'),
        message: optionText(options, 'message'),
        ...(typeof messageExpression === 'string' ? { messageExpression } : {}),
        remediation: optionText(options, 'remediation'),
        ...(variables ? { variables } : {}),
      })
    },
  },
  samples: {
    /** Documents passing and failing the `check`, where its conditions hold. */
    'json-field-samples': (parameters, options) => fieldSamples(parameters, checkOf(options)),
  },
}
