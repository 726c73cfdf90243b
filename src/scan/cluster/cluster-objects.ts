import type { KubeConfig } from '@kubernetes/client-node'
import { ListExpiredError, ListNotServedError, listPages, type KubeObject } from '../background/paged-list.js'
import type { ScanTarget } from '../background/scan-targets.js'
import type { ClusterObject } from './cluster-object.js'
import { clusterReadError } from './cluster-read-error.js'

export interface ClusterObjectsOptions {
  pageSize: number
  /** Namespaces whose objects are passed over, as the webhook and the background scan pass them over. */
  excludedNamespaces: ReadonlySet<string>
  /** What results call the cluster: `cluster:<context>`. */
  file: string
  /** The API server's URL, which a failure names. */
  server: string
}

/**
 * The objects of one kind, page by page as listPages reads them (one page held at a time), each
 * named as results name a cluster's object; objects of excluded namespaces are dropped. When the
 * list's continue token expires, listPages's ListExpiredError comes through after the pages
 * already yielded: the caller takes back what it made of them and lists the kind again. A kind the
 * cluster does not serve throws listPages's ListNotServedError, before any page. Any other
 * failure throws a ScanInputError naming the server and the HTTP status or network error.
 */
export async function* clusterObjects(kubeConfig: KubeConfig, target: ScanTarget, options: ClusterObjectsOptions): AsyncGenerator<ClusterObject[]> {
  const pages = listPages(kubeConfig, target, options.pageSize)
  for (;;) {
    let page: IteratorResult<KubeObject[]>
    try {
      page = await pages.next()
    } catch (error) {
      throw error instanceof ListExpiredError || error instanceof ListNotServedError ? error : clusterReadError(options.server, error)
    }
    if (page.done === true) return
    const objects: ClusterObject[] = []
    for (const item of page.value) {
      const object = clusterObject(item, options.file)
      if (object.namespace !== null && options.excludedNamespaces.has(object.namespace)) continue
      objects.push(object)
    }
    yield objects
  }
}

function clusterObject(item: KubeObject, file: string): ClusterObject {
  const metadata = typeof item.metadata === 'object' && item.metadata !== null ? (item.metadata as KubeObject) : {}
  return {
    source: 'cluster',
    file,
    apiVersion: String(item.apiVersion),
    kind: String(item.kind),
    namespace: typeof metadata.namespace === 'string' && metadata.namespace !== '' ? metadata.namespace : null,
    name: typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : null,
    // Judged as read, as the controller's background scan judges it.
    value: item,
  }
}
