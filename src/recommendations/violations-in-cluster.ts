import type { Policy } from '../engine/index.js'
import { counted, recommendation, type Recommendation } from './recommendation.js'

/** How many failing objects a finding names. */
export const VIOLATIONS_IN_CLUSTER_LISTED = 10

/** What the last background scans found for one policy (see store/background-verdicts-repository.ts). */
export interface PolicyClusterFigures {
  /** Existing objects the policy judged. */
  scanned: number
  /** Those that fail it. */
  failing: number
  /** The worst failing objects (most failing rules first), as `<apiVersion>/<kind>/<namespace>/<name>`. */
  worst: readonly string[]
}

/**
 * Policies that objects already in the cluster fail, with the worst of those objects: what a
 * switch to Deny would block at their next update, and what to fix first. Figures come from the
 * last background scans, so they describe the cluster now, whatever the window.
 */
export function violationsInCluster(policies: readonly Policy[], cluster: ReadonlyMap<string, PolicyClusterFigures>): Recommendation[] {
  return policies
    .flatMap((policy) => {
      const figures = cluster.get(policy.name)
      return figures && figures.failing > 0 ? [{ policy, figures }] : []
    })
    .sort((a, b) => b.figures.failing - a.figures.failing || (a.policy.name < b.policy.name ? -1 : 1))
    .map(({ policy, figures }) => {
      const action = policy.action ?? 'Audit'
      const objects = figures.worst.slice(0, VIOLATIONS_IN_CLUSTER_LISTED)
      return recommendation(
        'violations-in-cluster',
        { kind: 'policy', name: policy.name },
        `${counted(figures.failing, 'existing object')} of ${figures.scanned} fail policy "${policy.name}" (action ${action}); ` +
          `${action === 'Deny' ? 'each will be refused at its next update' : 'as a Deny policy it would refuse each at its next update'}. Worst first: ${objects.join(', ')}.`,
        { action, failing: figures.failing, scanned: figures.scanned, objects },
      )
    })
}
