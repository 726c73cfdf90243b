import type { Operation } from '../engine/index.js'

/** The only AdmissionReview version the webhook speaks (the chart registers `admissionReviewVersions: [v1]`). */
export const ADMISSION_API_VERSION = 'admission.k8s.io/v1'
export const ADMISSION_KIND = 'AdmissionReview'

export interface GroupVersionKindRef {
  group: string
  version: string
  kind: string
}

export interface AdmissionUserInfo {
  username?: string
  uid?: string
  groups?: string[]
  extra?: Record<string, string[]>
}

export interface GroupVersionResourceRef {
  group: string
  version: string
  resource: string
}

/** The part of an admission.k8s.io/v1 AdmissionRequest the webhook reads, checked by parseAdmissionReview. */
export interface AdmissionRequest {
  uid: string
  kind: GroupVersionKindRef
  /** The resource requested (the API server always sends it; a hand-made review may not). */
  resource?: GroupVersionResourceRef
  operation: Operation
  name?: string
  /** '' or absent for cluster-scoped resources; a Namespace's own name for Namespace requests. */
  namespace?: string
  subResource?: string
  userInfo?: AdmissionUserInfo
  /** A JSON object, or absent/null (DELETE, some CONNECT). */
  object?: Record<string, unknown> | null
  oldObject?: Record<string, unknown> | null
  dryRun?: boolean
}

export interface AdmissionReviewRequest {
  apiVersion: typeof ADMISSION_API_VERSION
  kind: typeof ADMISSION_KIND
  request: AdmissionRequest
}

export interface AdmissionResponseStatus {
  code: number
  message: string
}

export interface AdmissionResponse {
  uid: string
  allowed: boolean
  status?: AdmissionResponseStatus
  warnings?: string[]
  auditAnnotations?: Record<string, string>
}

export interface AdmissionReviewResponse {
  apiVersion: typeof ADMISSION_API_VERSION
  kind: typeof ADMISSION_KIND
  response: AdmissionResponse
}
