import { evaluatePreparedConditions, type ConditionResolver, type PreparedConditions } from '../conditions/index.js'
import type { CompiledClassic, CompiledDeny, CompiledForEach } from '../compile/compiled-classic.js'
import type { CompiledRule } from '../compile/compiled-ruleset.js'
import { substituteVariables, substituteWholeVariable, type JsonValue, type KyvernoContext, type KyvernoContextEntry, type WholeVariable } from '../jmespath/index.js'
import { isJsonObject } from '../jmespath/json.js'
import { judgePatterns, type JudgeOptions, type PathMapping, type PatternValidation } from '../pattern/index.js'
import { errorOutcome, outcome, type ClassicOutcome } from './classic-outcome.js'
import { substitutedText } from './substitute-text.js'

/** What a classic rule reads besides its own definition. */
export interface ClassicScope {
  rule: CompiledRule
  classic: CompiledClassic
  /** The rule's patterns (rewritten with the rest of the rule under autogen). */
  patterns?: PatternValidation
  /** The rule's message, as written (or rewritten under autogen). */
  message?: string
  /** The rule's context: the request's, with the rule's values and entries. */
  context: KyvernoContext
  /** What rule-level patterns match: the object as the engine decodes it (whole numbers as BigInt), undefined when the request has none (DELETE). */
  resource: unknown
  /** Moves a pattern's failure path from a controller's pod template back into the controller. */
  mapPath?: PathMapping
  /** Loads a rule's or loop's context entries into a context. */
  withEntries: (context: KyvernoContext, entries: readonly KyvernoContextEntry[]) => KyvernoContext
}

/**
 * Kyverno's validator for one rule (pkg/engine/handlers/validation): preconditions, then deny,
 * patterns or foreach, with Kyverno's messages. `'cel'` means the preconditions hold and the rule
 * validates with CEL, which the caller does. undefined is Kyverno's "no response".
 */
export function judgeClassicRule(scope: ClassicScope): ClassicOutcome | 'cel' | undefined {
  const { classic, context } = scope
  const gate = checkPreconditions(classic.preconditions, context)
  if (gate) return gate
  if (classic.deny) return judgeDeny(classic.deny, context, scope)
  if (scope.patterns) return judgeRulePatterns(scope.patterns, scope)
  if (classic.foreach) return judgeLoops(classic.foreach, context, undefined, 0, scope)
  return 'cel'
}

/** A skip or an error when the preconditions do not let the rule (or loop body) apply; undefined when they hold. */
function checkPreconditions(block: PreparedConditions | undefined, context: KyvernoContext): ClassicOutcome | undefined {
  if (block === undefined) return undefined
  const result = evaluatePreparedConditions(block, resolverOf(context))
  if (result.error) return errorOutcome('failed to evaluate preconditions', new Error(result.error.message))
  if (result.passed) return undefined
  return outcome('skip', ['preconditions not met', result.message ?? ''].filter((part) => part !== '').join('; '))
}

/** Substitutes the operands that hold variables (the literal ones were read when the rule compiled). */
function resolverOf(context: KyvernoContext): ConditionResolver {
  return (raw, prepared) => (prepared === undefined ? substituteVariables(raw as JsonValue, context) : substituteWholeVariable(prepared as WholeVariable, context))
}

function judgeDeny(deny: CompiledDeny, context: KyvernoContext, scope: ClassicScope): ClassicOutcome {
  const result = evaluatePreparedConditions(deny.conditions, resolverOf(context))
  if (result.error) return errorOutcome('failed to check deny conditions', new Error(result.error.message))
  if (!result.passed) return outcome('pass')
  return outcome('fail', denyMessage(scope, result.message ?? '', context))
}

/** The rule's message and the messages of the conditions that held, substituted; when that fails, the conditions' alone (or, with none, the text unsubstituted). */
function denyMessage(scope: ClassicScope, conditionMessages: string, context: KyvernoContext): string {
  const ruleMessage = scope.message ?? ''
  if (ruleMessage === '' && conditionMessages === '') return `validation error: rule ${scope.rule.name} failed`
  const joined = [ruleMessage, conditionMessages].filter((part) => part !== '').join('; ')
  // Kyverno then reports the conditions' messages alone, which may leave nothing: the text as written (before autogen rewrote it) says more than nothing.
  const written = [scope.rule.message ?? '', conditionMessages].filter((part) => part !== '').join('; ')
  return substitutedText(joined, context) ?? (conditionMessages === '' ? written : conditionMessages)
}

function judgeRulePatterns(patterns: PatternValidation, scope: ClassicScope): ClassicOutcome | undefined {
  // Kyverno does not judge a request without an object (DELETE) with patterns: no response.
  if (scope.resource === undefined || scope.resource === null) return undefined
  return judgePatternsIn(patterns, scope.resource, scope.context, scope, true, true)
}

