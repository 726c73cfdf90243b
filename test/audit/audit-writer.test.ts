import { setImmediate as nextTurn } from 'node:timers/promises'
import { beforeEach, describe, expect, it } from 'vitest'
import { AuditWriter, type BatchReport } from '../../src/audit/audit-writer.js'
import {
  countPolicyAudits,
  countRulesetAudits,
  policyAuditByRequestId,
  type AuditRows,
  type InputFormat,
} from '../../src/store/audits-repository.js'
import { StoreUnavailableError } from '../../src/store/db.js'
import { CountingDb } from '../support/counting-db.js'
import { resetTestDatabase, testDatabases, useTestDatabase } from '../support/databases.js'

const ALL_TIME = { name: '*', start: new Date(0), end: new Date('2100-01-01T00:00:00.000Z') }

/** One policy evaluation: a policy audit and two ruleset audits under one request id. */
function evaluation(requestId: string, inputFormat: InputFormat = 'json'): AuditRows {
  const common = { requestId, input: `{"n":"${requestId}"}`, inputFormat, updatedBy: 'load@example.com' }
  return {
    policyAudits: [{ ...common, policyName: 'p', output: { policy: 'p', passed: true, results: [] } }],
    rulesetAudits: [
      { ...common, rulesetName: 'r1', output: { ruleset: 'r1', passed: true, results: [] } },
      { ...common, rulesetName: 'r2', output: { ruleset: 'r2', passed: true, results: [] } },
    ],
  }
}

