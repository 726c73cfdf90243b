import type { KubeConfig } from '@kubernetes/client-node'
import { kubeRequest, type KubeResponse } from '../k8s/kube-request.js'
import type { EventSeriesFields, EventsV1Event } from './event-object.js'
import type { EventSink } from './event-sink.js'

/** An API server that does not answer must not hold the one writer (and every Event queued behind it) for long. */
const WRITE_TIMEOUT_MS = 10_000

/**
 * Events through events.k8s.io/v1: POST to create, a merge patch of `series` for repeats. The
 * KubeConfig comes from the controller, which loaded the client: this file loads nothing.
 */
export class KubeEventSink implements EventSink {
  readonly #kubeConfig: KubeConfig

  constructor(kubeConfig: KubeConfig) {
    this.#kubeConfig = kubeConfig
  }

  async create(event: EventsV1Event): Promise<'created' | 'exists'> {
    const response = await kubeRequest(this.#kubeConfig, 'POST', collection(event.metadata.namespace), {}, event, { timeoutMs: WRITE_TIMEOUT_MS })
    if (response.status === 201 || response.status === 200) return 'created'
    if (response.status === 409) return 'exists'
    throw failure('creating', event.metadata.namespace, event.metadata.name, response)
  }

  async patchSeries(namespace: string, name: string, series: EventSeriesFields): Promise<'patched' | 'gone'> {
    const response = await kubeRequest(this.#kubeConfig, 'PATCH', `${collection(namespace)}/${encodeURIComponent(name)}`, {}, { series }, { contentType: 'application/merge-patch+json', timeoutMs: WRITE_TIMEOUT_MS })
    if (response.status === 200) return 'patched'
    if (response.status === 404) return 'gone'
    throw failure('patching', namespace, name, response)
  }
}

function collection(namespace: string): string {
  return `/apis/events.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/events`
}

function failure(doing: string, namespace: string, name: string, response: KubeResponse): Error {
  const body = response.body as { message?: unknown } | undefined
  const message = typeof body?.message === 'string' ? `: ${body.message}` : ''
  return new Error(`${doing} Event ${namespace}/${name} answered HTTP ${response.status}${message}`)
}
