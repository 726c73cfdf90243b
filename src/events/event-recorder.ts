import { RateLimiter } from '../api/rate-limit.js'
import { DEFAULT_CORRELATOR_SETTINGS, EventCorrelator, type CorrelatorSettings, type EventSeries } from './event-correlator.js'
import { eventObject, microTime } from './event-object.js'
import type { EventSink } from './event-sink.js'
import type { Violation } from './violation.js'

export interface EventRecorderSettings extends CorrelatorSettings {
  /**
   * Event writes (creates and patches) this replica makes at once for one source, admission or
   * background scans (each has a bucket of its own, so a scan finding a thousand violations cannot
   * silence the webhook's Events)...
   */
  globalBurst: number
  /** ...and per second after that, whatever the objects. */
  globalPerSecond: number
  /** Writes waiting for the API server; a violation that would need one more is dropped. */
  maxQueued: number
  /** How often the repeats counted since are patched onto their Events (0: only on flush(), for tests). */
  flushEveryMs: number
}

/** How long close() lets the last writes take. */
const CLOSE_GRACE_MS = 5_000

export const DEFAULT_EVENT_RECORDER_SETTINGS: EventRecorderSettings = {
  ...DEFAULT_CORRELATOR_SETTINGS,
  globalBurst: 100,
  globalPerSecond: 10,
  maxQueued: 1000,
  flushEveryMs: 10_000,
}

/**
 * Why a violation is on no Event: a rate limit (its object's or the global one), a full queue, a
 * write the API server refused or did not answer, or repeats not yet written when their series was
 * pushed out of memory (or replaced after its window, the global limit having held its patches back),
 * or the service stopping (violations after close(), writes still queued when the API server was
 * too slow to take them).
 */
export type DropReason = 'rate-limited' | 'queue-full' | 'write-failed' | 'evicted' | 'shutdown'

export type EventReport = { type: 'written'; write: 'create' | 'patch' } | { type: 'dropped'; reason: DropReason; violations: number }

export interface EventRecorderOptions {
  sink: EventSink
  /** reportingInstance: which replica wrote the Event (the pod name). */
  instance: string
  /** Milliseconds since the epoch: Event times, windows and rate limits all follow it (tests move it). */
  now?: () => number
  settings?: Partial<EventRecorderSettings>
  /** Metrics: every write made and every violation dropped. */
  onReport?: (report: EventReport) => void
  /** Hears of failed writes (already counted as dropped), to log. */
  onWriteError?: (error: unknown) => void
}

type Write = { kind: 'create'; series: EventSeries } | { kind: 'patch'; series: EventSeries }

/**
 * Records violations as Kubernetes Events without ever making an admission review (or a scan)
 * wait for the API server. `record` correlates and queues synchronously; one writer sends the
 * queue in order. A new Event is created as soon as the writer gets to it; repeats only raise the
 * series' count in memory, and every `flushEveryMs` each Event with new repeats is patched once,
 * so a thousand denials of one object make one create and one patch. Creates and patches take a
 * token of their source's global bucket; a create without one is dropped, a patch waits for the
 * next flush (the count keeps growing meanwhile, nothing is lost). The queue holds at most `maxQueued`
 * writes, the correlator a bounded number of series: memory cannot grow without bound.
 */
export class EventRecorder {
  readonly #sink: EventSink
  readonly #instance: string
  readonly #now: () => number
  readonly #settings: EventRecorderSettings
  readonly #correlator: EventCorrelator
  readonly #global: RateLimiter
  readonly #report: (report: EventReport) => void
  readonly #onWriteError: (error: unknown) => void
  readonly #queue: Write[] = []
  #draining: Promise<void> | undefined
  #timer: NodeJS.Timeout | undefined
  #sequence = 0
  #closed = false
  /** close() gave up waiting: nothing more is queued (a flush still running must not start new writes). */
  #abandoned = false

  constructor(options: EventRecorderOptions) {
    this.#sink = options.sink
    this.#instance = options.instance
    this.#now = options.now ?? Date.now
    this.#settings = { ...DEFAULT_EVENT_RECORDER_SETTINGS, ...options.settings }
    this.#report = options.onReport ?? (() => {})
    this.#onWriteError = options.onWriteError ?? (() => {})
    this.#correlator = new EventCorrelator(this.#settings, this.#now, (violations) => this.#report({ type: 'dropped', reason: 'evicted', violations }))
    this.#global = new RateLimiter({ rate: this.#settings.globalPerSecond, burst: this.#settings.globalBurst, maxBuckets: 2, now: this.#now })
    if (this.#settings.flushEveryMs > 0) {
      this.#timer = setInterval(() => this.#queuePatches(), this.#settings.flushEveryMs)
      this.#timer.unref()
    }
  }

