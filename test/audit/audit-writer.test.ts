import { setImmediate as nextTurn } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AuditSpool } from '../../src/audit/audit-spool.js'
import { AuditBacklogError, AuditWriter, type BatchReport, type SpoolEvent } from '../../src/audit/audit-writer.js'
import {
  countPolicyAudits,
  countRulesetAudits,
  policyAuditByRequestId,
  type AuditRows,
  type InputFormat,
} from '../../src/store/audits-repository.js'
import { auditPartitionDays, ensureAuditPartitions, utcDay } from '../../src/store/audit-partitions.js'
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
    // Today's partitions known in place, as the leader makes them ahead: the counts below are of audit statements alone.
    await ensureAuditPartitions(db, [utcDay(new Date())])
  })

  it('commits 200 concurrent writes in far fewer statements, each resolving only after its commit', async () => {
    const writer = new AuditWriter(db)
    const writes: Promise<unknown>[] = []
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
    await expect(next).resolves.toBe('committed')
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
    await expect(last).resolves.toBe('committed')
    expect(db.committed.has('q3')).toBe(true)
    await expect(writer.write(evaluation('too-late'))).rejects.toThrow(/closed/)
    await writer.flush()
  })
})

describe.each(testDatabases())('AuditWriter with a spool ($kind)', ({ kind }) => {
  const database = useTestDatabase(kind)
  let db: CountingDb
  let dir: string
  const retry = { first: 5, max: 20 }

  beforeEach(async () => {
    await resetTestDatabase(database.db)
    db = new CountingDb(database.db)
    dir = await mkdtemp(join(tmpdir(), 'verdict-writer-spool-'))
  })

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  /** Every (table, request id, name) stored, with how many times. */
  async function storedRows(): Promise<Map<string, number>> {
    const result = await database.db.query<{ key: string; n: number }>(
      `SELECT key, count(*)::int AS n FROM (
         SELECT 'policy/' || request_id || '/' || policy_name AS key FROM policy_audits
         UNION ALL SELECT 'ruleset/' || request_id || '/' || ruleset_name FROM ruleset_audits) rows
       GROUP BY key`,
    )
    return new Map(result.rows.map((row) => [row.key, row.n]))
  }

  function until(condition: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (condition()) resolve()
        else setTimeout(check, 2)
      }
      check()
    })
  }

  it('spools while the store is away, answers spooled, then replays everything once, in order, and writes directly again', async () => {
    const events: SpoolEvent['type'][] = []
    const spool = await AuditSpool.open({ dir })
    const writer = new AuditWriter(db, { spool, replayRetryMs: retry, onSpoolEvent: (event) => events.push(event.type) })
    expect(await writer.write(evaluation('before'))).toBe('committed')
    db.down = true
    const during = await Promise.all(['d1', 'd2', 'd3'].map((id) => writer.write(evaluation(id))))
    expect(during).toEqual(['spooled', 'spooled', 'spooled'])
    expect(writer.spooling).toBe(true)
    // Still away: later writes queue behind the spooled ones, never around them.
    expect(await writer.write(evaluation('d4'))).toBe('spooled')
    db.down = false
    await until(() => !writer.spooling)
    expect(spool.isEmpty).toBe(true)
    expect(await writer.write(evaluation('after'))).toBe('committed')
    const rows = await storedRows()
    for (const id of ['before', 'd1', 'd2', 'd3', 'd4', 'after']) {
      expect([rows.get(`policy/${id}/p`), rows.get(`ruleset/${id}/r1`), rows.get(`ruleset/${id}/r2`)]).toEqual([1, 1, 1])
    }
    expect(rows.size).toBe(18)
    // The replay kept the write order (ids grow with insertion).
    const order = await database.db.query<{ request_id: string }>(`SELECT request_id FROM policy_audits ORDER BY id`)
    expect(order.rows.map((row) => row.request_id)).toEqual(['before', 'd1', 'd2', 'd3', 'd4', 'after'])
    expect(events[0]).toBe('spooling')
    expect(events.at(-1)).toBe('drained')
    await writer.close()
  })

  it('replays spooled audits into a day whose partitions did not exist yet', async () => {
    const spool = await AuditSpool.open({ dir })
    const writer = new AuditWriter(db, { spool, replayRetryMs: retry })
    // Written at a moment no partition was made for (a spool replayed after midnight looks the same).
    const later = new Date('2031-03-14T23:59:59.999Z')
    const entry = evaluation('next-day')
    const stamped: AuditRows = {
      policyAudits: entry.policyAudits.map((row) => ({ ...row, updatedAt: later })),
      rulesetAudits: entry.rulesetAudits.map((row) => ({ ...row, updatedAt: later })),
    }
    expect(await auditPartitionDays(database.db)).not.toContain('2031-03-14')
    db.down = true
    expect(await writer.write(stamped)).toBe('spooled')
    db.down = false
    await until(() => !writer.spooling)
    expect(await auditPartitionDays(database.db)).toContain('2031-03-14')
    const day = { name: '*', start: new Date('2031-03-14T00:00:00.000Z'), end: later }
    expect([await countPolicyAudits(database.db, day), await countRulesetAudits(database.db, day)]).toEqual([1, 2])
    expect((await policyAuditByRequestId(database.db, 'next-day'))?.updatedAt).toBe('2031-03-14T23:59:59.999Z')
    await writer.close()
  })

  it('a batch whose commit went through although the connection failed is stored once, not twice', async () => {
    const spool = await AuditSpool.open({ dir })
    const writer = new AuditWriter(db, { spool, replayRetryMs: retry })
    db.failAfterCommitNext()
    expect(await writer.write(evaluation('in-doubt'))).toBe('spooled')
    await until(() => !writer.spooling)
    const rows = await storedRows()
    expect([rows.get('policy/in-doubt/p'), rows.get('ruleset/in-doubt/r1'), rows.get('ruleset/in-doubt/r2')]).toEqual([1, 1, 1])
    await writer.close()
  })

  it('close keeps what is spooled on disk; the next writer replays it before its own writes', async () => {
    const first = new AuditWriter(db, { spool: await AuditSpool.open({ dir }), replayRetryMs: retry })
    db.down = true
    expect(await first.write(evaluation('s1'))).toBe('spooled')
    expect(await first.write(evaluation('s2'))).toBe('spooled')
    await first.close()
    db.down = false
    expect((await storedRows()).size).toBe(0)
    const second = new AuditWriter(db, { spool: await AuditSpool.open({ dir }), replayRetryMs: retry })
    expect(second.spooling).toBe(true)
    expect(await second.write(evaluation('s3'))).toBe('spooled')
    await until(() => !second.spooling)
    const order = await database.db.query<{ request_id: string }>(`SELECT request_id FROM policy_audits ORDER BY id`)
    expect(order.rows.map((row) => row.request_id)).toEqual(['s1', 's2', 's3'])
    await second.close()
  })

  it('a crash after the replay committed but before the spool moved on replays nothing twice', async () => {
    const first = new AuditWriter(db, { spool: await AuditSpool.open({ dir: join(dir, 'spool') }), replayRetryMs: retry })
    db.down = true
    for (const id of ['c1', 'c2', 'c3']) expect(await first.write(evaluation(id))).toBe('spooled')
    await first.close()
    // The spool as it was on disk before the replay: what a crash right after the commit leaves behind.
    await cp(join(dir, 'spool'), join(dir, 'before-replay'), { recursive: true })
    db.down = false
    const second = new AuditWriter(db, { spool: await AuditSpool.open({ dir: join(dir, 'spool') }), replayRetryMs: retry })
    await until(() => !second.spooling)
    await second.close()
    const third = new AuditWriter(db, { spool: await AuditSpool.open({ dir: join(dir, 'before-replay') }), replayRetryMs: retry })
    expect(third.spooling).toBe(true)
    await until(() => !third.spooling)
    await third.close()
    const rows = await storedRows()
    expect(rows.size).toBe(9)
    expect([...rows.values()].every((count) => count === 1)).toBe(true)
  })

  it('without room in the spool a write is refused as unavailable, and nothing is half kept', async () => {
    const writer = new AuditWriter(db, { spool: await AuditSpool.open({ dir, maxBytes: 10 }), replayRetryMs: retry })
    db.down = true
    await expect(writer.write(evaluation('no-room'))).rejects.toThrow(/unreachable and the audit spool is full/)
    db.down = false
    await until(() => !writer.spooling)
    expect(await writer.write(evaluation('later'))).toBe('committed')
    expect([...(await storedRows()).keys()].filter((key) => key.includes('no-room'))).toEqual([])
    await writer.close()
  })

  it('when the store falls behind, what memory may not hold waits in the spool, and every audit is stored once, in order', async () => {
    const events: SpoolEvent[] = []
    const spool = await AuditSpool.open({ dir })
    // Each evaluation holds 3 inputs of 14 characters: 42. Four fit in 200, the fifth does not.
    const writer = new AuditWriter(db, { spool, replayRetryMs: retry, maxQueuedChars: 200, onSpoolEvent: (event) => events.push(event) })
    const release = db.holdWrites()
    const first = writer.write(evaluation('slow-0'))
    await nextTurn()
    const waiting = ['slow-1', 'slow-2', 'slow-3'].map((id) => writer.write(evaluation(id)))
    expect(writer.spooling).toBe(false)
    const over = ['slow-4', 'slow-5'].map((id) => writer.write(evaluation(id)))
    expect(writer.spooling).toBe(true)
    expect(events[0]).toMatchObject({ type: 'spooling', reason: new AuditBacklogError(210, 200) })
    // The queue went to disk: only the batch being committed is in memory.
    expect(await Promise.all([...waiting, ...over])).toEqual(['spooled', 'spooled', 'spooled', 'spooled', 'spooled'])
    expect(writer.queueDepth).toBe(1)
    release()
    expect(await first).toBe('committed')
    await until(() => !writer.spooling)
    expect(await writer.write(evaluation('after'))).toBe('committed')
    const order = await database.db.query<{ request_id: string }>(`SELECT request_id FROM policy_audits ORDER BY id`)
    expect(order.rows.map((row) => row.request_id)).toEqual(['slow-0', 'slow-1', 'slow-2', 'slow-3', 'slow-4', 'slow-5', 'after'])
    expect([...(await storedRows()).values()].every((count) => count === 1)).toBe(true)
    await writer.close()
  })
})
