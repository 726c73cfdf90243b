import type { KubeConfig } from '@kubernetes/client-node'
import { ListExpiredError, listPages, type KubeObject } from '../background/paged-list.js'
import type { ScanTarget } from '../background/scan-targets.js'
import { ScanInputError } from '../scan-error.js'
import { clusterReadError } from './cluster-read-error.js'

/**
 * Reads every object of a resource a scan needs before it starts (Namespaces, context ConfigMaps),
 * page by page. `begin` is called at the start of each reading and gives what takes each object:
 * a list whose continue token expires starts over, with a fresh taker, at most `listRestarts` times.
 * Any other failure is a ScanInputError naming the server.
 */
export async function readWholeList(
  kubeConfig: KubeConfig,
  server: string,
  target: ScanTarget,
  options: { pageSize: number; listRestarts: number; labelSelector?: string },
  begin: () => (object: KubeObject) => void,
): Promise<void> {
  for (let restarts = 0; ; restarts++) {
    const take = begin()
    try {
      for await (const page of listPages(kubeConfig, target, options.pageSize, options.labelSelector)) {
        for (const object of page) take(object)
      }
      return
    } catch (error) {
      if (!(error instanceof ListExpiredError)) throw clusterReadError(server, error)
      if (restarts >= options.listRestarts) throw new ScanInputError(`cannot read the cluster at ${server}: ${error.message}; the list expired ${restarts + 1} times`)
    }
  }
}
