/**
 * Go's strconv.ParseInt(text, 10, 64): an optional sign and decimal digits, within int64; no
 * blanks, no `_`, no fraction or exponent. Used where Kyverno compares an int64 key with a string.
 */
export function parseGoInt(text: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined
  const value = BigInt(text)
  return value === BigInt.asIntN(64, value) ? value : undefined
}

/** Go's int64(f) for a float64 without a fraction; undefined where Go's result is left to the hardware. */
export function floatToInt64(value: number): bigint | undefined {
  return Number.isFinite(value) && Math.abs(value) < 2 ** 63 ? BigInt(Math.trunc(value)) : undefined
}
