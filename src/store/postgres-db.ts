import pg from 'pg'
import type { Db, ListenOptions, QueryOptions, QueryResult, Queryable } from './db.js'
import { StoreUnavailableError } from './db.js'
import { mapPostgresError } from './postgres-errors.js'
import { PostgresListener } from './postgres-listener.js'

const INT8_OID = 20

/**
 * int8 is what count(*) and bigserial return. node-postgres hands it over as a string to avoid
 * losing precision; numbers are what callers want, so safe integers become numbers and anything
 * larger a bigint: never a silently rounded value. PGlite parses int8 the same way.
 * timestamptz keeps node-postgres' default parsing to a Date.
 */
function parseInt8(text: string): number | bigint {
  const value = BigInt(text)
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value
}

const TYPES: pg.CustomTypesConfig = {
  // pg-types declares getTypeParser as an overloaded function; one implementation serves both
  // formats because Verdict never asks for binary results.
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
}

export interface PostgresDbOptions {
  connectionString: string
  /** Pool size; default 10. */
  maxConnections?: number
  /** How long a query waits for a connection before the store counts as unavailable; default 5 s. */
  connectTimeoutMs?: number
  /** Errors that have no caller to go to: a dropped idle connection, a failed listener reconnect. */
  onError?: (error: unknown) => void
  /** Runs once the pool and the listener are closed: the embedded store stops its server here. */
  afterClose?: () => Promise<void>
}

/** PostgreSQL through a node-postgres pool, with a dedicated connection for LISTEN. */
export class PostgresDb implements Db {
  readonly kind = 'postgres' as const
  readonly #pool: pg.Pool
  readonly #listener: PostgresListener
  readonly #afterClose: (() => Promise<void>) | undefined
  #closed = false

  constructor(options: PostgresDbOptions) {
    const onError = options.onError ?? (() => {})
    const config: pg.ClientConfig = {
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      types: TYPES,
    }
    this.#pool = new pg.Pool({ ...config, max: options.maxConnections ?? 10, idleTimeoutMillis: 30_000, application_name: 'verdict' })
    // An idle connection that dies (server restart) emits here; without a handler Node would crash.
    // The pool drops it and the next query opens a fresh one.
    this.#pool.on('error', (error) => onError(mapPostgresError(error)))
    this.#listener = new PostgresListener(config, onError)
    this.#afterClose = options.afterClose
  }

  async query<R = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<R>> {
    this.#checkOpen()
    try {
      return normalise<R>(await this.#pool.query(queryConfig(sql, params, options)))
    } catch (error) {
      throw mapPostgresError(error)
    }
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    this.#checkOpen()
    let client: pg.PoolClient
    try {
      client = await this.#pool.connect()
    } catch (error) {
      throw mapPostgresError(error)
    }
    // While checked out, a connection the server drops emits 'error' on the client (not the pool);
    // unhandled, that would crash the process. The failed query rejects on its own.
    const ignore = () => {}
    client.on('error', ignore)
    let broken: Error | undefined
    try {
      await client.query('BEGIN')
      const result = await work({
        query: async <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
          try {
            return normalise<R>(await client.query(queryConfig(sql, params, options)))
          } catch (error) {
            throw mapPostgresError(error)
          }
        },
      })
      await client.query('COMMIT')
      return result
    } catch (error) {
      try {
        await client.query('ROLLBACK')
      } catch (rollbackError) {
        // A connection that cannot even roll back must not go back to the pool.
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError))
      }
      throw mapPostgresError(error)
    } finally {
      client.off('error', ignore)
      client.release(broken)
    }
  }

  listen(channel: string, onNotify: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>> {
    this.#checkOpen()
    return this.#listener.subscribe(channel, onNotify, options)
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.query('SELECT pg_notify($1, $2)', [channel, payload])
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    try {
      await this.#listener.close()
      await this.#pool.end()
    } finally {
      await this.#afterClose?.()
    }
  }

  #checkOpen(): void {
    if (this.#closed) throw new StoreUnavailableError('the database connection pool is closed')
  }
}

function queryConfig(sql: string, params: unknown[] | undefined, options: QueryOptions | undefined): pg.QueryConfig {
  const config: pg.QueryConfig = { text: sql }
  if (params !== undefined) config.values = params
  if (options?.name !== undefined) config.name = options.name
  return config
}

/** A multi-statement simple query yields one result per statement; callers get the last, as with PGlite. */
function normalise<R>(result: pg.QueryResult | pg.QueryResult[]): QueryResult<R> {
  const last = Array.isArray(result) ? result[result.length - 1] : result
  if (!last) return { rows: [], rowCount: 0 }
  return { rows: last.rows as R[], rowCount: last.rowCount ?? last.rows.length }
}
