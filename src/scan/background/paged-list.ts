import type { KubeConfig } from '@kubernetes/client-node'
import { kubeRequest } from '../../k8s/kube-request.js'
import { listPath, type ScanTarget } from './scan-targets.js'

export type KubeObject = Record<string, unknown>

/** The API server no longer has the snapshot a continue token points into (410 Gone): the list must start over. */
export class ListExpiredError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ListExpiredError'
  }
}

/** The API server does not serve the resource (404 on its first page): a kind whose CRD is not installed has no objects to judge. */
export class ListNotServedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ListNotServedError'
  }
}

/**
 * Lists a target page by page (`limit`/`continue`), yielding each page's objects and holding no
 * more than one page: a cluster of a hundred thousand Pods is read in pages of `pageSize`. Items
 * of a list lack apiVersion and kind (the API server writes them once, on the list), so each is
 * given the list's. A 410 Gone for a continue token throws ListExpiredError, a 404 for the first
 * page ListNotServedError; other failures throw an Error naming the status and the server's message.
 */
export async function* listPages(kubeConfig: KubeConfig, target: ScanTarget, pageSize: number, labelSelector?: string): AsyncGenerator<KubeObject[]> {
  const path = listPath(target)
  const apiVersion = target.group === '' ? target.version : `${target.group}/${target.version}`
  let token: string | undefined
  do {
    const query: Record<string, string> = { limit: String(pageSize) }
    if (labelSelector !== undefined) query.labelSelector = labelSelector
    if (token !== undefined) query.continue = token
    const { status, body } = await kubeRequest(kubeConfig, 'GET', path, query)
    if (status === 410 && token !== undefined) throw new ListExpiredError(`listing ${path}: ${messageOf(body) ?? 'the continue token expired'}`)
    if (status === 404 && token === undefined) throw new ListNotServedError(`${path} is not served by the API server (404)`)
    if (status !== 200) throw new Error(`listing ${path}: HTTP ${status}${messageOf(body) ? `: ${messageOf(body)}` : ''}`)
    const list = asObject(body)
    const items = Array.isArray(list?.items) ? (list.items as unknown[]) : []
    const kind = typeof list?.kind === 'string' && list.kind.endsWith('List') ? list.kind.slice(0, -'List'.length) : undefined
    const next = asObject(list?.metadata)?.continue
    token = typeof next === 'string' && next !== '' ? next : undefined
    // Items are moved out of the list, so that the consumer, not this suspended generator, decides when they go.
    const page: KubeObject[] = []
    for (let index = 0; index < items.length; index++) {
      const object = asObject(items[index])
      items[index] = undefined
      if (object) page.push(Object.assign(object, { apiVersion: object.apiVersion ?? apiVersion, kind: object.kind ?? kind }))
    }
    yield page
  } while (token !== undefined)
}

function messageOf(body: unknown): string | undefined {
  const message = asObject(body)?.message
  return typeof message === 'string' ? message : undefined
}

function asObject(value: unknown): KubeObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as KubeObject) : undefined
}
