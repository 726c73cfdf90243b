import type { Queryable } from '../store/db.js'
import { noteExceptionsApplied } from '../store/exception-applications.js'

/** A minute: last-applied times serve a recommendation counted in days, not an audit trail. */
export const NOTE_INTERVAL_MS = 60_000

/**
 * When each PolicyException last let a rule result through, noted cheaply for the
 * `unused-exception` recommendation: the paths that judge (REST, admission, background scans)
 * call `applied` for every exempted result, and the store is written at most once a minute per
 * exception in this process, batched, after the evaluation and never awaited by it. A write that
 * fails is logged and made again at the next application.
 */
export class ExceptionApplications {
  readonly #db: Queryable
  readonly #now: () => Date
  readonly #onError: (error: unknown) => void
  readonly #intervalMs: number
  /** Per exception, the last application noted (or being noted), in epoch milliseconds. */
  readonly #noted = new Map<string, number>()
  readonly #pending = new Map<string, number>()
  #writing: Promise<void> | undefined

  constructor(db: Queryable, options: { now?: () => Date; onError?: (error: unknown) => void; intervalMs?: number } = {}) {
    this.#db = db
    this.#now = options.now ?? (() => new Date())
    this.#onError = options.onError ?? (() => {})
    this.#intervalMs = options.intervalMs ?? NOTE_INTERVAL_MS
  }

  applied(exception: string): void {
    const nowMs = this.#now().getTime()
    const last = this.#noted.get(exception)
    if (last !== undefined && nowMs - last < this.#intervalMs && nowMs >= last) return
    this.#noted.set(exception, nowMs)
    this.#pending.set(exception, nowMs)
    this.#writing ??= Promise.resolve().then(() => this.#write())
  }

  /** Resolves once what was noted so far is written (or has failed): for shutdown and tests. */
  async settled(): Promise<void> {
    while (this.#writing) await this.#writing
  }

  async #write(): Promise<void> {
    const batch = [...this.#pending]
    this.#pending.clear()
    // The names of a batch were mostly applied at the same instant: one UPDATE per instant.
    const byTime = new Map<number, string[]>()
    for (const [name, at] of batch) byTime.set(at, [...(byTime.get(at) ?? []), name])
    for (const [at, names] of byTime) {
      try {
        await noteExceptionsApplied(this.#db, names, new Date(at))
      } catch (error) {
        for (const name of names) if (this.#noted.get(name) === at) this.#noted.delete(name)
        this.#onError(error)
      }
    }
    this.#writing = this.#pending.size > 0 ? Promise.resolve().then(() => this.#write()) : undefined
  }
}