  /** Counts the violation on its Event, or queues the Event's creation; never waits, never throws. */
  record(violation: Violation): void {
    if (this.#closed) return this.#dropped('shutdown', 1)
    const observed = this.#correlator.observe(violation, this.#now())
    if ('dropped' in observed) return this.#dropped(observed.dropped, 1)
    if (!observed.isNew) return
    const { series } = observed
    if (!this.#global.take(series.violation.action).allowed) {
      this.#correlator.forget(series)
      return this.#dropped('rate-limited', 1)
    }
    if (this.#queue.length >= this.#settings.maxQueued) {
      this.#correlator.forget(series)
      return this.#dropped('queue-full', 1)
    }
    this.#enqueue({ kind: 'create', series })
  }

  /** Waits for the queued writes, then patches every Event with new repeats now (as a flush tick would) and waits for those. */
  async flush(): Promise<void> {
    await this.#idle()
    this.#queuePatches()
    await this.#idle()
  }

  /**
   * Takes no more violations, stops the flush timer and writes what was counted (as far as the rate
   * allows), for at most `graceMs`: an API server that does not answer must not hold the service's
   * shutdown for the 10 s of each queued write. What is still queued then is dropped and counted.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    this.#closed = true
    clearInterval(this.#timer)
    this.#timer = undefined
    let grace: NodeJS.Timeout | undefined
    const late = new Promise<'late'>((resolve) => {
      grace = setTimeout(() => resolve('late'), graceMs)
      grace.unref()
    })
    const outcome = await Promise.race([this.flush().then(() => 'done' as const), late])
    clearTimeout(grace)
    if (outcome === 'late') {
      this.#abandoned = true
      for (const write of this.#queue.splice(0)) this.#dropped('shutdown', write.series.count - write.series.writtenCount)
    }
  }

  #queuePatches(): void {
    for (const series of this.#correlator.due()) {
      if (this.#queue.length >= this.#settings.maxQueued) return
      if (!this.#global.take(series.violation.action).allowed) continue
      series.patchQueued = true
      this.#enqueue({ kind: 'patch', series })
    }
  }

  #enqueue(write: Write): void {
    if (this.#abandoned) return this.#dropped('shutdown', write.series.count - write.series.writtenCount)
    this.#queue.push(write)
    this.#draining ??= this.#drain()
  }

  async #idle(): Promise<void> {
    while (this.#draining) await this.#draining
  }

  async #drain(): Promise<void> {
    // Yield first, so that #draining is assigned before the finally below clears it.
    await Promise.resolve()
    try {
      for (let write = this.#queue.shift(); write; write = this.#queue.shift()) {
        if (write.series.retired) continue
        try {
          if (write.kind === 'create') await this.#create(write.series)
          else await this.#patch(write.series)
        } catch (error) {
          this.#correlator.forget(write.series)
          this.#dropped('write-failed', write.series.count - write.series.writtenCount)
          this.#onWriteError(error)
        }
      }
    } finally {
      // In the same step as the loop's last look at the queue: a write queued after it starts a new drain.
      this.#draining = undefined
    }
  }

  /** The series' first violation, or all it counted when its earlier Event is gone; a name another replica took is tried once more. */
  async #create(series: EventSeries): Promise<void> {
    const count = series.count
    const withSeries = series.writtenCount > 0 && count > 1 ? { count, lastObservedTime: microTime(series.lastMs) } : undefined
    for (let attempt = 0; ; attempt++) {
      const event = eventObject(series.violation, { instance: this.#instance, firstMs: series.firstMs, sequence: this.#sequence++, ...(withSeries ? { series: withSeries } : {}) })
      const answer = await this.#sink.create(event)
      if (answer === 'created') {
        series.written = { namespace: event.metadata.namespace, name: event.metadata.name }
        series.writtenCount = withSeries ? count : 1
        this.#report({ type: 'written', write: 'create' })
        return
      }
      if (attempt >= 1) throw new Error(`creating Event ${event.metadata.namespace}/${event.metadata.name}: the name is taken`)
    }
  }

  async #patch(series: EventSeries): Promise<void> {
    series.patchQueued = false
    const written = series.written
    if (!written) return
    const count = series.count
    const answer = await this.#sink.patchSeries(written.namespace, written.name, { count, lastObservedTime: microTime(series.lastMs) })
    if (answer === 'gone') {
      // The API server let the Event expire while its violations went on: a new Event carries the whole count.
      series.written = undefined
      await this.#create(series)
      return
    }
    series.writtenCount = Math.max(series.writtenCount, count)
    this.#report({ type: 'written', write: 'patch' })
  }

  #dropped(reason: DropReason, violations: number): void {
    if (violations > 0) this.#report({ type: 'dropped', reason, violations })
  }
}
