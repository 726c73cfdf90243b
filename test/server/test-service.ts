import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config.js'
import { startServer, type RunningServer, type StartOptions } from '../../src/server/start-server.js'
import { createTestDatabase, type AdapterKind, type TestDatabase } from '../support/databases.js'

export interface TestService {
  server: RunningServer
  /** The secret of the admin token the service made on its empty store. */
  adminToken: string
  /** PostgreSQL only: the database URL, to start a second replica on it. */
  databaseUrl: string | undefined
  close(): Promise<void>
}

/** The whole service as `verdict serve` runs it, on a fresh store of the given kind, on an ephemeral port. */
export async function startTestService(kind: AdapterKind, settings: Record<string, string> = {}, options: Pick<StartOptions, 'now'> = {}): Promise<TestService> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-api-'))
  let database: TestDatabase | undefined
  let store: TestDatabase | undefined
  const env: Record<string, string> = {
    VERDICT_API_PORT: '0',
    VERDICT_WEBHOOK_PORT: '0',
    VERDICT_OPS_PORT: '0',
    VERDICT_LOG_LEVEL: 'silent',
    VERDICT_ADMIN_TOKEN_FILE: join(dir, 'admin-token'),
    VERDICT_RATE_LIMIT: '10000',
    VERDICT_RATE_BURST: '10000',
    ...settings,
  }
  if (kind === 'postgres') {
    database = await createTestDatabase('postgres')
    env.VERDICT_DATABASE_URL = database.url as string
    // The webhook's certificate and the audit spool live here, not in the working directory.
    env.VERDICT_DATA_DIR ??= join(dir, 'data')
  } else {
    env.VERDICT_DATA_DIR = 'memory://'
    // What memory:// opens, copied from the run's migrated template: an empty PGlite costs seconds of initdb and migrations.
    store = await createTestDatabase('pglite')
  }
  const server = await startServer(loadConfig(env, []), { host: '127.0.0.1', logger: false, ...options, ...(store ? { db: store.db } : {}) })
  const adminToken = (await readFile(join(dir, 'admin-token'), 'utf8')).trim()
  return {
    server,
    adminToken,
    databaseUrl: database?.url,
    async close() {
      await server.close()
      await database?.dispose()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** A second replica on the same PostgreSQL database. */
export async function startReplica(databaseUrl: string): Promise<RunningServer> {
  const dir = await mkdtemp(join(tmpdir(), 'verdict-replica-'))
  const env = { VERDICT_API_PORT: '0', VERDICT_WEBHOOK_PORT: '0', VERDICT_OPS_PORT: '0', VERDICT_DATA_DIR: join(dir, 'data'),
    VERDICT_LOG_LEVEL: 'silent', VERDICT_DATABASE_URL: databaseUrl, VERDICT_ADMIN_TOKEN_FILE: join(dir, 'admin-token') }
  return startServer(loadConfig(env, []), { host: '127.0.0.1', logger: false })
}
