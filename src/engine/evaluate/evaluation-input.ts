import type { Operation } from '../model/match.js'

export interface UserInfo {
  username?: string
  uid?: string
  groups?: string[]
  extra?: Record<string, string[]>
}

/** The admission request around a resource; every field is optional outside admission. */
export interface EvaluationRequest {
  uid?: string
  operation?: Operation
  userInfo?: UserInfo
  namespace?: string
  name?: string
  dryRun?: boolean
  subResource?: string
}

/**
 * Cluster objects and image metadata an evaluation may read: Kyverno `configMap` context entries
 * and the CEL `resource` and `image` libraries. The engine does no I/O: whoever builds the input
 * answers from what it already holds (the controller's cache, a test's context file),
 * synchronously; undefined means there is no such object. Objects are JSON as the API server
 * serves them, and are not modified by the engine.
 *
 * Only `configMap` is required. Without `resource`, CEL `resource.Get` of `v1` `configmaps` asks
 * `configMap`, and any other lookup is an evaluation error saying the cluster data cannot answer it.
 */
export interface ClusterData {
  configMap(namespace: string, name: string): Record<string, unknown> | undefined
  /**
   * One object: `apiVersion` as manifests write it (`v1`, `apps/v1`), `resource` the lower-case
   * plural (`configmaps`), `namespace` '' for a cluster-scoped object.
   */
  resource?(apiVersion: string, resource: string, namespace: string, name: string): Record<string, unknown> | undefined
  /**
   * The objects of a resource in a namespace, in a stable order (`namespace` '': what a list
   * without a namespace returns). Undefined when the resource type itself is unknown, which
   * Kyverno reports as an error; an empty list when there are none.
   */
  resources?(apiVersion: string, resource: string, namespace: string): readonly Record<string, unknown>[] | undefined
  /**
   * What Kyverno's `image.GetMetadata(reference)` returns for an image: `{image, resolvedImage,
   * registry, repository, tag?, digest?, imageIndex?, manifest?, config?}` with the OCI manifest
   * and config file as JSON. Undefined when nothing is known of the image.
   */
  imageMetadata?(reference: string): Record<string, unknown> | undefined
}

/** What one evaluation judges: JSON values as they arrive (numbers are plain JavaScript numbers). */
export interface EvaluationInput {
  object: unknown
  oldObject?: unknown
  request?: EvaluationRequest
  /** The resource's Namespace object; its labels serve namespaceSelector and CEL `namespaceObject`. */
  namespaceObject?: unknown
  /** Cluster data for context entries and CEL `resource`/`image`; without it a `configMap` entry finds nothing and those CEL calls err. */
  cluster?: ClusterData
}
