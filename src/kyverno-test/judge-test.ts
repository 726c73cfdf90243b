import {
  compileRuleset,
  evaluateRule,
  exceptionsApplyingTo,
  exemptedResult,
  PreparedInput,
  RulesetCompileError,
  subjectFor,
  type CompiledRule,
  type CompiledRuleset,
  type EvaluationInput,
  type Operation,
  type PrepareOptions,
  type RuleResult,
} from '../engine/index.js'
import type { JsonValue } from '../engine/jmespath/index.js'
import type { GeneratedForm } from '../export/vap/index.js'
import type { LoadedTest, TestPolicy } from './load-test.js'
import { findResources, type LoadedResource } from './loaded-resource.js'
import type { PairOutcome } from './pair-outcome.js'
import type { ExpectedResultRow } from './test-file.js'

const AUTOGEN_CRONJOB = 'autogen-cronjob-'
const AUTOGEN = 'autogen-'

/** A rule's response for one resource, or none when the rule did not apply to it at all. */
interface Response {
  status: string
  autogenKind?: string
  message?: string
  /** The PolicyException that let the rule through (then status is skip). */
  exception?: string
  /** The rule's result as the engine judged it, before exceptions. */
  judged: RuleResult
}

/** Judges every expected pair of a loaded test with the Kyverno CLI's lookup rules, scored strictly. */
export function judgeTest(test: LoadedTest, testId: string): PairOutcome[] {
  const compiled = new Map<string, CompiledRuleset | Error>()
  const inputs = new Map<string, PreparedInput>()
  const outcomes: PairOutcome[] = []
  for (const row of test.definition.results ?? []) {
    const references = row.resources ?? []
    const matchedAny = references.some((reference) => findResources(test.resources, reference).length > 0)
    for (const reference of references) {
      const resources = matchedAny ? findResources(test.resources, reference) : test.resources
      const pair: PairOutcome = {
        test: testId,
        policy: row.policy,
        rule: row.rule ?? row.policy,
        resource: reference,
        expected: row.result,
        actual: 'skip',
      }
      Object.assign(pair, actualFor(test, row, resources, compiled, inputs))
      outcomes.push(pair)
    }
  }
  return outcomes
}

function actualFor(
  test: LoadedTest,
  row: ExpectedResultRow,
  resources: LoadedResource[],
  compiled: Map<string, CompiledRuleset | Error>,
  inputs: Map<string, PreparedInput>,
): Pick<PairOutcome, 'actual' | 'detail' | 'exception'> {
  const policy = test.policies.get(row.policy)
  if (!policy) return { actual: 'missing', detail: `policy "${row.policy}" is not in the test's policy files` }
  const ruleset = compiledRuleset(policy, compiled)
  if (ruleset instanceof Error) return { actual: 'error', detail: ruleset.message }
  const validating = row.isValidatingPolicy === true || policy.kind !== 'ClusterPolicy' && policy.kind !== 'Policy'
  const wanted = validating ? { base: undefined, form: 'any' as const } : ruleForm(row.rule ?? '')
  const rules = ruleset ? ruleset.rules.filter((rule) => wanted.base === undefined || testRuleOf(policy, rule) === wanted.base) : []
  if (rules.length === 0) {
    const skipped = policy.skipped.find((skip) => skip.rule === wanted.base) ?? (wanted.base === undefined ? policy.skipped[0] : undefined)
    return { actual: 'unsupported', detail: skipped ? skipped.reason : `rule "${row.rule ?? ''}" is not in policy "${row.policy}"` }
  }
  const responses: Response[] = []
  for (const resource of resources) {
    const input = preparedInput(test, policy, validating, resource, inputs)
    for (const rule of rules) {
      const response = respond(rule, input, policy.vapOrigins?.get(rule.name)?.form)
      if (!response || !formAccepts(wanted.form, response)) continue
      exempt(test, policy, ruleset?.name ?? policy.name, rule, input, response)
      // A pattern rule's error is reported as an error by the Kyverno CLI; only validate.cel goes through the VAP decision.
      if (!validating && response.status === 'error' && rule.validations.length > 0) response.status = errorDecision(policy)
      responses.push(response)
    }
  }
  if (responses.length === 0) return { actual: 'skip', detail: 'no rule response (the rule did not match)' }
  const differing = responses.find((response) => response.status !== row.result)
  const chosen = differing ?? (responses[0] as Response)
  const outcome: Pick<PairOutcome, 'actual' | 'detail' | 'exception'> = { actual: chosen.status }
  if (chosen.message !== undefined) outcome.detail = chosen.message
  if (chosen.exception !== undefined) outcome.exception = chosen.exception
  return outcome
}

/**
 * As the Kyverno CLI applies the test's exceptions: a rule that applied (its preconditions held)
 * and that an exception covers for this resource, in the form it was judged in (autogen or not),
 * is a skip naming the exception, whatever it would have answered; an exception with podSecurity
 * judges a podSecurity rule again with its controls excluded (exemptedResult, as every path).
 */
function exempt(test: LoadedTest, policy: TestPolicy, ruleset: string, rule: CompiledRule, input: PreparedInput, response: Response): void {
  if (test.exceptions.length === 0) return
  const applying = exceptionsApplyingTo({ exceptions: test.exceptions, now: test.now }, policy.policy?.name ?? policy.name, input)
  const result = exemptedResult({ ...response.judged, ruleset }, rule, applying, input)
  if (!result) return
  response.status = result.status
  if (result.message === undefined) delete response.message
  else response.message = result.message
  if (result.exception !== undefined) response.exception = result.exception
}

/**
 * Kyverno runs `validate.cel` rules through the ValidatingAdmissionPolicy validator, whose decision
 * for an evaluation error is Deny under failurePolicy Fail (reported as fail) and Admit under Ignore.
 */
