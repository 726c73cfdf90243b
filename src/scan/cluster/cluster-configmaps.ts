import type { KubeConfig, V1ConfigMap } from '@kubernetes/client-node'
import type { ClusterData } from '../../engine/index.js'
import { keptJson, type ConfigMapCacheSettings } from '../../k8s/configmap-informer.js'
import type { KubeObject } from '../background/paged-list.js'
import type { ScanTarget } from '../background/scan-targets.js'
import { readWholeList } from './read-whole-list.js'

const CONFIGMAPS: ScanTarget = { group: '', version: 'v1', resource: 'configmaps' }

export interface ClusterConfigMaps {
  data: ClusterData
  /** `namespace/name` of the selected ConfigMaps left out by the bounds, with why. */
  leftOut: string[]
}

/**
 * The cluster's context ConfigMaps as the controller's cache keeps them (the same label selector,
 * the same per-ConfigMap and total bounds, in namespace/name order), read once before the scan,
 * so that Kyverno `configMap` context entries judge as in the controller's background scan.
 */
export async function readClusterConfigMaps(
  kubeConfig: KubeConfig,
  server: string,
  options: { pageSize: number; listRestarts: number; settings: ConfigMapCacheSettings },
): Promise<ClusterConfigMaps> {
  const { settings } = options
  let kept = new Map<string, Record<string, unknown>>()
  let leftOut: string[] = []
  let total = 0
  await readWholeList(kubeConfig, server, CONFIGMAPS, { ...options, labelSelector: settings.selector }, () => {
    kept = new Map()
    leftOut = []
    total = 0
    return (item) => {
      const object = keptJson(item as V1ConfigMap)
      const metadata = (object.metadata ?? {}) as KubeObject
      const key = `${String(metadata.namespace ?? '')}/${String(metadata.name ?? '')}`
      const bytes = JSON.stringify(object).length
      if (bytes > settings.maxBytes) leftOut.push(`${key}: ${bytes} bytes, over the ${settings.maxBytes} a ConfigMap may take`)
      else if (total + bytes > settings.cacheBytes) leftOut.push(`${key}: no room left in the ${settings.cacheBytes} bytes of all ConfigMaps`)
      else {
        kept.set(key, object)
        total += bytes
      }
    }
  })
  return { data: { configMap: (namespace, name) => kept.get(`${namespace}/${name}`) }, leftOut }
}
