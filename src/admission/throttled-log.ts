import type { AdmissionLogger } from './admission-logger.js'

/**
 * One log line per interval for an event that, when it happens, happens to every review (a slow
 * or unreachable store): the first occurrence is logged at once, later ones are counted and the
 * count goes out with the next line an interval later. Logging each would put thousands of lines
 * a second on the webhook's own event loop exactly when it is under strain.
 */
export class ThrottledLog {
  readonly #log: (fields: object, message: string) => void
  readonly #message: string
  readonly #everyMs: number
  #last = Number.NEGATIVE_INFINITY
  #count = 0
  #worstMs = 0

  constructor(logger: AdmissionLogger, level: 'warn' | 'error', message: string, everyMs: number) {
    this.#log = (fields, text) => logger[level](fields, text)
    this.#message = message
    this.#everyMs = everyMs
  }

  /** Counts one occurrence and logs if the interval has passed; `fields` describe this one. */
  note(fields: Record<string, unknown>, durationMs = 0): void {
    this.#count += 1
    this.#worstMs = Math.max(this.#worstMs, durationMs)
    const now = performance.now()
    if (now - this.#last < this.#everyMs) return
    this.#log({ ...fields, occurrences: this.#count, worstMs: Math.round(this.#worstMs) }, this.#message)
    this.#last = now
    this.#count = 0
    this.#worstMs = 0
  }
}