/**
 * Patterns judged in a context; only the rule's own patterns report a path in the submitted
 * document (a loop's are relative to its element). A foreach element is a JMESPath value, whose
 * numbers Kyverno holds as float64; the resource itself has Kubernetes' int64 whole numbers.
 */
function judgePatternsIn(patterns: PatternValidation, resource: unknown, context: KyvernoContext, scope: ClassicScope, ruleLevel: boolean, ofResource: boolean): ClassicOutcome {
  const options: JudgeOptions = { rule: scope.rule.name, substitute: (raw) => substituteVariables(raw as JsonValue, context) }
  const message = scope.message
  if (message !== undefined) options.message = scope.classic.messageHasVariables ? (substitutedText(message, context) ?? message) : message
  if (ruleLevel && scope.mapPath) options.mapPath = scope.mapPath
  if (!ofResource) options.wholeNumbers = 'float64'
  const judgement = judgePatterns(patterns, resource, options)
  const result = outcome(judgement.status, judgement.message)
  if (ruleLevel && judgement.status === 'fail' && judgement.path) result.path = judgement.path
  return result
}

/**
 * Kyverno's validateForEach: each loop's list, element by element. The first element that does
 * not pass decides (its message prefixed "validation failure: "); a list naming a field the
 * resource lacks is skipped; when no element was judged at all there is no response, or an
 * error if some list failed to evaluate.
 */
function judgeLoops(
  loops: readonly CompiledForEach[],
  context: KyvernoContext,
  element: JsonValue | undefined,
  nesting: number,
  scope: ClassicScope,
): ClassicOutcome | undefined {
  let judged = 0
  let listError: unknown
  for (const loop of loops) {
    let elements: JsonValue[]
    try {
      elements = context.queryList(loop.list)
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('Unknown key')) listError = error
      continue
    }
    const result = judgeElements(loop, elements, context, element, nesting, scope)
    if (result.outcome.status !== 'pass') return result.outcome
    judged += result.judged
  }
  if (judged > 0) return outcome('pass')
  return listError === undefined ? undefined : errorOutcome('failed to evaluate list', listError)
}

function judgeElements(
  loop: CompiledForEach,
  elements: readonly JsonValue[],
  context: KyvernoContext,
  outerElement: JsonValue | undefined,
  nesting: number,
  scope: ClassicScope,
): { outcome: ClassicOutcome; judged: number } {
  let judged = 0
  for (const [index, item] of elements.entries()) {
    if (item === null) continue
    const isMap = isJsonObject(item)
    if (loop.elementScope === true && !isMap) {
      return { outcome: errorOutcome('failed to process foreach', new Error(`cannot use elementScope=true foreach rules for elements that are not maps, expected type=map got type=${goTypeName(item)}`)), judged }
    }
    const scoped = loop.elementScope ?? isMap
    const elementContext = scope.withEntries(context.withElement(item, index, nesting), loop.context)
    const result = judgeBody(loop, elementContext, scoped ? item : outerElement, nesting + 1, scope)
    if (result === undefined || result.status === 'skip') continue
    if (result.status !== 'pass') {
      // An element whose preconditions cannot be evaluated (a field it lacks) is left out, not failed.
      if (result.status === 'error' && (result.message ?? '').includes('failed to evaluate preconditions')) continue
      return { outcome: outcome(result.status, `validation failure: ${result.message ?? ''}`), judged }
    }
    judged++
  }
  return { outcome: outcome('pass'), judged }
}

/** One element through a loop's body: its preconditions, then deny, patterns or the nested loops. */
function judgeBody(loop: CompiledForEach, context: KyvernoContext, element: JsonValue | undefined, nesting: number, scope: ClassicScope): ClassicOutcome | undefined {
  const gate = checkPreconditions(loop.preconditions, context)
  if (gate) return gate
  if (loop.deny) return judgeDeny(loop.deny, context, scope)
  if (loop.patterns) {
    const resource = element ?? scope.resource
    if (resource === undefined || resource === null) return undefined
    return judgePatternsIn(loop.patterns, resource, context, scope, false, element === undefined)
  }
  if (loop.foreach) return judgeLoops(loop.foreach, context, element, nesting, scope)
  return undefined
}

/** Go's %T of a decoded JSON value, as Kyverno's message prints it. */
function goTypeName(value: JsonValue): string {
  if (Array.isArray(value)) return '[]interface {}'
  switch (typeof value) {
    case 'string':
      return 'string'
    case 'number':
      return Number.isInteger(value) ? 'int64' : 'float64'
    case 'boolean':
      return 'bool'
    default:
      return 'map[string]interface {}'
  }
}
