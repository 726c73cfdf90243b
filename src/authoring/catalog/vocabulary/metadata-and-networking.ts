import { RE2JS } from 're2js'
import type { CelValidation, Rule, Severity } from '../../../engine/index.js'
import { baseKubernetesDocument } from '../../samples/base-documents.js'
import { mapIn, metadataOf } from '../../samples/document-parts.js'
import { mentions, type Clause } from '../../text/clause.js'
import { isLabelKey } from '../../text/extract.js'
import { canonicalKind } from '../../text/kinds.js'
import { pathSegments } from '../entry-template.js'
import type { JsonValue } from '../named-requirement.js'
import { celString, celStringList } from '../pod-rule.js'
import type { ParameterValue, Parameters, SampleEdit, TemplateSamples } from '../rule-template.js'
import { ruleNameFrom } from '../rule-name.js'
import type { Options, Vocabulary } from '../vocabulary.js'
import { optionText as text } from '../vocabulary.js'

/**
 * The pieces the metadata, exposure and scaling entries name (entries/metadata-and-networking.ts):
 * readers of keys, values, bounds and domains from a clause; the rule on metadata keys; and
 * sample makers and edits for fields with a default, listed values and Ingress hosts. Rules
 * whose texts the entries write are `object-rule` (common.ts).
 */

type Json = Record<string, unknown>

// ---------------------------------------------------------------------------------------------
// Options


function texts(options: Options, name: string): string[] {
  const value = options[name]
  return Array.isArray(value) ? value.filter((each): each is string => typeof each === 'string') : []
}

/** The entry's options in the shape a piece documents: entries are JSON, so the shape is the piece's contract. */
function shaped<T>(options: Options): T {
  return options as unknown as T
}

const compiled = new Map<string, RegExp>()

/** A regular expression an entry gives as source, compiled once. */
function regex(source: string): RegExp {
  let pattern = compiled.get(source)
  if (!pattern) {
    pattern = new RegExp(source)
    compiled.set(source, pattern)
  }
  return pattern
}

/** Words in options: a phrase, or `{re}` a regular expression's source (as in an entry's `mentions`). */
function wordsPattern(words: JsonValue): string | RegExp {
  if (typeof words === 'string') return words
  if (words && typeof words === 'object' && !Array.isArray(words) && typeof (words as { re?: unknown }).re === 'string') return regex((words as { re: string }).re)
  throw new Error(`not words: ${JSON.stringify(words)}`)
}

/** A parameter as a list of strings: a string alone is a list of one. */
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

