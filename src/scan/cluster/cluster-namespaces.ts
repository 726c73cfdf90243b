import type { KubeConfig } from '@kubernetes/client-node'
import type { NamespaceSource } from '../../admission/namespace-source.js'
import type { KubeObject } from '../background/paged-list.js'
import type { ScanTarget } from '../background/scan-targets.js'
import { readWholeList } from './read-whole-list.js'

const NAMESPACES: ScanTarget = { group: '', version: 'v1', resource: 'namespaces' }

/**
 * The cluster's Namespace objects by name, read once before the scan, so that namespaceSelector
 * and CEL `namespaceObject` judge each object as the controller's scan judges it (its informer
 * holds them all). A cluster has far fewer Namespaces than objects; they are held for the scan.
 */
export async function readClusterNamespaces(kubeConfig: KubeConfig, server: string, options: { pageSize: number; listRestarts: number }): Promise<NamespaceSource> {
  let byName = new Map<string, KubeObject>()
  await readWholeList(kubeConfig, server, NAMESPACES, options, () => {
    byName = new Map()
    return (namespace) => {
      const name = (namespace.metadata as KubeObject | undefined)?.name
      if (typeof name === 'string') byName.set(name, namespace)
    }
  })
  return { get: (name) => byName.get(name) }
}
