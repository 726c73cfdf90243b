import { RE2JS } from 're2js'
import type { Severity } from '../../engine/index.js'
import { mapIn, metadataOf } from '../samples/document-parts.js'
import { baseKubernetesDocument } from '../samples/base-documents.js'
import { mentions, type Clause } from '../text/clause.js'
import { isLabelKey } from '../text/extract.js'
import { canonicalKind } from '../text/kinds.js'
import { celString, celStringList } from './pod-rule.js'
import type { ParameterValue, Parameters, Recognition, RuleTemplate, SampleEdit, TemplateParameter } from './rule-template.js'
import { ruleNameFrom } from './rule-name.js'

/**
 * Templates about an object's own metadata (labels, annotations, namespace), how it is exposed
 * (Service types, Ingress hosts and TLS) and how it scales (replicas, HPA bounds and metrics,
 * PodDisruptionBudgets). Where Kubernetes fills in a default for a missing field (spec.replicas: 1,
 * spec.type: ClusterIP, HPA minReplicas: 1, HPA metrics: 80% CPU), rules judge the default, as the
 * cluster will run it; "must have X" for fields without a default fails when the field is missing.
 */

type Json = Record<string, unknown>

const notMine = (): Recognition => ({ score: 0, parameters: {}, missing: [] })

// ---------------------------------------------------------------------------------------------
// Reading clauses

/** Words that join list items or introduce them; skipped, never items themselves. */
const FILLER = new Set(['and', 'or', 'the', 'a', 'an', 'both', 'either', 'plus', 'also', 'as', 'well', 'nor', 'key', 'keys', 'named', 'called', 'of', 'one', '|', '/'])

/**
 * Words that end a list of keys or values: verbs, prepositions, quantifiers, adjectives. Label keys
 * may be any word, so "every pod must carry team labels" would otherwise read "carry" as a key.
 */
const STOP_WORDS = new Set(
  `must should shall need needs needed require requires required requiring mandatory have has having carry carries include includes including
  contain contains set present defined specified provided given added missing absent empty nonempty non-empty be is are was were being every all
  each any some on in for at to from by with without into onto under over matching match matches pattern patterns regex regexp equal equals like not
  no never dont don't do does did forbid forbidden disallow disallowed deny denied block blocked reject rejected ban banned prohibit prohibited avoid
  allowed allow allows use uses using only following object objects resource resources workload workloads manifest manifests kubernetes k8s metadata
  label labels annotation annotations nothing everything it them they their its this that these those there where which who whose new existing
  proper valid correct standard our your my we you add apply attach put tag tags specify define unique lowercase lower-case uppercase string strings
  number numbers numeric digit digits neither but may can cannot will would make ensure enforce always mark marked so then too still please value values
  than at least most exactly labeled labelled annotated tagged`.split(/\s+/),
)

/** Number words authors spell out ("minimum of three replicas"). */
const NUMBER_WORDS: Record<string, number> = { zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, single: 1 }

function withDigits(text: string): string {
  return text.replace(/\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|single)\b/g, (word) => String(NUMBER_WORDS[word] ?? word))
}

/** One word of the clause: as written (for keys and values, whose case matters) and as normalized. */
interface Word {
  raw: string
  norm: string
}

/**
 * The clause's words, each as written and as normalized (typos fixed). Values are read from the
 * written form: typo correction would turn a label key like "stage" into a catalog word.
 * `normalizeText` keeps whitespace-separated words one for one (" + " becomes " and "), so the two
 * forms line up; when they do not, the lowercase written form stands in.
 */
function wordsOf(clause: Clause): Word[] {
  const raw = clause.text.split(/\s+/).filter((word) => word.length > 0)
  const norm = clause.normalized.split(/\s+/).filter((word) => word.length > 0)
  const aligned = raw.length === norm.length
  return raw.map((word, index) => ({ raw: word, norm: aligned ? (norm[index] ?? word.toLowerCase()) : word.toLowerCase() }))
}

