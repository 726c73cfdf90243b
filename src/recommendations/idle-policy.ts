import type { Policy } from '../engine/index.js'
import { lastDays, recommendation, type Recommendation, type RecommendationWindow } from './recommendation.js'

export interface PolicyDefinition extends Policy {
  /** ISO 8601: when the policy was first stored. */
  createdAt: string
}

/**
 * Policies without a single audit in the window that existed for all of it: a policy created
 * yesterday has had no chance to match anything yet, so it is not called idle.
 */
export function idlePolicyCandidates(policies: readonly PolicyDefinition[], policyAudits: ReadonlyMap<string, number>, window: RecommendationWindow): string[] {
  return policies
    .filter((policy) => (policyAudits.get(policy.name) ?? 0) === 0 && Date.parse(policy.createdAt) <= window.from.getTime())
    .map((policy) => policy.name)
}

export interface IdlePolicyFigures {
  policyAudits: ReadonlyMap<string, number>
  /** The newest audit of each candidate at any time (before the window), or null when it has none left. */
  lastAudits: ReadonlyMap<string, Date | null>
}

/**
 * A policy that judged nothing for N days: its match or its rulesets' kinds select nothing that
 * is evaluated (or the webhook is not sent those resources), so it protects nothing.
 */
export function idlePolicies(policies: readonly PolicyDefinition[], figures: IdlePolicyFigures, window: RecommendationWindow): Recommendation[] {
  const candidates = new Set(idlePolicyCandidates(policies, figures.policyAudits, window))
  return policies
    .filter((policy) => candidates.has(policy.name))
    .map((policy) => {
      const lastAuditAt = figures.lastAudits.get(policy.name)?.toISOString() ?? null
      const before = lastAuditAt === null ? 'and has no audit at all' : `(last evaluated ${lastAuditAt})`
      return recommendation(
        'idle-policy',
        { kind: 'policy', name: policy.name },
        `Policy "${policy.name}" was not evaluated ${lastDays(window)} ${before}: check that its match and its rulesets select resources that are evaluated, or delete it.`,
        { audits: 0, lastAuditAt, createdAt: policy.createdAt },
      )
    })
}
