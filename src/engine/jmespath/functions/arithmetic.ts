import { functionError } from '../errors.js'
import {
  durationFromFloat,
  durationSeconds,
  formatGoDuration,
  parseGoDuration,
  wrapInt64,
} from '../go-duration.js'
import {
  addQuantities,
  approximateFloat,
  divideQuantities,
  formatGoQuantity,
  multiplyQuantities,
  parseGoQuantity,
  subtractQuantities,
  type GoQuantity,
} from '../go-quantity.js'
import type { JsonValue } from '../json.js'
import { ANY, ARRAY, NUMBER, numberArg, type JmespathFunction } from './function.js'
import { formatGoG, goInteger } from './go-numbers.js'

/**
 * Kyverno's add, subtract, multiply, divide, modulo, sum and round. An operand is a number (a
 * backtick literal), or a string read first as a Kubernetes quantity ('10Mi', '500m', '3') and
 * else as a Go duration ('1h30m'). Which combinations work, and the type of the result, follow
 * Kyverno's table:
 *
 *   quantity ± quantity → quantity   duration ± duration → duration   number ± number → number
 *   quantity × number → quantity     duration × number → duration    (and number × either)
 *   quantity ÷ quantity → number     duration ÷ duration → number    quantity ÷ number → quantity
 *   duration ÷ number → duration     quantity % quantity → quantity  duration % duration → duration
 *
 * Anything else is Kyverno's "Types mismatch" error; '1m' is a quantity (a milli), not a minute.
 */

type Operand =
  | { readonly kind: 'scalar'; readonly value: number }
  | { readonly kind: 'quantity'; readonly value: GoQuantity }
  | { readonly kind: 'duration'; readonly value: bigint }

function parseOperand(value: JsonValue | undefined, operator: string): Operand {
  if (typeof value === 'number') return { kind: 'scalar', value }
  if (typeof value === 'string') {
    try {
      return { kind: 'quantity', value: parseGoQuantity(value) }
    } catch {
      try {
        return { kind: 'duration', value: parseGoDuration(value) }
      } catch {
        // Neither: the invalid operand error below.
      }
    }
  }
  throw functionError(operator, 'invalid operand')
}

const mismatch = (operator: string): Error => functionError(operator, 'Types mismatch')
const zeroDivisor = (operator: string): Error => functionError(operator, 'Zero divisor passed')
const nonIntegerModulo = (): Error => functionError('modulo', 'Non-integer argument(s) passed for modulo')

/** Go's ParseQuantity of fmt.Sprintf("%v", n): how Kyverno turns a scalar into a quantity. */
function scalarAsQuantity(value: number): GoQuantity {
  return parseGoQuantity(formatGoG(value))
}

function add(a: Operand, b: Operand, operator: string): JsonValue {
  if (a.kind === 'quantity' && b.kind === 'quantity') return formatGoQuantity(addQuantities(a.value, b.value))
  if (a.kind === 'duration' && b.kind === 'duration') return formatGoDuration(wrapInt64(a.value + b.value))
  if (a.kind === 'scalar' && b.kind === 'scalar') return a.value + b.value
  throw mismatch(operator)
}

function subtract(a: Operand, b: Operand): JsonValue {
  if (a.kind === 'quantity' && b.kind === 'quantity') return formatGoQuantity(subtractQuantities(a.value, b.value))
  if (a.kind === 'duration' && b.kind === 'duration') return formatGoDuration(wrapInt64(a.value - b.value))
  if (a.kind === 'scalar' && b.kind === 'scalar') return a.value - b.value
  throw mismatch('subtract')
}

function multiply(a: Operand, b: Operand): JsonValue {
  if (a.kind === 'scalar' && b.kind === 'scalar') return a.value * b.value
  if (a.kind === 'scalar' && b.kind !== 'scalar') return multiply(b, a)
  if (b.kind !== 'scalar') throw mismatch('multiply')
  if (a.kind === 'quantity') return formatGoQuantity(multiplyQuantities(a.value, scalarAsQuantity(b.value)))
  if (a.kind === 'duration') return formatGoDuration(durationFromFloat(durationSeconds(a.value) * b.value * 1e9))
  throw mismatch('multiply')
}

