import type { Policy, Ruleset } from '../engine/index.js'
import type { LabelSelector } from '../engine/model/label-selector.js'
import {
  generateValidatingAdmissionPolicies,
  keptInClusterRefusals,
  type ExceptionScope,
  type GeneratedVap,
  type MatchResources,
  type Refusal,
  type ValidatingAdmissionPolicy,
  type ValidatingAdmissionPolicyBinding,
} from '../export/vap/index.js'
import { canonicalJson } from './canonical-json.js'
import { MANAGED_BY, MANAGED_BY_LABEL, POLICY_LABEL, policyLabelValue } from './generated-vap-objects.js'

/**
 * What Verdict's webhook is sent, as the ValidatingWebhookConfiguration's selectors say: a
 * generated binding selects no more (the chart leaves out kube-system and Verdict's namespace), or
 * the problem that keeps it from being known.
 */
export type WebhookScope = { namespaceSelector?: LabelSelector; objectSelector?: LabelSelector } | { problem: string }

/** What the controller knows of the cluster when it generates. */
export interface ClusterFacts {
  scope: WebhookScope
  /** Verdict's own namespace, which the webhook never judges, so no binding does either. */
  podNamespace: string
  /** The API server's minor version (1.x), when it could be read. */
  serverMinor: number | undefined
}

export interface DesiredPair {
  /** The Kubernetes name of both the policy and its binding. */
  name: string
  policy: ValidatingAdmissionPolicy & { metadata: OwnedMeta }
  binding: ValidatingAdmissionPolicyBinding & { metadata: OwnedMeta }
  source: GeneratedVap['source']
}

interface OwnedMeta {
  name: string
  labels: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: OwnerReference[]
}

export interface PolicyOwner {
  apiVersion: string
  kind: string
  name: string
  uid: string
}

interface OwnerReference {
  apiVersion: string
  kind: string
  name: string
  uid: string
  controller: true
}

export type DesiredVaps = { generatable: true; pairs: DesiredPair[] } | { generatable: false; refusals: Refusal[] }

export interface DesiredOptions {
  exceptions: readonly ExceptionScope[]
  now: Date
  cluster: ClusterFacts
  /** The Policy resource a CRD-made policy came from: the owner Kubernetes garbage-collects the pairs with. */
  owner: PolicyOwner | undefined
}

/** The first Kubernetes minor that serves admissionregistration.k8s.io/v1 ValidatingAdmissionPolicies. */
const FIRST_MINOR = 30

/**
 * The ValidatingAdmissionPolicies and bindings the controller keeps for one policy, or every reason
 * it keeps none: the generator's refusals, an Audit action (keptInClusterRefusals), an API server
 * older than the policies need, a webhook scope that cannot be read. Each object carries Verdict's
 * labels (app.kubernetes.io/managed-by: verdict, verdict.dev/policy) and, for a CRD-made policy,
 * an ownerReference to its Policy resource; each binding selects no more than the webhook is sent.
 */
export function desiredVaps(policy: Policy, rulesets: readonly Ruleset[], options: DesiredOptions): DesiredVaps {
  const generated = generateValidatingAdmissionPolicies(policy, rulesets, { exceptions: options.exceptions, now: options.now })
  const refusals = [...keptInClusterRefusals(policy), ...(generated.ok ? [] : generated.refusals)]
  const { cluster } = options
  if ('problem' in cluster.scope) refusals.push({ field: 'webhook', reason: cluster.scope.problem })
  if (generated.ok && cluster.serverMinor !== undefined) {
    const needed = Math.max(FIRST_MINOR, Number(generated.minimumKubernetesVersion.split('.')[1]))
    if (cluster.serverMinor < needed) {
      refusals.push({ field: 'minimumKubernetesVersion', reason: `the API server is Kubernetes 1.${cluster.serverMinor}, and the generated policies need 1.${needed}` })
    }
  }
  if (refusals.length > 0 || !generated.ok || 'problem' in cluster.scope) return { generatable: false, refusals }
  const scope = cluster.scope
  const labels = { [MANAGED_BY_LABEL]: MANAGED_BY, [POLICY_LABEL]: policyLabelValue(policy.name) }
  const ownerReferences: OwnerReference[] | undefined = options.owner
    ? [{ apiVersion: options.owner.apiVersion, kind: options.owner.kind, name: options.owner.name, uid: options.owner.uid, controller: true }]
    : undefined
  const owned = (metadata: { name: string; annotations?: Record<string, string> }): OwnedMeta => ({ ...metadata, labels, ...(ownerReferences ? { ownerReferences } : {}) })
  const exempt: LabelSelector = { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: [cluster.podNamespace] }] }
  const pairs = generated.policies.map((pair): DesiredPair => {
    const matchResources: MatchResources = { ...pair.binding.spec.matchResources }
    const namespaceSelector = allOf([matchResources.namespaceSelector, scope.namespaceSelector, exempt])
    const objectSelector = allOf([matchResources.objectSelector, scope.objectSelector])
    if (namespaceSelector) matchResources.namespaceSelector = namespaceSelector
    if (objectSelector) matchResources.objectSelector = objectSelector
    return {
      name: pair.policy.metadata.name,
      policy: { ...pair.policy, metadata: owned(pair.policy.metadata) },
      binding: { ...pair.binding, metadata: owned(pair.binding.metadata), spec: { ...pair.binding.spec, matchResources } },
      source: pair.source,
    }
  })
  return { generatable: true, pairs }
}

/**
 * Selectors that must all hold, as one: matchLabels kept from the first, every other requirement an
 * expression (an equal one once), so nothing of any of them is lost.
 */
function allOf(selectors: readonly (LabelSelector | undefined)[]): LabelSelector | undefined {
  const present = selectors.filter((selector): selector is LabelSelector => selector !== undefined && (Object.keys(selector.matchLabels ?? {}).length > 0 || (selector.matchExpressions?.length ?? 0) > 0))
  if (present.length === 0) return undefined
  if (present.length === 1) return present[0]
  const [first, ...rest] = present as [LabelSelector, ...LabelSelector[]]
  const expressions = [...(first.matchExpressions ?? [])]
  const seen = new Set(expressions.map((expression) => canonicalJson(expression)))
  for (const selector of rest) {
    const more = [...Object.entries(selector.matchLabels ?? {}).map(([key, value]) => ({ key, operator: 'In' as const, values: [value] })), ...(selector.matchExpressions ?? [])]
    for (const expression of more) {
      const key = canonicalJson(expression)
      if (seen.has(key)) continue
      seen.add(key)
      expressions.push(expression)
    }
  }
  return { ...(first.matchLabels && Object.keys(first.matchLabels).length > 0 ? { matchLabels: first.matchLabels } : {}), matchExpressions: expressions }
}
