import {
  appliedTo,
  evaluatePolicy,
  isReported,
  judgesInBackground,
  missingRulesetResult,
  planPolicies,
  type CompiledRuleset,
  type Exemptions,
  type NamedWithLabels,
  type PlannedPolicy,
  type Policy,
  type PolicyAction,
  type PolicyResult,
  type PreparedInput,
  type RuleResult,
  type RulesetResult,
} from '../../engine/index.js'

/** A policy a background scan applies, its rulesets resolved and compiled once per scan. */
export type ScanPolicy = PlannedPolicy

/** How one policy judged one existing object. */
export interface ExistingVerdict {
  policy: string
  action: PolicyAction
  /** failurePolicy Ignore: rule errors are reported but are no violations. */
  ignoreErrors: boolean
  /** Every rule that judged the object (pass, fail, error, and skips an exception or a switched-off rule made), for the reports' exact summaries. */
  judged: RuleResult[]
  /** As an audit records it: violations and exempted rules, `passed` per the failure policy. */
  output: PolicyResult
  /** The rulesets that judged a rule, violations and exempted rules, as their audits record them. */
  rulesets: RulesetResult[]
}

/** The policies with `background` not false and not switched off, each with its rulesets in the policy's order. */
export function planScanPolicies<R extends NamedWithLabels>(policies: readonly Policy[], rulesets: readonly R[], compile: (ruleset: R) => CompiledRuleset): ScanPolicy[] {
  return planPolicies(
    policies.filter(judgesInBackground),
    rulesets,
    compile,
  )
}

/**
 * Judges an existing object by every scanned policy, as admission would judge its creation: a
 * policy that does not select the object, or none of whose rules apply to it, gives no verdict. A
 * policy whose evaluation throws gives an error verdict of its own, and the others stand.
 */
export function judgeExisting(policies: readonly ScanPolicy[], input: PreparedInput, exemptions?: Exemptions): ExistingVerdict[] {
  const verdicts: ExistingVerdict[] = []
  for (const entry of policies) {
    const verdict = guarded(entry, input, exemptions)
    if (verdict) verdicts.push(verdict)
  }
  return verdicts
}

function guarded(entry: ScanPolicy, input: PreparedInput, exemptions: Exemptions | undefined): ExistingVerdict | undefined {
  try {
    return judge(entry, input, exemptions)
  } catch (error) {
    const { policy } = entry
    const result: RuleResult = { ruleset: '', rule: '', status: 'error', severity: 'high', message: `policy "${policy.name}" could not be evaluated: ${(error as Error).message}` }
    const passed = policy.failurePolicy === 'Ignore'
    return { policy: policy.name, action: policy.action ?? 'Audit', ignoreErrors: passed, judged: [result], output: { policy: policy.name, passed, results: [result] }, rulesets: [] }
  }
}

function judge({ policy, rulesets, missing }: ScanPolicy, input: PreparedInput, exemptions: Exemptions | undefined): ExistingVerdict | undefined {
  const evaluation = evaluatePolicy(policy, rulesets, input, exemptions ? { verbose: true, exemptions } : { verbose: true })
  if (!evaluation.applied) return undefined
  const judged = evaluation.output.results.filter(appliedTo)
  if (judged.length === 0 && missing.length === 0) return undefined
  const ignoreErrors = policy.failurePolicy === 'Ignore'
  const missingResults = missing.map(missingRulesetResult)
  return {
    policy: policy.name,
    action: evaluation.action,
    ignoreErrors,
    judged: [...judged, ...missingResults],
    output: {
      policy: policy.name,
      passed: evaluation.output.passed && (ignoreErrors || missing.length === 0),
      results: [...judged.filter(isReported), ...missingResults],
    },
    rulesets: evaluation.rulesets
      .filter((ruleset) => ruleset.results.some(appliedTo))
      .map((ruleset) => ({ ruleset: ruleset.ruleset, passed: ruleset.passed, results: ruleset.results.filter(isReported) })),
  }
}
