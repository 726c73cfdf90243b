import { matchesGlob } from '../match/glob.js'
import { parseGoDuration } from './go-duration.js'
import { tryParseQuantity } from './optional-parsers.js'

/**
 * The set operators accept a numeric range such as `1-10` or `0.5Gi-2Gi` as their value. Kyverno
 * checks a key against it with its pattern matcher for a single string (the one behind
 * `validate.pattern` leaves), so this is that matcher, for the case where the checked value is a
 * string: `|` alternatives of `&` conjunctions of `>= <= > < !` comparisons, `a-b` ranges and
 * `a!-b` exclusions, each comparing as durations, else quantities, else (equality only) globs.
 */
export function matchesStringPattern(value: string, pattern: string): boolean {
  if (value === pattern) return true
  return pattern.split('|').some((alternative) =>
    trimSpaces(alternative)
      .split('&')
      .every((part) => matchesOne(value, trimSpaces(part))),
  )
}

/** Whether a condition value is read as a range (`1-10`, `-5-5`, `1Ki-1Mi`) by the set operators. */
export function isRangePattern(text: string): boolean {
  return operatorOf(text) === 'range'
}

type PatternOperator = '' | '>=' | '<=' | '>' | '<' | '!' | 'range' | 'not-range'

const BOUND = String.raw`[-|+]?\d+(?:\.\d+)?[A-Za-z]*`
const RANGE = new RegExp(`^(${BOUND})-(${BOUND})$`)
const NOT_RANGE = new RegExp(`^(${BOUND})!-(${BOUND})$`)
/** Go's unicode.IsSpace, which differs from JavaScript's \s on U+0085 and U+FEFF. */
const GO_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/

function operatorOf(pattern: string): PatternOperator {
  // A single character is always a literal, even `>` or `!`.
  if (pattern.length < 2) return ''
  for (const prefix of ['>=', '<=', '>', '<', '!'] as const) if (pattern.startsWith(prefix)) return prefix
  if (NOT_RANGE.test(pattern)) return 'not-range'
  if (RANGE.test(pattern)) return 'range'
  return ''
}

function matchesOne(value: string, pattern: string): boolean {
  const operator = operatorOf(pattern)
  if (operator === 'range' || operator === 'not-range') {
    const bounds = (operator === 'range' ? RANGE : NOT_RANGE).exec(pattern)
    if (!bounds) return false
    const [, low = '', high = ''] = bounds
    return operator === 'range'
      ? matchesOne(value, `>= ${low}`) && matchesOne(value, `<= ${high}`)
      : matchesOne(value, `< ${low}`) || matchesOne(value, `> ${high}`)
  }
  return compare(value, trimGoSpace(pattern.slice(operator.length)), operator)
}

function compare(value: string, operand: string, operator: Exclude<PatternOperator, 'range' | 'not-range'>): boolean {
  const durationOperand = parseGoDuration(operand)
  const durationValue = durationOperand === undefined ? undefined : parseGoDuration(value)
  if (durationOperand !== undefined && durationValue !== undefined) {
    return holds(durationValue === durationOperand ? 0 : durationValue < durationOperand ? -1 : 1, operator)
  }
  const quantityOperand = tryParseQuantity(operand)
  const quantityValue = quantityOperand === undefined ? undefined : tryParseQuantity(value)
  if (quantityOperand !== undefined && quantityValue !== undefined) return holds(quantityValue.compareTo(quantityOperand), operator)
  if (operator === '') return matchesGlob(value, operand)
  if (operator === '!') return !matchesGlob(value, operand)
  // Kyverno has no ordering of plain strings.
  return false
}

function holds(order: number, operator: Exclude<PatternOperator, 'range' | 'not-range'>): boolean {
  switch (operator) {
    case '':
      return order === 0
    case '!':
      return order !== 0
    case '>':
      return order > 0
    case '<':
      return order < 0
    case '>=':
      return order >= 0
    case '<=':
      return order <= 0
  }
}

/** strings.TrimSpace, by a scan: a trimming regular expression backtracks on inner runs of blanks. */
function trimGoSpace(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && GO_SPACE.test(text[start] as string)) start++
  while (end > start && GO_SPACE.test(text[end - 1] as string)) end--
  return text.slice(start, end)
}

function trimSpaces(text: string): string {
  // strings.Trim(s, " ") in Kyverno: only the space character, not other blanks.
  let start = 0
  let end = text.length
  while (start < end && text[start] === ' ') start++
  while (end > start && text[end - 1] === ' ') end--
  return text.slice(start, end)
}
