import type { Db } from './db.js'
import { startEmbeddedPostgres } from './embedded/embedded-postgres-server.js'
import type { ServerLogLevel } from './embedded/server-log.js'
import { importPgliteStore, pgliteStoreOf, type PgliteImport } from './embedded/pglite-store-import.js'
import { PostgresDb } from './postgres-db.js'

export interface OpenDbOptions {
  /** PostgreSQL connection URL (`VERDICT_DATABASE_URL`); without it the embedded store is used. */
  databaseUrl?: string
  /** `VERDICT_DATA_DIR`: the embedded PostgreSQL keeps its cluster in `<dataDir>/postgres`; `memory://` keeps nothing (PGlite in memory). */
  dataDir: string
  /** Background errors with no caller to report to: dropped idle connections, listener reconnects. */
  onError?: (error: unknown) => void
  /** The embedded server's log lines, each with how much it matters. */
  onServerLog?: (line: string, level: ServerLogLevel) => void
  /** The embedded server ended on its own: nothing can be stored until Verdict starts it again. */
  onServerExit?: (code: number | null, signal: NodeJS.Signals | null) => void
  /** A store an earlier Verdict kept in PGlite was copied into the embedded server. */
  onImported?: (result: PgliteImport) => void
}

export const MEMORY_DATA_DIR = 'memory://'

/**
 * Opens the store without touching the schema (run `migrate` next).
 * - A URL: that PostgreSQL, connected lazily: an unreachable server shows up as
 *   StoreUnavailableError on the first query, not here.
 * - A directory: the embedded store, a PostgreSQL server process this one starts on
 *   `<dataDir>/postgres` (or finds running there) and stops at close. docs/memory.md says why a
 *   server process and not PostgreSQL compiled to WebAssembly in this one.
 * - `memory://`: PGlite in memory, for throwaway stores (tests, trials); loaded only then.
 */
export async function openDb(options: OpenDbOptions): Promise<Db> {
  const onError = options.onError ? { onError: options.onError } : {}
  if (options.databaseUrl) return new PostgresDb({ connectionString: options.databaseUrl, ...onError })
  if (options.dataDir === MEMORY_DATA_DIR) {
    const { PgliteDb } = await import('./pglite-db.js')
    return PgliteDb.open(MEMORY_DATA_DIR)
  }
  const server = await startEmbeddedPostgres({
    dataDir: options.dataDir,
    ...(options.onServerLog ? { onLog: options.onServerLog } : {}),
    ...(options.onServerExit ? { onUnexpectedExit: options.onServerExit } : {}),
  })
  const db = new PostgresDb({ connectionString: server.connectionString, ...onError, afterClose: () => server.stop() })
  const earlier = server.owned ? pgliteStoreOf(options.dataDir) : undefined
  if (earlier) {
    try {
      options.onImported?.(await importPgliteStore(earlier, db))
    } catch (error) {
      await db.close()
      throw new Error(`copying the store an earlier Verdict kept in ${earlier} into the embedded PostgreSQL failed, and it is left as it was: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    }
  }
  return db
}
