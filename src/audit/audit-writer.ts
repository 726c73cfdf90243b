import { insertAudits, type AuditRows } from '../store/audits-repository.js'
import { StoreUnavailableError, type Db } from '../store/db.js'

export interface AuditWriterOptions {
  /** Most evaluations committed in one transaction; default 500. */
  maxBatch?: number
  /** Stop adding evaluations to a batch once their inputs reach this many characters; default 16 Mi. */
  maxBatchChars?: number
  /**
   * How long the first write into an idle writer waits for others before its transaction starts.
   * Default 0: the transaction starts on the next turn of the event loop, which already gathers
   * every write made in the current one. Writes arriving while a transaction is in flight never
   * wait longer than that transaction.
   */
  maxWaitMs?: number
  /**
   * Most batches being committed at once, each on its own connection; default 2. While one
   * batch commits, the next can already start, so the server evaluates while PostgreSQL writes
   * instead of the two taking turns. PGlite runs them one after the other anyway.
   */
  maxInFlight?: number
  /** Called after every batch, for metrics (batch size, latency, failures). */
  onBatch?: (batch: BatchReport) => void
}

export interface BatchReport {
  entries: number
  rows: number
  durationMs: number
  error?: unknown
}

interface Pending {
  entry: AuditRows
  chars: number
  resolve: () => void
  reject: (error: unknown) => void
}

/**
 * Group commit for audit records: `write` resolves once its rows are committed, and writes that
 * arrive while batches are in flight go into the next one (one statement for all its rows), so
 * a busy server pays one commit for many evaluations instead of one each.
 *
 * When a batch fails because the store is unreachable, every write in it is rejected with the
 * StoreUnavailableError (the API answers 503). Any other failure (a row PostgreSQL refuses) is
 * retried one write at a time, so a single bad record cannot fail the evaluations that happened
 * to share its transaction. Idle, the writer holds no timers.
 */
export class AuditWriter {
  readonly #db: Db
  readonly #maxBatch: number
  readonly #maxBatchChars: number
  readonly #maxWaitMs: number
  readonly #maxInFlight: number
  readonly #onBatch: (batch: BatchReport) => void
  #queue: Pending[] = []
  /** Writes in the batches being committed. */
  #inFlight = 0
  #batchesInFlight = 0
  #cancelTimer: (() => void) | undefined
  #closed = false
  #idleWaiters: Array<() => void> = []

  constructor(db: Db, options: AuditWriterOptions = {}) {
    this.#db = db
    this.#maxBatch = positive('maxBatch', options.maxBatch ?? 500)
    this.#maxBatchChars = positive('maxBatchChars', options.maxBatchChars ?? 16 * 1024 * 1024)
    this.#maxWaitMs = options.maxWaitMs ?? 0
    this.#maxInFlight = positive('maxInFlight', options.maxInFlight ?? 1)
    this.#onBatch = options.onBatch ?? (() => {})
  }

  /** Writes waiting or being committed. */
  get queueDepth(): number {
    return this.#queue.length + this.#inFlight
  }

  write(entry: AuditRows): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the audit writer is closed'))
    if (entry.policyAudits.length === 0 && entry.rulesetAudits.length === 0) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ entry, chars: charsOf(entry), resolve, reject })
      this.#schedule()
    })
  }

  /** Resolves when every write made so far has been committed or rejected. */
  flush(): Promise<void> {
    if (this.#batchesInFlight === 0 && this.#queue.length === 0) return Promise.resolve()
    return new Promise<void>((resolve) => {
      this.#idleWaiters.push(resolve)
      this.#start()
    })
  }

  /** Refuses new writes and drains the queue. */
  async close(): Promise<void> {
    this.#closed = true
    await this.flush()
  }

  #schedule(): void {
    // With every slot busy, the first batch to finish takes the new write along.
    if (this.#batchesInFlight >= this.#maxInFlight) return
    if (this.#queue.length >= this.#maxBatch) return this.#start()
    if (this.#cancelTimer) return
    if (this.#maxWaitMs > 0 && this.#batchesInFlight === 0) {
      const timer = setTimeout(() => this.#start(), this.#maxWaitMs)
      this.#cancelTimer = () => clearTimeout(timer)
    } else {
      const immediate = setImmediate(() => this.#start())
      this.#cancelTimer = () => clearImmediate(immediate)
    }
  }

  /** Fills the free slots with batches from the queue. */
  #start(): void {
    this.#cancelTimer?.()
    this.#cancelTimer = undefined
    while (this.#batchesInFlight < this.#maxInFlight && this.#queue.length > 0) {
      const batch = this.#takeBatch()
      this.#batchesInFlight += 1
      this.#inFlight += batch.length
      void this.#commit(batch).finally(() => this.#finished(batch.length))
    }
  }

  #finished(writes: number): void {
    this.#batchesInFlight -= 1
    this.#inFlight -= writes
    // Writes that queued meanwhile have waited a whole commit already: no gathering delay.
    if (this.#queue.length > 0) return this.#start()
    if (this.#batchesInFlight > 0) return
    const waiters = this.#idleWaiters
    this.#idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  #takeBatch(): Pending[] {
    let count = 0
    let chars = 0
    for (const pending of this.#queue) {
      if (count >= this.#maxBatch || (count > 0 && chars + pending.chars > this.#maxBatchChars)) break
      count += 1
      chars += pending.chars
    }
    return this.#queue.splice(0, count)
  }

  async #commit(batch: Pending[]): Promise<void> {
    const rows: AuditRows = {
      policyAudits: batch.flatMap((pending) => pending.entry.policyAudits),
      rulesetAudits: batch.flatMap((pending) => pending.entry.rulesetAudits),
    }
    const started = performance.now()
    try {
      await insertAudits(this.#db, rows)
    } catch (error) {
      this.#report({ entries: batch.length, rows: rows.policyAudits.length + rows.rulesetAudits.length, durationMs: performance.now() - started, error })
      if (batch.length > 1 && !(error instanceof StoreUnavailableError)) {
        for (const pending of batch) await this.#commit([pending])
        return
      }
      for (const pending of batch) pending.reject(error)
      return
    }
    this.#report({ entries: batch.length, rows: rows.policyAudits.length + rows.rulesetAudits.length, durationMs: performance.now() - started })
    for (const pending of batch) pending.resolve()
  }

  #report(batch: BatchReport): void {
    try {
      this.#onBatch(batch)
    } catch {
      // A metrics callback must not take audit writing down with it.
    }
  }
}

function charsOf(entry: AuditRows): number {
  let chars = 0
  for (const row of entry.policyAudits) chars += row.input.length
  for (const row of entry.rulesetAudits) chars += row.input.length
  return chars
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be an integer >= 1, got ${value}`)
  return value
}
