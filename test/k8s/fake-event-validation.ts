/**
 * What the API server checks of an events.k8s.io/v1 Event (k8s.io/kubernetes
 * pkg/apis/core/validation/events.go, ValidateEventCreate and ValidateEventUpdate for requests of
 * that group), so the fake refuses what a real cluster would: a 422 listing each field at fault.
 * No test framework imports here: fake-kube-api.ts, which bench scripts compile, imports it.
 */

type Json = Record<string, unknown>

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const QUALIFIED_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/
const MICRO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}(Z|[+-]\d{2}:\d{2})$/
/** The fields of events.k8s.io/v1 Event; the real server drops (or, with strict field validation, refuses) others. */
const FIELDS = new Set([
  'apiVersion',
  'kind',
  'metadata',
  'eventTime',
  'series',
  'reportingController',
  'reportingInstance',
  'action',
  'reason',
  'regarding',
  'related',
  'note',
  'type',
  'deprecatedSource',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
])
const REFERENCE_FIELDS = new Set(['apiVersion', 'kind', 'name', 'namespace', 'uid', 'resourceVersion', 'fieldPath'])
/** What an update may not change (series and metadata may). */
const IMMUTABLE = ['regarding', 'reason', 'note', 'deprecatedSource', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'deprecatedCount', 'type', 'eventTime', 'action', 'related', 'reportingController', 'reportingInstance']

/** The problems of an Event created in `namespace`; none: valid. */
export function eventCreateProblems(event: Json, namespace: string | undefined): string[] {
  const problems = [...commonProblems(event, namespace), ...seriesProblems(event)]
  const metadata = (event.metadata ?? {}) as Json
  const name = String(metadata.name ?? '')
  if (name.length > 253 || !DNS_SUBDOMAIN.test(name)) problems.push(`metadata.name: Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'`)
  if (!isMicroTime(event.eventTime)) problems.push('eventTime: Required value')
  if (event.type !== 'Normal' && event.type !== 'Warning') problems.push(`type: Invalid value: "": has invalid value: ${String(event.type)}`)
  for (const field of ['deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'deprecatedCount', 'deprecatedSource']) {
    if (event[field] !== undefined) problems.push(`${field}: Invalid value: needs to be unset`)
  }
  return problems
}

/** The problems of `next` replacing `current` (a PUT or the result of a PATCH). */
export function eventUpdateProblems(next: Json, current: Json, namespace: string | undefined): string[] {
  const problems = commonProblems(next, namespace)
  if (JSON.stringify(next.series) !== JSON.stringify(current.series)) problems.push(...seriesProblems(next))
  for (const field of IMMUTABLE) {
    if (JSON.stringify(next[field]) !== JSON.stringify(current[field])) problems.push(`${field}: Invalid value: field is immutable`)
  }
  return problems
}

function commonProblems(event: Json, namespace: string | undefined): string[] {
  const problems: string[] = []
  for (const field of Object.keys(event)) if (!FIELDS.has(field)) problems.push(`${field}: unknown field`)
  const regarding = (event.regarding ?? {}) as Json
  for (const [field, reference] of [['regarding', event.regarding], ['related', event.related]] as const) {
    if (reference === undefined) continue
    if (typeof reference !== 'object' || reference === null) problems.push(`${field}: must be an object`)
    else for (const key of Object.keys(reference)) if (!REFERENCE_FIELDS.has(key)) problems.push(`${field}.${key}: unknown field`)
  }
  if (!regarding.namespace && namespace !== 'default' && namespace !== 'kube-system') {
    problems.push(`regarding.namespace: Invalid value: "": does not match event.namespace`)
  }
  const controller = String(event.reportingController ?? '')
  if (controller === '') problems.push('reportingController: Required value')
  else if (!QUALIFIED_NAME.test(controller)) problems.push(`reportingController: Invalid value: "${controller}": must be a qualified name`)
  const instance = String(event.reportingInstance ?? '')
  if (instance === '') problems.push('reportingInstance: Required value')
  if (instance.length > 128) problems.push('reportingInstance: can have at most 128 characters')
  const action = String(event.action ?? '')
  if (action === '') problems.push('action: Required value')
  if (action.length > 128) problems.push('action: can have at most 128 characters')
  const reason = String(event.reason ?? '')
  if (reason === '') problems.push('reason: Required value')
  if (reason.length > 128) problems.push('reason: can have at most 128 characters')
  if (Buffer.byteLength(String(event.note ?? '')) > 1024) problems.push('note: can have at most 1024 characters')
  return problems
}

function seriesProblems(event: Json): string[] {
  if (event.series === undefined) return []
  const series = event.series as Json
  const problems: string[] = []
  if (!(typeof series.count === 'number' && series.count >= 2)) problems.push('series.count: should be at least 2')
  if (!isMicroTime(series.lastObservedTime)) problems.push('series.lastObservedTime: Required value')
  return problems
}

function isMicroTime(value: unknown): boolean {
  return typeof value === 'string' && MICRO_TIME.test(value)
}
