import {
  appliedTo,
  evaluatePolicy,
  isReported,
  missingRulesetResult,
  type Exemptions,
  type JudgedElsewhere,
  type Match,
  type Operation,
  type Policy,
  type PolicyAction,
  type PolicyResult,
  type PreparedInput,
  type RuleResult,
  type RulesetResult,
} from '../engine/index.js'
import type { AdmissionPolicy } from './admission-policies.js'

/** How one policy judged an admission request; only policies that judged something have one. */
export interface PolicyJudgement {
  policy: string
  action: PolicyAction
  /** failurePolicy Ignore: rule errors are recorded but do not count as violations. */
  ignoreErrors: boolean
  /** As the policy audit records it: violations and exempted rules, `passed` per the failure policy. */
  output: PolicyResult
  /** The rulesets that judged at least one rule, violations and exempted rules, as their audits record them. */
  rulesets: RulesetResult[]
}

/**
 * Judges an admission request by every admission policy that selects it. A policy whose match
 * selects the object but none of whose rules apply to it (a Pod ruleset meeting a ConfigMap)
 * judged nothing: it gets no judgement, so no audit and no mention, or every Lease renewal in a
 * cluster would be audited by every catch-all policy.
 */
export function judgeRequest(
  policies: readonly AdmissionPolicy[],
  input: PreparedInput,
  operation: Operation,
  exemptions?: Exemptions,
  judgedElsewhere: JudgedElsewhereBy = () => undefined,
): PolicyJudgement[] {
  const judgements: PolicyJudgement[] = []
  for (const entry of policies) {
    const judgement = judgeGuarded(entry, input, operation, exemptions, judgedElsewhere)
    if (judgement) judgements.push(judgement)
  }
  return judgements
}

/** Per policy, the rules the API server judges for this request (generated ValidatingAdmissionPolicies in force: VapDelegation). */
export type JudgedElsewhereBy = (policy: Policy) => JudgedElsewhere | undefined

/** A policy whose evaluation throws judges as an error of its own; the other policies' answers stand. */
function judgeGuarded(entry: AdmissionPolicy, input: PreparedInput, operation: Operation, exemptions: Exemptions | undefined, judgedElsewhere: JudgedElsewhereBy): PolicyJudgement | undefined {
  try {
    return judgePolicy(entry, input, operation, exemptions, judgedElsewhere(entry.policy))
  } catch (error) {
    const { policy } = entry
    const ignoreErrors = policy.failurePolicy === 'Ignore'
    const result: RuleResult = { ruleset: '', rule: '', status: 'error', severity: 'high', message: `policy "${policy.name}" could not be evaluated: ${(error as Error).message}` }
    return { policy: policy.name, action: policy.action ?? 'Audit', ignoreErrors, output: { policy: policy.name, passed: ignoreErrors, results: [result] }, rulesets: [] }
  }
}

function judgePolicy(
  { policy, rulesets, missing }: AdmissionPolicy,
  input: PreparedInput,
  operation: Operation,
  exemptions: Exemptions | undefined,
  judgedElsewhere: JudgedElsewhere | undefined,
): PolicyJudgement | undefined {
  if (!selectsOperation(policy.match, operation)) return undefined
  const evaluation = evaluatePolicy(policy, rulesets, input, { verbose: true, ...(exemptions ? { exemptions } : {}), ...(judgedElsewhere ? { judgedElsewhere } : {}) })
  if (!evaluation.applied) return undefined
  // A rule an exception let through, or one switched off, applied: its ruleset judged the request, and its audit says why it did not count.
  const judged = evaluation.rulesets.filter((ruleset) => ruleset.results.some(appliedTo))
  if (judged.length === 0 && missing.length === 0) return undefined
  const ignoreErrors = policy.failurePolicy === 'Ignore'
  const missingResults = missing.map(missingRulesetResult)
  return {
    policy: policy.name,
    action: evaluation.action,
    ignoreErrors,
    output: {
      policy: policy.name,
      passed: evaluation.output.passed && (ignoreErrors || missing.length === 0),
      results: [...evaluation.output.results.filter(isReported), ...missingResults],
    },
    rulesets: judged.map((ruleset) => {
      const results = ruleset.results.filter(isReported)
      return { ruleset: ruleset.ruleset, passed: ruleset.passed, results }
    }),
  }
}

/**
 * CREATE and UPDATE reach every policy; DELETE and CONNECT only policies whose match names them.
 * Policies describe what a resource must look like: one that judged deletions by that would make
 * every resource created before it, or admitted while it was Audit, impossible to delete.
 */
export function selectsOperation(match: Match | undefined, operation: Operation): boolean {
  if (operation === 'CREATE' || operation === 'UPDATE') return true
  if (!match) return false
  const lists = [match.operations, ...(match.any ?? []).map((filter) => filter.operations), ...(match.all ?? []).map((filter) => filter.operations)]
  return lists.some((operations) => operations?.includes(operation) ?? false)
}

/** A policy naming a ruleset that vanished (possible with CRDs) must not pass silently (as the REST evaluation does). */
