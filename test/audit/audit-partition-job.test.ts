import { beforeEach, describe, expect, it } from 'vitest'
import { startAuditPartitionJob } from '../../src/audit/audit-partition-job.js'
import { auditPartitionDays } from '../../src/store/audit-partitions.js'
import { countPolicyAudits, insertAudits, type PolicyAuditRow } from '../../src/store/audits-repository.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const NOW = new Date('2026-11-21T12:00:00.000Z')
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000)
const ALL_TIME = { name: '*', start: new Date(0), end: new Date('2100-01-01T00:00:00.000Z') }

function row(requestId: string, updatedAt: Date): PolicyAuditRow {
  return { requestId, policyName: 'p', input: '{}', inputFormat: 'json', output: { policy: 'p', passed: true, results: [] }, updatedBy: 'a@b.c', updatedAt }
}

describe.each(testDatabases())('audit partition job ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  const lines: string[] = []
  const logger = { info: (_fields: object, message: string) => void lines.push(message), error: (_fields: object, message: string) => void lines.push(message) }

  beforeEach(async () => {
    await resetTestDatabase(database.db)
    await database.db.query("SELECT verdict_drop_audit_partitions_before('2100-01-01T00:00:00Z')")
    lines.length = 0
    await insertAudits(database.db, { policyAudits: [row('a', daysAgo(40)), row('b', daysAgo(35)), row('c', daysAgo(31)), row('d', daysAgo(2))], rulesetAudits: [] })
  })

  it('on the leader creates the days ahead and drops the days older than the retention, and logs both', async () => {
    const job = startAuditPartitionJob({ db: database.db, retentionDays: 30, isLeader: () => true, logger, now: () => NOW, firstRunMs: 3_600_000 })
    expect(await job.runOnce()).toEqual({ created: ['2026-11-21', '2026-11-22', '2026-11-23'], dropped: ['2026-10-12', '2026-10-17', '2026-10-21'] })
    expect(await auditPartitionDays(database.db)).toEqual(['2026-11-19', '2026-11-21', '2026-11-22', '2026-11-23'])
    expect(await countPolicyAudits(database.db, ALL_TIME)).toBe(1)
    expect(lines).toEqual(['audit partitions created ahead', 'expired audit days dropped'])
    expect(await job.runOnce()).toEqual({ created: [], dropped: [] })
    expect(lines).toHaveLength(2)
    await job.stop()
  })

  it('keeps the day holding the cutoff whole', async () => {
    await insertAudits(database.db, { policyAudits: [row('edge', daysAgo(30.4)), row('inside', daysAgo(29.9))], rulesetAudits: [] })
    const job = startAuditPartitionJob({ db: database.db, retentionDays: 30, isLeader: () => true, logger, now: () => NOW, firstRunMs: 3_600_000 })
    await job.runOnce()
    // 30.4 days before NOW is 2026-10-22T02:24Z: older than the cutoff (10-22T12:00Z), but in the day that holds it.
    expect(await countPolicyAudits(database.db, ALL_TIME)).toBe(3)
    await job.stop()
  })

  it('only creates ahead with retention 0, and does nothing on a replica that is not the leader, nor once stopped', async () => {
    const follower = startAuditPartitionJob({ db: database.db, retentionDays: 30, isLeader: () => false, logger, now: () => NOW, firstRunMs: 3_600_000 })
    expect(await follower.runOnce()).toBeUndefined()
    await follower.stop()
    const forever = startAuditPartitionJob({ db: database.db, retentionDays: 0, isLeader: () => true, logger, now: () => NOW, firstRunMs: 3_600_000 })
    expect(await forever.runOnce()).toEqual({ created: ['2026-11-21', '2026-11-22', '2026-11-23'], dropped: [] })
    await forever.stop()
    const stopped = startAuditPartitionJob({ db: database.db, retentionDays: 30, isLeader: () => true, logger, now: () => NOW, firstRunMs: 3_600_000 })
    await stopped.stop()
    expect(await stopped.runOnce()).toBeUndefined()
    expect(await countPolicyAudits(database.db, ALL_TIME)).toBe(4)
  })

  it('runs by itself on its timer', async () => {
    const job = startAuditPartitionJob({ db: database.db, retentionDays: 30, isLeader: () => true, logger, now: () => NOW, firstRunMs: 1, everyMs: 3_600_000 })
    while ((await countPolicyAudits(database.db, ALL_TIME)) !== 1) await new Promise((resolve) => setTimeout(resolve, 10))
    await job.stop()
    expect(lines).toEqual(['audit partitions created ahead', 'expired audit days dropped'])
  })
})
