import type { AuditWriter } from '../audit/audit-writer.js'
import { withUpdatedAt } from '../store/with-updated-at.js'
import type { AuditRows } from '../store/audits-repository.js'
import type { AdmissionLogger } from './admission-logger.js'
import { ThrottledLog } from './throttled-log.js'

export interface BoundedAuditRecorderOptions {
  /**
   * Longest a review waits for its audit commit before it is answered anyway; 0 answers at once
   * and hands the audits on after `gatherMs`.
   */
  waitMs: number
  /**
   * With waitMs 0: how long audits gather before they go to the writer together, so one commit
   * carries many reviews. Nobody waits on it; it only trades commits for a few milliseconds in
   * memory. Default 10 ms.
   */
  gatherMs?: number
  /** Commits slower than this are logged (the store is struggling); default 1 s. */
  slowCommitMs?: number
  /** At most one log line per this many milliseconds about slow or failed writes; default 10 s. */
  logEveryMs?: number
}

interface Gathered {
  rows: AuditRows
  requestId: string
}

/**
 * Hands reviews' audits to the group-commit writer, and waits for the commit at most `waitMs`:
 * the decision is made already, and an API server waits for the webhook with every write it
 * guards, so a slow or unreachable store must not become a slow cluster. Slow and failed commits
 * are logged, throttled, since a struggling store delays or fails every write at once.
 * While the store is away the writer spools the audits to local disk; they fail only when the
 * spool cannot take them either.
 */
export class BoundedAuditRecorder {
  readonly #writer: AuditWriter
  readonly #waitMs: number
  readonly #gatherMs: number
  readonly #slowCommitMs: number
  readonly #slow: ThrottledLog
  readonly #failed: ThrottledLog
  #gathered: Gathered[] = []
  #gatherTimer: NodeJS.Timeout | undefined

  constructor(writer: AuditWriter, logger: AdmissionLogger, options: BoundedAuditRecorderOptions) {
    this.#writer = writer
    this.#waitMs = options.waitMs
    this.#gatherMs = options.gatherMs ?? 10
    this.#slowCommitMs = options.slowCommitMs ?? 1000
    const every = options.logEveryMs ?? 10_000
    this.#slow = new ThrottledLog(logger, 'warn', `admission audit commits are slow (over ${this.#slowCommitMs} ms)`, every)
    this.#failed = new ThrottledLog(logger, 'error', 'writing admission audits failed; the reviews were answered without them', every)
  }

  /** Resolves when the audits are committed, or after `waitMs`, or when the write failed; never rejects. */
  record(reviewRows: AuditRows, requestId: string): Promise<void> {
    // The review's own time, not the end of the gathering window.
    const rows = withUpdatedAt(reviewRows, new Date())
    if (this.#waitMs <= 0) {
      this.#gather({ rows, requestId })
      return Promise.resolve()
    }
    const settled = this.#write({ rows, requestId })
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.#waitMs)
    })
    return Promise.race([settled, deadline]).finally(() => clearTimeout(timer))
  }

  /** Hands everything gathered to the writer now (shutdown: the writer's close() then flushes it). */
  flush(): void {
    clearTimeout(this.#gatherTimer)
    this.#gatherTimer = undefined
    const gathered = this.#gathered
    this.#gathered = []
    // One synchronous loop: the writer puts every write of one turn of the event loop into one commit.
    for (const entry of gathered) void this.#write(entry)
  }

  #gather(entry: Gathered): void {
    this.#gathered.push(entry)
    if (this.#gatherMs <= 0) return this.flush()
    this.#gatherTimer ??= setTimeout(() => this.flush(), this.#gatherMs)
  }

  /** The write, settled: resolves when it is committed or has failed (and was logged). */
  #write({ rows, requestId }: Gathered): Promise<void> {
    const started = performance.now()
    let write: Promise<unknown>
    try {
      write = this.#writer.write(rows)
    } catch (error) {
      write = Promise.reject(error)
    }
    return write.then(
      () => {
        const elapsed = performance.now() - started
        if (elapsed > this.#slowCommitMs) this.#slow.note({ requestId, durationMs: Math.round(elapsed) }, elapsed)
      },
      (error: unknown) => this.#failed.note({ err: error, requestId }),
    )
  }
}
