import type { Db, ListenOptions, QueryResult, Queryable } from '../../src/store/db.js'

/**
 * Wraps a Db to observe transactions: how many began, which audit request ids each committed,
 * and, on demand, makes the next one fail as an outage would.
 */
export class CountingDb implements Db {
  readonly kind: Db['kind']
  transactions = 0
  /** Request ids (first array parameter of each audit INSERT) of committed transactions. */
  readonly committed = new Set<string>()
  /** Entries per transaction, in order: the size of each group commit. */
  readonly batchSizes: number[] = []
  #failures: unknown[] = []

  constructor(readonly inner: Db) {
    this.kind = inner.kind
  }

  /** The next transactions (one per error given) throw these instead of running. */
  failNext(...errors: unknown[]): void {
    this.#failures.push(...errors)
  }

  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<R>> {
    return this.inner.query<R>(sql, params)
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    this.transactions += 1
    if (this.#failures.length > 0) throw this.#failures.shift()
    const seen: string[] = []
    const result = await this.inner.transaction((tx) =>
      work({
        query: <R>(sql: string, params?: unknown[]) => {
          if (sql.includes('INSERT INTO policy_audits') && Array.isArray(params?.[0])) seen.push(...(params[0] as string[]))
          return tx.query<R>(sql, params)
        },
      }),
    )
    for (const id of seen) this.committed.add(id)
    this.batchSizes.push(seen.length)
    return result
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
