/**
 * A Kubernetes object listed from a cluster's API server (`verdict scan --cluster`). It has no file
 * or line: `file` names the cluster (`cluster:<context>`) where the outputs show a file, and
 * `source` tells the outputs to locate it by its resource name instead.
 */
export interface ClusterObject {
  source: 'cluster'
  /** `cluster:<context>`, or `cluster:<server>` for a kubeconfig without contexts. */
  file: string
  apiVersion: string
  kind: string
  namespace: string | null
  name: string | null
  value: Record<string, unknown>
}

/** What results call the cluster an object was listed from. */
export function clusterFile(contextOrServer: string): string {
  return `cluster:${contextOrServer}`
}
