import type { KubeConfig } from '@kubernetes/client-node'
import { ListExpiredError, ListNotServedError } from '../background/paged-list.js'
import type { ScanTarget } from '../background/scan-targets.js'
import type { Judge } from '../judge/judge.js'
import type { ObjectRef } from '../manifests/manifest-object.js'
import { judgeObjects } from '../run-scan.js'
import { ScanInputError } from '../scan-error.js'
import type { ObjectJudgement, ScanReport } from '../scan-result.js'
import { scanReport } from '../scan-report.js'
import { clusterObjects } from './cluster-objects.js'

export interface ClusterScanOptions {
  kubeConfig: KubeConfig
  /** The API server's URL, for messages. */
  server: string
  /** What results call the cluster: `cluster:<context>`. */
  file: string
  /** The kinds to list, from scanTargets. */
  targets: readonly ScanTarget[]
  judge: Judge
  pageSize: number
  excludedNamespaces: ReadonlySet<string>
  /** How often one kind's list starts over after its continue token expired (410) before the scan gives up. */
  listRestarts: number
  /** Called after each object with how many are done. */
  onProgress?: (done: number) => void
  /** Hears a kind the cluster does not serve (its CRD is not installed): it has no objects, and the scan goes on. */
  onNotServed?: (message: string) => void
}

/**
 * One background scan of the cluster, read-only: every object of every target kind, listed page
 * by page and judged as it comes (as a CREATE, by the judge), gathered into the report file scans
 * give. A kind whose list expires mid-way is listed again from the start with what its earlier
 * pages added taken back, so no object is counted twice. A kind the cluster does not serve (404)
 * has no objects: it is reported and the scan goes on. Any other failure stops the scan, naming
 * the server, since a report missing a kind would read as a clean cluster.
 */
export async function runClusterScan(options: ClusterScanOptions): Promise<ScanReport> {
  const refs: ObjectRef[] = []
  const judgements: ObjectJudgement[] = []
  const listing = { pageSize: options.pageSize, excludedNamespaces: options.excludedNamespaces, file: options.file, server: options.server }
  for (const target of options.targets) {
    for (let restarts = 0; ; restarts++) {
      const mark = { refs: refs.length, judgements: judgements.length }
      try {
        for await (const page of clusterObjects(options.kubeConfig, target, listing)) {
          const offset = refs.length
          const judged = await judgeObjects(page, options.judge, { onProgress: (done) => options.onProgress?.(offset + done) })
          refs.push(...judged.refs)
          judgements.push(...judged.judgements)
        }
        break
      } catch (error) {
        if (error instanceof ListNotServedError) {
          options.onNotServed?.(error.message)
          break
        }
        if (!(error instanceof ListExpiredError)) throw error
        refs.length = mark.refs
        judgements.length = mark.judgements
        if (restarts >= options.listRestarts) {
          throw new ScanInputError(`cannot read the cluster at ${options.server}: ${error.message}; the list expired ${restarts + 1} times, the cluster changes faster than it can be listed`)
        }
      }
    }
  }
  return scanReport(refs, options.judge.policies, judgements)
}
