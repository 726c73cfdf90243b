import { describe, expect, it } from 'vitest'
import { auditPartitionDays, createAuditPartitions, dropAuditPartitionsBefore, ensureAuditPartitions } from '../../src/store/audit-partitions.js'
import { policyAuditTimeseries } from '../../src/store/audit-timeseries.js'
import {
  countPolicyAudits,
  countRulesetAudits,
  insertAudits,
  listPolicyAudits,
  rulesetAuditsByRequestId,
  type PolicyAuditRow,
  type RulesetAuditRow,
} from '../../src/store/audits-repository.js'
import { PostgresDb } from '../../src/store/postgres-db.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const DAY_MS = 86_400_000
const FIRST_DAY = Date.UTC(2026, 10, 18)
const ALL_TIME = { start: new Date(0), end: new Date('2100-01-01T00:00:00.000Z') }

/** Rows over four UTC days (18 to 21 November), some failing a rule, the last of each day a millisecond before midnight. */
function spread(): { policyAudits: PolicyAuditRow[]; rulesetAudits: RulesetAuditRow[] } {
  const policyAudits: PolicyAuditRow[] = []
  const rulesetAudits: RulesetAuditRow[] = []
  for (let day = 0; day < 4; day += 1) {
    for (let i = 0; i < 12; i += 1) {
      const updatedAt = new Date(i === 11 ? FIRST_DAY + (day + 1) * DAY_MS - 1 : FIRST_DAY + day * DAY_MS + i * 7_300_000)
      const failing = (day + i) % 3 === 0
      const results = failing ? [{ ruleset: 'pods', rule: i % 2 === 0 ? 'no-latest' : 'team-label', status: 'fail' as const, severity: 'medium' as const, message: 'no' }] : []
      const requestId = `d${day}-${i}`
      const common = { requestId, input: `{"kind":"Pod","metadata":{"name":"${requestId}"}}`, inputFormat: 'json' as const, updatedBy: 'alice@example.com', updatedAt }
      policyAudits.push({ ...common, policyName: i % 2 === 0 ? 'prod-web' : 'prod-db', output: { policy: 'p', passed: !failing, results } })
      rulesetAudits.push({ ...common, rulesetName: 'pods', output: { ruleset: 'pods', passed: !failing, results } })
    }
  }
  return { policyAudits, rulesetAudits }
}

/** The timeseries by day of what `rows` hold, as the API defines it. */
function byDay(rows: readonly PolicyAuditRow[], name: string) {
  const mine = rows.filter((row) => name === '*' || row.policyName === name)
  const buckets = [0, 1, 2, 3].map((day) => {
    const start = FIRST_DAY + day * DAY_MS
    const inside = mine.filter((row) => (row.updatedAt as Date).getTime() >= start && (row.updatedAt as Date).getTime() < start + DAY_MS)
    const failed = inside.filter((row) => !row.output.passed).length
    return { start: new Date(start).toISOString(), total: inside.length, passed: inside.length - failed, failed }
  })
  const failures = new Map<string, number>()
  for (const row of mine) for (const result of row.output.results) failures.set(result.rule, (failures.get(result.rule) ?? 0) + 1)
  const topFailingRules = [...failures]
    .map(([rule, count]) => ({ ruleset: 'pods', rule, failures: count }))
    .sort((a, b) => b.failures - a.failures || a.rule.localeCompare(b.rule))
  return { buckets, topFailingRules }
}

