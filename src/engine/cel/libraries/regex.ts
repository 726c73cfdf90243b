import { EvaluationError, type Environment } from '@marcbachmann/cel-js'
import { RE2JS } from 're2js'
import { charge, stringCost } from '../cost-budget.js'
import {
  stringLiteral,
  toCelJsNode,
  type CelAstNode,
  type CelChecker,
  type CelEvaluator,
  type CelScope,
  type CelType,
  type MacroCall,
  type MacroExpansion,
} from '../macro-api.js'
import { asEvaluationError, HOOK_TYPE } from '../method-override.js'

/**
 * Regular expressions on RE2 (re2js), the engine cel-go and Kubernetes use: linear time in the
 * input, so no pattern/input pair can stall evaluation the way JavaScript's backtracking RegExp
 * can (`(a+)+$` against "aaaa…!"). Syntax and semantics are Go's regexp package.
 *
 * - `s.matches(re)` and `matches(s, re)`: true when re matches anywhere in s (RE2 partial match).
 *   cel-js ships a `string.matches` on RegExp; the method form is taken over by a macro (see
 *   method-override.ts) that also compiles a literal pattern once, at compile time, so an invalid
 *   literal is a compile error (as Kubernetes' ValidateRegexLiterals makes it).
 * - `s.find(re)`: the leftmost match, or '' when there is none.
 * - `s.findAll(re)` / `s.findAll(re, n)`: successive non-overlapping matches (at most n when n >= 0),
 *   with Go's rule that an empty match right after a previous match is skipped.
 */

const CACHE_LIMIT = 500
const cache = new Map<string, RE2JS>()

/** The compiled pattern, from a small cache; throws an EvaluationError for invalid syntax. */
export function compileRegex(pattern: string): RE2JS {
  const cached = cache.get(pattern)
  if (cached) return cached
  let compiled: RE2JS
  try {
    compiled = RE2JS.compile(pattern)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new EvaluationError(`invalid regular expression ${JSON.stringify(pattern)}: ${reason}`, undefined, error)
  }
  // Insertion-order eviction keeps lookups read-only; a hot pattern evicted is merely recompiled.
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(pattern, compiled)
  return compiled
}

export function regexMatches(input: string, pattern: RE2JS): boolean {
  charge(stringCost(input.length))
  return pattern.test(input)
}

export function regexFind(input: string, pattern: RE2JS): string {
  charge(stringCost(input.length))
  const matcher = pattern.matcher(input)
  return matcher.find() ? (matcher.group() ?? '') : ''
}

/** Go's Regexp.FindAllString(input, limit): limit < 0 means all. */
export function regexFindAll(input: string, pattern: RE2JS, limit: number): string[] {
  charge(stringCost(input.length))
  const found: string[] = []
  const matcher = pattern.matcher(input)
  let pos = 0
  let previousEnd = -1
  while ((limit < 0 || found.length < limit) && pos <= input.length) {
    if (!matcher.find(pos)) break
    const start = matcher.start()
    const end = matcher.end()
    let accept = true
    if (end === pos) {
      // An empty match at the search position: not allowed right after the previous match.
      if (start === previousEnd) accept = false
      pos += pos < input.length ? runeWidth(input, pos) : 1
    } else {
      pos = end
    }
    previousEnd = end
    if (accept) found.push(input.slice(start, end))
  }
  return found
}

function runeWidth(text: string, index: number): number {
  const code = text.charCodeAt(index)
  if (code < 0xd800 || code > 0xdbff || index + 1 >= text.length) return 1
  const next = text.charCodeAt(index + 1)
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1
}

interface MatchesMacro extends MacroExpansion<MatchesMacro> {
  readonly call: CelAstNode
  readonly subject: CelAstNode
  readonly pattern: CelAstNode
  compiled: RE2JS | undefined
}

export function registerRegexLibrary(env: Environment): void {
  const sync = { async: false }
  env.registerFunction(`${HOOK_TYPE}.matches(ast): bool`, (call: MacroCall) => expandMatches(call), sync)
  env.registerFunction('matches(string, string): bool', (s: string, re: string) => regexMatches(s, compileRegex(re)), sync)
  env.registerFunction('string.find(string): string', (s: string, re: string) => regexFind(s, compileRegex(re)), sync)
  env.registerFunction('string.findAll(string): list<string>', (s: string, re: string) => regexFindAll(s, compileRegex(re), -1), sync)
  env.registerFunction(
    'string.findAll(string, int): list<string>',
    (s: string, re: string, n: bigint) => regexFindAll(s, compileRegex(re), n < 0n ? -1 : Number(n)),
    sync,
  )
}

function expandMatches(call: MacroCall): MatchesMacro {
  if (!call.receiver) throw new Error('matches override used without a receiver')
  return {
    async: false,
    call: call.ast,
    subject: call.receiver,
    pattern: call.args[0] as CelAstNode,
    compiled: undefined,
    typeCheck: checkMatches,
    evaluate: evaluateMatches,
  }
}

function checkMatches(checker: CelChecker, macro: MatchesMacro, scope: CelScope): CelType {
  const string = checker.getType('string')
  const subjectType = checker.check(macro.subject, scope)
  const patternType = checker.check(macro.pattern, scope)
  if (!subjectType.matches(string) || !patternType.matches(string)) {
    throw checker.createError(
      'no_matching_overload',
      `found no matching overload for '${subjectType.name}.matches(${patternType.name})'`,
      macro.call,
    )
  }
  const literal = stringLiteral(macro.pattern)
  if (literal !== undefined) {
    try {
      macro.compiled = compileRegex(literal)
    } catch (error) {
      const reason = error instanceof EvaluationError ? error.summary : String(error)
      throw checker.createError('invalid_regex', reason, macro.pattern)
    }
  }
  return checker.getType('bool')
}

function evaluateMatches(evaluator: CelEvaluator, macro: MatchesMacro, scope: CelScope): boolean {
  const subject = evaluator.run(macro.subject, scope)
  const pattern = macro.compiled ?? evaluator.run(macro.pattern, scope)
  if (typeof subject !== 'string' || !(pattern instanceof RE2JS || typeof pattern === 'string')) {
    const shown = [subject, pattern].map((v) => (typeof v === 'string' || v instanceof RE2JS ? 'string' : typeName(evaluator, v)))
    throw new EvaluationError(`found no matching overload for '${shown[0]}.matches(${shown[1]})'`, toCelJsNode(macro.call))
  }
  try {
    return regexMatches(subject, typeof pattern === 'string' ? compileRegex(pattern) : pattern)
  } catch (error) {
    throw asEvaluationError(error, macro.call)
  }
}

function typeName(evaluator: CelEvaluator, value: unknown): string {
  try {
    return evaluator.debugType(value).name
  } catch {
    return typeof value
  }
}
