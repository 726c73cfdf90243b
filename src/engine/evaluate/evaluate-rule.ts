import { controllerPathOf } from '../autogen/pod-template-path.js'
import { CelEvaluationError, celValueToString, type CelActivation } from '../cel/index.js'
import type { CompiledRule, CompiledValidation } from '../compile/compiled-ruleset.js'
import { formatPath } from '../explain/field-finding.js'
import { judgePatterns, type PatternJudgement, type PathMapping } from '../pattern/index.js'
import type { ClassicOutcome } from '../classic/classic-outcome.js'
import { judgeClassicSubject } from '../classic/judge-classic-subject.js'
import { LazyVariables } from './lazy-variables.js'
import type { RuleResult, RuleStatus } from '../results/rule-result.js'
import type { PreparedInput, Subject } from './prepared-input.js'

/**
 * Judges one input by one rule: match, conditions, then every validation in order. A rule switched
 * off is not judged: where it would have judged (its match selects the input) it is a skip saying
 * so, which every path lists, never silently absent.
 */
export function evaluateRule(rule: CompiledRule, input: PreparedInput, judgedElsewhere?: JudgedElsewhere): RuleResult {
  const subject = subjectFor(rule, input)
  if (!subject) return resultOf(rule, 'skip', 'the rule does not match this resource')
  const autogen = subject === input.subject ? undefined : input.subject.target.gvk.kind
  if (rule.disabledReason !== undefined) return switchedOff(rule, rule.disabledReason, autogen)
  const elsewhere = judgedElsewhere?.(rule.ruleset, rule.name, autogen)
  if (elsewhere !== undefined) {
    // Its match conditions (the generated policy's matchConditions) say whether it judges at all.
    const unmet = unmetCondition(rule, subject)
    return unmet === undefined ? judgedByVap(rule, elsewhere, autogen) : resultOf(rule, 'skip', `match condition "${unmet}" is false`)
  }
  let outcome: RuleResult
  try {
    outcome = judge(rule, subject, autogen, input)
  } catch (error) {
    outcome = resultOf(rule, 'error', errorMessage(error))
  }
  if (autogen !== undefined) outcome.autogen = autogen
  return outcome
}

/**
 * Who judges a rule, matched in a form (`autogen`: the controller kind whose pod template it
 * matched), instead of the caller: the name of the generated ValidatingAdmissionPolicy the API
 * server judged the request by, or undefined to judge it here.
 */
export type JudgedElsewhere = (ruleset: string, rule: string, autogen: string | undefined) => string | undefined

/** The object itself when the rule matches it, else a controller's pod template when autogen applies. */
export function subjectFor(rule: CompiledRule, input: PreparedInput): Subject | undefined {
  return input.subjectMatching(rule.matches, rule.autogenControllers)
}

/**
 * The first match condition that is false, for a rule another judge validates. As the API server
 * decides matchConditions: any false one skips, whatever the others do; one that errs or is not a
 * bool, with none false, is that judge's to answer (under its failurePolicy).
 */
function unmetCondition(rule: CompiledRule, subject: Subject): string | undefined {
  if (rule.conditions.length === 0) return undefined
  let activation: CelActivation
  try {
    activation = activationFor(rule, subject)
  } catch {
    return undefined
  }
  return rule.conditions.find((condition) => {
    try {
      return condition.program.evaluate(activation) === false
    } catch {
      return false
    }
  })?.name
}

function judge(rule: CompiledRule, subject: Subject, autogen: string | undefined, input: PreparedInput): RuleResult {
  // Built when the first CEL expression runs: pattern and classic rules read JSON, and need no CEL values at all.
  let activation: CelActivation | undefined
  for (const condition of rule.conditions) {
    activation ??= activationFor(rule, subject)
    const holds = condition.program.evaluate(activation)
    if (holds !== true) {
      if (typeof holds !== 'boolean') throw notBoolean('match condition', condition.program.source, holds)
      return resultOf(rule, 'skip', `match condition "${condition.name}" is false`)
    }
  }
  if (rule.classic) {
    const classic = judgeClassicSubject(rule, input, subject, autogen, autogen === undefined ? undefined : controllerPaths(autogen))
    if (classic !== 'cel') return classicResult(rule, classic)
  } else if (rule.patterns) return patternResult(rule, judgeSubject(rule, subject, autogen))
  for (const validation of rule.validations) {
    activation ??= activationFor(rule, subject)
    const valid = validation.program.evaluate(activation)
    if (valid === true) continue
    if (typeof valid !== 'boolean') throw notBoolean('validation', validation.program.source, valid)
    return resultOf(rule, 'fail', failureMessage(rule, validation, activation))
  }
  return resultOf(rule, 'pass')
}

