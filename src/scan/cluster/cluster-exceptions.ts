import type { KubeConfig } from '@kubernetes/client-node'
import { API_VERSION, type PolicyException } from '../../engine/index.js'
import { ImportError } from '../../import/import-error.js'
import { importKyvernoException } from '../../import/kyverno-exception.js'
import { POLICY_EXCEPTIONS } from '../../k8s/resources.js'
import { parseExceptionBody } from '../../services/exception-body.js'
import { InvalidRequestError } from '../../services/service-errors.js'
import { isRecord, listResource, type Item } from './list-resource.js'

export interface ClusterExceptions {
  /** In the order read: Verdict's, then Kyverno's; names unique. */
  exceptions: PolicyException[]
  /** Exceptions left out, each with why. */
  warnings: string[]
}

/** Where each family lives; the first version the API server serves is read (they are the same objects). */
const KYVERNO_SOURCES: readonly (readonly string[])[] = [
  ['kyverno.io/v2', 'kyverno.io/v2beta1'],
  ['policies.kyverno.io/v1', 'policies.kyverno.io/v1beta1', 'policies.kyverno.io/v1alpha1'],
]

/**
 * The PolicyExceptions of the cluster, as they would apply to its objects: Verdict's own
 * (verdict.dev/v1alpha1, checked as the controller checks them) and Kyverno's (kyverno.io/v2,
 * policies.kyverno.io), translated as `verdict import` translates them. A Kyverno exception
 * carries no reason, so unless its `verdict.dev/reason` annotation gives one, the reason says
 * where it was read. One that cannot be checked or translated is left out with a warning: the scan
 * then reports what it would have let through, never the other way round. A resource the cluster
 * does not serve (its CRD is not installed) has none.
 */
export async function readClusterExceptions(kubeConfig: KubeConfig, server: string): Promise<ClusterExceptions> {
  const out: ClusterExceptions = { exceptions: [], warnings: [] }
  const names = new Set<string>()
  const add = (exception: PolicyException, source: string): void => {
    if (names.has(exception.name)) {
      out.warnings.push(`${source} is not applied: an exception named "${exception.name}" is already read from the cluster`)
      return
    }
    names.add(exception.name)
    out.exceptions.push(exception)
  }
  for (const item of live((await listResource(kubeConfig, server, POLICY_EXCEPTIONS.path)) ?? [])) {
    const name = nameOf(item)
    const verdict = checked(name, { apiVersion: API_VERSION, kind: 'PolicyException', metadata: verdictMetadata(item, name), spec: item.spec }, `PolicyException "${name}"`, out.warnings)
    if (verdict) add(verdict, `PolicyException "${name}"`)
  }
  for (const versions of KYVERNO_SOURCES) {
    const served = await firstServed(kubeConfig, server, versions)
    if (!served) continue
    for (const item of live(served.items)) {
      const name = nameOf(item)
      const namespace = isRecord(item.metadata) && typeof item.metadata.namespace === 'string' ? item.metadata.namespace : ''
      const source = `Kyverno PolicyException ${namespace}/${name} (${served.apiVersion})`
      try {
        const { exception } = importKyvernoException({ ...item, apiVersion: served.apiVersion, kind: 'PolicyException' }, { reason: `Kyverno PolicyException ${namespace}/${name} in the cluster` })
        const { name: _name, ...spec } = exception
        const ready = checked(exception.name, { apiVersion: API_VERSION, kind: 'PolicyException', metadata: { name: exception.name }, spec }, source, out.warnings)
        if (ready) add(ready, source)
      } catch (error) {
        if (!(error instanceof ImportError)) throw error
        out.warnings.push(`${source} is not applied: ${error.field}: ${error.problem}`)
      }
    }
  }
  return out
}

async function firstServed(kubeConfig: KubeConfig, server: string, versions: readonly string[]): Promise<{ apiVersion: string; items: Item[] } | undefined> {
  for (const apiVersion of versions) {
    const items = await listResource(kubeConfig, server, `/apis/${apiVersion}/policyexceptions`)
    if (items) return { apiVersion, items }
  }
  return undefined
}

/** As the REST API and the controller check an exception; undefined (with a warning) when it would not apply. */
function checked(name: string, manifest: Item, source: string, warnings: string[]): PolicyException | undefined {
  try {
    return { name, ...parseExceptionBody(name, manifest, '').spec }
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error
    warnings.push(`${source} is not applied: ${error.details}`)
    return undefined
  }
}

/** A resource being deleted is already out of effect. */
function live(items: readonly Item[]): Item[] {
  return items.filter((item) => !(isRecord(item.metadata) && item.metadata.deletionTimestamp))
}

function nameOf(item: Item): string {
  return isRecord(item.metadata) && typeof item.metadata.name === 'string' ? item.metadata.name : ''
}

function verdictMetadata(item: Item, name: string): Item {
  const labels = isRecord(item.metadata) && isRecord(item.metadata.labels) && Object.keys(item.metadata.labels).length > 0 ? item.metadata.labels : undefined
  return labels ? { name, labels } : { name }
}
