import type { EventSeriesFields, EventsV1Event } from './event-object.js'

/**
 * Where Events are written: the API server (kube-event-sink.ts). `exists` is a name taken
 * (another replica named an Event in the same nanosecond); `gone` an Event the API server no
 * longer has (its TTL, an hour by default, passed). Any other failure throws.
 */
export interface EventSink {
  create(event: EventsV1Event): Promise<'created' | 'exists'>
  patchSeries(namespace: string, name: string, series: EventSeriesFields): Promise<'patched' | 'gone'>
}
