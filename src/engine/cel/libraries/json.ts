import { EvaluationError, type Environment } from '@marcbachmann/cel-js'
import { charge, stringCost } from '../cost-budget.js'
import { registerNamespace } from '../namespaces.js'
import { toCelValue } from '../values.js'

/**
 * `json.decode(s)`: the value of JSON text held in a string, for documents that embed JSON
 * (a Terraform `aws_iam_policy`'s `policy`, a ConfigMap's data). The result is converted the way
 * input documents are (see toCelValue): whole numbers within int64 become ints, other numbers
 * doubles, objects maps, arrays lists.
 *
 * The text comes from the judged document, so it is hostile until proven otherwise:
 * - at most MAX_JSON_LENGTH UTF-16 code units, and nesting at most MAX_JSON_DEPTH arrays/objects
 *   deep (checked by a scan before parsing, so neither the parser nor the conversion recurses
 *   without bound);
 * - text that is not JSON, or exceeds a limit, raises an error: a rule reading it errs rather
 *   than passing;
 * - an object key `__proto__` is an ordinary map key (JSON.parse defines it as an own property
 *   and the conversion copies with defineProperty), and maps expose own keys only, so `constructor`
 *   or `toString` are never found in a decoded map.
 * The walk is charged to the evaluation's cost budget.
 */

export const MAX_JSON_LENGTH = 1024 * 1024
export const MAX_JSON_DEPTH = 64

export function registerJsonLibrary(env: Environment): void {
  const json = registerNamespace(env, 'json')
  env.registerFunction(`${json}.decode(string): dyn`, (_ns: unknown, text: string) => decodeJson(text), { async: false })
}

/** The CEL value of `text`; throws an EvaluationError for anything but JSON within the limits. */
export function decodeJson(text: string): unknown {
  if (text.length > MAX_JSON_LENGTH) {
    throw new EvaluationError(`json.decode: the text is ${text.length} characters long, more than the limit of ${MAX_JSON_LENGTH}`)
  }
  // The depth scan and the parse each walk the text.
  charge(2 * stringCost(text.length))
  checkDepth(text)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new EvaluationError(`json.decode: invalid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  return toCelValue(parsed)
}

const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * Fails when brackets outside strings nest deeper than MAX_JSON_DEPTH. Only nesting is checked:
 * malformed text within the limit is left for JSON.parse to reject.
 */
function checkDepth(text: string): void {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > MAX_JSON_DEPTH) throw new EvaluationError(`json.decode: the value is nested more than ${MAX_JSON_DEPTH} levels deep`)
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--
  }
}
