import { describe, expect, it } from 'vitest'
import { deleteAuditsOlderThan, retentionCutoff } from '../../src/store/audit-retention.js'
import { insertAudits, listPolicyAudits, rulesetAuditsByRequestId, type PolicyAuditRow } from '../../src/store/audits-repository.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const day = (n: number) => new Date(Date.UTC(2026, 10, n, 12))

function row(requestId: string, updatedAt: Date): PolicyAuditRow {
  return { requestId, policyName: 'p', input: '{}', inputFormat: 'json', output: { policy: 'p', passed: true, results: [] }, updatedBy: 'a@b.c', updatedAt }
}

describe('retentionCutoff', () => {
  it('is the given number of days before now', () => {
    expect(retentionCutoff(new Date('2026-11-21T07:00:00.000Z'), 30).toISOString()).toBe('2026-10-22T07:00:00.000Z')
  })
})

describe.each(testDatabases())('deleteAuditsOlderThan ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)

  it('deletes policy and ruleset audits strictly older than the cutoff, in batches, and reports how many', async () => {
    await resetTestDatabase(database.db)
    const policyAudits = [row('old-1', day(1)), row('old-2', day(2)), row('old-3', day(3)), row('edge', day(10)), row('new', day(20))]
    const rulesetAudits = policyAudits.map((entry) => ({ ...entry, rulesetName: 'r', output: { ruleset: 'r', passed: true, results: [] } }))
    await insertAudits(database.db, { policyAudits, rulesetAudits })
    expect(await deleteAuditsOlderThan(database.db, day(10), { batchSize: 2 })).toEqual({ policyAudits: 3, rulesetAudits: 3 })
    const left = await listPolicyAudits(database.db, { name: '*', start: day(0), end: day(30), page: 1, pageSize: 10 })
    expect(left.map((record) => record.requestId)).toEqual(['new', 'edge'])
    expect(await rulesetAuditsByRequestId(database.db, 'old-1')).toEqual([])
    expect((await rulesetAuditsByRequestId(database.db, 'edge')).length).toBe(1)
    expect(await deleteAuditsOlderThan(database.db, day(10))).toEqual({ policyAudits: 0, rulesetAudits: 0 })
  })

  it('refuses a batch size below 1', async () => {
    await expect(deleteAuditsOlderThan(database.db, day(10), { batchSize: 0 })).rejects.toBeInstanceOf(RangeError)
  })
})
