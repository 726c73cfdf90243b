import type { Comparison, FormatName, Predicate, Scalar } from './requirement.js'
import { booleanWord, numbersWithUnits, readValueList, type NumberWithUnit } from './read-values.js'

/**
 * The predicate a sentence states, found from its cue ("must be", "at least", "one of", "can't
 * exceed", "is rejected"), and the values after it. The cue's position splits the sentence into
 * what it is about (before) and what it says of it (after).
 */
export interface PredicateReading {
  predicate: Predicate
  /** Where the cue starts and the complement ends in the sentence. */
  cueIndex: number
  end: number
  /** The numbers' unit, to scale fields whose names carry another one. */
  unit?: NumberWithUnit
  /** The sentence says absent values are fine ("unset or 0", "if set"), or that they fail. */
  missing?: 'pass' | 'fail'
  /** What the values are, said after the cue ("must not contain the verbs escalate, bind"): it may name the field. */
  noun?: string
  /** Where the values must be, said after them ("must list X in the except list"): it names the field. */
  place?: string
}

interface Cue {
  pattern: RegExp
  /** The pattern reads the text as written: a field's name is told by its capitals (concurrencyPolicy). */
  cased?: boolean
  read: (after: string, afterLower: string) => Omit<PredicateReading, 'cueIndex' | 'end'> & { end: number } | undefined
}

const MODAL = String.raw`(?:must|has to|have to|needs? to|should|shall|is to|are to|is required to|are required to|can only|may only|is|are|will)(?: all| both| each| also| always| explicitly)?`
const NEGATED_MODAL = String.raw`(?:must not|mustn't|must never|should not|shouldn't|can't|cannot|can not|may not|is not|isn't|are not|aren't|never|not)`

function bound(cmp: Comparison, after: string): ReturnType<Cue['read']> {
  const numbers = numbersWithUnits(after)
  const first = numbers[0]
  if (!first || first.index > 12) return undefined
  const value = first.kind === 'duration' && first.base !== undefined ? first.base : first.quantity && (first.kind === 'memory' || first.kind === 'cpu') ? first.quantity : first.value
  const display = after.slice(first.index, first.index + first.length).trim()
  return { predicate: { op: 'compare', bounds: [{ cmp, value, display }] }, end: first.index + first.length, unit: first }
}

