import { CoreV1Api, type KubeConfig, type V1Namespace } from '@kubernetes/client-node'
import type { NamespaceSource } from '../admission/namespace-source.js'
import type { Backoff, ControllerLogger } from './controller-logger.js'
import { plainJson } from './plain-json.js'
import { RestartingInformer } from './restarting-informer.js'

const NAMESPACE_TYPE = { apiVersion: 'v1', kind: 'Namespace' }

/**
 * Every Namespace of the cluster, kept by an informer, for `namespaceSelector` and
 * `namespaceObject` in admission. Each replica runs one (they all serve the webhook).
 *
 * The objects are kept as plain JSON: the typed list returns class instances with Date fields,
 * the watch raw JSON, and CEL must see the same `namespaceObject` either way.
 */
export class NamespaceInformer implements NamespaceSource {
  readonly #informer: RestartingInformer<V1Namespace>
  readonly #namespaces = new Map<string, Record<string, unknown>>()

  constructor(options: { kubeConfig: KubeConfig; logger: ControllerLogger; backoff: Backoff }) {
    const api = options.kubeConfig.makeApiClient(CoreV1Api)
    this.#informer = new RestartingInformer<V1Namespace>({
      kubeConfig: options.kubeConfig,
      path: '/api/v1/namespaces',
      list: () => api.listNamespace(),
      what: 'namespaces',
      logger: options.logger,
      backoff: options.backoff,
      onEvent: (event, namespace) => {
        const name = namespace.metadata?.name
        if (name === undefined) return
        if (event === 'delete') this.#namespaces.delete(name)
        else this.#namespaces.set(name, plainJson(namespace, NAMESPACE_TYPE))
      },
    })
  }

  get(name: string): Record<string, unknown> | undefined {
    return this.#namespaces.get(name)
  }

  start(): void {
    this.#informer.start()
  }

  stop(): Promise<void> {
    return this.#informer.stop()
  }

  synced(): boolean {
    return this.#informer.synced()
  }

  whenSynced(): Promise<void> {
    return this.#informer.whenSynced()
  }
}
