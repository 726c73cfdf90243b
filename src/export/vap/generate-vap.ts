import { DEFAULT_POD_CONTROLLERS } from '../../engine/autogen/pod-controllers.js'
import { variableUses } from '../../engine/cel/variable-references.js'
import { resolvePolicyRulesets } from '../../engine/evaluate/resolve-rulesets.js'
import { matchesAnyGlob } from '../../engine/match/glob.js'
import { namesPodKind } from '../../engine/match/kind-selector.js'
import { kindsNamedBy } from '../../engine/match/matches-rule.js'
import type { Match } from '../../engine/model/match.js'
import type { Policy } from '../../engine/model/policy.js'
import type { PolicyException } from '../../engine/model/policy-exception.js'
import type { Rule } from '../../engine/model/rule.js'
import type { Ruleset } from '../../engine/model/ruleset.js'
import {
  ADMISSION_API_VERSION,
  type MatchResources,
  type NamedExpression,
  type ValidatingAdmissionPolicy,
  type ValidatingAdmissionPolicyBinding,
  type VapValidation,
} from './admission-policy-types.js'
import { checkKubernetesCel } from './kubernetes-cel.js'
import { CONTROLLER_RESOURCES, translateMatch, type MatchView } from './match-constraints.js'
import { NotRewritable, rewriteForPodTemplate, type TemplateForm } from './pod-template-view.js'
import { CannotGenerate, type Refusal } from './refusal.js'
import { kindsSelect } from './resource-rules.js'
import { vapNames } from './vap-names.js'

/** Which judgement of a Verdict rule a generated policy stands for: on the object, or by autogen on a pod template. */
export type GeneratedForm = 'object' | TemplateForm

export interface GeneratedVap {
  policy: ValidatingAdmissionPolicy
  binding: ValidatingAdmissionPolicyBinding
  source: { policy: string; ruleset: string; rule: string; form: GeneratedForm }
}

export type VapGeneration =
  | {
      ok: true
      /** One policy and binding per rule, and per autogen form (controllers, CronJobs) of a Pod rule. */
      policies: GeneratedVap[]
      /** Rules switched off: Verdict judges nothing with them, so nothing is generated for them. */
      omitted: Refusal[]
      /** The oldest Kubernetes (1.x) whose API server runs every generated expression. */
      minimumKubernetesVersion: string
    }
  | { ok: false; refusals: Refusal[] }

/** The parts of a PolicyException that say whom it lets through and until when. */
export type ExceptionScope = Pick<PolicyException, 'name' | 'policies' | 'rules' | 'expiresAt'>

export interface GenerateOptions {
  /** Verdict PolicyExceptions in force: one that lets requests through the policy makes it refused. */
  exceptions?: readonly ExceptionScope[]
  /** When exceptions are judged (their expiresAt); now by default. */
  now?: Date
}

export const ANNOTATIONS = {
  policy: 'verdict.dev/policy',
  ruleset: 'verdict.dev/ruleset',
  rule: 'verdict.dev/rule',
  autogen: 'verdict.dev/autogen',
  minimumKubernetesVersion: 'verdict.dev/minimum-kubernetes-version',
} as const

/** A rule with no operations is judged on CREATE and UPDATE, what Verdict's webhook registers for it. */
const RULE_OPERATIONS = ['CREATE', 'UPDATE'] as const

/**
 * A Verdict policy (with the rulesets it applies) as Kubernetes ValidatingAdmissionPolicies and
 * their bindings, which the API server runs itself: one per rule, and per autogen form. Either
 * every rule that judges is generated, or nothing is and every reason is listed: a policy half
 * enforced by the API server would judge differently from Verdict.
 */
export function generateValidatingAdmissionPolicies(policy: Policy, rulesets: readonly Ruleset[], options: GenerateOptions = {}): VapGeneration {
  const refusals = policyRefusals(policy, rulesets, options)
  if (refusals.length > 0) return { ok: false, refusals }
  const { found } = resolvePolicyRulesets(policy, rulesets)
  const omitted: Refusal[] = []
  const drafts: Draft[] = []
  for (const ruleset of found) {
    for (const [index, rule] of ruleset.rules.entries()) {
      if (rule.enabled === false) {
        omitted.push({ ruleset: ruleset.name, rule: rule.name, field: `rules[${index}].enabled`, reason: `switched off (${rule.disabledReason ?? 'no reason given'}): Verdict judges nothing with it` })
        continue
      }
      try {
        drafts.push(...ruleDrafts(policy, ruleset, rule))
      } catch (error) {
        if (!(error instanceof CannotGenerate)) throw error
        refusals.push({ ruleset: ruleset.name, rule: rule.name, field: error.field, reason: error.message })
      }
    }
  }
  if (refusals.length > 0) return { ok: false, refusals }
  if (drafts.length === 0) return { ok: false, refusals: [{ field: 'rulesets', reason: 'every rule of the policy is switched off: there is nothing to generate' }] }
  const names = vapNames(policy.name, drafts.map((draft) => draft.source))
  const minimum = Math.max(...drafts.map((draft) => draft.minimumMinor))
  const policies = drafts.map((draft, i) => assemble(policy, draft, names[i] as string, minimum))
  return { ok: true, policies, omitted, minimumKubernetesVersion: `1.${minimum}` }
}

