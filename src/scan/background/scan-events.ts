import { countsAsFailure } from '../../admission/decide-admission.js'
import { describeFailure, rulePath } from '../../admission/describe-failure.js'
import type { Violation, ViolationEvents } from '../../events/violation.js'
import type { NotedVerdict } from '../../store/background-verdicts-repository.js'
import type { ScannedVerdicts } from './scan-cluster.js'
import { objectKey } from './verdict-audits.js'

/**
 * The violations a scan found anew, for Kubernetes Events on the objects themselves (they exist,
 * with their uid), the Policy resource as `related` when there is one: one per failed rule of a
 * verdict that changed since the last scan and does not pass. A verdict that stays the same
 * records nothing again, as it is audited once: an hourly scan of a cluster with a thousand
 * failing objects would otherwise write a thousand Events an hour. The PolicyReports say what
 * still fails.
 */
export function scanViolations(page: readonly ScannedVerdicts[], changed: readonly NotedVerdict[], events: Pick<ViolationEvents, 'policyResource'>): Violation[] {
  const wanted = new Set(changed.filter((verdict) => !verdict.passed).map((verdict) => `${verdict.policy}\u0000${verdict.object}`))
  const violations: Violation[] = []
  for (const scanned of page) {
    const object = objectKey(scanned)
    const { apiVersion, kind, name, namespace, uid } = scanned.object
    const regarding = { apiVersion, kind, name, ...(namespace ? { namespace } : {}), ...(uid ? { uid } : {}) }
    for (const verdict of scanned.verdicts) {
      if (!wanted.has(`${verdict.policy}\u0000${object}`)) continue
      const policyResource = events.policyResource(verdict.policy)
      for (const result of verdict.output.results) {
        if (!countsAsFailure(result, verdict.ignoreErrors)) continue
        violations.push({ action: 'Scan', regarding, ...(policyResource ? { related: policyResource } : {}), rule: rulePath(verdict.policy, result), note: describeFailure(verdict.policy, result) })
      }
    }
  }
  return violations
}
