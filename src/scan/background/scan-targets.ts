import { judgesInBackground, type Policy, type Ruleset } from '../../engine/index.js'
import { webhookRules } from '../../k8s/webhook-rules.js'

/** One resource a background scan lists, at the version it is read in. */
export interface ScanTarget {
  group: string
  version: string
  /** The plural, lower case: `pods`, `deployments`. */
  resource: string
}

/** A kind a policy names that a scan cannot list: a custom resource whose version or plural is not known without discovery. */
export interface UnlistableTarget {
  group: string
  resource: string
  reason: string
}

/**
 * What the background scan of these policies lists: every resource the webhook would send for
 * them (the same reading of match kinds, autogen controllers included, leases and events never),
 * whatever operations they name, at each group's served version. Policies with `background:
 * false`, or switched off, are left out. Built-in groups have a known version; a custom resource is listed only when
 * its policy names the version (`group/v1/Kind`), as a scan cannot guess it.
 */
export function scanTargets(policies: readonly Policy[], rulesets: readonly Ruleset[]): { targets: ScanTarget[]; unlistable: UnlistableTarget[] } {
  const scanned = policies.filter(judgesInBackground).map((policy) => ({ ...policy, admission: true }))
  const targets = new Map<string, ScanTarget>()
  const unlistable = new Map<string, UnlistableTarget>()
  for (const rule of webhookRules(scanned, rulesets)) {
    for (const group of rule.apiGroups) {
      for (const resource of rule.resources) {
        const version = rule.apiVersions.find((entry) => entry !== '*') ?? SERVED_VERSIONS[group]
        if (version === undefined || group === '*' || resource === '*') {
          unlistable.set(`${group}/${resource}`, { group, resource, reason: 'a custom resource whose API version the policy does not name (write group/version/Kind)' })
          continue
        }
        targets.set(`${group}/${version}/${resource}`, { group, version, resource })
      }
    }
  }
  return { targets: [...targets.values()], unlistable: [...unlistable.values()] }
}

/** The API path listing a target in every namespace (or, for a cluster-scoped resource, all of it). */
export function listPath(target: ScanTarget): string {
  return target.group === '' ? `/api/${target.version}/${target.resource}` : `/apis/${target.group}/${target.version}/${target.resource}`
}

/** The version each built-in group serves in every supported Kubernetes release. */
const SERVED_VERSIONS: Readonly<Record<string, string>> = {
  '': 'v1',
  apps: 'v1',
  batch: 'v1',
  'networking.k8s.io': 'v1',
  policy: 'v1',
  autoscaling: 'v2',
  'rbac.authorization.k8s.io': 'v1',
  'storage.k8s.io': 'v1',
  'scheduling.k8s.io': 'v1',
  'discovery.k8s.io': 'v1',
  'apiextensions.k8s.io': 'v1',
  'admissionregistration.k8s.io': 'v1',
  'certificates.k8s.io': 'v1',
  'coordination.k8s.io': 'v1',
  'events.k8s.io': 'v1',
}
