import { parseQuantity, type Quantity } from '../cel/libraries/quantity.js'
import { parseGoDuration } from './duration.js'
import { trimGoSpace, trimSpaces } from './go-text.js'
import { containsWildcard } from './wildcard.js'

/**
 * A string leaf of a pattern, parsed once: alternatives split on `|`, each a conjunction split on
 * `&`, each an operator with its operand (`>=2`, `!*:latest`, `1-10`, `1!-10`, `*.corp.com`).
 * The operand is parsed as a Go duration and a Kubernetes quantity here, so evaluation only
 * parses the resource's value.
 */

/** Kyverno's operators; '' is equality (a wildcard match). */
export type ComparisonOperator = '' | '>=' | '<=' | '!' | '>' | '<'

export interface Comparison {
  kind: 'compare'
  op: ComparisonOperator
  operand: string
  /** The operand holds no `*` or `?`: as a wildcard it matches only its own text. */
  literal: boolean
  /** Set when the operand reads as a Go duration: the comparison is then by duration when the value is one too. */
  duration?: bigint
  /** Set when the operand reads as a quantity: the comparison is then by quantity when the value is one too. */
  quantity?: Quantity
}

/** `a-b` (inside: value >= a and value <= b) or `a!-b` (outside: value < a or value > b). */
export interface RangeCondition {
  kind: 'range'
  inside: boolean
  low: Comparison
  high: Comparison
}

export type StringCondition = Comparison | RangeCondition

export interface StringPattern {
  /** The pattern as written: a value equal to it matches before any operator is read. */
  text: string
  /** Alternatives (`|`), each a list of conditions that must all hold (`&`). */
  anyOf: StringCondition[][]
}

const IN_RANGE = /^([-|+]?\d+(?:\.\d+)?[A-Za-z]*)-([-|+]?\d+(?:\.\d+)?[A-Za-z]*)$/
const NOT_IN_RANGE = /^([-|+]?\d+(?:\.\d+)?[A-Za-z]*)!-([-|+]?\d+(?:\.\d+)?[A-Za-z]*)$/

export function parseStringPattern(text: string): StringPattern {
  return {
    text,
    anyOf: text.split('|').map((alternative) => trimSpaces(alternative).split('&').map((part) => parseCondition(trimSpaces(part)))),
  }
}

/** Kyverno's GetOperatorFromStringPattern: a one-character pattern is always literal. */
function parseCondition(text: string): StringCondition {
  if (text.length >= 2) {
    for (const op of PREFIX_OPERATORS) {
      if (text.startsWith(op)) return comparison(op, trimGoSpace(text.slice(op.length)))
    }
    const outside = NOT_IN_RANGE.exec(text)
    if (outside) return range(false, outside[1] ?? '', outside[2] ?? '')
    const inside = IN_RANGE.exec(text)
    if (inside) return range(true, inside[1] ?? '', inside[2] ?? '')
  }
  return comparison('', trimGoSpace(text))
}

// Longest first: `>=` before `>`.
const PREFIX_OPERATORS: readonly ComparisonOperator[] = ['>=', '<=', '>', '<', '!']

function range(inside: boolean, low: string, high: string): RangeCondition {
  return inside
    ? { kind: 'range', inside, low: comparison('>=', low), high: comparison('<=', high) }
    : { kind: 'range', inside, low: comparison('<', low), high: comparison('>', high) }
}

function comparison(op: ComparisonOperator, operand: string): Comparison {
  const out: Comparison = { kind: 'compare', op, operand, literal: !containsWildcard(operand) }
  const duration = parseGoDuration(operand)
  if (duration !== undefined) out.duration = duration
  const quantity = quantityOf(operand)
  if (quantity !== undefined) out.quantity = quantity
  return out
}

// What Go's quantity scanner accepts at all: most strings fail it, and refusing them here spares a thrown error each.
const QUANTITY_SHAPE = /^[+-]?[0-9]*(?:\.[0-9]*)?[eEinumkKMGTP]*[-+]?[0-9]*$/

/**
 * Past this length a value is not read as a quantity (it is compared as text): parsing a quantity
 * of a million digits takes a tenth of a second, and no real quantity comes near. A deliberate
 * difference from Kyverno, which parses any length.
 */
export const MAX_QUANTITY_TEXT = 1000

export function quantityOf(text: string): Quantity | undefined {
  if (text === '' || text.length > MAX_QUANTITY_TEXT || !QUANTITY_SHAPE.test(text)) return undefined
  try {
    return parseQuantity(text)
  } catch {
    return undefined
  }
}

/**
 * What makes a string leaf malformed although Kyverno accepts it: an operator it does not know
 * (`!=5` is "not equal to `=5`", `=>5` "equal to `=>5`"), or an ordering (`>`, `<`, `>=`, `<=`,
 * ranges) whose operand is neither a quantity nor a duration, which Kyverno never finds true.
 */
export function stringPatternProblems(pattern: StringPattern): string[] {
  const problems: string[] = []
  for (const alternative of pattern.anyOf) {
    for (const condition of alternative) {
      const comparisons = condition.kind === 'range' ? [condition.low, condition.high] : [condition]
      for (const part of comparisons) {
        const problem = comparisonProblem(part)
        if (problem !== undefined && !problems.includes(problem)) problems.push(problem)
      }
    }
  }
  return problems
}

const OPERATOR_CHARACTERS = /^[<>=!]+/

function comparisonProblem(part: Comparison): string | undefined {
  const written = `${part.op}${part.operand}`
  const operator = OPERATOR_CHARACTERS.exec(part.operand) ? OPERATOR_CHARACTERS.exec(written)?.[0] : undefined
  // Kyverno reads a one-character pattern as text, so a lone `<` or `!` is a value, not a typo.
  if (operator !== undefined && written.length >= 2) {
    return `unknown operator "${operator}" in "${written}" (operators are >, <, >=, <=, !, |, &, a-b and a!-b)`
  }
  if (part.op !== '' && part.op !== '!' && part.duration === undefined && part.quantity === undefined) {
    return `"${written}" never matches: ${part.op} compares quantities or durations, and "${part.operand}" is neither`
  }
  return undefined
}
