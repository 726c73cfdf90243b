import { backoffDelay, type Backoff } from './controller-logger.js'

/** `wait`: the key cannot settle yet; it comes back after a backoff, as after a failure but quietly. */
export type HandleResult = 'done' | 'wait'

/**
 * Keys to reconcile, handled one at a time by a single worker (so one resource is never
 * reconciled twice at once, and store writes follow the order of events). A key added while
 * queued is not added twice; a key whose handler fails comes back after an exponential backoff.
 * Paused, it keeps nothing: whoever resumes it (a new leader) enqueues everything anyway.
 */
export class ReconcileQueue {
  readonly #handle: (key: string) => Promise<HandleResult>
  readonly #onError: (key: string, error: unknown, retryInMs: number) => void
  readonly #backoff: Backoff
  readonly #queue: string[] = []
  readonly #queued = new Set<string>()
  readonly #failures = new Map<string, number>()
  readonly #retries = new Map<string, NodeJS.Timeout>()
  #active = false
  #working: Promise<void> | undefined

  constructor(options: { handle: (key: string) => Promise<HandleResult>; onError: (key: string, error: unknown, retryInMs: number) => void; backoff: Backoff }) {
    this.#handle = options.handle
    this.#onError = options.onError
    this.#backoff = options.backoff
  }

  add(key: string): void {
    if (!this.#active || this.#queued.has(key)) return
    this.#queued.add(key)
    this.#queue.push(key)
    this.#pump()
  }

  resume(): void {
    this.#active = true
    this.#pump()
  }

  /** Stops taking work and forgets what was queued; resolves when the key in hand is done. */
  async pause(): Promise<void> {
    this.#active = false
    this.#queue.length = 0
    this.#queued.clear()
    this.#failures.clear()
    for (const timer of this.#retries.values()) clearTimeout(timer)
    this.#retries.clear()
    await this.#working
  }

  /** Nothing queued, retrying or in hand (tests wait on it). */
  idle(): boolean {
    return this.#queue.length === 0 && this.#retries.size === 0 && this.#working === undefined
  }

  #pump(): void {
    if (this.#working || !this.#active) return
    this.#working = this.#drain().finally(() => {
      this.#working = undefined
      // A key added after the loop's last check is picked up here.
      if (this.#active && this.#queue.length > 0) this.#pump()
    })
  }

  async #drain(): Promise<void> {
    while (this.#active) {
      const key = this.#queue.shift()
      if (key === undefined) return
      this.#queued.delete(key)
      try {
        if ((await this.#handle(key)) === 'done') this.#failures.delete(key)
        else this.#schedule(key, this.#fail(key))
      } catch (error) {
        const delay = this.#schedule(key, this.#fail(key))
        this.#onError(key, error, delay)
      }
    }
  }

  #fail(key: string): number {
    const failures = (this.#failures.get(key) ?? 0) + 1
    this.#failures.set(key, failures)
    return failures
  }

  #schedule(key: string, failures: number): number {
    const delay = backoffDelay(this.#backoff, failures)
    if (!this.#active) return delay
    clearTimeout(this.#retries.get(key))
    const timer = setTimeout(() => {
      this.#retries.delete(key)
      this.add(key)
    }, delay)
    timer.unref()
    this.#retries.set(key, timer)
    return delay
  }
}
