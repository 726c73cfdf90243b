import { ScanInputError } from '../scan-error.js'

/**
 * Why a cluster could not be read, naming its API server: the network error when nothing
 * answered (connection refused, unknown host, a certificate refused), else the answer's HTTP
 * status and message (listPages puts them in its error). The scan stops with it (exit 2): results
 * missing a kind would read as a clean cluster.
 */
export function clusterReadError(server: string, error: unknown): ScanInputError {
  const message = error instanceof Error ? error.message : String(error)
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined
  return new ScanInputError(typeof code === 'string' ? `cannot reach the cluster at ${server}: ${message}` : `cannot read the cluster at ${server}: ${message}`)
}
