import { insertMissingAudits } from '../store/audit-replay.js'
import { insertAudits, type AuditRows } from '../store/audits-repository.js'
import { StoreUnavailableError, type Db } from '../store/db.js'
import { SpoolFullError, type AuditSpool, type SpoolChunk } from './audit-spool.js'
import { withUpdatedAt } from '../store/with-updated-at.js'

/** Where a write's audits went: into the store, or into the local spool to be replayed into it. */
export type AuditOutcome = 'committed' | 'spooled'

/** What the spool did, for logs and metrics. */
export type SpoolEvent =
  | { type: 'spooling'; reason: unknown }
  | { type: 'spooled'; entries: number }
  | { type: 'replayed'; entries: number; inserted: number; skipped: number; durationMs: number }
  | { type: 'replay-failed'; error: unknown; retryInMs: number }
  | { type: 'rejected'; entries: number; error: unknown }
  | { type: 'drained' }

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
   * Most batches being committed at once, each on its own connection; default 1. The server
   * evaluates while a batch commits either way; a second batch in flight only makes both
   * smaller, and each statement and commit costs PostgreSQL about 550 µs of CPU whatever its
   * size: with 32 clients, bench:api measured batches of 16 and 85 µs of PostgreSQL CPU per
   * evaluation with one in flight (123-128 µs in the service), 10.5 and 106-109 µs with two
   * (146-150 µs in the service), at the same p50. PGlite runs them one after the other anyway.
   */
  maxInFlight?: number
  /** Called after every batch, for metrics (batch size, latency, failures). */
  onBatch?: (batch: BatchReport) => void
  /**
   * Where audits go while the store is unreachable. Without one, writes fail with the store's
   * StoreUnavailableError (the API answers 503).
   */
  spool?: AuditSpool
  onSpoolEvent?: (event: SpoolEvent) => void
  /**
   * Most characters of audit input held in memory, waiting or being committed, before writes go to
   * the spool instead (when there is one); default 32 Mi. Admission reviews are answered before
   * their audits commit, so a store slower than the review rate would otherwise grow this queue
   * without end (468 MiB was seen); past the bound the backlog waits on disk and is replayed in
   * order, as after an outage.
   */
  maxQueuedChars?: number
  /** First and longest wait between replay attempts while the store stays away; default 100 ms and 5 s. */
  replayRetryMs?: { first: number; max: number }
}

export interface BatchReport {
  entries: number
  rows: number
  durationMs: number
  error?: unknown
}

/** Why writes went to the spool although the store answers: more was waiting than memory may hold. */
export class AuditBacklogError extends Error {
  constructor(readonly queuedChars: number, readonly maxQueuedChars: number) {
    super(`the store is behind: ${queuedChars} characters of audits were waiting, more than the ${maxQueuedChars} held in memory`)
    this.name = 'AuditBacklogError'
  }
}

interface Pending {
  entry: AuditRows
  chars: number
  resolve: (outcome: AuditOutcome) => void
  reject: (error: unknown) => void
}

/**
 * Group commit for audit records: `write` resolves once its rows are committed, and writes that
 * arrive while batches are in flight go into the next one (one statement for all its rows), so
 * a busy server pays one commit for many evaluations instead of one each.
 *
 * When a batch fails because the store is unreachable, its writes go to the spool (when there
 * is one) and resolve 'spooled' once it is on disk; every later write goes to the spool too,
 * behind them, until a replay loop has put everything spooled into the store in order. Only then
 * do writes go to the store directly again. A batch whose commit failed mid-way may have
 * committed anyway; the replay skips rows already stored, so each audit is stored once.
 * Without a spool, such writes are rejected with the StoreUnavailableError (the API answers 503).
 * The same spool takes the backlog when the store answers but falls behind: past `maxQueuedChars`
 * held in memory, writes go to the spool and the replay puts them into the store in order.
 *
 * Any other failure (a row PostgreSQL refuses) is retried one write at a time, so a single bad
 * record cannot fail the evaluations that happened to share its transaction. Idle, the writer
 * holds no timers.
 */