function errorDecision(policy: TestPolicy): string {
  return policy.policy?.failurePolicy === 'Ignore' ? 'pass' : 'fail'
}

/** The test's name for a rule: its own, or under --through-vap the rule its generated policy stands for. */
function testRuleOf(policy: TestPolicy, rule: CompiledRule): string {
  return policy.vapOrigins?.get(rule.name)?.rule ?? rule.name
}

/**
 * A rule's response. A rule read back from a ValidatingAdmissionPolicy generated for autogen
 * judges the controller itself; it answers as the autogen form of the test's rule.
 */
function respond(rule: CompiledRule, input: PreparedInput, vapForm: GeneratedForm | undefined): Response | undefined {
  if (!subjectFor(rule, input)) return undefined
  const judged = evaluateRule(rule, input)
  const result = vapForm === undefined || vapForm === 'object' ? judged : { ...judged, autogen: input.subject.target.gvk.kind }
  const response: Response = { status: result.status, judged: result }
  if (result.autogen !== undefined) response.autogenKind = result.autogen
  if (result.message !== undefined) response.message = result.message
  return response
}

/** A row may name the rule `X`, `autogen-X` (controllers) or `autogen-cronjob-X` (CronJobs only). */
function ruleForm(rule: string): { base: string; form: 'any' | 'controllers' | 'cronjob' } {
  if (rule.startsWith(AUTOGEN_CRONJOB)) return { base: rule.slice(AUTOGEN_CRONJOB.length), form: 'cronjob' }
  if (rule.startsWith(AUTOGEN)) return { base: rule.slice(AUTOGEN.length), form: 'controllers' }
  return { base: rule, form: 'any' }
}

function formAccepts(form: 'any' | 'controllers' | 'cronjob', response: Response): boolean {
  if (form === 'any') return true
  if (form === 'cronjob') return response.autogenKind === 'CronJob'
  return response.autogenKind !== undefined && response.autogenKind !== 'CronJob'
}

function compiledRuleset(policy: TestPolicy, cache: Map<string, CompiledRuleset | Error>): CompiledRuleset | Error | undefined {
  if (!policy.ruleset) return undefined
  let entry = cache.get(policy.name)
  if (!entry) {
    try {
      entry = compileRuleset(policy.ruleset)
    } catch (error) {
      if (!(error instanceof RulesetCompileError)) throw error
      entry = error
    }
    cache.set(policy.name, entry)
  }
  return entry
}

/**
 * The request the Kyverno CLI would build: values may make it an UPDATE (with oldObject = object)
 * or a DELETE (the resource only as oldObject) for ClusterPolicies; the CEL policy engines always
 * send CREATE. A ClusterPolicy's rules also see the values file's global and per-resource values,
 * and each rule its own, in the CLI's request context. CEL policies see the test's context file
 * through `resource` and `image`, as the CLI's context provider serves it to them only.
 */
function preparedInput(
  test: LoadedTest,
  policy: TestPolicy,
  validating: boolean,
  resource: LoadedResource,
  cache: Map<string, PreparedInput>,
): PreparedInput {
  const values = validating ? {} : resourceValues(test, policy.name, resource.name)
  const operation: Operation = validating ? 'CREATE' : operationOf(values)
  const key = `${test.resources.indexOf(resource)} ${operation} ${validating ? '' : policy.name}`
  let input = cache.get(key)
  if (!input) {
    const evaluation: EvaluationInput = {
      object: resource.object,
      oldObject: operation === 'UPDATE' || operation === 'DELETE' ? resource.object : null,
      request: { operation, namespace: resource.namespace, name: resource.name, ...userInfoOf(test) },
      namespaceObject: namespaceObjectFor(test, resource.namespace),
    }
    if (validating && test.cluster) evaluation.cluster = test.cluster
    const options: PrepareOptions = { mode: 'cli', values: { ...values, 'request.operation': operation } }
    const rules = test.values.policies?.find((entry) => entry.name === policy.name)?.rules
    if (rules && rules.length > 0) options.ruleValues = (rule) => rules.find((entry) => entry.name === rule)?.values as Record<string, JsonValue> | undefined
    input = new PreparedInput(evaluation, options)
    cache.set(key, input)
  }
  return input
}

/** The global values, then the values the file gives this policy for this resource (matched by name), as the CLI merges them. */
function resourceValues(test: LoadedTest, policy: string, resource: string): Record<string, JsonValue> {
  const merged: Record<string, JsonValue> = { ...(test.values.globalValues as Record<string, JsonValue> | undefined) }
  for (const entry of test.values.policies?.find((p) => p.name === policy)?.resources ?? []) {
    if (entry.name === resource) Object.assign(merged, entry.values)
  }
  return merged
}

function operationOf(values: Record<string, JsonValue>): Operation {
  const operation = values['request.operation']
  return typeof operation === 'string' ? (operation.toUpperCase() as Operation) : 'CREATE'
}

function userInfoOf(test: LoadedTest): { userInfo?: { username?: string; groups?: string[] } } {
  return test.userInfo ? { userInfo: test.userInfo } : {}
}

/**
 * A full Namespace from the values file, else, as the Kyverno CLI does, a Namespace of the
 * resource's namespace name carrying the labels its namespaceSelector entry gives, if any.
 */
function namespaceObjectFor(test: LoadedTest, namespace: string): unknown {
  const full = test.values.namespaces?.find((ns) => (ns.metadata as { name?: string } | undefined)?.name === namespace)
  if (full) return full
  const labels = test.values.namespaceSelector?.find((entry) => entry.name === namespace)?.labels
  return { apiVersion: 'v1', kind: 'Namespace', metadata: labels ? { name: namespace, labels } : { name: namespace } }
}