/**
 * A pattern rule's judgement of the subject CEL sees (a controller's pod template under autogen,
 * with paths moved back into the controller). Kyverno does not judge deleted resources with
 * patterns; neither does Verdict: a DELETE request has no object.
 */
function judgeSubject(rule: CompiledRule, subject: Subject, autogen: string | undefined): PatternJudgement {
  const patterns = rule.patterns
  const object = subject.json.object
  if (!patterns || object === null || object === undefined) return { status: 'skip', message: 'patterns judge the object of a request, and this request has none', fields: [] }
  const options: Parameters<typeof judgePatterns>[2] = { rule: rule.name }
  if (rule.message !== undefined) options.message = rule.message
  if (autogen !== undefined) options.mapPath = controllerPaths(autogen)
  return judgePatterns(patterns, object, options)
}

function controllerPaths(kind: string): PathMapping {
  return (segments) => controllerPathOf(kind, segments)
}

/** The judgement of a pattern rule for one input, for explanations; undefined when the rule is not a pattern rule or does not match. */
export function judgePatternRule(rule: CompiledRule, input: PreparedInput): PatternJudgement | undefined {
  if (!rule.patterns || rule.classic) return undefined
  const subject = subjectFor(rule, input)
  if (!subject) return undefined
  return judgeSubject(rule, subject, subject === input.subject ? undefined : input.subject.target.gvk.kind)
}

/** Kyverno gives no response when a foreach judged no element, or patterns met a request without an object: Verdict says skip. */
function classicResult(rule: CompiledRule, outcome: ClassicOutcome | undefined): RuleResult {
  if (outcome === undefined) return resultOf(rule, 'skip', 'the rule found nothing to judge (no foreach element, or no object in the request)')
  const result = resultOf(rule, outcome.status, outcome.message)
  if (outcome.path !== undefined && outcome.status === 'fail') {
    const path = formatPath(outcome.path)
    if (path !== '') result.path = path
  }
  return result
}

function patternResult(rule: CompiledRule, judgement: PatternJudgement): RuleResult {
  const result = resultOf(rule, judgement.status, judgement.message)
  const path = judgement.path === undefined ? '' : formatPath(judgement.path)
  if (judgement.status === 'fail' && path !== '') result.path = path
  return result
}

/** As in ValidatingAdmissionPolicy: messageExpression, then message, then a generic line naming the expression. */
function failureMessage(rule: CompiledRule, validation: CompiledValidation, activation: CelActivation): string {
  if (validation.messageProgram) {
    try {
      const text = celValueToString(validation.messageProgram.evaluate(activation)).trim()
      if (text !== '') return text
    } catch {
      // A broken messageExpression must not hide the failure; fall back to the static message.
    }
  }
  return validation.message ?? rule.message ?? `failed expression: ${validation.program.source.trim()}`
}

/** The CEL bindings a rule's expressions see for one subject: the shared ones, plus the rule's lazy `variables`. */
export function activationFor(rule: CompiledRule, subject: Subject): CelActivation {
  if (rule.variables.length === 0) return subject.bindings
  const { object, oldObject, request, namespaceObject, params, resource, image } = subject.bindings
  const variables = new LazyVariables(rule, subject)
  const activation: CelActivation = { object, oldObject, request, namespaceObject, params, resource, image, variables }
  variables.activation = activation
  return activation
}

function switchedOff(rule: CompiledRule, reason: string, autogen: string | undefined): RuleResult {
  const result: RuleResult = { ...resultOf(rule, 'skip', `rule switched off: ${reason}`), disabled: true, disabledReason: reason }
  if (autogen !== undefined) result.autogen = autogen
  return result
}

function judgedByVap(rule: CompiledRule, name: string, autogen: string | undefined): RuleResult {
  const result: RuleResult = { ...resultOf(rule, 'skip', `judged by ValidatingAdmissionPolicy "${name}" in the API server`), judgedBy: 'ValidatingAdmissionPolicy', validatingAdmissionPolicy: name }
  if (autogen !== undefined) result.autogen = autogen
  return result
}

function resultOf(rule: CompiledRule, status: RuleStatus, message?: string): RuleResult {
  const result: RuleResult = { ruleset: rule.ruleset, rule: rule.name, status, severity: rule.severity }
  if (message !== undefined) result.message = message
  if (rule.remediation !== undefined && (status === 'fail' || status === 'error')) result.remediation = rule.remediation
  return result
}

function notBoolean(what: string, source: string, value: unknown): Error {
  return new Error(`${what} ${JSON.stringify(source.trim())} returned ${celValueToString(value)}, not a bool`)
}

function errorMessage(error: unknown): string {
  if (error instanceof CelEvaluationError) return `expression ${JSON.stringify(error.expression.trim())} failed: ${error.message}`
  return error instanceof Error ? error.message : String(error)
}