function policyRefusals(policy: Policy, rulesets: readonly Ruleset[], options: GenerateOptions): Refusal[] {
  if (policy.enabled === false) return [{ field: 'enabled', reason: 'the policy is switched off (enabled: false): it judges nothing, so there is nothing to generate' }]
  if (policy.admission === false) return [{ field: 'admission', reason: 'the policy judges in background scans only (admission: false), and a ValidatingAdmissionPolicy judges admission requests only' }]
  const refusals: Refusal[] = []
  const { found, missing } = resolvePolicyRulesets(policy, rulesets)
  for (const name of missing) refusals.push({ field: 'rulesets', reason: `names ruleset "${name}", which was not given (Verdict judges it as an error)` })
  if (found.length === 0 && missing.length === 0) refusals.push({ field: 'rulesets', reason: 'applies no ruleset: there is nothing to generate' })
  const nowMs = (options.now ?? new Date()).getTime()
  for (const exception of options.exceptions ?? []) {
    if (exception.expiresAt !== undefined && !(nowMs < Date.parse(exception.expiresAt))) continue
    if (!exceptionReachesPolicy(exception, policy.name, found)) continue
    refusals.push({ field: 'exceptions', reason: `PolicyException "${exception.name}" lets requests through this policy, and the API server knows nothing of Verdict's exceptions` })
  }
  return refusals
}

/**
 * Whether an exception can let some request through one of the policy's rules (its `policies`
 * name the policy, its `rules` one of the rulesets' rules), whatever it matches: the API server
 * would deny what it lets through. Expiry is the caller's to judge.
 */
export function exceptionReachesPolicy(
  exception: { readonly policies?: readonly string[] | undefined; readonly rules?: readonly { ruleset: string; rule: string }[] | undefined },
  policy: string,
  rulesets: readonly Ruleset[],
): boolean {
  if (exception.policies && !matchesAnyGlob(policy, exception.policies)) return false
  if (!exception.rules) return true
  return exception.rules.some((entry) => rulesets.some((ruleset) => matchesAnyGlob(ruleset.name, [entry.ruleset]) && ruleset.rules.some((rule) => matchesAnyGlob(rule.name, [entry.rule]))))
}

interface Draft {
  source: GeneratedVap['source']
  resources: MatchResources
  conditions: NamedExpression[]
  variables: NamedExpression[]
  validations: VapValidation[]
  bindingResources: MatchResources | undefined
  minimumMinor: number
}

