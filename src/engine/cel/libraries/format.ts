import { EvaluationError } from '@marcbachmann/cel-js'
import { charge, stringCost } from '../cost-budget.js'
import { isCelUint } from '../runtime-types.js'
import { celTypeOf, celValueToString, formatDouble } from '../values.js'

/**
 * `"<format>".format([args])`, printf-style, as the cel-go strings extension defines it (the
 * clause set of cel-spec's strings extension): %s, %d, %f, %e (with optional `.N` precision,
 * default 6), %b, %x, %X, %o and %% for a literal percent. %v is accepted as a synonym of %s.
 * Values print as cel-go prints them: doubles without exponent, lists `[1, 2]`, maps `{k: v}` with
 * keys sorted, durations in seconds (`3600s`), timestamps in RFC 3339.
 */
export function formatString(format: string, args: readonly unknown[] | ReadonlySet<unknown>): string {
  const values = Array.isArray(args) ? (args as readonly unknown[]) : [...args]
  charge(stringCost(format.length) + values.length)
  let out = ''
  let argIndex = 0
  let i = 0
  while (i < format.length) {
    const c = format[i] as string
    if (c !== '%') {
      out += c
      i++
      continue
    }
    if (format[i + 1] === '%') {
      out += '%'
      i += 2
      continue
    }
    if (i + 1 >= format.length) throw formatError('unexpected end of string')
    if (argIndex >= values.length) throw formatError(`index ${argIndex} out of range`)
    const clause = parseClause(format, i + 1)
    out += formatClause(clause.verb, clause.precision, values[argIndex])
    argIndex++
    i = clause.next
  }
  return out
}

interface Clause {
  readonly verb: string
  readonly precision: number
  readonly next: number
}

function parseClause(format: string, start: number): Clause {
  let i = start
  let precision = 6
  if (format[i] === '.') {
    i++
    let digits = ''
    for (;;) {
      const c = format[i]
      if (c === undefined) throw formatError('could not parse formatting clause: could not find end of precision specifier')
      if (c < '0' || c > '9') break
      digits += c
      i++
    }
    if (digits === '') throw formatError('could not parse formatting clause: missing precision')
    precision = Number(digits)
    if (precision > 100) throw formatError(`could not parse formatting clause: precision ${precision} is larger than 100`)
  }
  const verb = format[i] as string
  return { verb, precision, next: i + 1 }
}

function formatClause(verb: string, precision: number, value: unknown): string {
  switch (verb) {
    case 's':
    case 'v':
      return celValueToString(value)
    case 'd':
      return decimal(value)
    case 'f':
      return fixed(value, precision)
    case 'e':
      return scientific(value, precision)
    case 'b':
      return binary(value)
    case 'x':
      return hex(value, false)
    case 'X':
      return hex(value, true)
    case 'o':
      return octal(value)
    default:
      throw formatError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`)
  }
}

function formatError(message: string): EvaluationError {
  return new EvaluationError(`format: ${message}`)
}

function wrongType(clause: string, allowed: string, value: unknown): EvaluationError {
  return formatError(`error during formatting: ${clause} clause can only be used on ${allowed}, was given ${celTypeOf(value)}`)
}

function integer(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value
  return isCelUint(value) ? value.valueOf() : undefined
}

function nonFinite(value: number): string | undefined {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Infinity) return 'Infinity'
  if (value === -Infinity) return '-Infinity'
  return undefined
}

function decimal(value: unknown): string {
  const int = integer(value)
  if (int !== undefined) return int.toString()
  if (typeof value === 'number') return formatDouble(value)
  throw wrongType('decimal', 'ints, uints, and doubles', value)
}

function fixed(value: unknown, precision: number): string {
  const int = integer(value)
  const number = int !== undefined ? Number(int) : value
  if (typeof number !== 'number') throw wrongType('fixed-point', 'ints, uints, and doubles', value)
  const special = nonFinite(number)
  if (special) return special
  // toFixed switches to exponent form from 1e21; doubles that large are integers anyway.
  if (Math.abs(number) >= 1e21) return `${BigInt(number)}${precision > 0 ? `.${'0'.repeat(precision)}` : ''}`
  return number.toFixed(precision)
}

function scientific(value: unknown, precision: number): string {
  const int = integer(value)
  const number = int !== undefined ? Number(int) : value
  if (typeof number !== 'number') throw wrongType('scientific', 'ints, uints, and doubles', value)
  const special = nonFinite(number)
  if (special) return special
  // Go writes at least two exponent digits: 2.718280e+00.
  return number.toExponential(precision).replace(/e([+-])(\d)$/, 'e$10$2')
}

function binary(value: unknown): string {
  if (typeof value === 'boolean') return value ? '1' : '0'
  const int = integer(value)
  if (int !== undefined) return int.toString(2)
  throw wrongType('binary', 'ints, uints, and bools', value)
}

function hex(value: unknown, upper: boolean): string {
  let text: string
  const int = integer(value)
  if (int !== undefined) text = int.toString(16)
  else if (typeof value === 'string') text = Buffer.from(value, 'utf8').toString('hex')
  else if (value instanceof Uint8Array) text = Buffer.from(value).toString('hex')
  else throw wrongType('hex', 'ints, uints, bytes, and strings', value)
  return upper ? text.toUpperCase() : text
}

function octal(value: unknown): string {
  const int = integer(value)
  if (int !== undefined) return int.toString(8)
  throw wrongType('octal', 'ints and uints', value)
}
