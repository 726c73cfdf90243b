export interface QueryResult<R> {
  rows: R[]
  /** Rows returned by a SELECT, or rows affected by INSERT / UPDATE / DELETE. */
  rowCount: number
}

/**
 * Anything SQL can be sent to: the database itself or one transaction on it, so repository
 * functions run the same inside and outside transactions.
 *
 * Values come back parsed the same way on both adapters: `timestamptz` as `Date`, `jsonb` as
 * objects, `text[]` as arrays, `int8` (counts, bigserial ids) as `number` when it is a safe
 * integer and as `bigint` beyond that. A call without parameters may hold several statements
 * (simple query protocol) and returns the last one's result.
 */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>>
}

export interface QueryOptions {
  /**
   * Makes the statement a named prepared statement, so each PostgreSQL connection parses and
   * plans it once instead of on every call: worth it for the hot, fixed statements (audit
   * writes). One name must always carry the same SQL. PGlite has no use for it and ignores it.
   */
  name?: string
}

export interface ListenOptions {
  /**
   * Called after the notification connection was lost and re-established: notifications sent
   * meanwhile are gone, so a subscriber that keeps a cache should reload it.
   */
  onReconnect?: () => void
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres'
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>
  /** Subscribes to NOTIFY on a channel; returns an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>
  notify(channel: string, payload: string): Promise<void>
  close(): Promise<void>
}

/** The database cannot be reached (refused, down, restarting, closed): the API answers 503. */
export class StoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'StoreUnavailableError'
  }
}
