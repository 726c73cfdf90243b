import type { KubeConfig } from '@kubernetes/client-node'
import type { NamespaceSource } from '../../admission/namespace-source.js'
import { ListExpiredError, listPages, type KubeObject } from '../background/paged-list.js'
import type { ScanTarget } from '../background/scan-targets.js'
import { ScanInputError } from '../scan-error.js'
import { clusterReadError } from './cluster-read-error.js'

const NAMESPACES: ScanTarget = { group: '', version: 'v1', resource: 'namespaces' }

/**
 * The cluster's Namespace objects by name, read once before the scan, so that namespaceSelector
 * and CEL `namespaceObject` judge each object as the controller's scan judges it (its informer
 * holds them all). A cluster has far fewer Namespaces than objects; they are held for the scan.
 */
export async function readClusterNamespaces(kubeConfig: KubeConfig, server: string, options: { pageSize: number; listRestarts: number }): Promise<NamespaceSource> {
  for (let restarts = 0; ; restarts++) {
    const byName = new Map<string, KubeObject>()
    try {
      for await (const page of listPages(kubeConfig, NAMESPACES, options.pageSize)) {
        for (const namespace of page) {
          const name = (namespace.metadata as KubeObject | undefined)?.name
          if (typeof name === 'string') byName.set(name, namespace)
        }
      }
      return { get: (name) => byName.get(name) }
    } catch (error) {
      if (!(error instanceof ListExpiredError)) throw clusterReadError(server, error)
      if (restarts >= options.listRestarts) throw new ScanInputError(`cannot read the cluster at ${server}: ${error.message}; the list expired ${restarts + 1} times`)
    }
  }
}
