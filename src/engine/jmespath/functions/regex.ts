import { functionError } from '../errors.js'
import { compileGoRegexp, matchesGoRegexp, replaceAllGo } from '../go-regexp.js'
import type { JsonValue } from '../json.js'
import { STRING, STRING_OR_NUMBER, argumentTypeError, stringArg, type JmespathFunction } from './function.js'
import { goScalarText } from './go-numbers.js'

/**
 * regex_match(pattern, subject), regex_replace_all(pattern, subject, replacement) and
 * regex_replace_all_literal(...): Go regexp semantics on RE2 (linear time). A number as subject or
 * replacement is first turned into text the way Kyverno does (float32, never an exponent).
 */

function textArgument(name: string, args: readonly JsonValue[], index: number): string {
  const text = goScalarText(args[index])
  if (text === undefined) throw argumentTypeError(name, index + 1, 'String or Real', args[index])
  return text
}

function compileFor(name: string, pattern: string): ReturnType<typeof compileGoRegexp> {
  try {
    return compileGoRegexp(pattern)
  } catch (error) {
    throw functionError(name, (error as Error).message)
  }
}

function replaceFunction(name: string, literal: boolean): JmespathFunction {
  return {
    name,
    signature: [STRING, STRING_OR_NUMBER, STRING_OR_NUMBER],
    call: (args) => {
      const pattern = compileFor(name, stringArg(args, 0))
      return replaceAllGo(textArgument(name, args, 1), pattern, textArgument(name, args, 2), literal)
    },
  }
}

export const REGEX_FUNCTIONS: readonly JmespathFunction[] = [
  replaceFunction('regex_replace_all', false),
  replaceFunction('regex_replace_all_literal', true),
  {
    name: 'regex_match',
    signature: [STRING, STRING_OR_NUMBER],
    call: (args) => matchesGoRegexp(compileFor('regex_match', stringArg(args, 0)), textArgument('regex_match', args, 1)),
  },
]
