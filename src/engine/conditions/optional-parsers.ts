import { parseQuantity, type Quantity } from '../cel/libraries/quantity.js'
import { parseSemver, type Semver } from '../cel/libraries/semver.js'

/**
 * The CEL libraries' parsers (Go's resource.ParseQuantity and blang/semver's Parse) with a failure
 * as undefined: the condition operators try one reading of a string after another, and a string
 * that is not a quantity or a version is an ordinary outcome there, not an error.
 */
export function tryParseQuantity(text: string): Quantity | undefined {
  try {
    return parseQuantity(text)
  } catch {
    return undefined
  }
}

export function tryParseSemver(text: string): Semver | undefined {
  try {
    return parseSemver(text)
  } catch {
    return undefined
  }
}
