import { describe, expect, it } from 'vitest'
import { recountAudits } from '../../src/store/audit-counters.js'
import { insertAudits, type PolicyAuditRow, type RulesetAuditRow } from '../../src/store/audits-repository.js'
import type { Db } from '../../src/store/db.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const base = Date.UTC(2026, 10, 21, 6, 58, 30)

/** Outputs of every shape the counters must read as the triggers of 002 and 004 did, some not as the engine writes them. */
const OUTPUTS: unknown[] = [
  { passed: true, results: [] },
  { passed: false, results: [{ ruleset: 'pods', rule: 'no-latest', status: 'fail' }] },
  { passed: true, results: [{ ruleset: 'pods', rule: 'privileged', status: 'error' }, { ruleset: 'pods', rule: 'labels', status: 'pass' }] },
  { passed: false, results: [{ ruleset: 'pods', status: 'fail' }, { rule: 'orphan', status: 'fail' }, { ruleset: 'pods', rule: null, status: 'fail' }] },
  { passed: false, results: [{ ruleset: 'images', rule: 7, status: 'fail' }, { ruleset: 'images', rule: 'nul\u0000byte', status: 'fail' }] },
  { passed: false, results: 'not a list' },
  { passed: false },
  { passed: false, results: [null, 'fail', { ruleset: 'pods', rule: 'no-latest', status: 'FAIL' }] },
]

function rows(offsetMs: number, count: number): { policyAudits: PolicyAuditRow[]; rulesetAudits: RulesetAuditRow[] } {
  const policyAudits: PolicyAuditRow[] = []
  const rulesetAudits: RulesetAuditRow[] = []
  for (let i = 0; i < count; i += 1) {
    const output = OUTPUTS[i % OUTPUTS.length] as { passed: boolean }
    const updatedAt = new Date(base + offsetMs + i * 9_500)
    const common = { requestId: `c-${offsetMs}-${i}`, input: '{}', inputFormat: 'json' as const, updatedBy: 'a@b.c', updatedAt }
    policyAudits.push({ ...common, policyName: i % 3 === 0 ? 'prod' : 'dev', output: output as PolicyAuditRow['output'] })
    rulesetAudits.push({ ...common, rulesetName: i % 2 === 0 ? 'pods' : 'images', output: output as RulesetAuditRow['output'] })
  }
  return { policyAudits, rulesetAudits }
}

async function counters(db: Db): Promise<unknown[]> {
  const tables = ['policy_audit_counts', 'ruleset_audit_counts', 'policy_rule_failure_counts', 'ruleset_rule_failure_counts']
  const all: unknown[] = []
  for (const table of tables) {
    const columns = table.endsWith('_audit_counts') ? 'name, span, bucket, audits::int, failed::int' : 'name, span, bucket, ruleset, rule, failures::int'
    all.push((await db.query(`SELECT '${table}' AS t, ${columns} FROM ${table} ORDER BY 2, 3, 4${table.endsWith('_audit_counts') ? '' : ', 5, 6'}`)).rows)
  }
  return all
}

describe.each(testDatabases())('audit counters kept by the writer ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)

  it('are exactly what counting the stored rows gives, across batches sharing buckets', async () => {
    await resetTestDatabase(database.db)
    await insertAudits(database.db, rows(0, 40))
    await insertAudits(database.db, rows(120_000, 40))
    await database.db.transaction((tx) => insertAudits(tx, rows(3_500_000, 17)))
    const written = await counters(database.db)
    expect((written[2] as unknown[]).length).toBeGreaterThan(0)
    await recountAudits(database.db)
    expect(await counters(database.db)).toEqual(written)
  })
})