describe.each(testDatabases())('audit partitions ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  const fourDays = { start: new Date(FIRST_DAY), end: new Date(FIRST_DAY + 4 * DAY_MS - 1) }

  it('holds each day in its own partition, created for the rows that need it', async () => {
    await resetTestDatabase(database.db)
    await insertAudits(database.db, spread())
    expect(await auditPartitionDays(database.db)).toEqual(expect.arrayContaining(['2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21']))
    const partitions = await database.db.query<{ name: string; n: number }>(
      `SELECT c.relname AS name, (SELECT count(*) FROM policy_audits p WHERE p.tableoid = c.oid)::int AS n
       FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
       WHERE h.inhparent = 'policy_audits'::regclass AND c.relname BETWEEN 'policy_audits_p20261118' AND 'policy_audits_p20261121' ORDER BY 1`,
    )
    expect(partitions.rows).toEqual(['18', '19', '20', '21'].map((day) => ({ name: `policy_audits_p202611${day}`, n: 12 })))
    expect(await createAuditPartitions(database.db, ['2026-11-18', '2026-12-01'])).toEqual(['2026-12-01'])
  })

  it('drops whole days that ended before the cutoff, with their counters; counts and timeseries stay right', async () => {
    await resetTestDatabase(database.db)
    const rows = spread()
    await insertAudits(database.db, rows)
    const cutoff = new Date('2026-11-20T05:00:00.000Z')
    expect(await dropAuditPartitionsBefore(database.db, cutoff)).toEqual(['2026-11-18', '2026-11-19'])
    const days = await auditPartitionDays(database.db)
    expect(days).not.toContain('2026-11-18')
    expect(days).not.toContain('2026-11-19')
    // The day holding the cutoff is kept whole, rows before the cutoff included.
    const kept = rows.policyAudits.filter((row) => (row.updatedAt as Date).getTime() >= Date.UTC(2026, 10, 20))
    expect(kept.length).toBe(24)
    expect(await countPolicyAudits(database.db, { name: '*', ...ALL_TIME })).toBe(24)
    expect(await countPolicyAudits(database.db, { name: 'prod-web', ...fourDays })).toBe(kept.filter((row) => row.policyName === 'prod-web').length)
    expect(await countRulesetAudits(database.db, { name: 'pods', ...ALL_TIME })).toBe(24)
    for (const name of ['*', 'prod-web', 'prod-db']) {
      expect(await policyAuditTimeseries(database.db, { name, ...fourDays, intervalSeconds: 86_400 }), name).toEqual(byDay(kept, name))
    }
    const listed = await listPolicyAudits(database.db, { name: '*', ...ALL_TIME, page: 3, pageSize: 10 })
    expect(listed.map((record) => record.requestId)).toEqual(['d2-3', 'd2-2', 'd2-1', 'd2-0'])
    expect(listed[0]?.input).toBe('{"kind":"Pod","metadata":{"name":"d2-3"}}')
    expect(await rulesetAuditsByRequestId(database.db, 'd1-4')).toEqual([])
    const leftover = await database.db.query<{ n: number }>(
      `SELECT ((SELECT count(*) FROM policy_audit_counts WHERE bucket < $1) + (SELECT count(*) FROM ruleset_audit_counts WHERE bucket < $1)
             + (SELECT count(*) FROM policy_rule_failure_counts WHERE bucket < $1) + (SELECT count(*) FROM audit_inputs WHERE stored_at < $1))::int AS n`,
      ['2026-11-20T00:00:00.000Z'],
    )
    expect(leftover.rows).toEqual([{ n: 0 }])
    expect(await dropAuditPartitionsBefore(database.db, cutoff)).toEqual([])
  })

  it('writes into a day another replica dropped meanwhile: the write learns the days again', async () => {
    await resetTestDatabase(database.db)
    const rows = spread()
    await ensureAuditPartitions(database.db, ['2026-11-18'])
    // What another replica's retention does: this process still believes the day is there.
    await database.db.query("SELECT verdict_drop_audit_partitions_before('2026-11-19T00:00:00Z')")
    await insertAudits(database.db, { policyAudits: rows.policyAudits.slice(0, 3), rulesetAudits: [] })
    expect(await countPolicyAudits(database.db, { name: '*', ...ALL_TIME })).toBe(3)
    expect(await auditPartitionDays(database.db)).toContain('2026-11-18')
  })

  it('makes a day whose partitions carry every index and constraint of their table', async () => {
    await resetTestDatabase(database.db)
    await createAuditPartitions(database.db, ['2026-12-01'])
    for (const parent of ['policy_audits', 'ruleset_audits', 'audit_inputs']) {
      const partition = `${parent}_p20261201`
      const indexes = await database.db.query<{ parent_index: string }>(
        `SELECT p.relname AS parent_index FROM pg_index x JOIN pg_inherits h ON h.inhrelid = x.indexrelid JOIN pg_class p ON p.oid = h.inhparent
         WHERE x.indrelid = $1::regclass ORDER BY 1`,
        [partition],
      )
      const parentIndexes = await database.db.query<{ relname: string }>('SELECT c.relname FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid WHERE x.indrelid = $1::regclass ORDER BY 1', [parent])
      expect(indexes.rows.map((row) => row.parent_index)).toEqual(parentIndexes.rows.map((row) => row.relname))
      const constraints = (table: string) =>
        database.db.query<{ conname: string; definition: string }>(
          "SELECT conname, pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conrelid = $1::regclass AND contype IN ('c', 'p') ORDER BY 1",
          [table],
        )
      const own = (await constraints(partition)).rows
      expect(own.filter((row) => !row.conname.endsWith('_pkey'))).toEqual((await constraints(parent)).rows.filter((row) => !row.conname.endsWith('_pkey')))
      expect(own.filter((row) => row.conname.endsWith('_pkey')).map((row) => row.definition)).toEqual((await constraints(parent)).rows.filter((row) => row.conname.endsWith('_pkey')).map((row) => row.definition))
      const compression = (table: string) =>
        database.db.query<{ attname: string; attcompression: string }>('SELECT attname, attcompression FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum', [table])
      expect((await compression(partition)).rows).toEqual((await compression(parent)).rows)
      const bounds = await database.db.query<{ bound: string }>('SELECT pg_get_expr(relpartbound, oid) AS bound FROM pg_class WHERE oid = $1::regclass', [partition])
      expect(bounds.rows[0]?.bound).toMatch(/^FOR VALUES FROM \('2026-12-01 00:00:00\+00'\) TO \('2026-12-02 00:00:00\+00'\)$/)
    }
  })

  it('gives every day of the audit tables the counter triggers: days that existed before migration 010 and days made after', async () => {
    await resetTestDatabase(database.db)
    await createAuditPartitions(database.db, ['2099-12-03'])
    const partitions = await database.db.query<{ parent: string; partition: string; made_before: boolean }>(
      `SELECT p.relname AS parent, c.relname AS partition, c.relname <> p.relname || '_p20991203' AS made_before
       FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid JOIN pg_class p ON p.oid = h.inhparent
       WHERE p.relname IN ('policy_audits', 'ruleset_audits') ORDER BY 1, 2`,
    )
    // The migrations made today's days (migration 007); this test makes 3 December 2099.
    expect(partitions.rows.some((row) => row.made_before)).toBe(true)
    expect(partitions.rows.filter((row) => !row.made_before)).toHaveLength(2)
    for (const { parent, partition } of partitions.rows) {
      const counts = parent === 'policy_audits' ? 'policy_audit_counts' : 'ruleset_audit_counts'
      const triggers = await database.db.query<{ tgname: string }>('SELECT tgname FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal AND tgparentid = 0 ORDER BY 1', [partition])
      expect(triggers.rows.map((row) => row.tgname), partition).toEqual([`${counts}_clear_day`, `${counts}_subtract`])
    }
  })

  it.runIf(kind === 'postgres')('makes a day while another transaction is writing audits, without waiting for it', async () => {
    await resetTestDatabase(database.db)
    await createAuditPartitions(database.db, ['2026-11-18'])
    const writer = new PostgresDb({ connectionString: database.current.url as string })
    try {
      await writer.transaction(async (tx) => {
        await insertAudits(tx, { policyAudits: spread().policyAudits.slice(0, 2), rulesetAudits: [] })
        // The writer's transaction holds the audit tables ROW EXCLUSIVE until it ends; making a
        // day must not need a lock that conflicts with that, or every writer would wait for it.
        const made = await database.db.transaction(async (other) => {
          await other.query("SET LOCAL lock_timeout = '3s'")
          return createAuditPartitions(other, ['2026-12-02'])
        })
        expect(made).toEqual(['2026-12-02'])
      })
    } finally {
      await writer.close()
    }
    expect(await countPolicyAudits(database.db, { name: '*', ...ALL_TIME })).toBe(2)
  })
})
