import type { KubeConfig } from '@kubernetes/client-node'
import { kubeRequest } from '../../k8s/kube-request.js'
import { ScanInputError } from '../scan-error.js'
import { clusterReadError } from './cluster-read-error.js'

export type Item = Record<string, unknown>

/**
 * Every object of one custom resource, in one LIST: a cluster holds tens of definitions or
 * exceptions, not the thousands that call for pages. Undefined when the API server does not
 * serve the resource (404: its CRD is not installed); any other refusal stops the scan.
 */
export async function listResource(kubeConfig: KubeConfig, server: string, path: string): Promise<Item[] | undefined> {
  let answer: Awaited<ReturnType<typeof kubeRequest>>
  try {
    answer = await kubeRequest(kubeConfig, 'GET', path)
  } catch (error) {
    throw clusterReadError(server, error)
  }
  if (answer.status === 404) return undefined
  const list = isRecord(answer.body) ? answer.body : undefined
  if (answer.status !== 200) {
    const message = typeof list?.message === 'string' ? `: ${list.message}` : ''
    throw new ScanInputError(`cannot read the cluster at ${server}: listing ${path}: HTTP ${answer.status}${message}`)
  }
  return (Array.isArray(list?.items) ? list.items : []).filter(isRecord)
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
