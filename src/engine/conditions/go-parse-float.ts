/**
 * Go's strconv.ParseFloat(text, 64), which Kyverno uses to read a number out of a string key or
 * value. It differs from JavaScript's Number(): no surrounding blanks, no empty string, no `0b`/`0o`,
 * hexadecimal only with a `p` exponent, `_` allowed between digits, `inf`/`infinity`/`nan` in any
 * case, and out-of-range values are failures rather than Infinity.
 */
export function parseGoFloat(text: string): number | undefined {
  const special = SPECIAL.exec(text)
  if (special) {
    if (special[2] !== undefined) return special[1] === '-' ? -Infinity : Infinity
    return NaN
  }
  const decimal = DECIMAL.exec(text)
  if (decimal) {
    if (!/[0-9]/.test(decimal[1] ?? '') || !underscoresAllowed(text, false)) return undefined
    const value = Number(text.replace(/_/g, ''))
    return Number.isFinite(value) ? value : undefined
  }
  const hex = HEX.exec(text)
  if (hex) {
    const [, sign = '', whole = '', fraction = '', exponent = '0'] = hex
    const wholeDigits = whole.replace(/_/g, '')
    const fractionDigits = fraction.replace(/_/g, '')
    if (wholeDigits + fractionDigits === '' || !underscoresAllowed(text, true)) return undefined
    const mantissa = Number(BigInt(`0x${wholeDigits}${fractionDigits}`))
    const value = mantissa * 2 ** (Number(exponent.replace(/_/g, '')) - 4 * fractionDigits.length)
    if (!Number.isFinite(value)) return undefined
    return sign === '-' ? -value : value
  }
  return undefined
}

const SPECIAL = /^(?:([+-]?)(inf|infinity)|nan)$/i
/**
 * Mantissa (digits and `_`, at most one `.`) and an optional exponent whose first character is a
 * digit. Written so that each character has one way to match: the text can come from the cluster,
 * and two stars over the same characters side by side would backtrack quadratically on a long one.
 */
const DECIMAL = /^[+-]?((?:[0-9_]+(?:\.[0-9_]*)?|\.[0-9_]+))(?:[eE][+-]?[0-9][0-9_]*)?$/
const HEX = /^([+-]?)0[xX]([0-9a-fA-F_]*)(?:\.([0-9a-fA-F_]*))?[pP]([+-]?[0-9][0-9_]*)$/

/** Go allows `_` only between two digits, or between a base prefix and a digit. */
function underscoresAllowed(text: string, hex: boolean): boolean {
  if (!text.includes('_')) return true
  let at = text[0] === '+' || text[0] === '-' ? 1 : 0
  let last: 'start' | 'digit' | 'underscore' | 'other' = 'start'
  if (hex) {
    at += 2
    last = 'digit'
  }
  for (; at < text.length; at++) {
    const c = text[at] as string
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) last = 'digit'
    else if (c === '_') {
      if (last !== 'digit') return false
      last = 'underscore'
    } else {
      if (last === 'underscore') return false
      last = 'other'
    }
  }
  return last !== 'underscore'
}