function divide(a: Operand, b: Operand): JsonValue {
  if (a.kind === 'quantity' && b.kind === 'quantity') {
    const divisor = approximateFloat(b.value)
    if (divisor === 0) throw zeroDivisor('divide')
    return approximateFloat(a.value) / divisor
  }
  if (a.kind === 'quantity' && b.kind === 'scalar') {
    if (b.value === 0) throw zeroDivisor('divide')
    return formatGoQuantity(divideQuantities(a.value, scalarAsQuantity(b.value)))
  }
  if (a.kind === 'duration' && b.kind === 'duration') {
    const divisor = durationSeconds(b.value)
    if (divisor === 0) throw zeroDivisor('divide')
    return durationSeconds(a.value) / divisor
  }
  if (a.kind === 'duration' && b.kind === 'scalar') {
    if (b.value === 0) throw zeroDivisor('divide')
    return formatGoDuration(durationFromFloat((durationSeconds(a.value) / b.value) * 1e9))
  }
  if (a.kind === 'scalar' && b.kind === 'scalar') {
    if (b.value === 0) throw zeroDivisor('divide')
    return a.value / b.value
  }
  throw mismatch('divide')
}

/** Go's int64(f), when f holds an integer int64 keeps exactly; otherwise undefined. */
function exactInt64(value: number): bigint | undefined {
  return Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63 ? BigInt(value) : undefined
}

function modulo(a: Operand, b: Operand): JsonValue {
  if (a.kind === 'quantity' && b.kind === 'quantity') {
    const x = exactInt64(approximateFloat(a.value))
    const y = exactInt64(approximateFloat(b.value))
    if (x === undefined || y === undefined) throw nonIntegerModulo()
    if (y === 0n) throw zeroDivisor('modulo')
    return formatGoQuantity({ unscaled: x % y, exponent: 0, format: a.value.format })
  }
  if (a.kind === 'duration' && b.kind === 'duration') {
    if (b.value === 0n) throw zeroDivisor('modulo')
    return formatGoDuration(a.value % b.value)
  }
  if (a.kind === 'scalar' && b.kind === 'scalar') {
    const x = exactInt64(a.value)
    const y = exactInt64(b.value)
    if (x === undefined || y === undefined) throw nonIntegerModulo()
    if (y === 0n) throw zeroDivisor('modulo')
    return Number(x % y)
  }
  throw mismatch('modulo')
}

/** Go's math.Round: halves away from zero. */
export function roundGo(value: number): number {
  const whole = Math.trunc(value)
  return Math.abs(value - whole) >= 0.5 ? whole + Math.sign(value) : whole
}

function binary(name: string, operation: (a: Operand, b: Operand) => JsonValue): JmespathFunction {
  return {
    name,
    signature: [ANY, ANY],
    call: (args) => operation(parseOperand(args[0], name), parseOperand(args[1], name)),
  }
}

export const ARITHMETIC_FUNCTIONS: readonly JmespathFunction[] = [
  binary('add', (a, b) => add(a, b, 'add')),
  binary('subtract', subtract),
  binary('multiply', multiply),
  binary('divide', divide),
  binary('modulo', modulo),
  {
    name: 'sum',
    signature: [ARRAY],
    call: ([list]) => {
      const items = list as JsonValue[]
      if (items.length === 0) throw functionError('sum', 'at least one element in the array is required')
      let total = items[0] as JsonValue
      for (const item of items.slice(1)) total = add(parseOperand(total, 'sum'), parseOperand(item, 'sum'), 'sum')
      return total
    },
  },
  {
    name: 'round',
    signature: [NUMBER, NUMBER],
    call: (args) => {
      let places: number
      try {
        places = goInteger(numberArg(args, 1))
      } catch {
        throw functionError('round', 'Non-integer argument(s) passed for round off')
      }
      if (places < 0) throw functionError('round', 'the number of decimal places must not be negative')
      const shift = 10 ** places
      return roundGo(numberArg(args, 0) * shift) / shift
    },
  },
]