function bare(word: string): string {
  return word.replace(/^["'`([{]+|["'`)\]}:.!?]+$/g, '')
}

// ---------------------------------------------------------------------------------------------
// Labels and annotations

type Noun = 'label' | 'annotation'

/** What a clause says about metadata keys: which keys, and for some, allowed values or a pattern. */
interface MetadataRequest {
  keys: string[]
  values: Record<string, string[]>
  patterns: Record<string, string>
  /** A pattern was given but is not a valid RE2 expression. */
  invalidPattern: boolean
}

/** Shapes authors describe instead of writing a pattern ("a 4-digit number", "lowercase"). */
const DESCRIPTORS: ReadonlyArray<[RegExp, (match: RegExpExecArray) => string]> = [
  [/^(\d+)-digits?$/, (match) => `^[0-9]{${match[1] ?? '1'}}$`],
  [/^(numeric|number|digits)$/, () => '^[0-9]+$'],
  [/^lower-?case$/, () => '^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$'],
  [/^non-?empty$/, () => '^.+$'],
]

/**
 * Prefixes of keys that are labels by definition (recommended app labels, Pod Security admission),
 * so "namespaces must set pod-security.kubernetes.io/enforce to restricted" needs no "label".
 */
const KNOWN_LABEL_PREFIX = /^(app|pod-security)\.kubernetes\.io\//

const PATTERN_INTRO = new Set(['matching', 'matches', 'match', 'pattern', 'regex', 'regexp'])
const VALUE_INTRO = new Set(['be', 'equal', 'equals', '=', '==', 'is', 'value', 'values'])

function isKeyWord(word: Word, noun: Noun): boolean {
  const norm = bare(word.norm)
  const raw = bare(word.raw)
  if (STOP_WORDS.has(norm) || FILLER.has(norm) || norm.startsWith(noun.slice(0, 5))) return false
  if (canonicalKind(norm) !== undefined || /^\d+$/.test(raw) || NUMBER_WORDS[norm] !== undefined) return false
  return isLabelKey(raw)
}

function isValueWord(word: Word): boolean {
  const norm = bare(word.norm)
  const raw = bare(word.raw)
  if (STOP_WORDS.has(norm) || FILLER.has(norm) || canonicalKind(norm) !== undefined) return false
  if (DESCRIPTORS.some(([pattern]) => pattern.test(norm))) return false
  return raw.length <= 63 && /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/.test(raw)
}

/**
 * Keys, values and patterns of a label or annotation clause. Keys are the words next to the noun
 * ("team and cost-center labels", "labels team, owner", "the app.kubernetes.io/name label") or
 * after include/contain/have, and `key=value` pairs; values follow "be"/"equal" ("label env must
 * be prod or staging"); patterns follow "matching". Values and patterns belong to the last key
 * named before them.
 */
function readMetadataRequest(clause: Clause, noun: Noun): MetadataRequest {
  const request: MetadataRequest = { keys: [], values: {}, patterns: {}, invalidPattern: false }
  const keyAt: Array<[number, string]> = []
  const addKey = (position: number, key: string): void => {
    if (!request.keys.includes(key)) request.keys.push(key)
    keyAt.push([position, key])
  }
  const keyBefore = (position: number): string | undefined => {
    let found: string | undefined
    for (const [at, key] of keyAt) if (at < position) found = key
    return found ?? request.keys[0]
  }

  // Patterns first: a regular expression may hold commas and quotes that would split a word list.
  const whole = wordsOf(clause)
  const consumed = new Set<number>()
  const pendingPatterns: Array<[number, string]> = []
  whole.forEach((word, index) => {
    if (!PATTERN_INTRO.has(bare(word.norm))) return
    let target = index + 1
    while (target < whole.length && ['the', 'a', 'pattern', 'regex', 'regexp', 'expression'].includes(bare(whole[target]?.norm ?? ''))) target += 1
    const candidate = whole[target]
    if (!candidate || consumed.has(target)) return
    let pattern = candidate.raw.replace(/^["'`]+|["'`]+$/g, '')
    if (/\$[.,;]$/.test(pattern)) pattern = pattern.slice(0, -1)
    if (pattern.length === 0) return
    consumed.add(target)
    pendingPatterns.push([index, pattern])
  })

  // Words, with list punctuation split off so "team,owner" and "team, owner" read alike.
  const words: Array<Word & { origin: number }> = []
  whole.forEach((word, index) => {
    if (consumed.has(index)) return
    const rawParts = word.raw.split(/[,;]+/)
    const normParts = word.norm.split(/[,;]+/)
    rawParts.forEach((raw, part) => {
      if (raw.length > 0) words.push({ raw, norm: normParts.length === rawParts.length ? (normParts[part] ?? raw.toLowerCase()) : raw.toLowerCase(), origin: index })
    })
  })

  words.forEach((word, position) => {
    const pair = /^["'`]?([A-Za-z0-9][\w./-]*)={1,2}["'`]?([A-Za-z0-9][-\w.]*)?["'`]?$/.exec(bare(word.raw))
    if (pair?.[1] && pair[2] && isLabelKey(pair[1])) {
      addKey(position, pair[1])
      request.values[pair[1]] = [...new Set([...(request.values[pair[1]] ?? []), pair[2]])]
    }
  })

  const collect = (from: number, step: 1 | -1): void => {
    for (let position = from; position >= 0 && position < words.length; position += step) {
      const word = words[position]
      if (!word) break
      if (FILLER.has(bare(word.norm)) || ['+', '&'].includes(word.raw)) continue
      if (!isKeyWord(word, noun)) break
      addKey(position, bare(word.raw))
    }
  }
  const anchor = new RegExp(`^${noun}s?$`)
  const participle = noun === 'label' ? /^label(l)?ed$/ : /^annotated$/
  words.forEach((word, position) => {
    const norm = bare(word.norm)
    if (anchor.test(norm)) {
      collect(position - 1, -1)
      collect(position + 1, 1)
    } else if (participle.test(norm)) {
      // "labeled with team and owner"
      collect(/^(with|by)$/.test(bare(words[position + 1]?.norm ?? '')) ? position + 2 : position + 1, 1)
    } else if (/^(include|includes|including|contain|contains|have|has|carry|carries)$/.test(norm)) {
      collect(position + 1, 1)
    } else if (noun === 'label' && KNOWN_LABEL_PREFIX.test(bare(word.raw)) && isLabelKey(bare(word.raw))) {
      addKey(position, bare(word.raw))
    }
  })
  keyAt.sort((a, b) => a[0] - b[0])
  request.keys.sort((a, b) => (keyAt.find(([, key]) => key === a)?.[0] ?? 0) - (keyAt.find(([, key]) => key === b)?.[0] ?? 0))

  // Values after "be" / "equal (to)" / "set to": "must be prod or staging", "must be one of prod, dev".
  words.forEach((word, position) => {
    const norm = bare(word.norm)
    const previous = bare(words[position - 1]?.norm ?? '')
    // "set to prod", and "set pod-security.kubernetes.io/enforce to restricted".
    const setTo = norm === 'to' && (['set', 'equal'].includes(previous) || bare(words[position - 2]?.norm ?? '') === 'set')
    if (!VALUE_INTRO.has(norm) && !setTo) return
    if (norm === 'is' && !['value', 'set'].includes(previous)) return
    const found: string[] = []
    for (let next = position + 1; next < words.length; next += 1) {
      const candidate = words[next]
      if (!candidate) break
      const candidateNorm = bare(candidate.norm)
      if (FILLER.has(candidateNorm) || candidateNorm === 'in' || candidateNorm === 'to') continue
      if (!isValueWord(candidate)) break
      found.push(bare(candidate.raw))
    }
    const key = keyBefore(position)
    if (key && found.length > 0) request.values[key] = [...new Set([...(request.values[key] ?? []), ...found])]
  })

  words.forEach((word, position) => {
    const norm = bare(word.norm)
    const key = keyBefore(position)
    // The most specific shape wins: "a 4-digit number" is four digits, not any number.
    if (!key || request.patterns[key] !== undefined) return
    for (const [pattern, toRegex] of DESCRIPTORS) {
      const match = pattern.exec(norm)
      if (match) request.patterns[key] = toRegex(match)
    }
    // "must not be empty" asks for a value; "empty" alone describes nothing.
    const before = bare(words[position - 1]?.norm ?? '') === 'be' ? bare(words[position - 2]?.norm ?? '') : bare(words[position - 1]?.norm ?? '')
    if (norm === 'empty' && /^(not|never)$/.test(before)) request.patterns[key] = '^.+$'
  })

  for (const [index, pattern] of pendingPatterns) {
    const position = words.findIndex((word) => word.origin > index)
    const key = keyBefore(position < 0 ? words.length : position)
    if (!key) continue
    if (validRegex(pattern)) request.patterns[key] = pattern
    else request.invalidPattern = true
  }
  return request
}

function validRegex(pattern: string): boolean {
  try {
    RE2JS.compile(pattern)
    return true
  } catch {
    return false
  }
}

/** Whether a negated label clause still asks for the label: "no pod without a team label", "must not be empty". */
function forbidsMetadata(clause: Clause): boolean {
  if (!clause.negated) return false
  return !mentions(clause, 'without', 'missing', 'lack', 'lacks', 'lacking', 'absent', 'non-empty', 'nonempty', /\bnot (be )?empty\b/, /\bnot (be )?(omitted|left out|forgotten)\b/)
}

function stringList(value: ParameterValue | undefined): string[] {
  return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : []
}

function stringMap(value: ParameterValue | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (value && typeof value === 'object' && !Array.isArray(value)) for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') out[key] = entry
  return out
}

function stringListMap(value: ParameterValue | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  if (value && typeof value === 'object' && !Array.isArray(value)) for (const [key, entry] of Object.entries(value)) out[key] = stringList(entry)
  return out
}

/** A DNS-label-like piece of a rule name. */
function slug(...parts: Array<string | number>): string {
  return ruleNameFrom(parts, '')
}

/**
 * A value that matches `pattern` (RE2, partial match as CEL's `matches`), for compliant samples:
 * one built from the pattern's first alternatives and least repetitions, else a common value
 * that happens to match.
 */
function valueMatching(pattern: string, preferred: readonly string[] = []): string | undefined {
  let compiled: RE2JS
  try {
    compiled = RE2JS.compile(pattern)
  } catch {
    return undefined
  }
  const candidates = [...preferred, simplestMatch(pattern), 'payments', 'web', 'prod', 'a', 'abc', '1234', '1', 'team-a', 'A', 'x1', 'v1.0.0', 'true']
  return candidates.find((candidate): candidate is string => candidate !== undefined && compiled.test(candidate))
}

function valueNotMatching(pattern: string, avoid: readonly string[]): string | undefined {
  let compiled: RE2JS
  try {
    compiled = RE2JS.compile(pattern)
  } catch {
    return undefined
  }
  return ['INVALID', 'x', '0', 'not-valid-99', 'Not Valid!', ''].find((candidate) => !avoid.includes(candidate) && !compiled.test(candidate))
}

/** The shortest string a simple regular expression describes (first alternative, fewest repeats). */
function simplestMatch(pattern: string): string | undefined {
  let index = 0
  const sequence = (): string => {
    let out = ''
    while (index < pattern.length && pattern[index] !== '|' && pattern[index] !== ')') {
      const char = pattern[index] ?? ''
      let unit: string
      if (char === '^' || char === '$') {
        index += 1
        continue
      }
      if (char === '(') {
        index += 1
        if (pattern.startsWith('?:', index)) index += 2
        unit = alternatives()
        index += 1
      } else if (char === '[') {
        let end = index + 1
        if (pattern[end] === '^') end += 1
        if (pattern[end] === ']') end += 1
        while (end < pattern.length && pattern[end] !== ']') end += pattern[end] === '\\' ? 2 : 1
        const body = pattern.slice(index + 1, end)
        unit = body.startsWith('^') ? 'x' : body.startsWith('\\d') ? '0' : body.startsWith('\\w') ? 'a' : (body[0] ?? 'a')
        index = end + 1
      } else if (char === '\\') {
        const escaped = pattern[index + 1] ?? ''
        unit = escaped === 'd' ? '0' : escaped === 'w' ? 'a' : escaped === 's' ? ' ' : escaped
        index += 2
      } else {
        unit = char === '.' ? 'a' : char
        index += 1
      }
      const quantifier = /^(?:([*?])|(\+)|\{(\d+)(?:,\d*)?\})\??/.exec(pattern.slice(index))
      let count = 1
      if (quantifier) {
        index += quantifier[0].length
        count = quantifier[1] ? 0 : quantifier[2] ? 1 : Number(quantifier[3])
      }
      out += unit.repeat(count)
    }
    return out
  }
  const alternatives = (): string => {
    const first = sequence()
    while (pattern[index] === '|') {
      index += 1
      sequence()
    }
    return first
  }
  try {
    return alternatives()
  } catch {
    return undefined
  }
}

const METADATA_PARAMETERS = (noun: Noun, forbidden: boolean): TemplateParameter[] => [
  {
    name: 'keys',
    question: forbidden ? `which ${noun} keys are forbidden?` : `which ${noun} keys are required?`,
    required: true,
    example: noun === 'label' ? ['team', 'cost-center'] : ['owner'],
  },
  {
    name: 'values',
    question: forbidden ? `which values of each ${noun} are forbidden?` : `which values may each ${noun} have?`,
    required: false,
    example: noun === 'label' ? { env: ['prod', 'staging'] } : { owner: ['payments'] },
  },
  {
    name: 'patterns',
    question: forbidden ? `which pattern (RE2) marks a forbidden ${noun} value?` : `which pattern (RE2) must each ${noun} value match?`,
    required: false,
    example: { team: '^[a-z]+$' },
  },
]

/** Required or forbidden labels or annotations, for any kind (the compiler narrows `kinds: ['*']`). */
function metadataTemplate(noun: Noun, forbidden: boolean): RuleTemplate {
  const plural = `${noun}s`
  const field = `metadata.${plural}`
  const id = `${forbidden ? 'forbidden' : 'required'}-${plural}`
  const phrasings: Record<string, string[]> = {
    'required-labels': [
      'team and cost-center labels',
      'must have labels team, owner',
      'require the app.kubernetes.io/name label',
      'label env must be prod or staging',
      'label team matching ^[a-z]+$',
      'every deployment needs an env=prod label',
      'cost-center label must be a 4-digit number',
    ],
    'required-annotations': [
      'require the owner annotation',
      'contact and runbook annotations are required',
      'annotation prometheus.io/scrape must be true',
      'every service needs an owner annotation matching ^[a-z-]+$',
    ],
    'forbidden-labels': ['no debug label', 'labels must not include temporary', 'label env must not be dev or test', 'disallow the sandbox label on deployments'],
    'forbidden-annotations': [
      'no kubectl.kubernetes.io/last-applied-configuration annotation',
      'annotations must not include debug',
      'forbid the annotation example.com/skip-checks',
    ],
  }
  return {
    id,
    title: forbidden ? `Forbidden ${plural}` : `Required ${plural}`,
    platform: 'kubernetes',
    category: 'metadata',
    kinds: ['*'],
    phrasings: phrasings[id] ?? [],
    parameters: METADATA_PARAMETERS(noun, forbidden),
    recognize(clause) {
      const named = mentions(clause, noun, plural, noun === 'label' ? /\blabel(l)?ed\b/ : /\bannotated\b/)
      if (!named && !(noun === 'label' && /(^|\s)["'`]?(app|pod-security)\.kubernetes\.io\/\S/.test(clause.normalized))) return notMine()
      if (forbidsMetadata(clause) !== forbidden) return notMine()
      const request = readMetadataRequest(clause, noun)
      const parameters: Parameters = {}
      if (request.keys.length > 0) parameters.keys = request.keys
      if (Object.keys(request.values).length > 0) parameters.values = request.values
      if (Object.keys(request.patterns).length > 0) parameters.patterns = request.patterns
      const missing = request.keys.length === 0 ? ['keys'] : []
      // An invalid pattern is asked again rather than dropped: dropping it would accept any value.
      if (request.invalidPattern) missing.push('patterns')
      return { score: request.keys.length > 0 ? 2 : 1, parameters, missing }
    },
    rule(parameters) {
      const keys = stringList(parameters.keys)
      const values = stringListMap(parameters.values)
      const patterns = stringMap(parameters.patterns)
      const map = `variables.${plural}`
      const cel: Array<{ expression: string; message: string }> = []
      for (const key of keys) {
        const present = `${celString(key)} in ${map}`
        const value = `${map}[${celString(key)}]`
        const allowed = values[key] ?? []
        const pattern = patterns[key]
        if (forbidden) {
          if (allowed.length === 0 && pattern === undefined) {
            cel.push({ expression: `!(${present})`, message: `${noun} ${key} is not allowed` })
          }
          if (allowed.length > 0) cel.push({ expression: `!(${present} && ${value} in ${celStringList(allowed)})`, message: `${noun} ${key} must not be ${allowed.join(' or ')}` })
          if (pattern !== undefined) cel.push({ expression: `!(${present} && ${value}.matches(${celString(pattern)}))`, message: `${noun} ${key} must not match ${pattern}` })
        } else {
          cel.push({ expression: present, message: `${noun} ${key} is required` })
          if (allowed.length > 0) cel.push({ expression: `${value} in ${celStringList(allowed)}`, message: `${noun} ${key} must be ${allowed.join(' or ')}` })
          if (pattern !== undefined) cel.push({ expression: `${value}.matches(${celString(pattern)})`, message: `${noun} ${key} must match ${pattern}` })
        }
      }
      const described = keys
        .map((key) => {
          const allowed = values[key] ?? []
          const pattern = patterns[key]
          return `${key}${allowed.length > 0 ? ` (${allowed.join(' or ')})` : ''}${pattern !== undefined ? ` (matching ${pattern})` : ''}`
        })
        .join(', ')
      const constrained = keys.some((key) => (values[key] ?? []).length > 0 || patterns[key] !== undefined)
      return {
        name: slug(forbidden ? 'forbid' : 'require', plural, ...keys),
        description: forbidden
          ? `Objects must not carry these ${plural}${constrained ? ' with these values' : ''}: ${described}.`
          : `Objects must carry these ${plural}, ${noun === 'label' ? 'so they can be selected, attributed and billed' : 'so people and tools can find who owns them and how to run them'}: ${described}.`,
        severity: (forbidden ? 'medium' : noun === 'label' ? 'medium' : 'low') satisfies Severity,
        match: { kinds: ['*'] },
        variables: [{ name: plural, expression: `object.metadata.?${plural}.orValue({})` }],
        validate: { cel: cel.length > 0 ? cel : [{ expression: 'true', message: `no ${plural} to check` }] },
        message: forbidden ? `forbidden ${plural} present: ${described}` : `required ${plural} missing or invalid: ${described}`,
        remediation: forbidden
          ? constrained
            ? `Under ${field}, remove ${keys.join(', ')} or give them an allowed value.`
            : `Remove ${keys.join(', ')} from ${field}.`
          : `Set ${keys.map((key) => `${field}["${key}"]`).join(', ')}${constrained ? ` to a value that satisfies: ${described}` : ''}. On a Pod made by a controller, set them in the controller's pod template (spec.template.${field}).`,
      }
    },
    samples(parameters) {
      const keys = stringList(parameters.keys)
      const values = stringListMap(parameters.values)
      const patterns = stringMap(parameters.patterns)
      const mapOf = (document: Json): Json => mapIn(metadataOf(document), plural)
      const good: SampleEdit[] = []
      const bad: TemplateSamples['bad'] = []
      for (const key of keys) {
        const allowed = values[key] ?? []
        const pattern = patterns[key]
        if (forbidden) {
          good.push((document) => void delete mapOf(document)[key])
          const offending = allowed[0] ?? (pattern !== undefined ? valueMatching(pattern) : 'true')
          if (offending !== undefined) bad.push({ description: `${noun} ${key}=${offending}`, edit: (document) => void (mapOf(document)[key] = offending) })
          continue
        }
        good.push((document) => {
          const current = mapOf(document)[key]
          const keep = typeof current === 'string' && (allowed.length === 0 || allowed.includes(current)) && (pattern === undefined || valueMatching(pattern, [current]) === current)
          if (keep) return
          const candidate = pattern === undefined ? (allowed[0] ?? 'payments') : allowed.length > 0 ? (allowed.find((value) => valueMatching(pattern, [value]) === value) ?? allowed[0]) : valueMatching(pattern)
          if (candidate !== undefined) mapOf(document)[key] = candidate
        })
        bad.push({ description: `no ${noun} ${key}`, edit: (document) => void delete mapOf(document)[key] })
        if (allowed.length > 0) {
          const wrong = ['invalid-value', 'other', 'x'].find((candidate) => !allowed.includes(candidate)) ?? 'invalid-value'
          bad.push({ description: `${noun} ${key}=${wrong}, not one of ${allowed.join(', ')}`, edit: (document) => void (mapOf(document)[key] = wrong) })
        } else if (pattern !== undefined) {
          const wrong = valueNotMatching(pattern, [])
          if (wrong !== undefined) bad.push({ description: `${noun} ${key}=${JSON.stringify(wrong)}, not matching ${pattern}`, edit: (document) => void (mapOf(document)[key] = wrong) })
        }
      }
      return { good, bad }
    },
  }
}

type TemplateSamples = ReturnType<RuleTemplate['samples']>

// ---------------------------------------------------------------------------------------------
// Bounds ("at least 2", "no more than 10", "minimum of three")

/** The least value a clause asks for: "at least 2", ">= 3", "more than 1" (2), "3 or more". */
function lowerBound(clause: Clause, subject: RegExp): number | undefined {
  const text = withDigits(clause.normalized)
  const forms: ReadonlyArray<[RegExp, (value: number) => number]> = [
    [/(?:at least|\bmin(?:imum)?\b(?: of)?|(?:no|not|never) (?:fewer|less) than|>=|≥|=>)\s*(\d+)/, (value) => value],
    [/(?<!\b(?:no|not|never|nor) )(?:more than|greater than|>(?!=))\s*(\d+)/, (value) => value + 1],
    [/(\d+)\s*(?:\+|or more\b|and up\b|and above\b)/, (value) => value],
    [/(?:^|\s)(?:fewer|less) than\s*(\d+)/, (value) => value],
  ]
  for (const [pattern, toBound] of forms) {
    const match = pattern.exec(text)
    // "fewer than 2 replicas" bounds from below only when forbidden ("no Deployment with fewer than 2").
    if (match?.[1] && (!/(?:fewer|less) than/.test(match[0]) || /(?:no|not|never) (?:fewer|less)/.test(match[0]) || clause.negated)) return toBound(Number(match[1]))
  }
  if (upperBound(clause, subject) !== undefined) return undefined
  const plain = new RegExp(`(\\d+)\\s*${subject.source}|${subject.source}\\s*(?:count\\s*)?(?:must be|should be|of|:|=|==|is|to|set to)?\\s*(\\d+)`).exec(text)
  const value = plain?.[1] ?? plain?.[2]
  return value === undefined ? undefined : Number(value)
}

/** The most a clause allows: "at most 10", "<= 10", "no more than 10", "fewer than 11" (10). */
function upperBound(clause: Clause, subject: RegExp): number | undefined {
  const text = withDigits(clause.normalized)
  const forms: ReadonlyArray<[RegExp, (value: number) => number]> = [
    [/(?:at most|\bmax(?:imum)?\b(?: of)?|(?:no|not|never) (?:more|greater) than|up to|<=|≤|=<|cap(?:ped)? at|limit(?:ed)? to|(?:not|never) exceed)\s*(\d+)/, (value) => value],
    [/(\d+)\s*(?:or less|or fewer|or below|at most|at the most)\b/, (value) => value],
    [/(?<!\b(?:no|not|never|nor) )(?:less than|fewer than|below|<(?!=))\s*(\d+)/, (value) => value - 1],
  ]
  for (const [pattern, toBound] of forms) {
    const match = pattern.exec(text)
    if (!match?.[1]) continue
    if (/(?:less|fewer) than/.test(match[0]) && clause.negated) continue
    return toBound(Number(match[1]))
  }
  // A bare number after maxReplicas bounds it; after "replicas" it may as well be a minimum.
  const plain = new RegExp(`${subject.source}\\s*(?:must be|should be|of|at|:|=|==|is|to|set to)?\\s*(\\d+)`).exec(text)
  if (plain?.[1] && /maxreplicas/.test(subject.source)) return Number(plain[1])
  return undefined
}

function numberParameter(value: ParameterValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

/** Kinds the clause names that the template judges: the rule is limited to them. */
function kindsJudged(clause: Clause, kinds: readonly string[]): string[] {
  return clause.kinds.filter((kind) => kinds.includes(kind))
}

const KINDS_PARAMETER = (example: string[]): TemplateParameter => ({
  name: 'kinds',
  question: 'which kinds does it apply to?',
  required: false,
  example,
})

// ---------------------------------------------------------------------------------------------
// Replicas

const REPLICATED_KINDS = ['Deployment', 'StatefulSet', 'ReplicaSet']
const REPLICAS_WORD = /(?:replicas?|instances)/

const replicaCount: RuleTemplate = {
  id: 'replica-count',
  title: 'Replica count within bounds',
  platform: 'kubernetes',
  category: 'scaling',
  kinds: REPLICATED_KINDS,
  phrasings: ['at least 2 replicas', 'replicas >= 3', 'minimum of three replicas', 'deployments must run more than one replica', 'statefulsets need between 3 and 5 replicas'],
  parameters: [
    { name: 'minimum', question: 'at least how many replicas?', required: false, example: 2 },
    { name: 'maximum', question: 'at most how many replicas?', required: false, example: 10 },
    KINDS_PARAMETER(['Deployment']),
  ],
  recognize(clause) {
    if (!mentions(clause, 'replica', 'replicas', 'replica count')) return notMine()
    // HPA bounds are their own templates; labels about replicas are labels.
    if (mentions(clause, 'minreplicas', 'maxreplicas', 'hpa', 'hpas', 'label', 'labels', 'annotation', 'annotations', /autoscal/)) return notMine()
    const text = withDigits(clause.normalized)
    const between = /between\s*(\d+)\s*(?:and|-|to)\s*(\d+)/.exec(text)
    const minimum = between ? Number(between[1]) : lowerBound(clause, REPLICAS_WORD)
    const maximum = between ? Number(between[2]) : upperBound(clause, REPLICAS_WORD)
    const parameters: Parameters = {}
    if (minimum !== undefined) parameters.minimum = minimum
    if (maximum !== undefined) parameters.maximum = maximum
    const kinds = kindsJudged(clause, REPLICATED_KINDS)
    if (kinds.length > 0) parameters.kinds = kinds
    const missing = minimum === undefined && maximum === undefined ? ['minimum'] : minimum !== undefined && maximum !== undefined && maximum < minimum ? ['maximum'] : []
    return { score: missing.length === 0 ? 2 : 1, parameters, missing }
  },
  rule(parameters) {
    const minimum = numberParameter(parameters.minimum)
    const maximum = numberParameter(parameters.maximum)
    const kinds = stringList(parameters.kinds)
    // Kubernetes runs one replica when spec.replicas is missing.
    const replicas = 'object.spec.?replicas.orValue(1)'
    const cel: Array<{ expression: string; message: string; messageExpression?: string }> = []
    const bounds: string[] = []
    if (minimum !== undefined) {
      cel.push({ expression: `${replicas} >= ${minimum}`, message: `spec.replicas must be at least ${minimum}`, messageExpression: `'spec.replicas is ' + string(${replicas}) + ' (1 when unset), at least ${minimum} required'` })
      bounds.push(`at least ${minimum}`)
    }
    if (maximum !== undefined) {
      cel.push({ expression: `${replicas} <= ${maximum}`, message: `spec.replicas must be at most ${maximum}`, messageExpression: `'spec.replicas is ' + string(${replicas}) + ', at most ${maximum} allowed'` })
      bounds.push(`at most ${maximum}`)
    }
    return {
      name: slug('replicas', minimum !== undefined && maximum !== undefined ? `between-${minimum}-and-${maximum}` : minimum !== undefined ? `at-least-${minimum}` : `at-most-${maximum ?? 0}`),
      description: `Replicated workloads run ${bounds.join(' and ')} replicas: one replica means downtime on every rollout and node drain. An unset spec.replicas counts as 1, as Kubernetes runs it.`,
      severity: 'medium',
      match: { kinds: kinds.length > 0 ? kinds : REPLICATED_KINDS },
      validate: { cel: cel.length > 0 ? cel : [{ expression: 'true', message: 'no bound to check' }] },
      message: `spec.replicas must be ${bounds.join(' and ')}`,
      remediation: `Set spec.replicas to ${bounds.join(' and ')} (leaving it unset means 1 replica).`,
    }
  },
  samples(parameters) {
    const minimum = numberParameter(parameters.minimum)
    const maximum = numberParameter(parameters.maximum)
    const spec = (document: Json): Json => mapIn(document, 'spec')
    const bad: TemplateSamples['bad'] = []
    if (minimum !== undefined && minimum >= 1) bad.push({ description: `spec.replicas: ${minimum - 1}`, edit: (document) => void (spec(document).replicas = minimum - 1) })
    if (minimum !== undefined && minimum > 1) bad.push({ description: 'spec.replicas unset (1 replica)', edit: (document) => void delete spec(document).replicas })
    if (maximum !== undefined) bad.push({ description: `spec.replicas: ${maximum + 1}`, edit: (document) => void (spec(document).replicas = maximum + 1) })
    return {
      good: [
        (document) => {
          const current = typeof spec(document).replicas === 'number' ? (spec(document).replicas as number) : 1
          let wanted = current
          if (minimum !== undefined) wanted = Math.max(wanted, minimum)
          if (maximum !== undefined) wanted = Math.min(wanted, maximum)
          if (wanted !== current || spec(document).replicas === undefined) spec(document).replicas = wanted
        },
      ],
      bad,
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Namespace

/**
 * Kinds that live in a namespace, judged when the clause names none. `Namespace` is in the
 * template's kinds only because "namespace" in "the default namespace" reads as that kind (see
 * text/kinds.ts); the rule never judges Namespace objects, which are cluster-scoped.
 */
const NAMESPACED_KINDS = [
  'Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Job', 'CronJob', 'Service', 'Ingress',
  'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ConfigMap', 'Secret', 'ServiceAccount', 'Role', 'RoleBinding', 'NetworkPolicy',
  'PersistentVolumeClaim', 'LimitRange', 'ResourceQuota',
]
const NAMESPACE_TEMPLATE_KINDS = ['Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob', 'Service', 'Ingress', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ConfigMap', 'Secret', 'ServiceAccount', 'Namespace']

const noDefaultNamespace: RuleTemplate = {
  id: 'no-default-namespace',
  title: 'Nothing in the default namespace',
  platform: 'kubernetes',
  category: 'metadata',
  kinds: NAMESPACE_TEMPLATE_KINDS,
  phrasings: ['nothing in the default namespace', 'namespace must not be default', 'workloads must not be deployed in the default namespace', 'deployments may not use the default namespace'],
  parameters: [KINDS_PARAMETER(['Deployment'])],
  recognize(clause) {
    if (!mentions(clause, /\bdefault namespaces?\b/, /\bnamespaces? (?:\w+ ){0,3}default\b/, /\bdefault ns\b/)) return notMine()
    if (mentions(clause, 'label', 'labels', 'annotation', 'annotations', /\bservice ?accounts?\b/)) return notMine()
    const kinds = clause.kinds.filter((kind) => kind !== 'Namespace' && NAMESPACE_TEMPLATE_KINDS.includes(kind))
    return { score: 2, parameters: kinds.length > 0 ? { kinds } : {}, missing: [] }
  },
  rule(parameters) {
    const kinds = stringList(parameters.kinds)
    return {
      name: 'no-default-namespace',
      description:
        'Workloads in the default namespace escape per-namespace quotas, RBAC and network policies. A manifest without metadata.namespace fails too: ' +
        "it lands in the namespace of whoever applies it, usually default. In admission the request's namespace counts.",
      severity: 'medium',
      match: { kinds: kinds.length > 0 ? kinds : NAMESPACED_KINDS },
      variables: [{ name: 'namespace', expression: "object.metadata.?namespace.orValue('') != '' ? object.metadata.namespace : request.?namespace.orValue('')" }],
      validate: {
        cel: [
          { expression: "variables.namespace != ''", message: 'metadata.namespace is not set: the object would land in the default namespace' },
          { expression: "variables.namespace != 'default'", message: 'objects must not be in the default namespace' },
        ],
      },
      message: 'objects must not be in the default namespace',
      remediation: 'Set metadata.namespace to the team\'s own namespace (not "default"); a missing metadata.namespace also fails, because kubectl would put the object in the current context\'s namespace, usually default.',
    }
  },
  samples: () => ({
    good: [
      (document) => {
        if (document.kind === 'Namespace') return
        const metadata = metadataOf(document)
        if (metadata.namespace === undefined || metadata.namespace === '' || metadata.namespace === 'default') metadata.namespace = 'payments'
      },
    ],
    bad: [
      { description: 'the object in the default namespace (a Namespace sample, being cluster-scoped, becomes a ConfigMap)', edit: (document) => void (namespacedSample(document).namespace = 'default') },
      { description: 'the object without metadata.namespace', edit: (document) => void delete namespacedSample(document).namespace },
    ],
  }),
}

/** The metadata of a namespaced sample: a Namespace sample (the clause said "namespace") is replaced by a ConfigMap. */
function namespacedSample(document: Json): Json {
  if (document.kind === 'Namespace') {
    for (const key of Object.keys(document)) delete document[key]
    Object.assign(document, baseKubernetesDocument('ConfigMap'))
  }
  return metadataOf(document)
}

// ---------------------------------------------------------------------------------------------
// Services

const SERVICE_TYPES: ReadonlyArray<[string, RegExp]> = [
  ['ClusterIP', /\bcluster ?ips?\b/],
  ['NodePort', /\bnode ?ports?\b/],
  ['LoadBalancer', /\bload ?balancers?\b/],
  ['ExternalName', /\bexternal ?names?\b/],
]

const serviceTypes: RuleTemplate = {
  id: 'service-types',
  title: 'Allowed Service types',
  platform: 'kubernetes',
  category: 'networking',
  kinds: ['Service'],
  phrasings: ['no NodePort services', 'services must be ClusterIP', 'disallow LoadBalancer services', 'service type must be ClusterIP or LoadBalancer'],
  parameters: [
    { name: 'allowed', question: 'which Service types are allowed?', required: false, example: ['ClusterIP'] },
    { name: 'forbidden', question: 'which Service types are forbidden?', required: false, example: ['NodePort', 'LoadBalancer'] },
  ],
  recognize(clause) {
    const named = SERVICE_TYPES.map(([type, pattern]) => ({ type, index: clause.normalized.search(pattern) })).filter((entry) => entry.index >= 0)
    if (named.length === 0) return notMine()
    if (mentions(clause, 'label', 'labels', 'annotation', 'annotations')) return notMine()
    // "only ClusterIP, never NodePort": types before the negation are allowed, after it forbidden.
    const negation = /\b(no|not|never|dont|don't|disallow(ed)?|forbid(den)?|prohibit(ed)?|deny|denied|block(ed)?|reject(ed)?|ban(ned)?|avoid|none)\b/.exec(clause.normalized)
    const parameters: Parameters = {}
    if (!negation) {
      parameters.allowed = named.map((entry) => entry.type)
    } else {
      const before = named.filter((entry) => entry.index < negation.index).map((entry) => entry.type)
      const after = named.filter((entry) => entry.index > negation.index).map((entry) => entry.type)
      // "NodePort services are not allowed": the type comes first but is what is forbidden.
      if (after.length === 0) parameters.forbidden = before
      else {
        parameters.forbidden = after
        if (before.length > 0) parameters.allowed = before
      }
    }
    return { score: mentions(clause, 'service', 'services', 'svc', 'type', 'types') ? 3 : 2, parameters, missing: [] }
  },
  rule(parameters) {
    const allowed = stringList(parameters.allowed)
    const forbidden = stringList(parameters.forbidden)
    const cel: Array<{ expression: string; message: string; messageExpression: string }> = []
    if (allowed.length > 0) cel.push({ expression: `variables.type in ${celStringList(allowed)}`, message: `Service type must be ${allowed.join(' or ')}`, messageExpression: `'Service type ' + variables.type + ' is not allowed; use ${allowed.join(' or ')}'` })
    if (forbidden.length > 0) cel.push({ expression: `!(variables.type in ${celStringList(forbidden)})`, message: `Service type must not be ${forbidden.join(' or ')}`, messageExpression: `'Service type ' + variables.type + ' is not allowed'` })
    const summary = allowed.length > 0 ? `only ${allowed.join(', ')}` : `no ${forbidden.join(', ')}`
    return {
      name: slug('service-types', allowed.length > 0 ? `only-${allowed.join('-')}` : `no-${forbidden.join('-')}`),
      description: `Services: ${summary}. NodePort and LoadBalancer expose a Service outside the cluster. An unset spec.type is ClusterIP, as Kubernetes defaults it.`,
      severity: 'high',
      match: { kinds: ['Service'] },
      variables: [{ name: 'type', expression: "object.spec.?type.orValue('ClusterIP')" }],
      validate: { cel: cel.length > 0 ? cel : [{ expression: 'true', message: 'no Service type to check', messageExpression: "'no Service type to check'" }] },
      message: `Service type not allowed (${summary})`,
      remediation: allowed.length > 0 ? `Set spec.type to ${allowed.join(' or ')}.` : `Change spec.type away from ${forbidden.join(' and ')} (e.g. ClusterIP behind an Ingress).`,
    }
  },
  samples(parameters) {
    const allowed = stringList(parameters.allowed)
    const forbidden = stringList(parameters.forbidden)
    const ok = (type: string): boolean => (allowed.length === 0 || allowed.includes(type)) && !forbidden.includes(type)
    const all = SERVICE_TYPES.map(([type]) => type)
    const goodType = all.find(ok)
    const badTypes = all.filter((type) => !ok(type))
    const spec = (document: Json): Json => mapIn(document, 'spec')
    const bad: TemplateSamples['bad'] = badTypes.slice(0, 2).map((type) => ({ description: `spec.type: ${type}`, edit: (document: Json) => void (spec(document).type = type) }))
    if (!ok('ClusterIP')) bad.push({ description: 'spec.type unset (ClusterIP)', edit: (document) => void delete spec(document).type })
    return {
      good: [
        (document) => {
          const current = typeof spec(document).type === 'string' ? (spec(document).type as string) : 'ClusterIP'
          if (!ok(current) && goodType) spec(document).type = goodType
        },
      ],
      bad,
    }
  },
}

const serviceNoExternalIps: RuleTemplate = {
  id: 'service-no-external-ips',
  title: 'No Service externalIPs',
  platform: 'kubernetes',
  category: 'networking',
  kinds: ['Service'],
  phrasings: ['services must not set externalIPs', 'no external IPs on services', 'disallow Service externalIPs'],
  parameters: [],
  recognize(clause) {
    if (!mentions(clause, 'externalips', 'externalip', 'external ips', 'external ip', 'external ip addresses')) return notMine()
    if (!clause.negated) return notMine()
    return { score: 3, parameters: {}, missing: [] }
  },
  rule: () => ({
    name: 'service-no-external-ips',
    description:
      'spec.externalIPs lets a Service capture traffic sent to any IP address, including ones it does not own (CVE-2020-8554): only cluster administrators should route external addresses.',
    severity: 'high',
    match: { kinds: ['Service'] },
    validate: { cel: [{ expression: 'object.spec.?externalIPs.orValue([]).size() == 0', message: 'Services must not set spec.externalIPs' }] },
    message: 'Services must not set spec.externalIPs',
    remediation: 'Remove spec.externalIPs; expose the Service through a LoadBalancer or an Ingress instead.',
  }),
  samples: () => ({
    good: [(document) => void delete mapIn(document, 'spec').externalIPs],
    bad: [{ description: 'a Service with spec.externalIPs: [203.0.113.10]', edit: (document) => void (mapIn(document, 'spec').externalIPs = ['203.0.113.10']) }],
  }),
}

// ---------------------------------------------------------------------------------------------
// Ingress

const INGRESS_HOSTS = "object.spec.?rules.orValue([]).map(r, r.?host.orValue(''))"
const TLS_HOSTS = 'object.spec.?tls.orValue([])'

/** Domain names the clause gives: "acme.io", ".acme.io", "*.acme.io", lowercased. */
function domainsIn(text: string): string[] {
  const found: string[] = []
  for (const word of text.split(/[\s,;]+/)) {
    const name = word
      .replace(/^["'`(]+|["'`)!?:]+$/g, '')
      .replace(/\.+$/, '')
      .replace(/^\*?\.+/, '')
      .toLowerCase()
    if (!/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*[a-z0-9]$/.test(name)) continue
    if (/\.(ya?ml|json|txt|md)$/.test(name)) continue
    if (!found.includes(name)) found.push(name)
  }
  return found
}

/** Ingress clauses about host names; image registries are hosts too, but not of an Ingress. */
function aboutIngressHosts(clause: Clause): boolean {
  return mentions(clause, 'host', 'hosts', 'hostname', 'hostnames', 'host name', 'host names', 'domain', 'domains', 'subdomain', 'subdomains') && !mentions(clause, /\bimages?\b/, /\bregistr(y|ies)\b/, /\bpull\b/, 'port', 'ports', 'network', 'path', 'ipc', 'pid')
}

function namesIngress(clause: Clause): boolean {
  return clause.kinds.includes('Ingress')
}

function ingressSpec(document: Json): Json {
  return mapIn(document, 'spec')
}

function ingressRules(document: Json): Json[] {
  const rules = ingressSpec(document).rules
  return Array.isArray(rules) ? (rules as Json[]) : []
}

function tlsEntries(document: Json): Json[] {
  const tls = ingressSpec(document).tls
  return Array.isArray(tls) ? (tls as Json[]) : []
}

/** Replaces every host of the Ingress, in rules and TLS entries alike, so TLS coverage is kept. */
function renameHosts(document: Json, rename: (host: string) => string): void {
  for (const rule of ingressRules(document)) if (typeof rule.host === 'string') rule.host = rename(rule.host)
  for (const entry of tlsEntries(document)) if (Array.isArray(entry.hosts)) entry.hosts = (entry.hosts as unknown[]).map((host) => (typeof host === 'string' ? rename(host) : host))
}

const ingressTls: RuleTemplate = {
  id: 'ingress-tls',
  title: 'Ingresses use TLS',
  platform: 'kubernetes',
  category: 'networking',
  kinds: ['Ingress'],
  phrasings: ['ingresses must use TLS', 'require TLS on every ingress host', 'ingress traffic must be HTTPS'],
  parameters: [],
  recognize(clause) {
    if (!mentions(clause, 'tls', 'https', 'ssl', 'certificate', 'certificates', 'cert', 'certs')) return notMine()
    if (mentions(clause, /\bimages?\b/, /\bregistr(y|ies)\b/, 'wildcard', 'wildcards') || domainsIn(clause.text).length > 0) return notMine()
    return { score: namesIngress(clause) || mentions(clause, 'ingress', 'ingresses') ? 2 : 1, parameters: {}, missing: [] }
  },
  rule: () => ({
    name: 'ingress-tls',
    description:
      'Every host an Ingress serves must be listed in a spec.tls entry, so it is served over HTTPS. A wildcard TLS host (*.example.com) covers one level of subdomain; rules without a host need at least one TLS entry.',
    severity: 'high',
    match: { kinds: ['Ingress'] },
    validate: {
      cel: [
        { expression: `${TLS_HOSTS}.size() > 0`, message: 'the Ingress has no spec.tls entry' },
        {
          expression: `${INGRESS_HOSTS}.all(host, host == '' || ${TLS_HOSTS}.exists(t, t.?hosts.orValue([]).exists(h, h == host || (h.startsWith('*.') && host.endsWith(h.substring(1)) && !host.substring(0, host.size() - h.size() + 1).contains('.')))))`,
          message: 'every Ingress rule host must be listed in spec.tls[].hosts',
        },
      ],
    },
    message: 'Ingress hosts must be served over TLS',
    remediation: 'Add a spec.tls entry whose hosts list every spec.rules[].host, with secretName naming the certificate Secret.',
  }),
  samples: () => ({
    good: [
      (document) => {
        const hosts = ingressRules(document).flatMap((rule) => (typeof rule.host === 'string' ? [rule.host] : []))
        const entries = tlsEntries(document)
        const covered = new Set(entries.flatMap((entry) => (Array.isArray(entry.hosts) ? (entry.hosts as string[]) : [])))
        const uncovered = hosts.filter((host) => !covered.has(host))
        if (entries.length > 0 && uncovered.length === 0) return
        const first = entries[0] ?? { secretName: 'web-tls', hosts: [] }
        first.hosts = [...(Array.isArray(first.hosts) ? (first.hosts as string[]) : []), ...uncovered]
        if (entries.length === 0) ingressSpec(document).tls = [first]
      },
    ],
    bad: [
      { description: 'an Ingress without spec.tls', edit: (document) => void delete ingressSpec(document).tls },
      {
        description: 'a second rule host not listed in spec.tls',
        edit: (document) => {
          const [rule] = ingressRules(document)
          const host = typeof rule?.host === 'string' ? rule.host : 'web.example.com'
          ingressRules(document).push({ ...(rule ?? {}), host: `plain.${host.replace(/^[^.]*\./, '')}` })
        },
      },
    ],
  }),
}

const ingressClass: RuleTemplate = {
  id: 'ingress-class-required',
  title: 'Ingresses name their ingress class',
  platform: 'kubernetes',
  category: 'networking',
  kinds: ['Ingress'],
  phrasings: ['ingresses must set ingressClassName', 'every ingress needs an ingress class', 'ingressClassName must be nginx or traefik'],
  parameters: [{ name: 'classes', question: 'which ingress classes are allowed?', required: false, example: ['nginx'] }],
  recognize(clause) {
    if (!mentions(clause, 'ingressclassname', 'ingressclass', 'ingress class', 'ingress class name', 'ingress controller class')) return notMine()
    if (clause.negated && !mentions(clause, 'without', 'missing', 'empty')) return notMine()
    const words = wordsOf(clause)
    const classes: string[] = []
    words.forEach((word, index) => {
      if (!/^(be|to|of|use|either|equal|equals)$/.test(bare(word.norm))) return
      for (const next of words.slice(index + 1)) {
        const norm = bare(next.norm)
        if (FILLER.has(norm)) continue
        if (!isValueWord(next) || /^(ingress|ingresses|class|classes|ingressclassname|set|present|specified|defined|explicit)$/.test(norm)) break
        classes.push(bare(next.raw))
      }
    })
    return { score: 3, parameters: classes.length > 0 ? { classes: [...new Set(classes)] } : {}, missing: [] }
  },
  rule(parameters) {
    const classes = stringList(parameters.classes)
    const cel = [{ expression: "object.spec.?ingressClassName.orValue('') != ''", message: 'the Ingress does not set spec.ingressClassName' }]
    if (classes.length > 0) cel.push({ expression: `object.spec.ingressClassName in ${celStringList(classes)}`, message: `spec.ingressClassName must be ${classes.join(' or ')}` })
    return {
      name: classes.length > 0 ? slug('ingress-class', ...classes) : 'ingress-class-required',
      description:
        'An Ingress without spec.ingressClassName is served by whichever controller claims the default class (or none), so its exposure depends on cluster defaults. ' +
        'The deprecated kubernetes.io/ingress.class annotation does not count.',
      severity: 'medium',
      match: { kinds: ['Ingress'] },
      validate: { cel },
      message: classes.length > 0 ? `spec.ingressClassName must be ${classes.join(' or ')}` : 'the Ingress does not set spec.ingressClassName',
      remediation: `Set spec.ingressClassName${classes.length > 0 ? ` to ${classes.join(' or ')}` : ' to the IngressClass that should serve it'} (and drop the deprecated kubernetes.io/ingress.class annotation).`,
    }
  },
  samples(parameters) {
    const classes = stringList(parameters.classes)
    const spec = (document: Json): Json => mapIn(document, 'spec')
    const bad: TemplateSamples['bad'] = [{ description: 'an Ingress without spec.ingressClassName', edit: (document) => void delete spec(document).ingressClassName }]
    if (classes.length > 0) {
      const other = ['nginx', 'traefik', 'haproxy', 'other-class'].find((name) => !classes.includes(name)) ?? 'other-class'
      bad.push({ description: `spec.ingressClassName: ${other}`, edit: (document) => void (spec(document).ingressClassName = other) })
    }
    return {
      good: [
        (document) => {
          const current = spec(document).ingressClassName
          if (typeof current !== 'string' || current === '' || (classes.length > 0 && !classes.includes(current))) spec(document).ingressClassName = classes[0] ?? 'nginx'
        },
      ],
      bad,
    }
  },
}

const ingressHostDomains: RuleTemplate = {
  id: 'ingress-host-domains',
  title: 'Ingress hosts under allowed domains',
  platform: 'kubernetes',
  category: 'networking',
  kinds: ['Ingress'],
  phrasings: ['ingress hosts must end with .acme.io', 'ingress host names only under acme.io or acme.dev', 'only allow ingress hosts in example.com'],
  parameters: [{ name: 'domains', question: 'which domains may Ingress hosts be under?', required: true, example: ['example.com'] }],
  recognize(clause) {
    if (!aboutIngressHosts(clause)) return notMine()
    const domains = domainsIn(clause.text)
    if (domains.length === 0) {
      // "ingress hosts must be under an approved domain": ours, but which domains?
      if (namesIngress(clause) && mentions(clause, 'domain', 'domains', 'under', 'end with', 'ends with', 'suffix')) return { score: 1, parameters: {}, missing: ['domains'] }
      return notMine()
    }
    return { score: namesIngress(clause) ? 3 : 2, parameters: { domains }, missing: [] }
  },
  rule(parameters) {
    const domains = stringList(parameters.domains).map((domain) => domain.toLowerCase())
    // On a dot boundary: evilacme.io is not under acme.io; acme.io itself and *.acme.io are.
    const under = (host: string): string => `${celStringList(domains)}.exists(d, ${host} == d || ${host}.endsWith('.' + d))`
    return {
      name: slug('ingress-hosts-under', ...domains),
      description: `Ingress hosts, in rules and TLS entries, must be ${domains.join(' or ')} or a subdomain of it. A rule without a host answers every host name, so it fails too.`,
      severity: 'high',
      match: { kinds: ['Ingress'] },
      validate: {
        cel: [
          { expression: `${INGRESS_HOSTS}.all(host, host != '' && ${under('host')})`, message: `every spec.rules[].host must be set and under ${domains.join(' or ')}` },
          { expression: `${TLS_HOSTS}.all(t, t.?hosts.orValue([]).all(host, ${under('host')}))`, message: `every spec.tls[].hosts entry must be under ${domains.join(' or ')}` },
        ],
      },
      message: `Ingress hosts must be under ${domains.join(' or ')}`,
      remediation: `Set every spec.rules[].host and spec.tls[].hosts entry to a name ending in .${domains[0] ?? 'example.com'}${domains.length > 1 ? ` (or ${domains.slice(1).map((domain) => `.${domain}`).join(', ')})` : ''}; give host-less rules a host.`,
    }
  },
  samples(parameters) {
    const domains = stringList(parameters.domains).map((domain) => domain.toLowerCase())
    const domain = domains[0] ?? 'example.com'
    const under = (host: string): boolean => domains.some((entry) => host === entry || host.endsWith(`.${entry}`))
    const firstLabel = (host: string): string => (host.includes('.') ? host.slice(0, host.indexOf('.')) : host)
    return {
      good: [(document) => renameHosts(document, (host) => (under(host) ? host : `${firstLabel(host)}.${domain}`))],
      bad: [
        { description: `a look-alike host web.evil${domain}`, edit: (document) => renameHosts(document, () => `web.evil${domain}`) },
        { description: `a host ${domain}.attacker.example that only starts with the domain`, edit: (document) => renameHosts(document, () => `${domain}.attacker.example`) },
        {
          description: 'a rule without a host',
          edit: (document) => {
            for (const rule of ingressRules(document)) delete rule.host
          },
        },
      ],
    }
  },
}

const ingressNoWildcardHosts: RuleTemplate = {
  id: 'ingress-no-wildcard-hosts',
  title: 'No wildcard Ingress hosts',
  platform: 'kubernetes',
  category: 'networking',
  kinds: ['Ingress'],
  phrasings: ['no wildcard ingress hosts', 'ingress hosts must not be wildcards', 'disallow wildcard hosts on ingresses'],
  parameters: [],
  recognize(clause) {
    if (!mentions(clause, 'wildcard', 'wildcards', /(^|\s)\*\./) || !clause.negated) return notMine()
    if (!aboutIngressHosts(clause) && !namesIngress(clause)) return notMine()
    return { score: 3, parameters: {}, missing: [] }
  },
  rule: () => ({
    name: 'ingress-no-wildcard-hosts',
    description: 'A wildcard Ingress host (*.example.com) claims every subdomain, including ones other teams or attackers could want to serve.',
    severity: 'medium',
    match: { kinds: ['Ingress'] },
    validate: {
      cel: [
        { expression: `${INGRESS_HOSTS}.all(host, !host.startsWith('*'))`, message: 'spec.rules[].host must not be a wildcard' },
        { expression: `${TLS_HOSTS}.all(t, t.?hosts.orValue([]).all(host, !host.startsWith('*')))`, message: 'spec.tls[].hosts must not hold a wildcard' },
      ],
    },
    message: 'wildcard Ingress hosts are not allowed',
    remediation: 'Replace each wildcard host (*.example.com) in spec.rules[].host and spec.tls[].hosts with the exact host names served.',
  }),
  samples: () => ({
    good: [(document) => renameHosts(document, (host) => (host.startsWith('*') ? `www${host.slice(1)}` : host))],
    bad: [
      { description: 'a wildcard rule and TLS host', edit: (document) => renameHosts(document, (host) => `*${host.slice(host.indexOf('.'))}`) },
      {
        description: 'a wildcard host only in spec.tls',
        edit: (document) => {
          const [entry] = tlsEntries(document)
          if (entry) entry.hosts = [...(Array.isArray(entry.hosts) ? (entry.hosts as string[]) : []), '*.example.com']
        },
      },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// HorizontalPodAutoscalers

const HPA = 'HorizontalPodAutoscaler'

function namesHpa(clause: Clause): boolean {
  return clause.kinds.includes(HPA) || mentions(clause, /autoscal/)
}

const hpaMinReplicas: RuleTemplate = {
  id: 'hpa-min-replicas',
  title: 'HPA minReplicas at least N',
  platform: 'kubernetes',
  category: 'scaling',
  kinds: [HPA],
  phrasings: ['HPA minReplicas must be at least 2', 'autoscalers need a minimum of 2 replicas', 'minReplicas >= 3 on every HorizontalPodAutoscaler'],
  parameters: [{ name: 'minimum', question: 'at least how many minReplicas?', required: true, example: 2 }],
  recognize(clause) {
    const field = mentions(clause, 'minreplicas', 'min replicas', 'minimum replicas')
    if (!field && !(namesHpa(clause) && mentions(clause, 'replica', 'replicas'))) return notMine()
    if (mentions(clause, 'maxreplicas') && !mentions(clause, 'minreplicas')) return notMine()
    const minimum = lowerBound(clause, /(?:minreplicas|replicas?)/)
    if (minimum === undefined) return field && namesHpa(clause) ? { score: 1, parameters: {}, missing: ['minimum'] } : notMine()
    if (!field && upperBound(clause, /replicas?/) !== undefined && !mentions(clause, /at least|minimum|>=/)) return notMine()
    return { score: mentions(clause, 'minreplicas') ? 3 : 2, parameters: { minimum }, missing: [] }
  },
  rule(parameters) {
    const minimum = numberParameter(parameters.minimum) ?? 1
    // Kubernetes defaults minReplicas to 1.
    const min = 'object.spec.?minReplicas.orValue(1)'
    return {
      name: slug('hpa-min-replicas-at-least', minimum),
      description: `HorizontalPodAutoscalers keep at least ${minimum} replicas, so scaling down never leaves a single pod. An unset minReplicas is 1, as Kubernetes defaults it.`,
      severity: 'medium',
      match: { kinds: [HPA] },
      validate: { cel: [{ expression: `${min} >= ${minimum}`, message: `spec.minReplicas must be at least ${minimum}`, messageExpression: `'spec.minReplicas is ' + string(${min}) + ' (1 when unset), at least ${minimum} required'` }] },
      message: `spec.minReplicas must be at least ${minimum}`,
      remediation: `Set spec.minReplicas to ${minimum} or more (unset means 1).`,
    }
  },
  samples(parameters) {
    const minimum = numberParameter(parameters.minimum) ?? 1
    const spec = (document: Json): Json => mapIn(document, 'spec')
    const bad: TemplateSamples['bad'] = [{ description: `spec.minReplicas: ${minimum - 1}`, edit: (document) => void (spec(document).minReplicas = minimum - 1) }]
    if (minimum > 1) bad.push({ description: 'spec.minReplicas unset (1)', edit: (document) => void delete spec(document).minReplicas })
    return {
      good: [
        (document) => {
          const current = spec(document).minReplicas
          if (typeof current !== 'number' || current < minimum) spec(document).minReplicas = minimum
        },
      ],
      bad,
    }
  },
}

const hpaMaxReplicas: RuleTemplate = {
  id: 'hpa-max-replicas',
  title: 'HPA maxReplicas at most N',
  platform: 'kubernetes',
  category: 'scaling',
  kinds: [HPA],
  phrasings: ['HPA maxReplicas at most 20', 'autoscalers may scale to no more than 50 replicas', 'cap maxReplicas at 10'],
  parameters: [{ name: 'maximum', question: 'at most how many maxReplicas?', required: true, example: 20 }],
  recognize(clause) {
    const field = mentions(clause, 'maxreplicas', 'max replicas', 'maximum replicas')
    if (!field && !(namesHpa(clause) && mentions(clause, 'replica', 'replicas'))) return notMine()
    if (mentions(clause, 'minreplicas') && !mentions(clause, 'maxreplicas')) return notMine()
    const maximum = upperBound(clause, /(?:maxreplicas|replicas?)/)
    if (maximum === undefined) return field && namesHpa(clause) ? { score: 1, parameters: {}, missing: ['maximum'] } : notMine()
    return { score: mentions(clause, 'maxreplicas') ? 3 : 2, parameters: { maximum }, missing: [] }
  },
  rule(parameters) {
    const maximum = numberParameter(parameters.maximum) ?? 1
    return {
      name: slug('hpa-max-replicas-at-most', maximum),
      description: `HorizontalPodAutoscalers scale to at most ${maximum} replicas, bounding what a load spike (or a metrics bug) can cost.`,
      severity: 'medium',
      match: { kinds: [HPA] },
      validate: {
        cel: [
          // maxReplicas has no default: an HPA without it is not bounded by anything this rule can see.
          { expression: 'has(object.spec.maxReplicas)', message: 'spec.maxReplicas is not set' },
          { expression: `object.spec.maxReplicas <= ${maximum}`, message: `spec.maxReplicas must be at most ${maximum}`, messageExpression: `'spec.maxReplicas is ' + string(object.spec.maxReplicas) + ', at most ${maximum} allowed'` },
        ],
      },
      message: `spec.maxReplicas must be at most ${maximum}`,
      remediation: `Set spec.maxReplicas to ${maximum} or less.`,
    }
  },
  samples(parameters) {
    const maximum = numberParameter(parameters.maximum) ?? 1
    const spec = (document: Json): Json => mapIn(document, 'spec')
    return {
      good: [
        (document) => {
          const current = spec(document).maxReplicas
          if (typeof current !== 'number' || current > maximum) spec(document).maxReplicas = maximum
        },
      ],
      bad: [
        { description: `spec.maxReplicas: ${maximum + 1}`, edit: (document) => void (spec(document).maxReplicas = maximum + 1) },
        { description: 'spec.maxReplicas unset', edit: (document) => void delete spec(document).maxReplicas },
      ],
    }
  },
}

const hpaCpuTarget: RuleTemplate = {
  id: 'hpa-cpu-utilization',
  title: 'HPAs scale on CPU utilization',
  platform: 'kubernetes',
  category: 'scaling',
  kinds: [HPA],
  phrasings: ['HPAs must target CPU utilization', 'autoscalers must scale on CPU', 'every HPA needs a CPU utilization metric'],
  parameters: [],
  recognize(clause) {
    if (!mentions(clause, 'cpu')) return notMine()
    if (!namesHpa(clause) && !mentions(clause, 'utilization', 'utilisation')) return notMine()
    if (mentions(clause, 'limit', 'limits', 'request', 'requests', 'minreplicas', 'maxreplicas')) return notMine()
    return { score: 2 + (mentions(clause, 'utilization', 'utilisation', 'metric', 'metrics', 'target', 'scale on', 'scale by', 'based on') ? 1 : 0), parameters: {}, missing: [] }
  },
  rule: () => ({
    name: 'hpa-cpu-utilization',
    description:
      'HorizontalPodAutoscalers scale on average CPU utilization (a Resource or ContainerResource metric for cpu with a Utilization target, or autoscaling/v1 targetCPUUtilizationPercentage). ' +
      'An HPA without metrics scales on 80% CPU, as Kubernetes defaults it, and passes.',
    severity: 'low',
    match: { kinds: [HPA] },
    validate: {
      cel: [
        {
          expression:
            "has(object.spec.targetCPUUtilizationPercentage) || object.spec.?metrics.orValue([]).size() == 0 || object.spec.metrics.exists(m, " +
            "(m.?type.orValue('') == 'Resource' && m.?resource.?name.orValue('') == 'cpu' && (m.?resource.?target.?type.orValue('') == 'Utilization' || has(m.resource.targetAverageUtilization))) || " +
            "(m.?type.orValue('') == 'ContainerResource' && m.?containerResource.?name.orValue('') == 'cpu' && m.?containerResource.?target.?type.orValue('') == 'Utilization'))",
          message: 'the HPA must scale on CPU utilization',
        },
      ],
    },
    message: 'the HPA must scale on CPU utilization',
    remediation: "Add to spec.metrics: {type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}}.",
  }),
  samples: () => ({
    good: [
      (document) => {
        const spec = mapIn(document, 'spec')
        const metrics = Array.isArray(spec.metrics) ? (spec.metrics as Json[]) : []
        const hasCpu = metrics.some((metric) => metric.type === 'Resource' && (metric.resource as Json | undefined)?.name === 'cpu')
        if (metrics.length > 0 && !hasCpu) metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } })
      },
    ],
    bad: [
      {
        description: 'an HPA scaling on memory only',
        edit: (document) => void (mapIn(document, 'spec').metrics = [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 80 } } }]),
      },
      {
        description: 'an HPA scaling on CPU average value, not utilization',
        edit: (document) => void (mapIn(document, 'spec').metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '500m' } } }]),
      },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// PodDisruptionBudgets

const PDB = 'PodDisruptionBudget'
const BLOCKS_DISRUPTION = [/\bmaxunavailable\b.*\b(0|zero)\b(?!\.)/, /\bminavailable\b.*\b100 ?%/, /\bdrains?\b/, /\bevict/, /\ballows? (?:\w+ ){0,3}disruptions?\b/, /\bblocks?\b/]

/**
 * Whether the clause is about PodDisruptionBudget objects. "Deployments need a PDB" is not: whether
 * a PDB covers a Deployment cannot be judged from one object, so no template here takes it.
 */
function namesPdb(clause: Clause): boolean {
  if (clause.kindsNamed && clause.kinds.some((kind) => kind !== PDB)) return false
  return clause.kinds.includes(PDB) || mentions(clause, 'minavailable', 'maxunavailable', 'min available', 'max unavailable', 'disruption budget', 'disruption budgets')
}

/** The PDB fields a clause names: one alone is required; both, or neither, means either will do. */
function pdbFieldsIn(clause: Clause): string[] {
  const min = mentions(clause, 'minavailable', 'min available', 'minimum available')
  const max = mentions(clause, 'maxunavailable', 'max unavailable', 'maximum unavailable')
  return min === max ? ['minAvailable', 'maxUnavailable'] : min ? ['minAvailable'] : ['maxUnavailable']
}

const pdbBudgetSet: RuleTemplate = {
  id: 'pdb-budget-set',
  title: 'PDBs set minAvailable or maxUnavailable',
  platform: 'kubernetes',
  category: 'scaling',
  kinds: [PDB],
  phrasings: ['PDBs must set minAvailable or maxUnavailable', 'PodDisruptionBudgets must set minAvailable', 'every PodDisruptionBudget must specify a budget'],
  parameters: [{ name: 'fields', question: 'which field must be set: minAvailable, maxUnavailable, or either?', required: false, example: ['minAvailable', 'maxUnavailable'] }],
  recognize(clause) {
    if (!namesPdb(clause)) return notMine()
    if (BLOCKS_DISRUPTION.some((pattern) => mentions(clause, pattern))) return notMine()
    if (clause.negated && !mentions(clause, 'without', 'missing')) return notMine()
    if (!mentions(clause, 'minavailable', 'maxunavailable', 'budget', 'set', 'specify', 'define', 'need', 'needs', 'must have', 'require', 'required')) return notMine()
    return { score: 2, parameters: { fields: pdbFieldsIn(clause) }, missing: [] }
  },
  rule(parameters) {
    const fields = stringList(parameters.fields).filter((field) => field === 'minAvailable' || field === 'maxUnavailable')
    const required = fields.length > 0 ? fields : ['minAvailable', 'maxUnavailable']
    const either = required.length > 1
    const what = required.map((field) => `spec.${field}`).join(' or ')
    return {
      name: either ? 'pdb-budget-set' : slug('pdb', required[0] ?? 'budget', 'set'),
      description: `A PodDisruptionBudget must say how much disruption it allows: ${what}.`,
      severity: 'medium',
      match: { kinds: [PDB] },
      validate: { cel: [{ expression: required.map((field) => `has(object.spec.${field})`).join(' || '), message: `the PodDisruptionBudget does not set ${what}` }] },
      message: `the PodDisruptionBudget does not set ${what}`,
      remediation: either
        ? 'Set spec.minAvailable (e.g. 1 or "50%") or spec.maxUnavailable (e.g. 1) on the PodDisruptionBudget.'
        : `Set ${what} on the PodDisruptionBudget${required[0] === 'minAvailable' ? ' (e.g. 1 or "50%") instead of spec.maxUnavailable' : ' (e.g. 1) instead of spec.minAvailable'}.`,
    }
  },
  samples(parameters) {
    const fields = stringList(parameters.fields)
    const only = fields.length === 1 ? fields[0] : undefined
    const bad: TemplateSamples['bad'] = [
      {
        description: 'a PodDisruptionBudget with neither minAvailable nor maxUnavailable',
        edit: (document) => {
          const spec = mapIn(document, 'spec')
          delete spec.minAvailable
          delete spec.maxUnavailable
        },
      },
    ]
    if (only !== undefined) {
      const other = only === 'minAvailable' ? 'maxUnavailable' : 'minAvailable'
      bad.push({
        description: `a PodDisruptionBudget with ${other} instead of ${only}`,
        edit: (document) => {
          const spec = mapIn(document, 'spec')
          delete spec[only]
          spec[other] = 1
        },
      })
    }
    return {
      good: [
        (document) => {
          const spec = mapIn(document, 'spec')
          if (only !== undefined && spec[only] === undefined) {
            delete spec[only === 'minAvailable' ? 'maxUnavailable' : 'minAvailable']
            spec[only] = 1
          } else if (spec.minAvailable === undefined && spec.maxUnavailable === undefined) spec.maxUnavailable = 1
        },
      ],
      bad,
    }
  },
}

const pdbAllowsDisruption: RuleTemplate = {
  id: 'pdb-allows-disruption',
  title: 'PDBs allow voluntary disruptions',
  platform: 'kubernetes',
  category: 'scaling',
  kinds: [PDB],
  phrasings: ['maxUnavailable must not be 0', 'minAvailable must not be 100%', 'PDBs must not block node drains'],
  parameters: [],
  recognize(clause) {
    if (!namesPdb(clause)) return notMine()
    if (!BLOCKS_DISRUPTION.some((pattern) => mentions(clause, pattern))) return notMine()
    return { score: 3, parameters: {}, missing: [] }
  },
  rule: () => ({
    name: 'pdb-allows-disruption',
    description:
      'A PodDisruptionBudget with maxUnavailable 0 (or 0%) or minAvailable 100% never allows an eviction, so node drains and cluster upgrades hang. ' +
      'Both are checked whichever the instruction named: they block drains alike.',
    severity: 'medium',
    match: { kinds: [PDB] },
    validate: {
      cel: [
        {
          expression: "!has(object.spec.maxUnavailable) || (type(object.spec.maxUnavailable) == string ? !(object.spec.maxUnavailable in ['0%', '0']) : object.spec.maxUnavailable != 0)",
          message: 'spec.maxUnavailable of 0 blocks every voluntary disruption',
        },
        { expression: "!has(object.spec.minAvailable) || type(object.spec.minAvailable) != string || object.spec.minAvailable != '100%'", message: 'spec.minAvailable of 100% blocks every voluntary disruption' },
      ],
    },
    message: 'the PodDisruptionBudget blocks every voluntary disruption',
    remediation: 'Set spec.maxUnavailable to at least 1 (or a non-zero percentage), or spec.minAvailable below 100%.',
  }),
  samples: () => ({
    good: [
      (document) => {
        const spec = mapIn(document, 'spec')
        if (spec.maxUnavailable === 0 || spec.maxUnavailable === '0%' || spec.maxUnavailable === '0') spec.maxUnavailable = 1
        if (spec.minAvailable === '100%') spec.minAvailable = '50%'
      },
    ],
    bad: [
      {
        description: 'spec.maxUnavailable: 0',
        edit: (document) => {
          const spec = mapIn(document, 'spec')
          delete spec.minAvailable
          spec.maxUnavailable = 0
        },
      },
      {
        description: 'spec.maxUnavailable: "0%"',
        edit: (document) => {
          const spec = mapIn(document, 'spec')
          delete spec.minAvailable
          spec.maxUnavailable = '0%'
        },
      },
      { description: 'spec.minAvailable: "100%"', edit: (document) => void (mapIn(document, 'spec').minAvailable = '100%') },
    ],
  }),
}

export const METADATA_AND_NETWORKING_TEMPLATES: readonly RuleTemplate[] = [
  metadataTemplate('label', false),
  metadataTemplate('annotation', false),
  metadataTemplate('label', true),
  metadataTemplate('annotation', true),
  replicaCount,
  noDefaultNamespace,
  serviceTypes,
  serviceNoExternalIps,
  ingressTls,
  ingressClass,
  ingressHostDomains,
  ingressNoWildcardHosts,
  hpaMinReplicas,
  hpaMaxReplicas,
  hpaCpuTarget,
  pdbBudgetSet,
  pdbAllowsDisruption,
]
