import { describe, expect, it } from 'vitest'
import { auditPartitionDays } from '../../src/store/audit-partitions.js'
import { policyAuditTimeseries } from '../../src/store/audit-timeseries.js'
import { countPolicyAudits, countRulesetAudits, insertAudits, listPolicyAudits, rulesetAuditsByRequestId } from '../../src/store/audits-repository.js'
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
      const tables = await database.db.query<{ tablename: string }>(
        "SELECT relname AS tablename FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') AND NOT relispartition ORDER BY relname",
      )
      expect(tables.rows.map((row) => row.tablename)).toEqual([
        'api_tokens',
        'audit_inputs',
        'background_verdicts',
        'policies',
        'policy_audit_counts',
        'policy_audits',
        'policy_exceptions',
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
        'btree (updated_at, id)',
        'btree (request_id)',
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

  it('moves audits written before the day partitions into them without losing one', async () => {
    const database = await createTestDatabase(kind, { migrated: false })
    try {
      const before = MIGRATIONS.findIndex((migration) => migration.name === '007-partitioned-audits')
      await migrate(database.db, MIGRATIONS.slice(0, before))
      // As the writer of 006 stored them: inputs once per request id, rows pointing to them (NULL) or inline.
      await database.db.query(
        `INSERT INTO audit_inputs (request_id, input, input_format) VALUES
           ('r1', '{"kind":"Pod","metadata":{"name":"one"}}', 'json'), ('r2', 'kind: Pod', 'yaml'), ('r3', '{"kind":"Service"}', 'json')`,
      )
      await database.db.query(
        `INSERT INTO policy_audits (request_id, policy_name, input, input_format, output, passed, updated_at, updated_by, source) VALUES
           ('r1', 'prod', NULL, 'json', '{"policy":"prod","passed":false,"results":[{"ruleset":"pods","rule":"no-latest","status":"fail"}]}', false, '2026-11-19T23:59:59.999Z', 'alice', 'api'),
           ('r2', 'prod', NULL, 'yaml', '{"policy":"prod","passed":true,"results":[]}', true, '2026-11-20T00:00:00.000Z', 'bob', 'admission'),
           ('r3', 'dev', NULL, 'json', '{"policy":"dev","passed":true,"results":[]}', true, '2026-11-21T08:30:00.000Z', 'carol', 'background'),
           ('r1', 'dev', '{"kind":"Secret"}', 'json', '{"policy":"dev","passed":true,"results":[]}', true, '2026-11-21T09:00:00.000Z', 'alice', 'api')`,
      )
      await database.db.query(
        `INSERT INTO ruleset_audits (request_id, ruleset_name, input, input_format, output, passed, updated_at, updated_by) VALUES
           ('r1', 'pods', NULL, 'json', '{"ruleset":"pods","passed":false,"results":[{"ruleset":"pods","rule":"no-latest","status":"fail"}]}', false, '2026-11-19T23:59:59.999Z', 'alice'),
           ('r2', 'pods', NULL, 'yaml', '{"ruleset":"pods","passed":true,"results":[]}', true, '2026-11-20T00:00:00.000Z', 'bob')`,
      )
      expect(await migrate(database.db)).toEqual({ applied: ALL.slice(before) })

      const all = { name: '*', start: new Date('2026-11-19T00:00:00Z'), end: new Date('2026-11-21T23:59:59.999Z') }
      const listed = await listPolicyAudits(database.db, { ...all, page: 1, pageSize: 10 })
      expect(listed.map((record) => [record.requestId, record.policyName, record.input, record.inputFormat, record.updatedAt, record.updatedBy])).toEqual([
        ['r1', 'dev', '{"kind":"Secret"}', 'json', '2026-11-21T09:00:00.000Z', 'alice'],
        ['r3', 'dev', '{"kind":"Service"}', 'json', '2026-11-21T08:30:00.000Z', 'carol'],
        ['r2', 'prod', 'kind: Pod', 'yaml', '2026-11-20T00:00:00.000Z', 'bob'],
        ['r1', 'prod', '{"kind":"Pod","metadata":{"name":"one"}}', 'json', '2026-11-19T23:59:59.999Z', 'alice'],
      ])
      expect(listed[3]?.output).toEqual({ policy: 'prod', passed: false, results: [{ ruleset: 'pods', rule: 'no-latest', status: 'fail' }] })
      expect((await rulesetAuditsByRequestId(database.db, 'r2')).map((record) => record.input)).toEqual(['kind: Pod'])
      expect(await listPolicyAudits(database.db, { ...all, page: 1, pageSize: 10, source: 'admission' })).toHaveLength(1)
      expect([await countPolicyAudits(database.db, all), await countRulesetAudits(database.db, all), await countPolicyAudits(database.db, { ...all, name: 'prod' })]).toEqual([4, 2, 2])
      const series = await policyAuditTimeseries(database.db, { ...all, intervalSeconds: 86_400 })
      expect(series.buckets.map((bucket) => [bucket.total, bucket.failed])).toEqual([[1, 1], [1, 0], [2, 0]])
      expect(series.topFailingRules).toEqual([{ ruleset: 'pods', rule: 'no-latest', failures: 1 }])
      expect(await auditPartitionDays(database.db)).toEqual(expect.arrayContaining(['2026-11-19', '2026-11-20', '2026-11-21']))
      const leftovers = await database.db.query("SELECT 1 FROM pg_class WHERE relname LIKE '%before_007%'")
      expect(leftovers.rowCount).toBe(0)

      // Ids go on from where the old tables left them, and the partitioned tables are what the writer writes to now.
      await insertAudits(database.db, { policyAudits: [{ requestId: 'r4', policyName: 'prod', input: '{}', inputFormat: 'json', output: { policy: 'prod', passed: true, results: [] }, updatedBy: 'dan', updatedAt: new Date('2026-11-21T10:00:00Z') }], rulesetAudits: [] })
      const ids = await database.db.query<{ request_id: string; id: number }>('SELECT request_id, id::int AS id FROM policy_audits ORDER BY id')
      expect(ids.rows.map((row) => row.request_id)).toEqual(['r1', 'r2', 'r3', 'r1', 'r4'])
      expect(ids.rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 5])
      expect(await countPolicyAudits(database.db, all)).toBe(5)
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
