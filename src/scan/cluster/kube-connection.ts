import { KubeConfig } from '@kubernetes/client-node'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { ScanInputError } from '../scan-error.js'

/** A kubeconfig with its current context chosen, and what results and messages call its cluster. */
export interface KubeConnection {
  kubeConfig: KubeConfig
  /** The current context's name, or the server's URL when the kubeconfig names none. */
  name: string
  /** The API server's URL, which every message about reaching the cluster names. */
  server: string
}

export interface KubeConnectionOptions {
  /** --kubeconfig; without it $KUBECONFIG, then ~/.kube/config, as kubectl reads them. */
  file?: string
  /** --context; without it the kubeconfig's current context. */
  context?: string
}

/** Reads the kubeconfig as kubectl would; a missing file, context or cluster is bad input. */
export function kubeConnection(options: KubeConnectionOptions): KubeConnection {
  const kubeConfig = new KubeConfig()
  const source = options.file ?? (process.env.KUBECONFIG ? `$KUBECONFIG (${process.env.KUBECONFIG})` : '~/.kube/config')
  // Without any kubeconfig the client falls back to http://localhost:8080, which would only fail later and less clearly.
  if (options.file === undefined && !process.env.KUBECONFIG && !process.env.KUBERNETES_SERVICE_HOST && !existsSync(join(homedir(), '.kube', 'config'))) {
    throw new ScanInputError('no kubeconfig: give --kubeconfig <file>, set $KUBECONFIG or write ~/.kube/config')
  }
  try {
    if (options.file !== undefined) kubeConfig.loadFromFile(options.file)
    else kubeConfig.loadFromDefault()
  } catch (error) {
    throw new ScanInputError(`${source}: cannot read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
  }
  if (options.context !== undefined) {
    if (!kubeConfig.getContextObject(options.context)) {
      const known = kubeConfig.getContexts().map((context) => context.name)
      throw new ScanInputError(`${source} has no context "${options.context}"${known.length > 0 ? ` (it has ${known.join(', ')})` : ''}`)
    }
    kubeConfig.setCurrentContext(options.context)
  }
  const cluster = kubeConfig.getCurrentCluster()
  if (!cluster) throw new ScanInputError(`${source}: the current context names no cluster (give --context <name>)`)
  return { kubeConfig, name: kubeConfig.getCurrentContext() || cluster.server, server: cluster.server }
}