describe.each(testDatabases())('AuditWriter ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  let db: CountingDb

  beforeEach(async () => {
    await resetTestDatabase(database.db)
    db = new CountingDb(database.db)
  })

  it('commits 200 concurrent writes in far fewer statements, each resolving only after its commit', async () => {
    const writer = new AuditWriter(db)
    const writes: Promise<void>[] = []
    const resolvedBeforeCommit: string[] = []
    for (let index = 0; index < 200; index += 1) {
      const id = `req-${index}`
      writes.push(
        writer.write(evaluation(id)).then(() => {
          if (!db.committed.has(id)) resolvedBeforeCommit.push(id)
        }),
      )
      // Requests arrive over many turns of the event loop, as HTTP requests do.
      if (index % 10 === 9) await nextTurn()
    }
    await Promise.all(writes)
    expect(resolvedBeforeCommit).toEqual([])
    expect(db.committed.size).toBe(200)
    expect(db.auditWrites).toBeGreaterThanOrEqual(1)
    expect(db.auditWrites).toBeLessThanOrEqual(20)
    expect(db.batchSizes.reduce((sum, size) => sum + size, 0)).toBe(200)
    expect(await countPolicyAudits(database.db, ALL_TIME)).toBe(200)
    expect(await countRulesetAudits(database.db, ALL_TIME)).toBe(400)
    await writer.close()
  })

  it('puts writes made while every slot is busy into the next batch', async () => {
    const writer = new AuditWriter(db, { maxInFlight: 1 })
    const first = writer.write(evaluation('first'))
    await nextTurn()
    // The first batch has started; these three wait for it and then share one.
    const rest = [writer.write(evaluation('a')), writer.write(evaluation('b')), writer.write(evaluation('c'))]
    await Promise.all([first, ...rest])
    expect(db.batchSizes).toEqual([1, 3])
    await writer.close()
  })

  it('starts a second batch while the first is in flight, and no third while both are', async () => {
    const writer = new AuditWriter(db, { maxInFlight: 2 })
    const release = db.holdWrites()
    const writes = [writer.write(evaluation('first'))]
    await nextTurn()
    expect(db.auditWrites).toBe(1)
    writes.push(writer.write(evaluation('a')), writer.write(evaluation('b')))
    await nextTurn()
    expect(db.auditWrites).toBe(2)
    writes.push(writer.write(evaluation('c')))
    await nextTurn()
    expect(db.auditWrites).toBe(2)
    expect(writer.queueDepth).toBe(4)
    release()
    await Promise.all(writes)
    expect([...db.batchSizes].sort()).toEqual([1, 1, 2])
    expect(await countPolicyAudits(database.db, ALL_TIME)).toBe(4)
    await writer.close()
  })

  it('never puts more than maxBatch writes in one batch', async () => {
    const writer = new AuditWriter(db, { maxBatch: 10, maxInFlight: 1 })
    await Promise.all(Array.from({ length: 25 }, (_, index) => writer.write(evaluation(`req-${index}`))))
    expect(db.batchSizes).toEqual([10, 10, 5])
    await writer.close()
  })

  it('waits up to maxWaitMs for company when idle', async () => {
    const writer = new AuditWriter(db, { maxWaitMs: 200 })
    const first = writer.write(evaluation('early'))
    await nextTurn()
    await nextTurn()
    const second = writer.write(evaluation('late'))
    await Promise.all([first, second])
    expect(db.batchSizes).toEqual([2])
    await writer.close()
  })

  it('rejects every write of a failed batch with the store error, then carries on', async () => {
    const outage = new StoreUnavailableError('database unavailable: connect ECONNREFUSED')
    db.failNext(outage)
    const reports: BatchReport[] = []
    const writer = new AuditWriter(db, { onBatch: (report) => reports.push(report) })
    const outcomes = await Promise.allSettled(['x1', 'x2', 'x3', 'x4', 'x5'].map((id) => writer.write(evaluation(id))))
    expect(outcomes).toEqual(Array.from({ length: 5 }, () => ({ status: 'rejected', reason: outage })))
    expect(db.auditWrites).toBe(1)
    expect(await countPolicyAudits(database.db, ALL_TIME)).toBe(0)
    await writer.write(evaluation('after'))
    expect(await policyAuditByRequestId(database.db, 'after')).toBeDefined()
    expect(reports.map((report) => ({ entries: report.entries, rows: report.rows, failed: report.error !== undefined }))).toEqual([
      { entries: 5, rows: 15, failed: true },
      { entries: 1, rows: 3, failed: false },
    ])
    await writer.close()
  })

  it('a failed batch does not take the writes queued behind it down', async () => {
    const outage = new StoreUnavailableError('database unavailable')
    db.failNext(outage)
    const writer = new AuditWriter(db)
    const doomed = writer.write(evaluation('doomed')).catch((error: unknown) => error)
    await nextTurn()
    const next = writer.write(evaluation('next'))
    expect(await doomed).toBe(outage)
    await expect(next).resolves.toBeUndefined()
    expect(await policyAuditByRequestId(database.db, 'next')).toBeDefined()
    await writer.close()
  })

  it('a record the database refuses fails only its own write, not the batch it shared', async () => {
    const writer = new AuditWriter(db)
    // Deliberately outside the type: the CHECK constraint on input_format refuses it.
    const poisoned = evaluation('poisoned', 'xml' as unknown as InputFormat)
    const outcomes = await Promise.allSettled([writer.write(evaluation('ok-1')), writer.write(poisoned), writer.write(evaluation('ok-2'))])
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(((outcomes[1] as PromiseRejectedResult).reason as { code?: string }).code).toBe('23514')
    expect([...db.committed].sort()).toEqual(['ok-1', 'ok-2'])
    expect(await countPolicyAudits(database.db, ALL_TIME)).toBe(2)
    await writer.close()
  })

  it('resolves an empty write at once without a statement', async () => {
    const writer = new AuditWriter(db)
    await writer.write({ policyAudits: [], rulesetAudits: [] })
    await writer.flush()
    expect(db.auditWrites).toBe(0)
    await writer.close()
  })

  it('flush waits for queued writes; close drains and then refuses new writes', async () => {
    const writer = new AuditWriter(db, { maxWaitMs: 10_000 })
    const pending = [writer.write(evaluation('q1')), writer.write(evaluation('q2'))]
    expect(writer.queueDepth).toBe(2)
    // flush does not sit out maxWaitMs.
    await writer.flush()
    expect(db.committed.size).toBe(2)
    expect(writer.queueDepth).toBe(0)
    await Promise.all(pending)
    const last = writer.write(evaluation('q3'))
    await writer.close()
    await expect(last).resolves.toBeUndefined()
    expect(db.committed.has('q3')).toBe(true)
    await expect(writer.write(evaluation('too-late'))).rejects.toThrow(/closed/)
    await writer.flush()
  })
})
