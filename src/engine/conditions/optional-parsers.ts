import { parseQuantity, type Quantity } from '../cel/libraries/quantity.js'
import { parseSemver, type Semver } from '../cel/libraries/semver.js'

/**
 * The CEL libraries' parsers (Go's resource.ParseQuantity and blang/semver's Parse) with a failure
 * as undefined: the condition operators try one reading of a string after another, and a string
 * that is not a quantity or a version is an ordinary outcome there, not an error.
 */
/** A quantity starts with a sign, a digit or a decimal point; a version with major.minor. */
const QUANTITY_START = /^[+\-.0-9]/
const SEMVER_START = /^[0-9]+\.[^.]*\./

export function tryParseQuantity(text: string): Quantity | undefined {
  // Most strings compared are names, not numbers: refusing them here spares a thrown error each.
  if (!QUANTITY_START.test(text)) return undefined
  try {
    return parseQuantity(text)
  } catch {
    return undefined
  }
}

export function tryParseSemver(text: string): Semver | undefined {
  if (!SEMVER_START.test(text)) return undefined
  try {
    return parseSemver(text)
  } catch {
    return undefined
  }
}
