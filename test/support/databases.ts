import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import pg from 'pg'
import { afterAll, beforeAll, beforeEach, inject } from 'vitest'
import type { Db } from '../../src/store/db.js'
import { migrate } from '../../src/store/migrate.js'
import { PgliteDb } from '../../src/store/pglite-db.js'
import { PostgresDb } from '../../src/store/postgres-db.js'
import './provided-context.js'

export type AdapterKind = Db['kind']

export interface TestDatabaseTarget {
  kind: AdapterKind
}

/** Both adapters, for `describe.each(testDatabases())('... ($kind)', ...)`. */
export function testDatabases(): TestDatabaseTarget[] {
  return [{ kind: 'pglite' }, { kind: 'postgres' }]
}

export interface TestDatabase {
  kind: AdapterKind
  db: Db
  /** PostgreSQL: this database's URL, to open more connections (a second replica); PGlite: undefined. */
  url: string | undefined
  /** Closes the Db and, on PostgreSQL, drops the database. */
  dispose(): Promise<void>
}

/**
 * A database of its own: migrated (copied from the run's template) unless `migrated: false`,
 * which gives an empty one for migration tests.
 */
export async function createTestDatabase(kind: AdapterKind, options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true
  if (kind === 'pglite') {
    const templateFile = inject(migrated ? 'verdictPgliteTemplate' : 'verdictPgliteBlank') as string | undefined
    // The vitest project of the files that mock modules runs without database-setup: made here, as the template was.
    if (templateFile === undefined) {
      const db = await PgliteDb.open('memory://')
      if (migrated) await migrate(db)
      return { kind, db, url: undefined, dispose: () => db.close() }
    }
    const db = await PgliteDb.open('memory://', { loadDataDir: new Blob([await readFile(templateFile)]) })
    return { kind, db, url: undefined, dispose: () => db.close() }
  }
  const name = `verdict_test_${randomBytes(6).toString('hex')}`
  await admin(`CREATE DATABASE ${name} TEMPLATE ${migrated ? inject('verdictPostgresTemplate') : 'template0'}`)
  const url = postgresUrl(name)
  const db = new PostgresDb({ connectionString: url })
  return {
    kind,
    db,
    url,
    async dispose() {
      await db.close()
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

/**
 * Registers beforeAll/afterAll for a database shared by the tests of one describe block.
 * Read `.db` (or `.current`) inside hooks and tests, not at collection time.
 */
export function useTestDatabase(kind: AdapterKind, options: { migrated?: boolean } = {}): { readonly db: Db; readonly current: TestDatabase } {
  let database: TestDatabase | undefined
  beforeAll(async () => {
    database = await createTestDatabase(kind, options)
  })
  afterAll(async () => {
    await database?.dispose()
  })
  const current = (): TestDatabase => {
    if (!database) throw new Error('the test database exists only inside hooks and tests')
    return database
  }
  return {
    get db() {
      return current().db
    },
    get current() {
      return current()
    },
  }
}

/**
 * A database shared by the tests of one describe block and emptied before each of them: every test
 * starts from empty tables, as on a copy of its own, for milliseconds instead of a PGlite copy's second or two.
 */
export function useEmptiedTestDatabase(kind: AdapterKind): { readonly db: Db; readonly current: TestDatabase } {
  const database = useTestDatabase(kind)
  beforeEach(() => resetTestDatabase(database.db))
  return database
}

/** Empties every Verdict table (the audit counters follow the audits' TRUNCATE), so tests sharing a database start from nothing. */
export async function resetTestDatabase(db: Db): Promise<void> {
  await db.query('TRUNCATE rulesets, policies, policy_exceptions, api_tokens, policy_audits, ruleset_audits, audit_inputs, background_verdicts RESTART IDENTITY')
}

/** Another database on the run's server, by name. */
export function postgresUrl(database: string): string {
  const url = new URL(inject('verdictPostgresAdminUrl'))
  url.pathname = `/${database}`
  return url.toString()
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('verdictPostgresAdminUrl') })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}
