import { StoreUnavailableError, type Db, type ListenOptions, type QueryOptions, type QueryResult, type Queryable } from '../../src/store/db.js'

/**
 * Wraps a Db to observe audit writes: how many statements wrote audits, which request ids each
 * committed (one statement is one transaction), and, on demand, makes the next ones fail as an
 * outage would.
 */
export class CountingDb implements Db {
  readonly kind: Db['kind']
  /** Audit-writing statements sent, failed ones included. */
  auditWrites = 0
  /** Request ids (first array parameter of each audit write) of committed writes. */
  readonly committed = new Set<string>()
  /** Evaluations per committed write, in order: the size of each group commit. */
  readonly batchSizes: number[] = []
  #failures: unknown[] = []
  #gate: Promise<void> | undefined
  #failAfterCommit = 0
  /** While true every statement and transaction fails as if PostgreSQL were unreachable. */
  down = false

  constructor(readonly inner: Db) {
    this.kind = inner.kind
  }

  /** The next audit writes (one per error given) throw these instead of running. */
  failNext(...errors: unknown[]): void {
    this.#failures.push(...errors)
  }

  /** Audit writes sent from now on wait until the returned function is called. */
  holdWrites(): () => void {
    let release = () => {}
    this.#gate = new Promise((resolve) => {
      release = resolve
    })
    return () => {
      this.#gate = undefined
      release()
    }
  }

  /** The next audit writes commit and then report the connection lost: the client cannot tell whether they committed. */
  failAfterCommitNext(count = 1): void {
    this.#failAfterCommit += count
  }

  async query<R = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>> {
    if (this.down) throw unreachable()
    if (!sql.includes('INSERT INTO policy_audits')) return this.inner.query<R>(sql, params, options)
    this.auditWrites += 1
    if (this.#gate) await this.#gate
    if (this.#failures.length > 0) throw this.#failures.shift()
    const result = await this.inner.query<R>(sql, params, options)
    // The request ids of the inputs (after the payload): one per evaluation in the batch.
    const ids = Array.isArray(params?.[1]) ? (params[1] as string[]) : []
    for (const id of ids) this.committed.add(id)
    this.batchSizes.push(ids.length)
    if (this.#failAfterCommit > 0) {
      this.#failAfterCommit -= 1
      throw unreachable()
    }
    return result
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.down) return Promise.reject(unreachable())
    return this.inner.transaction(work)
  }

  listen(channel: string, onNotify: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>> {
    return this.inner.listen(channel, onNotify, options)
  }

  notify(channel: string, payload: string): Promise<void> {
    return this.inner.notify(channel, payload)
  }

  close(): Promise<void> {
    return this.inner.close()
  }
}

function unreachable(): StoreUnavailableError {
  return new StoreUnavailableError('database unavailable: connect ECONNREFUSED 127.0.0.1:5432')
}
