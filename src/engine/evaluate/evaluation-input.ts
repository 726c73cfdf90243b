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

/** What one evaluation judges: JSON values as they arrive (numbers are plain JavaScript numbers). */
export interface EvaluationInput {
  object: unknown
  oldObject?: unknown
  request?: EvaluationRequest
  /** The resource's Namespace object; its labels serve namespaceSelector and CEL `namespaceObject`. */
  namespaceObject?: unknown
}
