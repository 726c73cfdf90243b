import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Db } from './db.js'
import { PgliteDb } from './pglite-db.js'
import { PostgresDb } from './postgres-db.js'

export interface OpenDbOptions {
  /** PostgreSQL connection URL (`VERDICT_DATABASE_URL`); without it the embedded PGlite store is used. */
  databaseUrl?: string
  /** `VERDICT_DATA_DIR`: PGlite keeps its files in `<dataDir>/pgdata`; `memory://` keeps nothing. */
  dataDir: string
  /** Background errors with no caller to report to (PostgreSQL only): dropped idle connections, listener reconnects. */
  onError?: (error: unknown) => void
}

export const MEMORY_DATA_DIR = 'memory://'

/**
 * Opens the store without touching the schema (run `migrate` next). PostgreSQL connects lazily:
 * an unreachable server shows up as StoreUnavailableError on the first query, not here.
 */
export async function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.databaseUrl) {
    return new PostgresDb({ connectionString: options.databaseUrl, ...(options.onError ? { onError: options.onError } : {}) })
  }
  if (options.dataDir === MEMORY_DATA_DIR) return PgliteDb.open(MEMORY_DATA_DIR)
  await mkdir(options.dataDir, { recursive: true })
  return PgliteDb.open(join(options.dataDir, 'pgdata'))
}