export class AuditWriter {
  readonly #db: Db
  readonly #maxBatch: number
  readonly #maxBatchChars: number
  readonly #maxWaitMs: number
  readonly #maxInFlight: number
  readonly #maxQueuedChars: number
  readonly #onBatch: (batch: BatchReport) => void
  readonly #spool: AuditSpool | undefined
  readonly #onSpoolEvent: (event: SpoolEvent) => void
  readonly #retry: { first: number; max: number }
  /** Writes go to the spool, not the store, until the replay has emptied it. */
  #spooling = false
  #replay: Promise<void> | undefined
  #wakeReplay: (() => void) | undefined
  #queue: Pending[] = []
  /** Characters of input in the queue and in the batches being committed. */
  #heldChars = 0
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
    this.#maxQueuedChars = positive('maxQueuedChars', options.maxQueuedChars ?? 32 * 1024 * 1024)
    this.#onBatch = options.onBatch ?? (() => {})
    this.#spool = options.spool
    this.#onSpoolEvent = options.onSpoolEvent ?? (() => {})
    this.#retry = options.replayRetryMs ?? { first: 100, max: 5000 }
    // Audits spooled before a crash or a shutdown go into the store before any new one does.
    if (this.#spool && !this.#spool.isEmpty) this.#startSpooling('audits left in the spool by an earlier run')
  }

  /** True while audits go to the local spool because the store was unreachable. */
  get spooling(): boolean {
    return this.#spooling
  }

  /** Writes waiting or being committed. */
  get queueDepth(): number {
    return this.#queue.length + this.#inFlight
  }

  /**
   * Resolves once the audits are committed ('committed') or durably spooled ('spooled'). Rows
   * without updatedAt get the current time here, before any attempt, so a replay can tell a
   * row already stored from a new one.
   */
  write(entry: AuditRows): Promise<AuditOutcome> {
    if (this.#closed) return Promise.reject(new Error('the audit writer is closed'))
    if (entry.policyAudits.length === 0 && entry.rulesetAudits.length === 0) return Promise.resolve('committed')
    const stamped = withUpdatedAt(entry, new Date())
    return new Promise<AuditOutcome>((resolve, reject) => {
      const pending = { entry: stamped, chars: charsOf(stamped), resolve, reject }
      if (this.#spooling) return this.#toSpool([pending], undefined)
      this.#queue.push(pending)
      this.#heldChars += pending.chars
      if (this.#spool && this.#heldChars > this.#maxQueuedChars) {
        // The queue moves to the spool at the next start; what is being committed finishes there.
        this.#startSpooling(new AuditBacklogError(this.#heldChars, this.#maxQueuedChars))
        return this.#start()
      }
      this.#schedule()
    })
  }

  /** Resolves when every write made so far has been committed, spooled or rejected. */
  async flush(): Promise<void> {
    if (this.#batchesInFlight > 0 || this.#queue.length > 0) {
      await new Promise<void>((resolve) => {
        this.#idleWaiters.push(resolve)
        this.#start()
      })
    }
    await this.#spool?.appended()
  }

  /**
   * Refuses new writes and drains the queue: into the store, or into the spool while the store
   * is away. A replay in progress stops after its current step; what is still spooled is
   * replayed by the next start.
   */
  async close(): Promise<void> {
    this.#closed = true
    await this.flush()
    this.#wakeReplay?.()
    await this.#replay
    await this.#spool?.close()
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
    if (this.#spooling && this.#queue.length > 0) {
      const queued = this.#queue
      this.#queue = []
      for (const pending of queued) this.#heldChars -= pending.chars
      void this.#toSpool(queued, undefined)
    }
    while (this.#batchesInFlight < this.#maxInFlight && this.#queue.length > 0) {
      const batch = this.#takeBatch()
      this.#batchesInFlight += 1
      this.#inFlight += batch.length
      const chars = batch.reduce((sum, pending) => sum + pending.chars, 0)
      void this.#commit(batch).finally(() => {
        this.#heldChars -= chars
        this.#finished(batch.length)
      })
    }
  }

  #finished(writes: number): void {
    this.#batchesInFlight -= 1
    this.#inFlight -= writes
    // Writes that queued meanwhile have waited a whole commit already: no gathering delay.
    if (this.#queue.length > 0) this.#start()
    // While spooling, start moved the queue to the spool: then nothing is in flight any more.
    if (this.#batchesInFlight > 0 || this.#queue.length > 0) return
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
      if (error instanceof StoreUnavailableError && this.#spool) {
        this.#startSpooling(error)
        await this.#toSpool(batch, error)
        return
      }
      if (batch.length > 1 && !(error instanceof StoreUnavailableError)) {
        for (const pending of batch) await this.#commit([pending])
        return
      }
      for (const pending of batch) pending.reject(error)
      return
    }
    this.#report({ entries: batch.length, rows: rows.policyAudits.length + rows.rulesetAudits.length, durationMs: performance.now() - started })
    for (const pending of batch) pending.resolve('committed')
  }