/** The policies one rule becomes: the object itself, then the autogen forms that can match. */
function ruleDrafts(policy: Policy, ruleset: Ruleset, rule: Rule): Draft[] {
  checkRuleKind(rule)
  if (policy.failurePolicy === 'Ignore' && (rule.validate.cel?.length ?? 0) > 1) {
    throw new CannotGenerate('validate.cel', 'with failurePolicy Ignore, Verdict ignores the whole rule at its first validation that errors, while the API server still denies for a later validation that fails: give the rule one validation')
  }
  const controllers = autogenControllers(rule)
  const views: MatchView[] = [{ form: 'object' }]
  const plain = controllers.filter((controller) => controller !== 'CronJob')
  if (plain.length > 0) views.push({ form: 'controllers', controllers: plain })
  if (controllers.includes('CronJob')) views.push({ form: 'cronjobs', controllers: ['CronJob'] })
  const drafts: Draft[] = []
  checkPolicyAutogen(policy, rule)
  for (const view of views) {
    const match = translateMatch(rule.match, view, 'match', { defaultOperations: [...RULE_OPERATIONS], level: 'rule' })
    if (!match) continue
    const policyMatch = translateMatch(policy.match, policyView(policy.match, view), 'policy.match', { defaultOperations: ['*'], level: 'policy' })
    const conditions = uniqueByName([...match.conditions, ...(policyMatch?.conditions ?? []).map((c) => ({ ...c, name: c.name.startsWith('verdict-pod-') ? c.name : `${c.name}-policy` }))])
    const variables = (rule.variables ?? []).map((variable, i) => ({ name: variable.name, expression: expressionFor(variable.expression, view, `variables[${i}].expression`) }))
    const validations = (rule.validate.cel ?? []).map((validation, i): VapValidation => {
      const out: VapValidation = { expression: expressionFor(validation.expression, view, `validate.cel[${i}].expression`) }
      const message = validation.message ?? rule.message
      // The API server refuses a message with a line break.
      if (message !== undefined) out.message = message.replace(/\s*[\r\n]+\s*/g, ' ').trim()
      if (validation.messageExpression !== undefined) out.messageExpression = expressionFor(validation.messageExpression, view, `validate.cel[${i}].messageExpression`)
      return out
    })
    const expressions = [...conditions.map((c) => c.expression), ...variables.map((v) => v.expression), ...validations.flatMap((v) => [v.expression, ...(v.messageExpression ? [v.messageExpression] : [])])]
    drafts.push({
      source: { policy: policy.name, ruleset: ruleset.name, rule: rule.name, form: view.form },
      resources: match.resources,
      conditions,
      variables,
      validations,
      bindingResources: policyMatch && Object.keys(policyMatch.resources).length > 0 ? policyMatch.resources : undefined,
      minimumMinor: Math.max(...expressions.map((expression) => checkKubernetesCel(expression).minimumMinor)),
    })
  }
  return drafts
}

/**
 * What Verdict's rule judges with: CEL only (patterns, Kyverno's deny, foreach and podSecurity are
 * Verdict's own), no Kyverno context or JMESPath preconditions, expressions the API server has the
 * functions for, variables read top to bottom, and one validation when errors are ignored.
 */
function checkRuleKind(rule: Rule): void {
  const validate = rule.validate
  if (validate.pattern !== undefined) throw new CannotGenerate('validate.pattern', 'a pattern rule is judged by Verdict\'s pattern engine, not CEL: the API server runs CEL only')
  if (validate.anyPattern !== undefined) throw new CannotGenerate('validate.anyPattern', 'an anyPattern rule is judged by Verdict\'s pattern engine, not CEL: the API server runs CEL only')
  if (validate.deny !== undefined) throw new CannotGenerate('validate.deny', 'a deny rule holds Kyverno JMESPath conditions, not CEL: the API server runs CEL only')
  if (validate.foreach !== undefined) throw new CannotGenerate('validate.foreach', 'a foreach rule is judged by Verdict\'s Kyverno engine, not CEL: the API server runs CEL only')
  if (validate.podSecurity !== undefined) throw new CannotGenerate('validate.podSecurity', 'a podSecurity rule is judged by Verdict\'s Pod Security engine (with its exemptions), not plain CEL')
  if (!validate.cel) throw new CannotGenerate('validate', 'has no CEL validation')
  if (rule.context !== undefined && rule.context.length > 0) throw new CannotGenerate('context', 'Kyverno context entries (API calls, ConfigMaps, image data, JMESPath variables) have no ValidatingAdmissionPolicy equivalent')
  if (rule.preconditions !== undefined) throw new CannotGenerate('preconditions', 'Kyverno preconditions are JMESPath, not CEL: write them as match conditions')
  const checks: [string, string][] = [
    ...(rule.match?.conditions ?? []).map((c, i): [string, string] => [`match.conditions[${i}].expression`, c.expression]),
    ...(rule.variables ?? []).map((v, i): [string, string] => [`variables[${i}].expression`, v.expression]),
    ...validate.cel.flatMap((v, i): [string, string][] => [[`validate.cel[${i}].expression`, v.expression], ...(v.messageExpression ? [[`validate.cel[${i}].messageExpression`, v.messageExpression] as [string, string]] : [])]),
  ]
  for (const [field, expression] of checks) {
    const problem = checkKubernetesCel(expression).problem
    if (problem !== undefined) throw new CannotGenerate(field, problem)
  }
  checkVariableOrder(rule)
}

/** The API server binds a variable to those listed before it only; Verdict reads them lazily in any order. */
function checkVariableOrder(rule: Rule): void {
  const variables = rule.variables ?? []
  const position = new Map(variables.map((variable, index) => [variable.name, index]))
  variables.forEach((variable, index) => {
    const uses = variableUses(variable.expression)
    if (uses.opaque.length > 0) throw new CannotGenerate(`variables[${index}].expression`, 'reads `variables` other than by name, which the API server\'s ordered variables cannot bind')
    for (const reference of uses.references) {
      const at = position.get(reference.name)
      if (at !== undefined && at >= index) throw new CannotGenerate(`variables[${index}].expression`, `reads variables.${reference.name}, listed at or after it: the API server binds only the variables listed before`)
    }
  })
}

