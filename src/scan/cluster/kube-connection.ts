import { KubeConfig } from '@kubernetes/client-node'
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
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
  /** $KUBECONFIG, $HOME and $KUBERNETES_SERVICE_HOST are read from here (default the process's environment). */
  env?: Readonly<Record<string, string | undefined>>
  /** A relative --kubeconfig or $KUBECONFIG entry names a file below it (default the process's working directory). */
  cwd?: string
}

/** Reads the kubeconfig as kubectl would; a missing file, context or cluster is bad input. */
export function kubeConnection(options: KubeConnectionOptions): KubeConnection {
  const kubeConfig = new KubeConfig()
  const env = options.env ?? process.env
  const cwd = options.cwd ?? process.cwd()
  const source = options.file ?? (env.KUBECONFIG ? `$KUBECONFIG (${env.KUBECONFIG})` : '~/.kube/config')
  // The files KubeConfig.loadFromDefault would read, found in the given environment rather than the process's.
  const files = options.file !== undefined ? [options.file] : env.KUBECONFIG ? env.KUBECONFIG.split(delimiter).filter((file) => file !== '') : []
  const homeConfig = join(env.HOME || homedir(), '.kube', 'config')
  if (files.length === 0 && existsSync(homeConfig)) files.push(homeConfig)
  // Without any kubeconfig the client falls back to http://localhost:8080, which would only fail later and less clearly.
  if (files.length === 0 && !env.KUBERNETES_SERVICE_HOST) {
    throw new ScanInputError('no kubeconfig: give --kubeconfig <file>, set $KUBECONFIG or write ~/.kube/config')
  }
  try {
    const [first, ...more] = files.map((file) => resolve(cwd, file))
    // In a pod: its own service account (server from the pod's environment, token from its file system).
    if (first === undefined) kubeConfig.loadFromCluster()
    else kubeConfig.loadFromFile(first)
    // A $KUBECONFIG list merged as KubeConfig.loadFromDefault merges it.
    for (const file of more) {
      const next = new KubeConfig()
      next.loadFromFile(file)
      kubeConfig.mergeConfig(next)
    }
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
