import { PGlite, type Results, type Transaction } from '@electric-sql/pglite'
import type { Db, QueryResult, Queryable } from './db.js'
import { StoreUnavailableError } from './db.js'

/** Runs queries on PGlite: parameterless calls use the simple protocol, so they may hold several statements. */
interface PgliteRunner {
  query<T>(sql: string, params?: unknown[]): Promise<Results<T>>
  exec(sql: string): Promise<Results[]>
}

/**
 * The embedded store: PostgreSQL compiled to WebAssembly, in this process, one connection.
 * PGlite serialises queries and transactions itself; NOTIFY reaches listeners of this process only,
 * which is all a single-process store needs.
 */
export class PgliteDb implements Db {
  readonly kind = 'pglite' as const
  readonly #pglite: PGlite

  constructor(pglite: PGlite) {
    this.#pglite = pglite
  }

  /** `memory://` for a throwaway store, else a directory PGlite creates or reopens. */
  static async open(dataDir: string, options: { loadDataDir?: Blob } = {}): Promise<PgliteDb> {
    const pglite = await PGlite.create(dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : {})
    return new PgliteDb(pglite)
  }

  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<R>> {
    return runQuery<R>(this.#pglite, sql, params, this.#pglite)
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return guard(this.#pglite, () =>
      this.#pglite.transaction((tx: Transaction) => work({ query: (sql, params) => runQuery(tx, sql, params, this.#pglite) })),
    )
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const unlisten = await guard(this.#pglite, () => this.#pglite.listen(channel, onNotify))
    return async () => {
      if (!this.#pglite.closed) await unlisten()
    }
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.query('SELECT pg_notify($1, $2)', [channel, payload])
  }

  /** Exports the whole data directory as a tarball, so tests can start many stores from one migrated copy. */
  async dumpDataDir(): Promise<Blob> {
    return this.#pglite.dumpDataDir('none')
  }

  async close(): Promise<void> {
    if (!this.#pglite.closed) await this.#pglite.close()
  }
}

async function runQuery<R>(runner: PgliteRunner, sql: string, params: unknown[] | undefined, pglite: PGlite): Promise<QueryResult<R>> {
  const result = await guard(pglite, async () => {
    if (params && params.length > 0) return runner.query<R>(sql, params)
    const results = await runner.exec(sql)
    return results[results.length - 1] as Results<R>
  })
  return { rows: result.rows, rowCount: rowCountOf(result) }
}

function rowCountOf(result: Results<unknown>): number {
  if (typeof result.rowCount === 'number') return result.rowCount
  return result.affectedRows || result.rows.length
}

/** A closed PGlite is a store that is not there, which the API reports as 503 like a lost server. */
async function guard<T>(pglite: PGlite, run: () => Promise<T>): Promise<T> {
  if (pglite.closed) throw new StoreUnavailableError('the embedded database is closed')
  try {
    return await run()
  } catch (error) {
    if (pglite.closed) throw new StoreUnavailableError('the embedded database is closed', { cause: error })
    throw error
  }
}