/** The controllers autogen reaches for this rule, as the engine decides it (compile-ruleset.ts). */
function autogenControllers(rule: Rule): string[] {
  if (rule.autogen === false) return []
  if (typeof rule.autogen === 'object') return rule.autogen.controllers.filter((controller) => controller in CONTROLLER_RESOURCES)
  const kinds = kindsNamedBy(rule.match)
  return kinds && namesPodKind(kinds) ? [...DEFAULT_POD_CONTROLLERS] : []
}

/**
 * A policy whose match names Pods also applies to a pod controller whose template it matches
 * (engine/evaluate/evaluate-policy.ts); a rule that judges such a controller itself would then be
 * judged under a policy match a binding cannot express (the controller's own kind fails it).
 */
function checkPolicyAutogen(policy: Policy, rule: Rule): void {
  const kinds = kindsNamedBy(policy.match)
  if (!kinds || !namesPodKind(kinds)) return
  const alternatives = rule.match?.any ? rule.match.any.map((filter) => filter.kinds ?? rule.match?.kinds) : [rule.match?.kinds]
  for (const [controller, { group }] of Object.entries(CONTROLLER_RESOURCES)) {
    if (alternatives.some((alternative) => kindsSelect(alternative, group, 'v1', controller))) {
      throw new CannotGenerate('policy.match.kinds', `the policy matches Pods, which Verdict extends to a ${controller} whose pod template it matches, and the rule judges the ${controller} itself: a binding cannot select a ${controller} by its template`)
    }
  }
}

/** A policy that names Pods is matched against a controller's pod template too (engine/evaluate/evaluate-policy.ts). */
function policyView(match: Match | undefined, view: MatchView): MatchView {
  if (view.form === 'object') return view
  const kinds = kindsNamedBy(match)
  return kinds && namesPodKind(kinds) ? view : { form: 'object' }
}

function expressionFor(expression: string, view: MatchView, field: string): string {
  if (view.form === 'object') return expression
  try {
    return rewriteForPodTemplate(expression, view.form)
  } catch (error) {
    if (error instanceof NotRewritable) throw new CannotGenerate(field, `under autogen ${error.message}`)
    throw error
  }
}

/** Match condition names are unique in a policy: the same condition twice is kept once, two different ones of one name are told apart. */
function uniqueByName(expressions: NamedExpression[]): NamedExpression[] {
  const byName = new Map<string, string>()
  const out: NamedExpression[] = []
  for (const expression of expressions) {
    if (byName.get(expression.name) === expression.expression) continue
    let name = expression.name
    for (let n = 2; byName.has(name); n++) name = `${expression.name.slice(0, 60)}-${n}`
    byName.set(name, expression.expression)
    out.push({ name, expression: expression.expression })
  }
  return out
}

function assemble(policy: Policy, draft: Draft, name: string, minimumMinor: number): GeneratedVap {
  const annotations: Record<string, string> = {
    [ANNOTATIONS.policy]: draft.source.policy,
    [ANNOTATIONS.ruleset]: draft.source.ruleset,
    [ANNOTATIONS.rule]: draft.source.rule,
    ...(draft.source.form === 'object' ? {} : { [ANNOTATIONS.autogen]: draft.source.form }),
    [ANNOTATIONS.minimumKubernetesVersion]: `1.${minimumMinor}`,
  }
  const vap: ValidatingAdmissionPolicy = {
    apiVersion: ADMISSION_API_VERSION,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name, annotations },
    spec: {
      failurePolicy: policy.failurePolicy ?? 'Fail',
      matchConstraints: draft.resources,
      ...(draft.conditions.length > 0 ? { matchConditions: draft.conditions } : {}),
      ...(draft.variables.length > 0 ? { variables: draft.variables } : {}),
      validations: draft.validations,
    },
  }
  const binding: ValidatingAdmissionPolicyBinding = {
    apiVersion: ADMISSION_API_VERSION,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name, annotations: { [ANNOTATIONS.policy]: draft.source.policy } },
    spec: {
      policyName: name,
      // Verdict's own default action is Audit (engine/evaluate/evaluate-policy.ts).
      validationActions: [policy.action ?? 'Audit'],
      ...(draft.bindingResources ? { matchResources: draft.bindingResources } : {}),
    },
  }
  return { policy: vap, binding, source: draft.source }
}
