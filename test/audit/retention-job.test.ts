import { beforeEach, describe, expect, it } from 'vitest'
import { startRetentionJob } from '../../src/audit/retention-job.js'
import { countPolicyAudits, insertAudits, type PolicyAuditRow } from '../../src/store/audits-repository.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const NOW = new Date('2026-11-21T12:00:00.000Z')
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000)
const ALL_TIME = { name: '*', start: new Date(0), end: new Date('2100-01-01T00:00:00.000Z') }

function row(requestId: string, updatedAt: Date): PolicyAuditRow {
  return { requestId, policyName: 'p', input: '{}', inputFormat: 'json', output: { policy: 'p', passed: true, results: [] }, updatedBy: 'a@b.c', updatedAt }
}

describe.each(testDatabases())('retention job ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  const lines: string[] = []
  const logger = { info: (_fields: object, message: string) => void lines.push(message), error: (_fields: object, message: string) => void lines.push(message) }

  beforeEach(async () => {
    await resetTestDatabase(database.db)
    lines.length = 0
    await insertAudits(database.db, { policyAudits: [row('a', daysAgo(40)), row('b', daysAgo(35)), row('c', daysAgo(31)), row('d', daysAgo(2))], rulesetAudits: [] })
  })

  it('on the leader deletes what is older than the retention, in batches, and logs it', async () => {
    const job = startRetentionJob({ db: database.db, retentionDays: 30, isLeader: () => true, logger, batchSize: 2, now: () => NOW, firstRunMs: 3_600_000 })
    expect(await job.runOnce()).toEqual({ policyAudits: 3, rulesetAudits: 0 })
    expect(await countPolicyAudits(database.db, ALL_TIME)).toBe(1)
    expect(lines).toEqual(['expired audits deleted'])
    expect(await job.runOnce()).toEqual({ policyAudits: 0, rulesetAudits: 0 })
    expect(lines).toEqual(['expired audits deleted'])
    await job.stop()
  })

  it('does nothing on a replica that is not the leader, nor with retention 0, nor once stopped', async () => {
    const follower = startRetentionJob({ db: database.db, retentionDays: 30, isLeader: () => false, logger, now: () => NOW, firstRunMs: 3_600_000 })
    expect(await follower.runOnce()).toBeUndefined()
    await follower.stop()
    const forever = startRetentionJob({ db: database.db, retentionDays: 0, isLeader: () => true, logger, now: () => NOW, firstRunMs: 3_600_000 })
    expect(await forever.runOnce()).toBeUndefined()
    await forever.stop()
    const stopped = startRetentionJob({ db: database.db, retentionDays: 30, isLeader: () => true, logger, now: () => NOW, firstRunMs: 3_600_000 })
    await stopped.stop()
    expect(await stopped.runOnce()).toBeUndefined()
    expect(await countPolicyAudits(database.db, ALL_TIME)).toBe(4)
  })

  it('runs by itself on its timer', async () => {
    const job = startRetentionJob({ db: database.db, retentionDays: 30, isLeader: () => true, logger, now: () => NOW, firstRunMs: 1, everyMs: 3_600_000 })
    while ((await countPolicyAudits(database.db, ALL_TIME)) !== 1) await new Promise((resolve) => setTimeout(resolve, 10))
    await job.stop()
    expect(lines).toEqual(['expired audits deleted'])
  })
})
