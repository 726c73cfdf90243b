import { POD_SECURITY_TEMPLATES } from '../authoring/catalog/index.js'
import type { RuleTemplate } from '../authoring/catalog/rule-template.js'
import { baseKubernetesDocument } from '../authoring/samples/base-documents.js'
import {
  compileRuleset,
  evaluatePolicy,
  evaluateRuleset,
  judgesAtAdmission,
  PreparedInput,
  resolvePolicyRulesets,
  type CompiledRuleset,
  type Policy,
  type Ruleset,
} from '../engine/index.js'
import { recommendation, type Recommendation } from './recommendation.js'

type Json = Record<string, unknown>

/** The catalog's templates that check a whole profile at once: they cover controls, they are not controls. */
const PROFILE_TEMPLATES: Readonly<Record<string, 'baseline' | 'restricted'>> = {
  'pss-baseline-profile': 'baseline',
  'pss-restricted-profile': 'restricted',
}

export interface PodSecurityControl {
  template: RuleTemplate
  level: 'baseline' | 'restricted'
  /** A Pod that complies with every control. */
  compliant: Json
  /** Pods that break this control alone, each checked to fail the control's own rule. */
  violations: { description: string; document: Json }[]
}

let controls: readonly PodSecurityControl[] | undefined

/**
 * The Pod Security Standards controls, one per catalog template, each with the catalog's
 * non-compliant Pods. Built once: the samples do not change while the process runs. A sample
 * that its own control's rule does not fail would make the control look uncovered forever, so
 * such a sample is dropped.
 */
export function podSecurityControls(): readonly PodSecurityControl[] {
  controls ??= POD_SECURITY_TEMPLATES.filter((template) => PROFILE_TEMPLATES[template.id] === undefined).map((template) => {
    const samples = template.samples({})
    const compliant = (): Json => {
      const document = baseKubernetesDocument('Pod') ?? {}
      for (const edit of samples.good) edit(document)
      return document
    }
    const ownRule = compileRuleset({ name: 'control', rules: [template.rule({})] })
    const violations = samples.bad.flatMap((bad) => {
      const document = compliant()
      bad.edit(document)
      return evaluateRuleset(ownRule, inputOf(document)).passed ? [] : [{ description: bad.description, document }]
    })
    return { template, level: template.category === 'pod-security-baseline' ? 'baseline' : 'restricted', compliant: compliant(), violations }
  })
  return controls
}

/** A Pod as the webhook presents a CREATE to the engine. */
function inputOf(document: Json): PreparedInput {
  const metadata = (document.metadata ?? {}) as { name?: string; namespace?: string }
  return new PreparedInput({
    object: document,
    request: { operation: 'CREATE', ...(metadata.namespace ? { namespace: metadata.namespace } : {}), ...(metadata.name ? { name: metadata.name } : {}) },
  })
}

interface DenyPolicy {
  policy: Policy
  rulesets: CompiledRuleset[]
}

/** A failure as its rule reported it; a profile rule names the failing control in its message. */
function failuresOf(deny: DenyPolicy, document: Json): Set<string> {
  const evaluation = evaluatePolicy(deny.policy, deny.rulesets, inputOf(document))
  if (!evaluation.applied) return new Set()
  return new Set(evaluation.output.results.filter((result) => result.status === 'fail').map((result) => `${result.ruleset}\u0000${result.rule}\u0000${result.message ?? ''}`))
}

/**
 * Whether some Deny policy fails the Pod for a reason the compliant Pod does not also give it
 * (a label rule, a registry rule would refuse both: that is no sign of coverage).
 */
function denied(denyPolicies: readonly DenyPolicy[], compliantFailures: readonly Set<string>[], document: Json): boolean {
  return denyPolicies.some((deny, index) => [...failuresOf(deny, document)].some((failure) => !compliantFailures[index]?.has(failure)))
}

/** Whether a rule made from `templateId` checks the control: its own template, or a profile that includes it. */
function checksControl(templateId: string, control: PodSecurityControl): boolean {
  const profile = PROFILE_TEMPLATES[templateId]
  return templateId === control.template.id || profile === 'restricted' || (profile === 'baseline' && control.level === 'baseline')
}

/**
 * A Pod Security control is covered when a Deny policy the webhook applies refuses every one of
 * the catalog's non-compliant Pods for it. Coverage is judged by evaluating those Pods with the
 * engine rather than by reading template ids, so hand-written and imported rules count, and a
 * rule that exists but sits in an Audit policy, or a Deny policy whose match leaves Pods out,
 * does not. Errors never count as coverage: only `fail` results that the compliant Pod does not
 * also get. Rules recording the control's template are listed in the evidence, as the likeliest
 * thing to put in a Deny policy.
 */
export function uncoveredPodSecurityControls<R extends Ruleset>(
  policies: readonly Policy[],
  rulesets: readonly R[],
  compile: (ruleset: R) => CompiledRuleset = compileRuleset,
): Recommendation[] {
  const denyPolicies: DenyPolicy[] = policies
    .filter((policy) => judgesAtAdmission(policy) && policy.action === 'Deny')
    .map((policy) => ({ policy, rulesets: resolvePolicyRulesets(policy, rulesets).found.map(compile) }))
  return podSecurityControls().flatMap((control) => {
    const compliantFailures = denyPolicies.map((deny) => failuresOf(deny, control.compliant))
    const admitted = control.violations.filter((violation) => !denied(denyPolicies, compliantFailures, violation.document))
    if (admitted.length === 0) return []
    const templateRules = rulesets.flatMap((ruleset) =>
      ruleset.rules.filter((rule) => rule.template !== undefined && checksControl(rule.template.id, control)).map((rule) => `${ruleset.name}/${rule.name}`),
    )
    return [
      recommendation('uncovered-pod-security-control', { kind: 'control', name: control.template.id }, message(control, admitted.map((violation) => violation.description), templateRules), {
        title: control.template.title,
        level: control.level,
        samples: control.violations.length,
        admitted: admitted.length,
        admittedSamples: admitted.map((violation) => violation.description),
        denyPolicies: denyPolicies.length,
        templateRules,
      }),
    ]
  })
}

function message(control: PodSecurityControl, admitted: readonly string[], templateRules: readonly string[]): string {
  const total = control.violations.length
  const state =
    admitted.length < total
      ? `is only partly enforced: Deny admission policies admit ${admitted.length} of its ${total} non-compliant samples`
      : `is not enforced: no Deny admission policy rejects ${total === 1 ? 'its non-compliant sample' : `any of its ${total} non-compliant samples`}`
  const existing = templateRules.length === 0 ? '' : ` Rules made from this template exist (${templateRules.join(', ')}) but no Deny admission policy rejects these samples with them.`
  return (
    `Pod Security ${control.level} control "${control.template.title}" (${control.template.id}) ${state} (${admitted.join('; ')}).` +
    `${existing} To enforce it, create a ruleset from the instruction "${control.template.phrasings[0] ?? control.template.title}" and apply it in a policy with action Deny.`
  )
}
