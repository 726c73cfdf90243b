import type { Policy } from '../../engine/model/policy.js'
import type { Refusal } from './refusal.js'

/**
 * What the controller refuses to keep in a cluster (generateValidatingAdmissionPolicy) beyond what
 * the generator refuses; the webhook never leaves a rule of such a policy to the API server either.
 * An Audit policy exists for its results, which Verdict records in its audits (timeseries,
 * recommendations, reports); the API server would record them in its own audit log only, and the
 * webhook, skipping the rule, would record nothing.
 */
export function keptInClusterRefusals(policy: Pick<Policy, 'action'>): Refusal[] {
  if ((policy.action ?? 'Audit') !== 'Audit') return []
  const which = policy.action === undefined ? 'Audit (the default)' : 'Audit'
  return [{ field: 'action', reason: `the action is ${which}, whose results are Verdict's audits; the API server would keep them in its own audit log only: use Deny or Warn` }]
}
