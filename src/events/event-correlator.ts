import { createHash } from 'node:crypto'
import { RateLimiter } from '../api/rate-limit.js'
import type { ObjectReference, Violation } from './violation.js'

export interface CorrelatorSettings {
  /**
   * A violation seen again within this long of its last sighting counts on the same Event; after
   * a quiet spell this long, it starts a new one. Also the span over which similar notes are counted.
   */
  windowMs: number
  /** Different notes one object gets for one rule within the window before further ones are combined. */
  maxSimilar: number
  /** New Events one object may get at once from one source, admission or scans (client-go's spam filter: 25)... */
  objectBurst: number
  /** ...and how many more per second after that (client-go: one per 5 minutes). */
  objectPerSecond: number
  /** Events, similar-note groups and object buckets remembered, each; the least recently used go first. */
  maxEntries: number
}

export const DEFAULT_CORRELATOR_SETTINGS: CorrelatorSettings = {
  windowMs: 10 * 60_000,
  maxSimilar: 10,
  objectBurst: 25,
  objectPerSecond: 1 / 300,
  maxEntries: 4096,
}

/** The prefix of a combined Event's note, as client-go's aggregator words it. */
export const COMBINED_PREFIX = '(combined from similar events): '

/** One Event and the violations counted on it. */
export interface EventSeries {
  readonly key: string
  /** The violation the Event is created from: its note (combined or not) is final, as the API server keeps notes immutable. */
  readonly violation: Violation
  readonly firstMs: number
  /** Violations counted on the Event, the first included. */
  count: number
  lastMs: number
  /** Set once the Event exists: its namespace and name. */
  written?: { namespace: string; name: string }
  /** The count the Event last received. */
  writtenCount: number
  /** A patch of this series waits in the write queue. */
  patchQueued: boolean
  /** Replaced (its window passed, or it was forgotten): counts and writes no longer concern it. */
  retired: boolean
}

export type Observation = { series: EventSeries; isNew: boolean } | { dropped: 'rate-limited' }

interface SimilarGroup {
  startMs: number
  /** Digests of the notes that have Events of their own in this window. */
  notes: Set<string>
}

/**
 * Which Event a violation counts on, after client-go's EventCorrelator (k8s.io/client-go
 * tools/record) adapted to events.k8s.io/v1, whose notes cannot change:
 * - the same violation (object, related object, action, note) within `windowMs` of its last
 *   sighting adds to its series;
 * - one object's violations of one rule with different notes (the CREATE denials a Policy
 *   resource hears of, one per object) each get an Event up to `maxSimilar` in a window, and the
 *   rest count on one combined Event, its note `(combined from similar events): <the first>`;
 * - a new Event takes a token from the bucket of its object and source (`objectBurst`, then
 *   `objectPerSecond`), or the violation is dropped.
 * Everything it remembers is bounded by `maxEntries`.
 */
export class EventCorrelator {
  readonly #settings: CorrelatorSettings
  readonly #series = new Map<string, EventSeries>()
  readonly #similar = new Map<string, SimilarGroup>()
  readonly #objects: RateLimiter
  /** Hears of violations counted but never written, when a series is pushed out of memory or replaced before a patch could carry them. */
  readonly #onLost: (violations: number) => void

  constructor(settings: CorrelatorSettings, now: () => number, onLost: (violations: number) => void) {
    this.#settings = settings
    this.#objects = new RateLimiter({ rate: settings.objectPerSecond, burst: settings.objectBurst, maxBuckets: settings.maxEntries, now })
    this.#onLost = onLost
  }

  observe(violation: Violation, nowMs: number): Observation {
    const similarKey = digest([violation.action, referenceKey(violation.regarding), violation.rule])
    const own = this.#ownNote(similarKey, violation.note, nowMs)
    const key = own ? digest([similarKey, referenceKey(violation.related), violation.note]) : `${similarKey}:combined`
    const existing = touch(this.#series, key)
    if (existing && nowMs - existing.lastMs <= this.#settings.windowMs) {
      existing.count += 1
      existing.lastMs = Math.max(existing.lastMs, nowMs)
      return { series: existing, isNew: false }
    }
    if (existing) {
      this.#series.delete(key)
      this.#retire(existing)
    }
    if (!this.#objects.take(`${violation.action}\u0000${referenceKey(violation.regarding)}`).allowed) return { dropped: 'rate-limited' }
    const recorded = own ? violation : combined(violation)
    const series: EventSeries = { key, violation: recorded, firstMs: nowMs, count: 1, lastMs: nowMs, writtenCount: 0, patchQueued: false, retired: false }
    this.#series.set(key, series)
    for (const pushedOut of this.#series.values()) {
      if (this.#series.size <= this.#settings.maxEntries) break
      this.#series.delete(pushedOut.key)
      this.#retire(pushedOut)
    }
    return { series, isNew: true }
  }

  /** Drops a series: its Event could not be written, or is gone. The next violation starts a new one. */
  forget(series: EventSeries): void {
    series.retired = true
    if (this.#series.get(series.key) === series) this.#series.delete(series.key)
  }

  /** Written series with violations their Event has not received yet, least recently seen first. */
  due(): EventSeries[] {
    return [...this.#series.values()].filter((series) => series.written !== undefined && !series.patchQueued && series.count > series.writtenCount)
  }

  /** Whether this note gets an Event of its own (rather than the combined one) for its object and rule. */
  #ownNote(similarKey: string, note: string, nowMs: number): boolean {
    let group = touch(this.#similar, similarKey)
    if (!group || nowMs - group.startMs > this.#settings.windowMs) {
      group = { startMs: nowMs, notes: new Set() }
      this.#similar.set(similarKey, group)
      for (const oldest of this.#similar.keys()) {
        if (this.#similar.size <= this.#settings.maxEntries) break
        this.#similar.delete(oldest)
      }
    }
    const noteKey = digest([note])
    if (group.notes.has(noteKey)) return true
    if (group.notes.size >= this.#settings.maxSimilar) return false
    group.notes.add(noteKey)
    return true
  }

  #retire(series: EventSeries): void {
    series.retired = true
    const unwritten = series.count - series.writtenCount
    if (unwritten > 0) this.#onLost(unwritten)
  }
}

/** The combined Event of an object's similar violations: no related object (each had its own), the first note behind the prefix. */
function combined(violation: Violation): Violation {
  const { related: _related, ...rest } = violation
  return { ...rest, note: `${COMBINED_PREFIX}${violation.note}` }
}

/** The entry, moved to the most recently used end. */
function touch<T>(map: Map<string, T>, key: string): T | undefined {
  const value = map.get(key)
  if (value === undefined) return undefined
  map.delete(key)
  map.set(key, value)
  return value
}

function referenceKey(reference: ObjectReference | undefined): string {
  if (!reference) return ''
  return [reference.apiVersion, reference.kind, reference.namespace ?? '', reference.name, reference.uid ?? ''].join('\u0000')
}

/** Keys stay small whatever the notes hold (up to a kilobyte each, thousands remembered). */
function digest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0001')).digest('base64url')
}