function numberParameter(value: ParameterValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

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

function withDigits(words: string): string {
  return words.replace(/\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|single)\b/g, (word) => String(NUMBER_WORDS[word] ?? word))
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

function noun(options: Options): Noun {
  const given = text(options, 'noun')
  if (given !== 'label' && given !== 'annotation') throw new Error(`metadata pieces read labels or annotations, not ${given}`)
  return given
}

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

/**
 * A value that matches `pattern` (RE2, partial match as CEL's `matches`), for compliant samples:
 * one built from the pattern's first alternatives and least repetitions, else a common value
 * that happens to match.
 */
function valueMatching(pattern: string, preferred: readonly string[] = []): string | undefined {
  let compiledPattern: RE2JS
  try {
    compiledPattern = RE2JS.compile(pattern)
  } catch {
    return undefined
  }
  const candidates = [...preferred, simplestMatch(pattern), 'payments', 'web', 'prod', 'a', 'abc', '1234', '1', 'team-a', 'A', 'x1', 'v1.0.0', 'true']
  return candidates.find((candidate): candidate is string => candidate !== undefined && compiledPattern.test(candidate))
}

function valueNotMatching(pattern: string, avoid: readonly string[]): string | undefined {
  let compiledPattern: RE2JS
  try {
    compiledPattern = RE2JS.compile(pattern)
  } catch {
    return undefined
  }
  return ['INVALID', 'x', '0', 'not-valid-99', 'Not Valid!', ''].find((candidate) => !avoid.includes(candidate) && !compiledPattern.test(candidate))
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

/** Required or forbidden labels or annotations: one check per key, of its presence, values and pattern. */
function metadataRule(parameters: Parameters, options: Options): Rule {
  const thing = noun(options)
  const forbidden = options.forbidden === true
  const plural = `${thing}s`
  const field = `metadata.${plural}`
  const keys = stringList(parameters.keys)
  const values = stringListMap(parameters.values)
  const patterns = stringMap(parameters.patterns)
  const map = `variables.${plural}`
  const cel: CelValidation[] = []
  for (const key of keys) {
    const present = `${celString(key)} in ${map}`
    const value = `${map}[${celString(key)}]`
    const allowed = values[key] ?? []
    const pattern = patterns[key]
    if (forbidden) {
      if (allowed.length === 0 && pattern === undefined) {
        cel.push({ expression: `!(${present})`, message: `${thing} ${key} is not allowed` })
      }
      if (allowed.length > 0) cel.push({ expression: `!(${present} && ${value} in ${celStringList(allowed)})`, message: `${thing} ${key} must not be ${allowed.join(' or ')}` })
      if (pattern !== undefined) cel.push({ expression: `!(${present} && ${value}.matches(${celString(pattern)}))`, message: `${thing} ${key} must not match ${pattern}` })
    } else {
      cel.push({ expression: present, message: `${thing} ${key} is required` })
      if (allowed.length > 0) cel.push({ expression: `${value} in ${celStringList(allowed)}`, message: `${thing} ${key} must be ${allowed.join(' or ')}` })
      if (pattern !== undefined) cel.push({ expression: `${value}.matches(${celString(pattern)})`, message: `${thing} ${key} must match ${pattern}` })
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
    name: ruleNameFrom([forbidden ? 'forbid' : 'require', plural, ...keys], ''),
    description: forbidden ? `Objects must not carry these ${plural}${constrained ? ' with these values' : ''}: ${described}.` : `Objects must carry these ${plural}, ${text(options, 'purpose')}: ${described}.`,
    severity: text(options, 'severity') as Severity,
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
}

function metadataSamples(parameters: Parameters, options: Options): TemplateSamples {
  const thing = noun(options)
  const forbidden = options.forbidden === true
  const plural = `${thing}s`
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
      if (offending !== undefined) bad.push({ description: `${thing} ${key}=${offending}`, edit: (document) => void (mapOf(document)[key] = offending) })
      continue
    }
    good.push((document) => {
      const current = mapOf(document)[key]
      const keep = typeof current === 'string' && (allowed.length === 0 || allowed.includes(current)) && (pattern === undefined || valueMatching(pattern, [current]) === current)
      if (keep) return
      const candidate = pattern === undefined ? (allowed[0] ?? 'payments') : allowed.length > 0 ? (allowed.find((value) => valueMatching(pattern, [value]) === value) ?? allowed[0]) : valueMatching(pattern)
      if (candidate !== undefined) mapOf(document)[key] = candidate
    })
    bad.push({ description: `no ${thing} ${key}`, edit: (document) => void delete mapOf(document)[key] })
    if (allowed.length > 0) {
      const wrong = ['invalid-value', 'other', 'x'].find((candidate) => !allowed.includes(candidate)) ?? 'invalid-value'
      bad.push({ description: `${thing} ${key}=${wrong}, not one of ${allowed.join(', ')}`, edit: (document) => void (mapOf(document)[key] = wrong) })
    } else if (pattern !== undefined) {
      const wrong = valueNotMatching(pattern, [])
      if (wrong !== undefined) bad.push({ description: `${thing} ${key}=${JSON.stringify(wrong)}, not matching ${pattern}`, edit: (document) => void (mapOf(document)[key] = wrong) })
    }
  }
  return { good, bad }
}

// ---------------------------------------------------------------------------------------------
// Bounds ("at least 2", "no more than 10", "minimum of three", "between 3 and 5")

/** The least value a clause asks for: "at least 2", ">= 3", "more than 1" (2), "3 or more". */
function lowerBound(clause: Clause, subject: RegExp): number | undefined {
  const digits = withDigits(clause.normalized)
  const forms: ReadonlyArray<[RegExp, (value: number) => number]> = [
    [/(?:at least|\bmin(?:imum)?\b(?: of)?|(?:no|not|never) (?:fewer|less) than|>=|≥|=>)\s*(\d+)/, (value) => value],
    [/(?<!\b(?:no|not|never|nor) )(?:more than|greater than|>(?!=))\s*(\d+)/, (value) => value + 1],
    [/(\d+)\s*(?:\+|or more\b|and up\b|and above\b)/, (value) => value],
    [/(?:^|\s)(?:fewer|less) than\s*(\d+)/, (value) => value],
  ]
  for (const [pattern, toBound] of forms) {
    const match = pattern.exec(digits)
    // "fewer than 2 replicas" bounds from below only when forbidden ("no Deployment with fewer than 2").
    if (match?.[1] && (!/(?:fewer|less) than/.test(match[0]) || /(?:no|not|never) (?:fewer|less)/.test(match[0]) || clause.negated)) return toBound(Number(match[1]))
  }
  if (upperBound(clause, subject) !== undefined) return undefined
  const plain = new RegExp(`(\\d+)\\s*${subject.source}|${subject.source}\\s*(?:count\\s*)?(?:must be|should be|of|:|=|==|is|to|set to)?\\s*(\\d+)`).exec(digits)
  const value = plain?.[1] ?? plain?.[2]
  return value === undefined ? undefined : Number(value)
}

/** The most a clause allows: "at most 10", "<= 10", "no more than 10", "fewer than 11" (10). */
function upperBound(clause: Clause, subject: RegExp): number | undefined {
  const digits = withDigits(clause.normalized)
  const forms: ReadonlyArray<[RegExp, (value: number) => number]> = [
    [/(?:at most|\bmax(?:imum)?\b(?: of)?|(?:no|not|never) (?:more|greater) than|up to|<=|≤|=<|cap(?:ped)? at|limit(?:ed)? to|(?:not|never) exceed)\s*(\d+)/, (value) => value],
    [/(\d+)\s*(?:or less|or fewer|or below|at most|at the most)\b/, (value) => value],
    [/(?<!\b(?:no|not|never|nor) )(?:less than|fewer than|below|<(?!=))\s*(\d+)/, (value) => value - 1],
  ]
  for (const [pattern, toBound] of forms) {
    const match = pattern.exec(digits)
    if (!match?.[1]) continue
    if (/(?:less|fewer) than/.test(match[0]) && clause.negated) continue
    return toBound(Number(match[1]))
  }
  // A bare number after maxReplicas bounds it; after "replicas" it may as well be a minimum.
  const plain = new RegExp(`${subject.source}\\s*(?:must be|should be|of|at|:|=|==|is|to|set to)?\\s*(\\d+)`).exec(digits)
  if (plain?.[1] && /maxreplicas/.test(subject.source)) return Number(plain[1])
  return undefined
}

/**
 * A bound of the clause (options: `subject`, the counted word's regular expression; `between`,
 * whether "between 3 and 5" gives both bounds first).
 */
function bound(clause: Clause, options: Options, which: 'lower' | 'upper'): number | undefined {
  if (options.between === true) {
    const between = /between\s*(\d+)\s*(?:and|-|to)\s*(\d+)/.exec(withDigits(clause.normalized))
    if (between) return Number(which === 'lower' ? between[1] : between[2])
  }
  const subject = regex(text(options, 'subject'))
  return which === 'lower' ? lowerBound(clause, subject) : upperBound(clause, subject)
}

// ---------------------------------------------------------------------------------------------
// Values named in a clause

/** Domain names the clause gives: "acme.io", ".acme.io", "*.acme.io", lowercased. */
function domainsIn(written: string): string[] {
  const found: string[] = []
  for (const word of written.split(/[\s,;]+/)) {
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

/**
 * The values of a closed set the clause names (`values`: each value and the regular expression
 * naming it), split at the first negation word (`negation`): "only ClusterIP, never NodePort"
 * allows the ones before it and forbids the ones after. `as` says which side this reader reads.
 */
function valuesNamed(clause: Clause, options: Options): string[] | undefined {
  const { values, negation, as } = shaped<{ values: Array<[string, string]>; negation: string; as: 'allowed' | 'forbidden' }>(options)
  const named = values.map(([value, pattern]) => ({ value, index: clause.normalized.search(regex(pattern)) })).filter((entry) => entry.index >= 0)
  if (named.length === 0) return undefined
  const negated = regex(negation).exec(clause.normalized)
  if (!negated) return as === 'allowed' ? named.map((entry) => entry.value) : undefined
  const before = named.filter((entry) => entry.index < negated.index).map((entry) => entry.value)
  const after = named.filter((entry) => entry.index > negated.index).map((entry) => entry.value)
  // "NodePort services are not allowed": the value comes first but is what is forbidden.
  if (as === 'forbidden') return after.length === 0 ? before : after
  return after.length > 0 && before.length > 0 ? before : undefined
}

/** Values listed after an introducing word (`after`: "be", "use") up to a word that ends the list (`stop`). */
function valuesAfter(clause: Clause, options: Options): string[] | undefined {
  const after = regex(text(options, 'after'))
  const stop = regex(text(options, 'stop'))
  const words = wordsOf(clause)
  const found: string[] = []
  words.forEach((word, index) => {
    if (!after.test(bare(word.norm))) return
    for (const next of words.slice(index + 1)) {
      const norm = bare(next.norm)
      if (FILLER.has(norm)) continue
      if (!isValueWord(next) || stop.test(norm)) break
      found.push(bare(next.raw))
    }
  })
  return found.length > 0 ? [...new Set(found)] : undefined
}

/** Of `choices` (each a value and the words naming it), the ones the clause names; all of them when it names none or all. */
function choicesNamed(clause: Clause, options: Options): string[] {
  const { choices } = shaped<{ choices: Array<[string, JsonValue[]]> }>(options)
  const named = choices.filter(([, words]) => mentions(clause, ...words.map(wordsPattern)))
  return (named.length === 0 || named.length === choices.length ? choices : named).map(([value]) => value)
}

// ---------------------------------------------------------------------------------------------
// Samples

/** A map in the document at a dotted path, created if missing. */
function mapAt(document: Json, path: string): Json {
  return pathSegments(path).reduce<Json>((parent, key) => mapIn(parent, key), document)
}

/** The parent map of a dotted path (created if missing) and the last key. */
function fieldAt(document: Json, path: string): [Json, string] {
  const segments = pathSegments(path)
  const key = segments.pop()
  if (key === undefined) throw new Error('an empty path in a catalog sample')
  return [segments.reduce<Json>((parent, segment) => mapIn(parent, segment), document), key]
}

interface NumberBoundsOptions {
  /** The field, a dotted path: `spec.replicas`. */
  field: string
  /** The parameters giving the bounds. */
  minimum?: string
  maximum?: string
  /** The bound when its parameter is not a number; without it, no bound. */
  otherwise?: number
  /**
   * The field left unset: `counts` is what the cluster runs then (without it the field is required),
   * `written` that the compliant sample writes that value (within bounds) rather than the bound.
   */
  unset?: { counts?: number; description: string; written?: boolean }
  /** The least value a field may hold: no non-compliant sample below it. */
  floor?: number
}

/** A number field within bounds: one value past each bound, and the unset field when it breaks one. */
function numberBoundsSamples(parameters: Parameters, options: Options): TemplateSamples {
  const given = shaped<NumberBoundsOptions>(options)
  const boundOf = (name: string | undefined): number | undefined => (name === undefined ? undefined : (numberParameter(parameters[name]) ?? given.otherwise))
  const minimum = boundOf(given.minimum)
  const maximum = boundOf(given.maximum)
  const unset = given.unset
  const set = (value: number): TemplateSamples['bad'][number] => ({
    description: `${given.field}: ${value}`,
    edit: (document) => {
      const [parent, key] = fieldAt(document, given.field)
      parent[key] = value
    },
  })
  const unsetSample = unset && {
    description: unset.description,
    edit: (document: Json) => {
      const [parent, key] = fieldAt(document, given.field)
      delete parent[key]
    },
  }
  const bad: TemplateSamples['bad'] = []
  if (minimum !== undefined && (given.floor === undefined || minimum - 1 >= given.floor)) bad.push(set(minimum - 1))
  if (unsetSample && unset.counts !== undefined && minimum !== undefined && minimum > unset.counts) bad.push(unsetSample)
  if (maximum !== undefined) bad.push(set(maximum + 1))
  if (unsetSample && unset.counts === undefined) bad.push(unsetSample)
  const within = (value: number): number => {
    let wanted = value
    if (minimum !== undefined) wanted = Math.max(wanted, minimum)
    if (maximum !== undefined) wanted = Math.min(wanted, maximum)
    return wanted
  }
  return {
    good: [
      (document) => {
        const [parent, key] = fieldAt(document, given.field)
        const value = parent[key]
        if (unset?.written && unset.counts !== undefined) {
          const current = typeof value === 'number' ? value : unset.counts
          const wanted = within(current)
          if (wanted !== current || value === undefined) parent[key] = wanted
        } else if (typeof value !== 'number') {
          const wanted = minimum ?? maximum
          if (wanted !== undefined) parent[key] = wanted
        } else if (within(value) !== value) parent[key] = within(value)
      },
    ],
    bad,
  }
}

interface ListedValuesOptions {
  /** The field, a dotted path: `spec.type`. */
  field: string
  /** Parameters listing the allowed and the forbidden values. */
  allowed: string
  forbidden?: string
  /** Values the field can take, in the order samples try them. */
  candidates: string[]
  /** How many non-compliant values to try. */
  count: number
  /** The value tried when no candidate is one the rule refuses but some are allowed. */
  fallback?: string
  /**
   * The field left unset: `counts` is the value the cluster gives it; without it the field is
   * required (an empty value does not count), and its absence is the first non-compliant sample.
   */
  unset: { counts?: string; description: string }
}

/** A field whose value must be allowed and not forbidden: the refused candidates, and the unset field when it is refused. */
function listedValuesSamples(parameters: Parameters, options: Options): TemplateSamples {
  const given = shaped<ListedValuesOptions>(options)
  const allowed = stringList(parameters[given.allowed])
  const forbidden = given.forbidden === undefined ? [] : stringList(parameters[given.forbidden])
  const ok = (value: string): boolean => (allowed.length === 0 || allowed.includes(value)) && !forbidden.includes(value)
  const counts = given.unset.counts
  const refused = given.candidates.filter((value) => !ok(value)).slice(0, given.count)
  if (refused.length === 0 && allowed.length > 0 && given.fallback !== undefined) refused.push(given.fallback)
  const unsetSample = {
    description: given.unset.description,
    edit: (document: Json) => {
      const [parent, key] = fieldAt(document, given.field)
      delete parent[key]
    },
  }
  const bad: TemplateSamples['bad'] = counts === undefined ? [unsetSample] : []
  for (const value of refused) {
    bad.push({
      description: `${given.field}: ${value}`,
      edit: (document) => {
        const [parent, key] = fieldAt(document, given.field)
        parent[key] = value
      },
    })
  }
  if (counts !== undefined && !ok(counts)) bad.push(unsetSample)
  const fill = allowed.find(ok) ?? given.candidates.find(ok)
  return {
    good: [
      (document) => {
        const [parent, key] = fieldAt(document, given.field)
        const value = parent[key]
        const current = typeof value === 'string' ? value : counts
        const refused = current === undefined || (counts === undefined && current === '') || !ok(current)
        if (refused && fill !== undefined) parent[key] = fill
      },
    ],
    bad,
  }
}

interface EitherFieldOptions {
  /** Where the fields are: `spec`. */
  at: string
  /** The two fields, either of which will do. */
  fields: [string, string]
  /** The parameter naming the one required, when only one is. */
  parameter: string
  /** What the samples are: "a PodDisruptionBudget". */
  subject: string
  /** The value a compliant sample sets. */
  value: JsonValue
}

/** One of two fields must be set, or the one the parameter names alone: neither set, and the other one instead. */
function eitherFieldSamples(parameters: Parameters, options: Options): TemplateSamples {
  const given = shaped<EitherFieldOptions>(options)
  const [first, second] = given.fields
  const chosen = stringList(parameters[given.parameter])
  const only = chosen.length === 1 ? chosen[0] : undefined
  const bad: TemplateSamples['bad'] = [
    {
      description: `${given.subject} with neither ${first} nor ${second}`,
      edit: (document) => {
        const place = mapAt(document, given.at)
        delete place[first]
        delete place[second]
      },
    },
  ]
  if (only !== undefined) {
    const other = only === first ? second : first
    bad.push({
      description: `${given.subject} with ${other} instead of ${only}`,
      edit: (document) => {
        const place = mapAt(document, given.at)
        delete place[only]
        place[other] = structuredClone(given.value)
      },
    })
  }
  return {
    good: [
      (document) => {
        const place = mapAt(document, given.at)
        if (only !== undefined && place[only] === undefined) {
          delete place[only === first ? second : first]
          place[only] = structuredClone(given.value)
        } else if (place[first] === undefined && place[second] === undefined) place[second] = structuredClone(given.value)
      },
    ],
    bad,
  }
}

// ---------------------------------------------------------------------------------------------
// Edits

/** The metadata of a namespaced sample: a Namespace sample (the clause said "namespace") is replaced by a ConfigMap. */
function namespacedMetadataOf(document: Json): Json {
  if (document.kind === 'Namespace') {
    for (const key of Object.keys(document)) delete document[key]
    Object.assign(document, baseKubernetesDocument('ConfigMap'))
  }
  return metadataOf(document)
}

function ingressRules(document: Json): Json[] {
  const rules = mapIn(document, 'spec').rules
  return Array.isArray(rules) ? (rules as Json[]) : []
}

function tlsEntries(document: Json): Json[] {
  const tls = mapIn(document, 'spec').tls
  return Array.isArray(tls) ? (tls as Json[]) : []
}

/** Replaces every host of the Ingress, in rules and TLS entries alike, so TLS coverage is kept. */
function renameHosts(document: Json, rename: (host: string) => string): void {
  for (const rule of ingressRules(document)) if (typeof rule.host === 'string') rule.host = rename(rule.host)
  for (const entry of tlsEntries(document)) if (Array.isArray(entry.hosts)) entry.hosts = (entry.hosts as unknown[]).map((host) => (typeof host === 'string' ? rename(host) : host))
}

interface RenameOptions {
  /** The part of each host replaced (a regular expression's source; `$1` in `to` is its first group); without it, the whole host. */
  match?: string
  to: string
  /** Domains: hosts under one of them are kept. */
  keepUnder?: string[]
}

function renameIngressHosts(_parameters: Parameters, options: Options): SampleEdit {
  const given = shaped<RenameOptions>(options)
  const to = given.to
  const kept = given.keepUnder ?? []
  const under = (host: string): boolean => kept.some((domain) => host === domain || host.endsWith(`.${domain}`))
  const replace = (host: string): string => (given.match === undefined ? to : host.replace(regex(given.match), (...groups: unknown[]) => to.replace(/\$(\d)/g, (_token, index: string) => String(groups[Number(index)] ?? ''))))
  return (document) => renameHosts(document, (host) => (given.keepUnder !== undefined && under(host) ? host : replace(host)))
}

/** Every spec.rules[].host listed in a spec.tls entry: the first one, created when there is none. */
function coverIngressHostsWithTls(): SampleEdit {
  return (document) => {
    const hosts = ingressRules(document).flatMap((rule) => (typeof rule.host === 'string' ? [rule.host] : []))
    const entries = tlsEntries(document)
    const covered = new Set(entries.flatMap((entry) => (Array.isArray(entry.hosts) ? (entry.hosts as string[]) : [])))
    const uncovered = hosts.filter((host) => !covered.has(host))
    if (entries.length > 0 && uncovered.length === 0) return
    const first = entries[0] ?? { secretName: 'web-tls', hosts: [] }
    first.hosts = [...(Array.isArray(first.hosts) ? (first.hosts as string[]) : []), ...uncovered]
    if (entries.length === 0) mapIn(document, 'spec').tls = [first]
  }
}

/** A copy of the first Ingress rule for another host of the same domain (`label`.domain), which no TLS entry lists. */
function secondIngressHost(_parameters: Parameters, options: Options): SampleEdit {
  const label = text(options, 'label')
  return (document) => {
    const [rule] = ingressRules(document)
    const host = typeof rule?.host === 'string' ? rule.host : 'web.example.com'
    ingressRules(document).push({ ...(rule ?? {}), host: `${label}.${host.replace(/^[^.]*\./, '')}` })
  }
}

/** `key` removed from every item of the list at `list` (a dotted path). */
function removeFromEach(_parameters: Parameters, options: Options): SampleEdit {
  const key = text(options, 'key')
  return (document) => {
    const [parent, name] = fieldAt(document, text(options, 'list'))
    const items = parent[name]
    if (Array.isArray(items)) for (const item of items as Json[]) delete item[key]
  }
}

/** `item` appended to the list `to` of the first item of the list at `list`, when there is one. */
function appendToFirst(_parameters: Parameters, options: Options): SampleEdit {
  const to = text(options, 'to')
  return (document) => {
    const [parent, name] = fieldAt(document, text(options, 'list'))
    const items = parent[name]
    const [first] = Array.isArray(items) ? (items as Json[]) : []
    if (first) first[to] = [...(Array.isArray(first[to]) ? (first[to] as unknown[]) : []), structuredClone(options.item)]
  }
}

/**
 * `item` appended to the list at `list` unless an item already has the values of `unless` (dotted
 * paths); a missing or empty list is left alone when the cluster's default applies to it (`ifEmpty: false`).
 */
function addListItem(_parameters: Parameters, options: Options): SampleEdit {
  const { list, item, unless, ifEmpty } = shaped<{ list: string; item: JsonValue; unless: Record<string, JsonValue>; ifEmpty?: boolean }>(options)
  const valueAt = (value: unknown, path: string): unknown => pathSegments(path).reduce<unknown>((current, key) => (current !== null && typeof current === 'object' ? (current as Json)[key] : undefined), value)
  return (document) => {
    const [parent, name] = fieldAt(document, list)
    const items = Array.isArray(parent[name]) ? (parent[name] as unknown[]) : undefined
    if ((items?.length ?? 0) === 0 && ifEmpty === false) return
    if (items?.some((each) => Object.entries(unless).every(([path, value]) => valueAt(each, path) === value))) return
    if (items) items.push(structuredClone(item))
    else parent[name] = [structuredClone(item)]
  }
}

interface ReplaceValuesOptions {
  /** A dotted path to a map (`metadata`), created if missing. */
  at: string
  /** Kinds of document the edit leaves alone. */
  except?: string[]
  /** Each field (a dotted path under `at`) holding one of `values` (or none, with `missing`) gets `with`. */
  replace: Array<{ field: string; values: JsonValue[]; missing?: boolean; with: JsonValue }>
}

/** Fields holding refused values get an accepted one; others are left as they are. */
function replaceValues(_parameters: Parameters, options: Options): SampleEdit {
  const given = shaped<ReplaceValuesOptions>(options)
  return (document) => {
    if (given.except?.includes(String(document.kind))) return
    const place = mapAt(document, given.at)
    for (const each of given.replace) {
      const [parent, key] = fieldAt(place, each.field)
      const value = parent[key]
      if ((value === undefined && each.missing === true) || each.values.some((refused) => refused === value)) parent[key] = structuredClone(each.with)
    }
  }
}

// ---------------------------------------------------------------------------------------------

export const METADATA_AND_NETWORKING_VOCABULARY: Vocabulary = {
  tests: {
    /** The clause names (or inherits) one of these `kinds`. */
    'names-kinds': (clause, options) => clause.kinds.some((kind) => texts(options, 'kinds').includes(kind)),
    /** The clause itself names a kind other than these (`than`). */
    'names-other-kinds': (clause, options) => clause.kindsNamed && clause.kinds.some((kind) => !texts(options, 'than').includes(kind)),
    /** A pattern the label or annotation clause gives is not a valid RE2 expression. */
    'metadata-pattern-invalid': (clause, options) => readMetadataRequest(clause, noun(options)).invalidPattern,
    /** Both bounds given, the most below the least (`subject`, `between` as for the bound readers). */
    'bounds-inverted': (clause, options) => {
      const lower = bound(clause, options, 'lower')
      const upper = bound(clause, options, 'upper')
      return lower !== undefined && upper !== undefined && upper < lower
    },
  },
  readers: {
    /** Of a label or annotation clause (`noun`), the `part`: keys, values (by key) or patterns (by key). */
    'metadata-request': (clause, options) => {
      const request = readMetadataRequest(clause, noun(options))
      const part = text(options, 'part')
      if (part === 'keys') return request.keys.length > 0 ? request.keys : undefined
      if (part === 'values') return Object.keys(request.values).length > 0 ? request.values : undefined
      if (part === 'patterns') return Object.keys(request.patterns).length > 0 ? request.patterns : undefined
      throw new Error(`no metadata request part "${part}"`)
    },
    'lower-bound': (clause, options) => bound(clause, options, 'lower'),
    'upper-bound': (clause, options) => bound(clause, options, 'upper'),
    /** The kinds of the clause `among` these: the rule is limited to them. */
    'kinds-named': (clause, options) => {
      const among = texts(options, 'among')
      const kinds = clause.kinds.filter((kind) => among.includes(kind))
      return kinds.length > 0 ? kinds : undefined
    },
    'values-named': valuesNamed,
    'values-after': valuesAfter,
    'choices-named': choicesNamed,
    'domain-names': (clause) => {
      const domains = domainsIn(clause.text)
      return domains.length > 0 ? domains : undefined
    },
  },
  rules: {
    'metadata-keys': metadataRule,
  },
  samples: {
    'metadata-keys': metadataSamples,
    'number-bounds': numberBoundsSamples,
    'listed-values': listedValuesSamples,
    'either-field': eitherFieldSamples,
  },
  places: {
    'namespaced-metadata': namespacedMetadataOf,
  },
  edits: {
    'replace-values': replaceValues,
    'rename-ingress-hosts': renameIngressHosts,
    'cover-ingress-hosts-with-tls': coverIngressHostsWithTls,
    'second-ingress-host': secondIngressHost,
    'remove-from-each': removeFromEach,
    'append-to-first': appendToFirst,
    'add-list-item': addListItem,
  },
}
