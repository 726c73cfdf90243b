import type { Operation } from '../engine/index.js'
import {
  ADMISSION_API_VERSION,
  ADMISSION_KIND,
  type AdmissionRequest,
  type AdmissionReviewRequest,
  type AdmissionUserInfo,
  type GroupVersionKindRef,
  type GroupVersionResourceRef,
} from './admission-review.js'

/** Why a body is not an AdmissionReview the webhook can judge; `field` is the JSON path at fault. */
export interface MalformedReview {
  field: string
  details: string
}

export type ParsedReview = { review: AdmissionReviewRequest; malformed?: undefined } | { review?: undefined; malformed: MalformedReview }

const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT']

/** Thrown inside the parser only; parseAdmissionReview turns it into a MalformedReview. */
class Malformed extends Error {
  constructor(
    readonly field: string,
    readonly details: string,
  ) {
    super(details)
  }
}

/**
 * Checks an AdmissionReview body as the Kubernetes API server sends it and keeps what the webhook
 * reads. Only the first problem is reported: a client sending malformed reviews is a bug to fix,
 * not a form to correct field by field, and the first problem is where that bug shows.
 */
export function parseAdmissionReview(body: string): ParsedReview {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch (error) {
    return { malformed: { field: 'body', details: `the body is not JSON: ${error instanceof Error ? error.message : String(error)}` } }
  }
  try {
    return { review: readReview(parsed) }
  } catch (error) {
    if (error instanceof Malformed) return { malformed: { field: error.field, details: error.details } }
    throw error
  }
}

function readReview(value: unknown): AdmissionReviewRequest {
  const review = objectAt(value, 'body', 'must be a JSON object (an AdmissionReview)')
  if (review.apiVersion !== ADMISSION_API_VERSION) {
    throw new Malformed('apiVersion', `apiVersion must be "${ADMISSION_API_VERSION}", got ${describe(review.apiVersion)}`)
  }
  if (review.kind !== ADMISSION_KIND) throw new Malformed('kind', `kind must be "${ADMISSION_KIND}", got ${describe(review.kind)}`)
  return { apiVersion: ADMISSION_API_VERSION, kind: ADMISSION_KIND, request: readRequest(review.request) }
}

function readRequest(value: unknown): AdmissionRequest {
  const request = objectAt(value, 'request', 'must be an object (the AdmissionRequest)')
  const uid = request.uid
  if (typeof uid !== 'string' || uid === '') throw new Malformed('request.uid', `request.uid must be a non-empty string, got ${describe(uid)}`)
  const operation = request.operation
  if (typeof operation !== 'string' || !OPERATIONS.includes(operation as Operation)) {
    throw new Malformed('request.operation', `request.operation must be one of ${OPERATIONS.join(', ')}, got ${describe(operation)}`)
  }
  const result: AdmissionRequest = { uid, kind: readKind(request.kind), operation: operation as Operation }
  if (request.resource !== undefined && request.resource !== null) result.resource = readResource(request.resource)
  const name = optionalString(request.name, 'request.name')
  const namespace = optionalString(request.namespace, 'request.namespace')
  const subResource = optionalString(request.subResource, 'request.subResource')
  if (name !== undefined) result.name = name
  if (namespace !== undefined) result.namespace = namespace
  if (subResource !== undefined) result.subResource = subResource
  if (request.userInfo !== undefined && request.userInfo !== null) result.userInfo = readUserInfo(request.userInfo)
  if (request.dryRun !== undefined && request.dryRun !== null) {
    if (typeof request.dryRun !== 'boolean') throw new Malformed('request.dryRun', `request.dryRun must be a boolean, got ${describe(request.dryRun)}`)
    result.dryRun = request.dryRun
  }
  result.object = optionalObject(request.object, 'request.object')
  result.oldObject = optionalObject(request.oldObject, 'request.oldObject')
  // What each operation must carry to be judged; CONNECT may come without an object and is then skipped.
  if ((operation === 'CREATE' || operation === 'UPDATE') && !result.object) {
    throw new Malformed('request.object', `request.object must be an object for ${operation}, got ${describe(request.object)}`)
  }
  if (operation === 'DELETE' && !result.oldObject) {
    throw new Malformed('request.oldObject', `request.oldObject must be an object for DELETE (the resource being deleted), got ${describe(request.oldObject)}`)
  }
  return result
}

function readKind(value: unknown): GroupVersionKindRef {
  const read = groupVersionReader(value, 'kind')
  return { group: read('group'), version: read('version'), kind: read('kind') }
}

function readResource(value: unknown): GroupVersionResourceRef {
  const read = groupVersionReader(value, 'resource')
  return { group: read('group'), version: read('version'), resource: read('resource') }
}

/** Reads the parts of `request.<name>`, an object {group, version, <name>}: the group may be empty, the others may not. */
function groupVersionReader<Name extends 'kind' | 'resource'>(value: unknown, name: Name): (key: 'group' | 'version' | Name) => string {
  const at = `request.${name}`
  const object = objectAt(value, at, `must be an object {group, version, ${name}}`)
  return (key) => {
    const part = object[key]
    // Go omits empty strings, so the core group arrives as a missing `group`.
    if (part === undefined && key === 'group') return ''
    if (typeof part !== 'string' || (key !== 'group' && part === '')) {
      throw new Malformed(`${at}.${key}`, `${at}.${key} must be ${key === 'group' ? 'a string' : 'a non-empty string'}, got ${describe(part)}`)
    }
    return part
  }
}

function readUserInfo(value: unknown): AdmissionUserInfo {
  const info = objectAt(value, 'request.userInfo', 'must be an object')
  const result: AdmissionUserInfo = {}
  const username = optionalString(info.username, 'request.userInfo.username')
  const uid = optionalString(info.uid, 'request.userInfo.uid')
  if (username !== undefined) result.username = username
  if (uid !== undefined) result.uid = uid
  if (info.groups !== undefined && info.groups !== null) {
    if (!Array.isArray(info.groups) || !info.groups.every((group) => typeof group === 'string')) {
      throw new Malformed('request.userInfo.groups', `request.userInfo.groups must be an array of strings, got ${describe(info.groups)}`)
    }
    result.groups = info.groups as string[]
  }
  if (isObject(info.extra)) result.extra = info.extra as Record<string, string[]>
  return result
}

function objectAt(value: unknown, field: string, what: string): Record<string, unknown> {
  if (!isObject(value)) throw new Malformed(field, `${field} ${what}, got ${describe(value)}`)
  return value
}

/** Go's encoder writes absent optional strings as nothing or, from some clients, null. */
function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new Malformed(field, `${field} must be a string, got ${describe(value)}`)
  return value
}

function optionalObject(value: unknown, field: string): Record<string, unknown> | null {
  if (value === undefined || value === null) return null
  if (!isObject(value)) throw new Malformed(field, `${field} must be a JSON object or null, got ${describe(value)}`)
  return value
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A short, safe rendering of a wrong value for an error message. */
function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'object') return 'an object'
  const text = JSON.stringify(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}
