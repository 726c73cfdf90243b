export interface ProgressStream {
  isTTY?: boolean
  write(text: string): unknown
}

export interface ProgressOptions {
  /** Fewer objects than this finish before anyone would read a count. */
  threshold?: number
  /** Redraws at most this often: a terminal write per object would slow a fast scan. */
  intervalMs?: number
  now?: () => number
}

/**
 * `scanned N objects…` on one terminal line, redrawn in place with \r and erased at the end, so a
 * long scan shows it is alive. Nothing is written when the stream is not a terminal (CI logs,
 * redirected output) or the input is short. A total of `undefined` is not known in advance (a
 * cluster's objects are counted as their lists are read, and each page waits on the network): the
 * line then shows whenever the scan outlasts one interval.
 */
export class ProgressLine {
  readonly #stream: ProgressStream
  readonly #active: boolean
  readonly #intervalMs: number
  readonly #now: () => number
  #lastDrawn: number
  #drawn = false

  constructor(stream: ProgressStream, total: number | undefined, options: ProgressOptions = {}) {
    this.#stream = stream
    this.#active = stream.isTTY === true && (total === undefined || total > (options.threshold ?? 200))
    this.#intervalMs = options.intervalMs ?? 100
    this.#now = options.now ?? (() => performance.now())
    // The first count waits one interval: a scan that ends sooner needs no sign of life.
    this.#lastDrawn = this.#now()
  }

  update(done: number): void {
    if (!this.#active) return
    const now = this.#now()
    if (now - this.#lastDrawn < this.#intervalMs) return
    this.#lastDrawn = now
    this.#drawn = true
    this.#stream.write(`\rscanned ${done} objects…`)
  }

  /** Erases the line (carriage return, erase line) so what follows starts on a clean one. */
  finish(): void {
    if (!this.#drawn) return
    this.#drawn = false
    this.#stream.write('\r\u001b[2K')
  }
}