  /**
   * Puts writes into the spool; they resolve 'spooled' once it is on disk. When the spool cannot
   * take them (full, disk failing) they are rejected as unavailable: the store cannot take them
   * either, and an evaluation whose audit is kept nowhere must not be answered as if it were.
   */
  async #toSpool(writes: Pending[], storeError: unknown): Promise<void> {
    const spool = this.#spool
    if (!spool) return
    try {
      await spool.append(writes.map((pending) => pending.entry))
    } catch (error) {
      this.#event({ type: 'rejected', entries: writes.length, error })
      const reason = error instanceof SpoolFullError ? error.message : `the audit spool failed: ${error instanceof Error ? error.message : String(error)}`
      const refused = new StoreUnavailableError(`the store is unreachable and ${reason}`, { cause: storeError ?? error })
      for (const pending of writes) pending.reject(refused)
      return
    }
    this.#event({ type: 'spooled', entries: writes.length })
    for (const pending of writes) pending.resolve('spooled')
  }

  #startSpooling(reason: unknown): void {
    if (this.#spooling) return
    this.#spooling = true
    this.#event({ type: 'spooling', reason })
    this.#replay = this.#replayLoop().finally(() => {
      this.#replay = undefined
    })
  }

  /**
   * Replays the spool into the store in order, waiting longer between attempts while the store
   * stays away. When the spool is empty (checked in the same turn of the event loop that
   * switches back, so no write can slip in between), writes go to the store again.
   */
  async #replayLoop(): Promise<void> {
    const spool = this.#spool
    if (!spool) return
    let wait = this.#retry.first
    // Batches still being committed go first (spooling for a backlog starts while one is in
    // flight): the store keeps the order audits were written in.
    if (this.#batchesInFlight > 0) await new Promise<void>((resolve) => this.#idleWaiters.push(resolve))
    while (!this.#closed) {
      let chunk: SpoolChunk | undefined
      try {
        chunk = await spool.read()
        if (!chunk) {
          if (spool.isEmpty) {
            this.#spooling = false
            this.#event({ type: 'drained' })
            return
          }
          await spool.appended()
          // A turn of the event loop between looks, whatever state the spool is in.
          await new Promise((resolve) => setImmediate(resolve))
          continue
        }
        const started = performance.now()
        const outcome = await this.#replayChunk(chunk.entries)
        await chunk.acknowledge()
        this.#event({ type: 'replayed', entries: chunk.entries.length, ...outcome, durationMs: performance.now() - started })
        wait = this.#retry.first
      } catch (error) {
        // Unacknowledged, the chunk is read again by the next attempt.
        chunk?.release()
        this.#event({ type: 'replay-failed', error, retryInMs: wait })
        await this.#sleep(wait)
        wait = Math.min(wait * 2, this.#retry.max)
      }
    }
  }

  /**
   * One transaction for the chunk; when the store refuses it for another reason than being
   * away (a bad row), entry by entry, and the entries it refuses are reported and dropped from
   * the replay so one bad record cannot hold every later audit back.
   */
  async #replayChunk(entries: AuditRows[]): Promise<{ inserted: number; skipped: number }> {
    try {
      return await insertMissingAudits(this.#db, mergeRows(entries))
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error
      if (entries.length === 1) {
        this.#event({ type: 'rejected', entries: 1, error })
        return { inserted: 0, skipped: 0 }
      }
    }
    const total = { inserted: 0, skipped: 0 }
    for (const entry of entries) {
      const outcome = await this.#replayChunk([entry])
      total.inserted += outcome.inserted
      total.skipped += outcome.skipped
    }
    return total
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms)
      const wake = (): void => done()
      this.#wakeReplay = wake
      function done(): void {
        clearTimeout(timer)
        resolve()
      }
    })
  }

  #event(event: SpoolEvent): void {
    try {
      this.#onSpoolEvent(event)
    } catch {
      // A logging callback must not take audit writing down with it.
    }
  }

  #report(batch: BatchReport): void {
    try {
      this.#onBatch(batch)
    } catch {
      // A metrics callback must not take audit writing down with it.
    }
  }
}

function mergeRows(entries: readonly AuditRows[]): AuditRows {
  return { policyAudits: entries.flatMap((entry) => entry.policyAudits), rulesetAudits: entries.flatMap((entry) => entry.rulesetAudits) }
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