function between(after: string): ReturnType<Cue['read']> {
  const numbers = numbersWithUnits(after)
  const [low, high] = numbers
  if (!low || !high || low.index > 12) return undefined
  const gap = after.slice(low.index + low.length, high.index)
  if (!/^\s*(and|to|-|\.\.|through|thru)\s*$/i.test(gap)) return undefined
  const exclusive = /^\s*\(?\s*exclusive/i.test(after.slice(high.index + high.length))
  // "between 60 seconds and one day": both in the same base unit when both have one.
  const lowValue = valueOf(low, high)
  const highValue = valueOf(high, low)
  return {
    predicate: {
      op: 'compare',
      bounds: [
        { cmp: exclusive ? '>' : '>=', value: lowValue, display: after.slice(low.index, low.index + low.length).trim() },
        { cmp: exclusive ? '<' : '<=', value: highValue, display: after.slice(high.index, high.index + high.length).trim() },
      ],
    },
    end: high.index + high.length,
    unit: low.kind ? low : high,
  }
}

function valueOf(number: NumberWithUnit, other: NumberWithUnit): number | string {
  if (number.kind === 'duration' || (other.kind === 'duration' && number.kind === undefined)) return number.base ?? number.value * (other.base !== undefined ? other.base / other.value : 1)
  if ((number.kind === 'memory' || number.kind === 'cpu') && number.quantity) return number.quantity
  return number.value
}

function values(after: string): { values: Scalar[]; end: number } {
  // Later cues ("and at most 5") end the list.
  const list = readValueList(after)
  return { values: list.values.map(normalizeValue), end: list.end }
}

function normalizeValue(value: Scalar): Scalar {
  if (typeof value !== 'string') return value
  const flag = booleanWord(value)
  return flag !== undefined && value === value.toLowerCase() ? flag : value
}

/** The words that name a format after "as" or "in" ("owner as an email address", "a key in snake_case"). */
export const FORMAT_NAME = String.raw`(?:an? )?(?:valid )?(?:semver|semantic version|e-?mail|https?|url|dns|iso|yyyy|snake_case|kebab-case|lowercase)`

const FORMATS: Array<[RegExp, FormatName, string]> = [
  [/\b(e-?mail( address)?)\b/, 'email', '^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$'],
  [/\bhttps\b|https:\/\//, 'https-url', '^https://[^\\s/$.?#][^\\s]*$'],
  [/\b(semver|semantic version(ing)?|major\.minor\.patch)\b/, 'semver', '^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$'],
  [/\b(yyyy-mm-dd|iso ?8601 date|iso date)\b/, 'date', '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$'],
  [/\bsnake[_ ]?case\b/, 'snake-case', '^[a-z][a-z0-9]*(_[a-z0-9]+)*$'],
  [/\b(kebab[- ]?case)\b/, 'kebab-case', '^[a-z][a-z0-9]*(-[a-z0-9]+)*$'],
  [/\blowercase letters,? digits,? and (dashes|hyphens)\b|\bdns[- ](label|name|compatible)\b/, 'dns-label', '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$'],
  [/\b(40[- ]char(acter)?s?|full) (commit )?sha\b/, 'sha', '^[0-9a-f]{40}$'],
  [/\b(url|link|uri)\b/, 'url', '^[a-z][a-z0-9+.-]*://[^\\s]+$'],
]

/** A format named in the text (email, https URL, semver, ...), or a literal prefix + "followed by N digits". */
export function readFormat(lower: string, original: string): { format: FormatName; pattern: string } | undefined {
  // Starting only where a word starts keeps the lazy name linear on a long token.
  const digits = /(?:format |like |as )?["'`]?(?<![A-Za-z0-9_-])([A-Za-z][A-Za-z0-9_-]*?)["'`]?\s+followed by (?:exactly )?(\w+) (digits|letters)/i.exec(original)
  if (digits?.[1] && digits[2]) {
    const count = /^\d+$/.test(digits[2]) ? Number(digits[2]) : ({ one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8 } as Record<string, number>)[digits[2].toLowerCase()]
    if (count) return { format: 'pattern', pattern: `^${escapeRegex(digits[1])}${digits[3]?.toLowerCase() === 'digits' ? '[0-9]' : '[A-Za-z]'}{${count}}$` }
  }
  // "exactly 5 digits", "a 6-digit code", "digits only": a code written in digits.
  const counted = /\b(?:exactly\s+)?(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)[- ]digits?\b/.exec(lower)
  const count = counted?.[1] ? (/^\d+$/.test(counted[1]) ? Number(counted[1]) : NUMBER_WORDS[counted[1]]) : undefined
  if (count) return { format: 'pattern', pattern: `^[0-9]{${count}}$` }
  if (/\b(?:digits only|only digits|all digits|numeric string|numbers only)\b/.test(lower)) return { format: 'pattern', pattern: '^[0-9]+$' }
  for (const [pattern, format, regex] of FORMATS) if (pattern.test(lower)) return { format, pattern: regex }
  return undefined
}

/** The words of `text` that name `format` as readFormat reads it ("an email address", "semver", "6-digit"), as written. */
export function formatWords(format: FormatName, text: string): string | undefined {
  const lower = text.toLowerCase()
  const patterns = format === 'pattern' ? [/\bfollowed by (?:exactly )?\w+ (?:digits|letters)\b/, /\b(?:exactly\s+)?(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)[- ]digits?\b/, /\b(?:digits only|only digits|all digits|numeric string|numbers only)\b/] : FORMATS.filter(([, name]) => name === format).map(([pattern]) => pattern)
  for (const pattern of patterns) {
    const found = pattern.exec(lower)
    if (found) return text.slice(found.index, found.index + found[0].length)
  }
  return undefined
}

const NUMBER_WORDS: Readonly<Record<string, number>> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 }

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Words (and comparison signs: "must be >= 90") that start another cue or a description, never a value after "must be". */
const NOT_A_VALUE = /^([<>≤≥]|strictly|between|at (least|most)|one of|either|greater|less|more|fewer|lower|higher|under|over|above|below|positive|negative|non-negative|disallowed|allowed|forbidden|banned|rejected|prohibited|set|unset|specified|defined|declared|present|provided|pinned|labell?ed|annotated|tagged|https?\b|an?\b|the\b|valid|lowercase|uppercase|in\b|within|from|no\b|not\b|explicitly|listed|listed|formatted|a subdomain|subdomain|prefixed|suffixed|unique|shorter|longer|larger|smaller|equal|identical|same|different|empty|non-empty|false or|true or|off or|on or|done|used|enabled or|disabled or|\d+(?:\.\d+)?\s*[a-z%]*\s+or (more|less|fewer|lower|higher|greater|above|below|under|over|shorter|longer|smaller|larger))/

/** "an EU region", "a us-east-1 bucket": an article, then a word that can only be a value, then the noun it narrows. */
const NARROWED_NOUN = /^(?:a|an|some)\s+(?:[A-Z]{2,}[A-Z0-9-]*|[a-z0-9]+(?:[.-][a-z0-9*]+)+|[a-z]+[0-9][a-z0-9]*)\s+[a-z]+/

/** "/16 or smaller", "no broader than a /16", "at least a /24": a CIDR range's width, as its prefix length. */
const NARROWER = String.raw`(?:smaller|narrower|tighter|longer|more specific)`
const WIDER = String.raw`(?:larger|bigger|broader|wider|shorter|less specific)`
function cidrBound(cmp: Comparison, after: string): ReturnType<Cue['read']> {
  const bits = /^\s*(?:an?\s+)?\/(\d{1,3})\b/.exec(after)
  if (!bits?.[1] || Number(bits[1]) > 128) return undefined
  return { predicate: { op: 'cidrPrefix', cmp, bits: Number(bits[1]) }, end: bits[0].length }
}

const CUES: Cue[] = [
  { pattern: new RegExp(String.raw`(?<=^|\s)(?=(?:an?\s+)?\/\d{1,3}\s+or\s+${NARROWER}\b)`), read: (after) => cidrBound('>=', after) },
  { pattern: new RegExp(String.raw`(?<=^|\s)(?=(?:an?\s+)?\/\d{1,3}\s+or\s+${WIDER}\b)`), read: (after) => cidrBound('<=', after) },
  { pattern: new RegExp(String.raw`\b(?:no|not|never)\s+${WIDER}\s+than(?=\s+(?:an?\s+)?\/\d)`), read: (after) => cidrBound('>=', after) },
  { pattern: new RegExp(String.raw`\b(?:no|not|never)\s+${NARROWER}\s+than(?=\s+(?:an?\s+)?\/\d)`), read: (after) => cidrBound('<=', after) },
  { pattern: /\b(?:at least|minimum(?: of)?)(?=\s+(?:an?\s+)?\/\d)/, read: (after) => cidrBound('>=', after) },
  {
    pattern: /\b(?:(?:must|has to|have to|needs? to|should|shall)(?: all| each| always| also)? be|(?:that|which) (?:is|are)) (?=(?:a |an |valid |in |formatted as |written as |given as )?(?:e-?mail|https|url|link|semver|semantic|snake|kebab|lowercase letters|dns|iso|yyyy|full|40|(?:exactly )?(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)[- ]digits?\b|digits only|only digits))/,
    read: (after, lower) => {
      const format = readFormat(lower.slice(0, 80), after.slice(0, 80))
      return format ? { predicate: { op: 'format', ...format }, end: Math.min(after.length, 40) } : undefined
    },
  },
  {
    pattern: /\b(?:come|comes|be pulled|pulled|originate|be|only) from\s+|\bregistr(?:y|ies)\b/,
    read: (after) => {
      const clause = after.split(/\s+and\s+(?:be|never|must|no)\b|;/)[0] ?? after
      const registries = [...clause.matchAll(/(?<![\w@/.-])((?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:\/[a-z0-9._-]+)*\/?|localhost:\d+(?:\/[a-z0-9._-]+)*)/gi)].map((match) => (match[1] ?? '').replace(/\.$/, ''))
      return registries.length > 0 ? { predicate: { op: 'imageRegistry', registries }, end: clause.length } : undefined
    },
  },
  {
    pattern: /\b(?:must|has to|should|needs? to)?\s*(?:match(?:es)?|matching|conform to)\s+(?:the\s+)?(?:regex|pattern|regular expression)?\s*(?=[`"']?[\^([\\])/,
    read: (after) => {
      const token = /^[`"']?(\S+?)[`"']?(?=\s|$|[,;]\s)/.exec(after.trim())?.[1]?.replace(/[.,;]$/, '')
      return token ? { predicate: { op: 'format', format: 'pattern', pattern: token }, end: after.indexOf(token) + token.length } : undefined
    },
  },
  {
    pattern: /\b(?:pinned|referenced|pulled) (?:by|with|to) (?:a |its |an immutable )?(?:sha256 )?digest\b|\bby digest\b/,
    read: () => ({ predicate: { op: 'imageTag', requirement: 'digest' }, end: 0 }),
  },
  {
    pattern: /\b(?:explicit|specific|pinned|fixed) (?:version |image )?tag\b|\bno :?latest\b|\b(?:latest tag|:latest)\b/,
    read: (_after, lower) => ({ predicate: { op: 'imageTag', requirement: /digest/.test(lower) ? 'tagged-or-digest' : 'tagged-or-digest' }, end: 0 }),
  },
  { pattern: /\b(?:between|in the range(?: of)?|from)\s+(?=[\d])/, read: (after) => between(after) },
  { pattern: /(?<=\s)(?=\d+(?:\.\d+)?\s*[a-z%]*\s+or (?:less|lower|fewer|below|under|smaller|shorter)\b)/, read: (after) => bound('<=', after) },
  // "300 max.", "2 minimum": the bound written after its number.
  { pattern: /(?<=^|\s)(?=\d+(?:\.\d+)?\s*[a-z%]*\s+(?:max|maximum|tops|at most|at the most)\b)/, read: (after) => bound('<=', after) },
  { pattern: /(?<=^|\s)(?=\d+(?:\.\d+)?\s*[a-z%]*\s+(?:min|minimum|at least|at the least)\b)/, read: (after) => bound('>=', after) },
  { pattern: /(?<=\s)(?=\d+(?:\.\d+)?\s*[a-z%]*\s+or (?:more|higher|greater|above|over|larger|longer)\b)/, read: (after) => bound('>=', after) },
  // "no lower than 50%": a negated "lower than" is a lower bound, the mirror of "no higher than".
  { pattern: new RegExp(String.raw`(?:\b(?:at least|no less than|not less than|no fewer than|no lower than|not lower than|no smaller than|no shorter than|minimum(?: of)?|min\.?|greater than or equal to|${NEGATED_MODAL} (?:\w+ )?(?:go below|go under|(?:be )?(?:lower|less|fewer|smaller|shorter) than|be below|be under))|>=|≥)\s*`), read: (after) => bound('>=', after) },
  { pattern: new RegExp(String.raw`(?:\b(?:at most|no more than|not more than|no higher than|no greater than|no larger than|no longer than|up to|maximum(?: of)?|max\.?|capped at|less than or equal to|${NEGATED_MODAL} (?:\w+ )?(?:exceed|go over|go above|(?:be )?(?:higher|more|greater|larger|longer|bigger) than|be over|be above))|<=|≤)\s*`), read: (after) => bound('<=', after) },
  { pattern: /\b(?:strictly )?(?:greater|more|higher|larger|longer) than\s+|\b(?:above|over|exceeds?)\s+(?=\d)|>\s*(?=\d)/, read: (after) => bound('>', after) },
  { pattern: /\b(?:less|lower|fewer|shorter|smaller) than\s+|\b(?:under|below)\s+(?=\d|\w+ \w)|<\s*(?=\d)/, read: (after) => bound('<', after) },
  {
    pattern: /\b(?:has to be|must be|should be|needs to be|is|are)\s+positive\b/,
    read: () => ({ predicate: { op: 'compare', bounds: [{ cmp: '>', value: 0 }] }, end: 0 }),
  },
  {
    // "supplementalGroups must not contain 0", "the name must not include 'tmp'": neither an element nor a piece of text.
    pattern: new RegExp(String.raw`\b${NEGATED_MODAL} (?:\w+ )?(?:contain|include|list|mention)\s+`),
    read: (after) => containment('notContains', after),
  },
  {
    // "policyTypes has to contain both Ingress and Egress", "the scopes must include read:org".
    pattern: /\b(?:must|has to|have to|needs? to|should|shall)(?: also| always| at least)? (?:contain|include|list)\s+(?:both\s+|all of\s+|at least\s+)?/,
    read: (after) => containment('contains', after),
  },
  {
    // "spell out policyTypes with both Ingress and Egress in it".
    pattern: /\bwith\s+(?:both\s+|all of\s+)?(?=[^.;]{1,80}?\s(?:in it|in them|in there|included|listed)\b)/,
    read: (after) => containment('contains', after),
  },
  {
    // "must not point to localhost": a name that refers to a host or object is compared as the name it holds.
    pattern: new RegExp(String.raw`\b${NEGATED_MODAL} (?:be )?(?:set to |equal to |(?:refer|point) (?:back )?to )?(?=\S)`),
    read: (after, lower) => {
      if (/^(set|defined|specified|present|used|declared|given)\b/.test(lower)) return { predicate: { op: 'unset' }, end: lower.match(/^\w+/)?.[0].length ?? 0 }
      if (/^(use|have|add|mount|share|run|define|declare|specify|include|contain|carry|expose|open|allow|grant|tolerate|come|be (?:of|a|an)\b)/.test(lower)) return undefined
      const list = values(after)
      return list.values.length > 0 ? { predicate: { op: 'noneOf', values: list.values }, end: list.end } : undefined
    },
  },
  {
    // "must specify a Namespace name other than `default`": any value but those, after the verb that asks for the field.
    // Before the verb "other than" picks out a subject ("containers other than istio-proxy must ..."), never a value.
    pattern: /(?<=\b(?:must|has to|have to|needs? to|should|shall)\b[^.;]*?)\b(?:other than|different from)\s+(?=[`"'])/,
    read: (after) => {
      const list = values(after)
      return list.values.length > 0 ? { predicate: { op: 'noneOf', values: list.values }, end: list.end } : undefined
    },
  },
  {
    // "labels.severity of critical, warning or info": a field and the values it may take.
    pattern: /(?:(?<=[\w`'"]\s)|^)of\s+(?=[`"']?[\w.-]+[`"']?(?:\s*,\s*[`"']?[\w.-]+[`"']?)*,?\s+or\s+[`"']?[\w.-]+[`"']?\s*(?:[.;,)]|$))/,
    read: (after) => alternatives(after, 2),
  },
  {
    // "concurrencyPolicy Forbid or Replace", "only "Etc/UTC" or "Europe/London"": values offered as alternatives.
    cased: true,
    pattern: /(?:\b[Oo]nly\s+|(?<=^\s*[`"']?[A-Za-z_][\w.[\]/-]*[`"']?\s+)|(?<=(?:^|\s)[`"']?(?:[a-z]+[A-Z]\w*|[a-z]\w*(?:[._][\w]+)+)[`"']?\s+))(?=[`"']?[\w./:-]+[`"']?(?:\s*,\s*[`"']?[\w./:-]+[`"']?)*,?\s+or\s+[`"']?[\w./:-]+[`"']?\s*(?:[.;,)]|$))/,
    read: (after, lower) => (NOT_A_VALUE.test(lower) ? undefined : alternatives(after, 2)),
  },
  {
    pattern: /\b(?:one of|limited to|restricted to|(?:may|can|must|should) only be|only be)\s+/,
    read: (after, lower) => (NOT_A_VALUE.test(lower) ? undefined : alternatives(after, 1)),
  },
  { pattern: /\b(?:must|has to|have to|needs? to|should) (?:start|begin) with\s+|\b(?:starts?|begins?) with\s+|\bprefixed (?:with|by)\s+/, read: (after) => listOp('startsWith', after) },
  { pattern: /\b(?:must|has to|have to|needs? to|should) end (?:in|with)\s+|\bends? (?:in|with)\s+/, read: (after) => listOp('endsWith', after) },
  {
    pattern: /\b(?:be )?(?:a )?subdomain of\s+/,
    read: (after) => {
      const list = values(after)
      const domains = list.values.filter((value): value is string => typeof value === 'string').map((domain) => `.${domain.replace(/^\*?\./, '')}`)
      return domains.length > 0 ? { predicate: { op: 'endsWith', values: domains }, end: list.end } : undefined
    },
  },
  {
    pattern: new RegExp(String.raw`\b(?:${MODAL} be|is|are) (?:set|present|defined|specified|declared|provided|populated|configured|listed|there)\b(?!\s+(?:(?:explicitly|always|only)\s+)?(?:to|in)\b)|\b(?:set|specified|defined|listed) explicitly\b(?! to)|\bexplicitly (?:set|specified|defined)\b|\b(?:must|has to|have to|needs? to|should|shall) exist\b|\b(?:is|are) (?:required|mandatory|needed|compulsory)\b`),
    read: () => ({ predicate: { op: 'set' }, end: 0 }),
  },
  {
    pattern: /\b(?:must|has to|have to|needs? to|should|shall)(?: also| always| all| each| both| explicitly)? (?:be )?(?:set (?:explicitly |always |only )?to|equal(?: to)?|be|(?:refer|point) (?:back )?to)\s+|\bset to\s+|\b(?:set|pin|fix)\s+(?:the\s+|its\s+)?(?:(?:label|annotation|field|key)\s+)?[`"']?[a-z_][\w.[\]/-]*[`"']?(?:\s+field)?\s+(?:explicitly\s+)?to\s+|\b(?:set|use|have)\s+(?:a|an)\s+[`"']?[a-z_][\w.[\]/-]*[`"']?\s+of\s+(?=[`"'][\w-])|\s?==?\s*(?=["'`\w-])|:\s+(?=["'`]?[\w-])/,
    read: (after, lower) => {
      const unsetOr = /^(?:either )?(?:unset|not set|absent|omitted|left unset) or (?:set to |explicitly )?/.exec(lower)
      if (unsetOr) {
        // "either unset or set to a number greater than zero": the bound after "or" is the predicate, absence passes.
        const rest = after.slice(unsetOr[0].length)
        const compared = readPredicate(rest, rest.toLowerCase())
        if (compared?.predicate.op === 'compare' && compared.cueIndex <= 12) {
          return { predicate: compared.predicate, end: unsetOr[0].length + compared.end, missing: 'pass', ...(compared.unit ? { unit: compared.unit } : {}) }
        }
        const list = values(rest)
        if (list.values.length > 0) return { predicate: list.values.length === 1 && list.values[0] !== undefined ? { op: 'equals', value: list.values[0] } : { op: 'oneOf', values: list.values }, end: unsetOr[0].length + list.end, missing: 'pass' }
      }
      if (/^(unset|not set|absent|omitted|empty)\b/.test(lower)) return { predicate: { op: 'unset' }, end: lower.match(/^\w+( set)?/)?.[0].length ?? 0 }
      // "must also be on", "must be enabled": a switch, not a word of a list ("must be on every container" is not).
      const toggle = /^(on|off|enabled|disabled|true|false)\b(?!\s+(?:the|every|each|all|any|a|an|its|their|both)\b)/.exec(lower)
      if (toggle?.[1] && (toggle[1] === lower.slice(0, toggle[1].length)) && after.slice(0, toggle[1].length) === toggle[1]) {
        return { predicate: { op: 'equals', value: /^(on|enabled|true)$/.test(toggle[1]) }, end: toggle[1].length }
      }
      // "must be a whole number from 0 to 100": the bound after the noun is the predicate.
      // "IMDSv2: metadata_options.http_tokens = "required"": after the colon comes a field given its own value.
      if (/^\s*[`"']?[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+[`"']?\s*(?:[=:]|(?:must|should|has to|needs? to|is)\b)/.test(after)) return undefined
      const boundAfter = /^[^.;,]*?\b(?:from|between|at (?:least|most)|up to|no (?:more|less)|less|more|greater|fewer|under|over|above|below|range|max(?:imum)?|min(?:imum)?)\b[^.;,]*?(?:\d|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten)\b)/.test(lower)
      // "must be the EU multi-region or a europe-* region": values each named inside its own noun phrase.
      const named = valuesInNounPhrases(after)
      if (named) return { predicate: { op: 'oneOf', values: named.values }, end: named.end }
      // "must be set to a dedicated account": set, and not to the shared default.
      if (/^(?:a|an|its own|their own) (?:dedicated|custom|non-default|separate|own)\b/.test(lower)) return { predicate: { op: 'noneOf', values: ['default'] }, end: 0, missing: 'fail' }
      // "must be a subdomain of ...": the words after "be" start a predicate of their own, read by its cue.
      if (/^(?:a |an )?(?:subdomain|sub-domain)\b/.test(lower)) return undefined
      // "must be an EU region": a kind of value narrowed by a word ("EU") is not merely "set"; only a value's type is.
      if (NOT_A_VALUE.test(lower)) return /^(?:a|an|some) [a-z]+/.test(lower) && !NARROWED_NOUN.test(after) && !boundAfter && !readFormat(lower.slice(0, 60), after.slice(0, 60)) ? { predicate: { op: 'set' }, end: 0 } : undefined
      const list = values(after)
      const [first] = list.values
      if (first === undefined) return undefined
      // "has to be geo-redundant: GRS, RAGRS, GZRS or RAGZRS": the values after the colon say it precisely.
      const spelled = list.values.length === 1 ? (/:\s*$/.test(after.slice(0, list.end)) ? /^\s*/ : /^\s*(?::|\s-)\s+/).exec(after.slice(list.end)) : null
      if (spelled) {
        const precise = values(after.slice(list.end + spelled[0].length))
        if (precise.values.length >= 2) return { predicate: { op: 'oneOf', values: precise.values }, end: list.end + spelled[0].length + precise.end }
      }
      return list.values.length === 1 ? { predicate: { op: 'equals', value: first }, end: list.end } : { predicate: { op: 'oneOf', values: list.values }, end: list.end }
    },
  },
]

/** A token that can only be a value: an acronym (EU), a code with digits or dots (t3.micro), a glob (europe-*), or quoted. */
const VALUE_TOKEN = /^(?:[`"'][^`"']+[`"']|[A-Z]{2,}[A-Z0-9-]*|[a-z0-9]+(?:[.-][a-z0-9*]+)+|[a-z]+[0-9][a-z0-9]*|[a-z0-9]+-\*)$/

/**
 * "the EU multi-region or a europe-* region", "a t3.micro or a t3.small instance": alternatives
 * each written as an article, a value and a noun. Read only when every alternative carries a token
 * that cannot be an ordinary word, so "a private or an internal subnet" is left to other readings.
 */
function valuesInNounPhrases(after: string): { values: Scalar[]; end: number } | undefined {
  const clause = /^[^.;:!?]*/.exec(after)?.[0] ?? ''
  const items = clause.split(/\s*,\s*(?:or\s+)?|\s+or\s+/)
  if (items.length < 2 || items.length > 12) return undefined
  const values: Scalar[] = []
  for (const item of items) {
    const words = /^(?:the|a|an|any)\s+(\S+)(?:\s+[a-z][a-z-]*){0,2}\s*$/.exec(item.trim())
    const token = words?.[1]
    if (!token || !VALUE_TOKEN.test(token)) return undefined
    values.push(token.replace(/^[`"']|[`"']$/g, ''))
  }
  return { values, end: clause.trimEnd().length }
}

/** The values after "contain": quoted or written ones only, so "must include a reason" is not read as containing "reason". */
function containment(op: 'contains' | 'notContains', after: string): ReturnType<Cue['read']> {
  // "the verbs escalate, bind": the noun says what the values are, and may name the field.
  const described = /^the\s+([a-z][\w-]*?)\s+(?=[`"'*]|[A-Za-z0-9][\w.:/-]*\s*(?:,|\bor\b|\band\b|$))/i.exec(after)
  if (!described && /^(?:an?|some|any|one|its|their|the|every|each|all)\s/i.test(after)) return undefined
  const start = described ? described[0].length : 0
  const list = values(after.slice(start))
  const written = list.values.filter((value) => typeof value !== 'string' || !/^(it|them|this|that|anything|something)$/i.test(value))
  if (written.length === 0 || written.length !== list.values.length) return undefined
  const noun = described?.[1]
  // "must list 169.254.169.254/32 in that same ipBlock's except list": the place named after the values is the field.
  const place = /^\s+(?:in|into|under|inside)\s+(?:the\s+|that\s+|its\s+|their\s+|this\s+)?(?:same\s+)?([^,.;]{1,60}?)(?=\s*(?:[,.;]|\s-\s|$))/.exec(after.slice(start + list.end))?.[1]
  return {
    predicate: { op, values: written.map(String) },
    end: start + list.end,
    ...(noun && !/^(values?|entr(?:y|ies)|strings?|words?|text)$/i.test(noun) ? { noun } : {}),
    ...(place ? { place } : {}),
  }
}

/** The values after a cue, as those allowed: at least `least` of them. */
function alternatives(after: string, least: number): ReturnType<Cue['read']> {
  const list = values(after)
  return list.values.length >= least ? { predicate: { op: 'oneOf', values: list.values }, end: list.end } : undefined
}

function listOp(op: 'startsWith' | 'endsWith', after: string): ReturnType<Cue['read']> {
  const list = values(after)
  const strings = list.values.map(String)
  return strings.length > 0 ? { predicate: { op, values: strings }, end: list.end } : undefined
}

/**
 * Reads the predicate of a sentence. `lower` is `text` in lowercase (same offsets). Returns the
 * earliest cue that reads a predicate; formats and field-less verbs are handled by the caller.
 */
export function readPredicate(text: string, lower: string, from = 0): PredicateReading | undefined {
  let best: PredicateReading | undefined
  for (const cue of CUES) {
    const pattern = new RegExp(cue.pattern.source, 'g')
    pattern.lastIndex = from
    const subject = cue.cased ? text : lower
    for (let match = pattern.exec(subject); match; match = pattern.exec(subject)) {
      if (best && match.index >= best.cueIndex) break
      // `database.pool.max`, `max_connections`: a cue word inside a field's name is part of the name.
      if (/^\w/.test(match[0]) && /\w[._]$/.test(lower.slice(Math.max(0, match.index - 2), match.index))) continue
      if (/^[._]\w/.test(lower.slice(match.index + match[0].length)) && /\w$/.test(match[0])) continue
      const start = match.index + match[0].length
      const reading = cue.read(text.slice(start), lower.slice(start))
      if (!reading) continue
      const result: PredicateReading = { ...reading, cueIndex: match.index, end: start + reading.end }
      best = result
      break
    }
  }
  if (best && best.missing === undefined) {
    const tail = lower.slice(best.end)
    const around = lower.slice(Math.max(0, best.cueIndex - 30), best.end + 40)
    if (/\b(unset|not set|left (unset|out|empty)|omitted|absent)\b.{0,12}\b(or|is fine|is ok|also fine)\b|\b(or|and) (just )?(left )?unset\b|\bunset or\b/.test(around)) best.missing = 'pass'
    if (/^\s*,?\s*(if|when) (set|present|specified|given|defined)\b/.test(tail)) best.missing = 'pass'
    // "must specify a namespace other than `default`": the field is asked for, so one left out fails.
    if (/^(?:other than|different from)\b/.test(lower.slice(best.cueIndex)) && /\b(?:specify|set|define|declare|use|have|provide|give|carry)\s+(?:an?\s+|the\s+|its\s+|their\s+)?[^.;]{1,40}$/.test(lower.slice(0, best.cueIndex))) best.missing = 'fail'
  }
  return best
}

/** "at least 7 days" where the field counts in another unit: the factor to bring the field to the author's numbers. */
export function comparisonScale(fieldUnitSeconds: number | undefined, unit: NumberWithUnit | undefined): number {
  if (!unit || unit.kind !== 'duration' || unit.base === undefined || unit.base === 0) return 1
  // A field without a unit in its name counts in the author's unit ("retention at least 7 days" on `retention_days`).
  return fieldUnitSeconds ?? (unit.value === 0 ? 1 : unit.base / unit.value)
}
