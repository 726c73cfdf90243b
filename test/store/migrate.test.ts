import { describe, expect, it } from 'vitest'
import { migrate } from '../../src/store/migrate.js'
import { MIGRATIONS } from '../../src/store/migrations/index.js'
import { PostgresDb } from '../../src/store/postgres-db.js'
import { createTestDatabase, testDatabases } from '../support/databases.js'

const ALL = MIGRATIONS.map((migration) => migration.name)

describe.each(testDatabases())('migrate ($kind)', ({ kind }) => {
  it('applies every migration to an empty database, then nothing the second time', async () => {
    const database = await createTestDatabase(kind, { migrated: false })
    try {
      expect(await migrate(database.db)).toEqual({ applied: ALL })
      expect(await migrate(database.db)).toEqual({ applied: [] })
      const recorded = await database.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')
      expect(recorded.rows.map((row) => row.name)).toEqual(ALL)
    } finally {
      await database.dispose()
    }
  })

  it('creates the tables and the indexes the audit queries rely on', async () => {
    const database = await createTestDatabase(kind, { migrated: false })
    try {
      await migrate(database.db)
      const tables = await database.db.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
      expect(tables.rows.map((row) => row.tablename)).toEqual([
        'api_tokens',
        'audit_inputs',
        'background_verdicts',
        'policies',
        'policy_audit_counts',
        'policy_audits',
        'policy_rule_failure_counts',
        'ruleset_audit_counts',
        'ruleset_audits',
        'ruleset_rule_failure_counts',
        'rulesets',
        'schema_migrations',
      ])
      const indexes = await database.db.query<{ indexdef: string }>(
        "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'policy_audits' ORDER BY indexname",
      )
      expect(indexes.rows.map((row) => row.indexdef.replace(/^.* USING /, ''))).toEqual([
        'btree (policy_name, updated_at DESC) WHERE (NOT passed)',
        'btree (policy_name, updated_at DESC, id DESC)',
        'btree (id)',
        'btree (request_id)',
        'btree (updated_at DESC, id DESC)',
      ])
    } finally {
      await database.dispose()
    }
  })

  it('counts audits written before the counters existed', async () => {
    const database = await createTestDatabase(kind, { migrated: false })
    try {
      await migrate(database.db, MIGRATIONS.slice(0, 1))
      await database.db.query(
        `INSERT INTO policy_audits (request_id, policy_name, input, input_format, output, passed, updated_at, updated_by)
         VALUES ('r1', 'p', '{}', 'json', '{}', true, '2026-11-21T07:00:00Z', 'a'), ('r2', 'p', '{}', 'json', '{}', true, '2026-11-21T07:59:59Z', 'a')`,
      )
      expect(await migrate(database.db)).toEqual({ applied: ALL.slice(1) })
      const counters = await database.db.query('SELECT name, span, bucket, audits FROM policy_audit_counts ORDER BY name, span, bucket')
      expect(counters.rows).toEqual([
        { name: '', span: 60, bucket: new Date('2026-11-21T07:00:00Z'), audits: 1 },
        { name: '', span: 60, bucket: new Date('2026-11-21T07:59:00Z'), audits: 1 },
        { name: '', span: 3600, bucket: new Date('2026-11-21T07:00:00Z'), audits: 2 },
        { name: 'p', span: 60, bucket: new Date('2026-11-21T07:00:00Z'), audits: 1 },
        { name: 'p', span: 60, bucket: new Date('2026-11-21T07:59:00Z'), audits: 1 },
        { name: 'p', span: 3600, bucket: new Date('2026-11-21T07:00:00Z'), audits: 2 },
      ])
    } finally {
      await database.dispose()
    }
  })

  it('rolls back a failing migration whole and does not record it', async () => {
    const database = await createTestDatabase(kind, { migrated: false })
    try {
      const broken = [...MIGRATIONS, { name: '999-broken', sql: 'CREATE TABLE half_done (a int); SELECT no_such_column FROM half_done' }]
      await expect(migrate(database.db, broken)).rejects.toMatchObject({ code: '42703' })
      const leftovers = await database.db.query("SELECT 1 FROM pg_tables WHERE tablename = 'half_done'")
      expect(leftovers.rowCount).toBe(0)
      const recorded = await database.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')
      expect(recorded.rows.map((row) => row.name)).toEqual(ALL)
    } finally {
      await database.dispose()
    }
  })

  it('is safe when two starts migrate at once: each migration is applied exactly once', async () => {
    const database = await createTestDatabase(kind, { migrated: false })
    // On PostgreSQL the second start is a second pool, as a second replica would have.
    const second = database.url ? new PostgresDb({ connectionString: database.url }) : database.db
    try {
      const results = await Promise.all([migrate(database.db), migrate(second), migrate(database.db)])
      expect(results.flatMap((result) => result.applied).sort()).toEqual(ALL)
      const recorded = await database.db.query('SELECT name FROM schema_migrations')
      expect(recorded.rowCount).toBe(ALL.length)
    } finally {
      if (second !== database.db) await second.close()
      await database.dispose()
    }
  })
})
