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
 * Cluster objects a rule's `context` entries may read (Kyverno `configMap` entries). The engine
 * does no I/O: whoever builds the input answers from what it already holds (the controller's
 * cache, a test's values), synchronously; undefined means there is no such object.
 */
export interface ClusterData {
  configMap(namespace: string, name: string): Record<string, unknown> | undefined
}

/** What one evaluation judges: JSON values as they arrive (numbers are plain JavaScript numbers). */
export interface EvaluationInput {
  object: unknown
  oldObject?: unknown
  request?: EvaluationRequest
  /** The resource's Namespace object; its labels serve namespaceSelector and CEL `namespaceObject`. */
  namespaceObject?: unknown
  /** Cluster data for context entries; without it a `configMap` entry finds nothing. */
  cluster?: ClusterData
}
