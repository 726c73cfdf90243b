import type { ObjectReference, Violation, ViolationAction } from './violation.js'

/** The reason of every Event Verdict writes: `kubectl get events --field-selector reason=PolicyViolation` finds them all. */
export const EVENT_REASON = 'PolicyViolation'

/** The `reportingController` (kubectl describe's "From") of each kind of violation: a qualified name, as events.k8s.io/v1 requires. */
export const REPORTING_CONTROLLERS: Readonly<Record<ViolationAction, string>> = {
  Admission: 'verdict.dev/admission',
  Scan: 'verdict.dev/background-scan',
}

/** The API server refuses a longer note (NoteLengthLimit, counted in bytes). */
export const MAX_NOTE_BYTES = 1024
/** The API server refuses a longer reportingInstance. */
const MAX_INSTANCE_LENGTH = 128
/** A DNS subdomain, as an events.k8s.io/v1 Event's name must be. */
const MAX_NAME_LENGTH = 253

/** An events.k8s.io/v1 Event as Verdict writes it. */
export interface EventsV1Event {
  apiVersion: 'events.k8s.io/v1'
  kind: 'Event'
  metadata: { name: string; namespace: string }
  /** When the first violation was seen (MicroTime). */
  eventTime: string
  /** Present once the violation was seen again: how often, and when last. */
  series?: EventSeriesFields
  reportingController: string
  reportingInstance: string
  action: ViolationAction
  reason: typeof EVENT_REASON
  regarding: ObjectReference
  related?: ObjectReference
  note: string
  type: 'Warning'
}

export interface EventSeriesFields {
  /** At least 2: the first violation and its repeats. */
  count: number
  lastObservedTime: string
}

/**
 * The Event of a violation first seen at `firstMs`; with `series` (a repeat, or an Event written
 * again after the API server let the first expire) it carries the count. `sequence` tells apart
 * the names of Events this process creates in the same millisecond.
 */
export function eventObject(violation: Violation, options: { instance: string; firstMs: number; sequence: number; series?: EventSeriesFields }): EventsV1Event {
  const event: EventsV1Event = {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: eventName(violation.regarding, options.firstMs, options.sequence), namespace: eventNamespace(violation.regarding) },
    eventTime: microTime(options.firstMs),
    reportingController: REPORTING_CONTROLLERS[violation.action],
    reportingInstance: options.instance.slice(0, MAX_INSTANCE_LENGTH),
    action: violation.action,
    reason: EVENT_REASON,
    regarding: violation.regarding,
    note: truncateBytes(violation.note, MAX_NOTE_BYTES),
    type: 'Warning',
  }
  if (violation.related) event.related = violation.related
  if (options.series) event.series = options.series
  return event
}

/** An Event lives in its object's namespace; one about a cluster-scoped object in `default`, as the API server requires. */
export function eventNamespace(regarding: ObjectReference): string {
  return regarding.namespace || 'default'
}

/**
 * `<object name>.<hex>`, as client-go names Events: the object's name made a DNS subdomain (a
 * ClusterRole may be called `system:node`), then a hexadecimal stamp of the time in nanoseconds,
 * whose last digits count the Events named within one millisecond.
 */
export function eventName(regarding: ObjectReference, atMs: number, sequence: number): string {
  const stamp = (BigInt(Math.floor(atMs)) * 1_000_000n + BigInt(sequence % 1_000_000)).toString(16)
  const base = regarding.name
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .slice(0, MAX_NAME_LENGTH - stamp.length - 1)
    .replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '')
  return `${base || 'object'}.${stamp}`
}

/** metav1.MicroTime: RFC 3339 with exactly six fractional digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

/** At most `limit` bytes of UTF-8, the last character an ellipsis when cut, never splitting a character. */
export function truncateBytes(text: string, limit: number): string {
  if (Buffer.byteLength(text) <= limit) return text
  const ellipsis = '\u2026'
  let kept = ''
  let bytes = Buffer.byteLength(ellipsis)
  for (const character of text) {
    const size = Buffer.byteLength(character)
    if (bytes + size > limit) break
    kept += character
    bytes += size
  }
  return `${kept}${ellipsis}`
}
