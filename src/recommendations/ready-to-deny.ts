import { judgesAtAdmission, type Policy } from '../engine/index.js'
import { counted, lastDays, recommendation, type Recommendation, type RecommendationWindow } from './recommendation.js'
import type { PolicyClusterFigures } from './violations-in-cluster.js'

/**
 * Fewer evaluations than this say too little: a policy judged a handful of times without a
 * failure may simply not have met the resources it would refuse yet.
 */
export const READY_TO_DENY_MIN_AUDITS = 20

/** Policies the webhook applies without refusing anything: the ones a switch to Deny would change. */
function watchesOnly(policy: Policy): boolean {
  return judgesAtAdmission(policy) && (policy.action ?? 'Audit') !== 'Deny'
}

/**
 * The policies worth asking the store about: Audit or Warn, applied by the webhook, and audited
 * often enough in the window. Whether they failed is the expensive question, so it is asked only
 * for these.
 */
export function readyToDenyCandidates(policies: readonly Policy[], policyAudits: ReadonlyMap<string, number>): string[] {
  return policies.filter((policy) => watchesOnly(policy) && (policyAudits.get(policy.name) ?? 0) >= READY_TO_DENY_MIN_AUDITS).map((policy) => policy.name)
}

export interface ReadyToDenyFigures {
  /** Policy audits per policy name in the window. */
  policyAudits: ReadonlyMap<string, number>
  /** Candidates with at least one failed policy audit in the window. */
  failing: ReadonlySet<string>
  /** What the last background scans found, per policy; a policy never scanned has none. */
  cluster?: ReadonlyMap<string, PolicyClusterFigures>
}

/**
 * An Audit or Warn policy that passed every one of its many evaluations in the window would
 * have refused nothing as a Deny policy: it can enforce without breaking anyone. A failed audit
 * (`passed` false, which already honours the policy's failurePolicy) is exactly what Deny would
 * have refused. When background scans have judged the objects already running, none of them may
 * fail it either (each would be refused at its next update): the evidence says how many it
 * judged, and that 0 fail. A policy never scanned is judged by its audits alone (`existingObjects`
 * null).
 */
export function readyToDeny(policies: readonly Policy[], figures: ReadyToDenyFigures, window: RecommendationWindow): Recommendation[] {
  const candidates = new Set(readyToDenyCandidates(policies, figures.policyAudits))
  return policies
    .filter((policy) => candidates.has(policy.name) && !figures.failing.has(policy.name) && (figures.cluster?.get(policy.name)?.failing ?? 0) === 0)
    .map((policy) => {
      const action = policy.action ?? 'Audit'
      const audits = figures.policyAudits.get(policy.name) ?? 0
      const existing = figures.cluster?.get(policy.name)
      const inCluster = existing ? `, and none of the ${counted(existing.scanned, 'object')} already running fails it` : ''
      return recommendation(
        'ready-to-deny',
        { kind: 'policy', name: policy.name },
        `Policy "${policy.name}" (action ${action}) passed all ${counted(audits, 'evaluation')} ${lastDays(window)}${inCluster}: set its action to Deny to enforce it.`,
        {
          action,
          audits,
          failures: 0,
          minAudits: READY_TO_DENY_MIN_AUDITS,
          since: window.from.toISOString(),
          existingObjects: existing ? existing.scanned : null,
          existingViolations: existing ? 0 : null,
        },
      )
    })
}
