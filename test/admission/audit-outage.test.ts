import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuditWriter } from '../../src/audit/audit-writer.js'
import { StoreUnavailableError, type Db } from '../../src/store/db.js'
import { recordingLogger, startHarness, type Harness } from './admission-harness.js'
import { postReview } from './https-client.js'
import { variant } from './fixtures.js'

/** A store whose audit INSERT never returns (a hung connection) or fails (the server is down). */
function auditStore(query: () => Promise<never>): Db {
  // Only `query` is reached by the audit writer; the rest of Db is not needed to stand in for a store.
  return { kind: 'postgres', query } as unknown as Db
}

/** Never closed: its writes never settle, and close() would wait for them. */
function hangingWriter(): AuditWriter {
  return new AuditWriter(auditStore(() => new Promise<never>(() => {})))
}

describe('audits when the store is slow or down', () => {
  let h: Harness
  beforeAll(async () => {
    h = await startHarness()
    await h.definitions.createRuleset(
      'pod-hygiene',
      { rules: [{ name: 'no-latest-tag', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))" }] } }] },
      { by: 'platform@example.com' },
    )
    await h.definitions.createPolicy('pod-security', { rulesets: ['pod-hygiene'], action: 'Deny' }, { by: 'platform@example.com' })
  })
  afterAll(async () => {
    await h?.close()
  })

  it('answers without waiting for the commit by default', async () => {
    const writer = hangingWriter()
    const server = await h.start({ audits: writer })
    const answer = await postReview(server.target, variant('pod-create', 'no-wait'))
    expect(answer.json).toMatchObject({ response: { uid: 'no-wait', allowed: false, status: { code: 403 } } })
    // Handed to the writer, whose commit never ends. Whether the 10 ms gather window had already
    // closed when the answer arrived depends on the machine's load, so it is not asserted here
    // (the next test covers gathering).
    server.flushAudits()
    expect(writer.queueDepth).toBe(1)
  })

  it('gathers the audits of reviews close together into one commit', async () => {
    const batches: number[] = []
    const writer = new AuditWriter(h.db, { onBatch: (batch) => batches.push(batch.entries) })
    // A window long enough for three requests on a busy machine; flushed by hand rather than waited for.
    const server = await h.start({ audits: writer, auditGatherMs: 5000 })
    await Promise.all(['gather-1', 'gather-2', 'gather-3'].map((uid) => postReview(server.target, variant('pod-create', uid))))
    expect(batches).toEqual([])
    server.flushAudits()
    await writer.close()
    expect(batches).toEqual([3])
  })

  it('waits for the commit at most auditWaitMs', async () => {
    const server = await h.start({ audits: hangingWriter(), auditWaitMs: 50 })
    const started = performance.now()
    const answer = await postReview(server.target, variant('pod-create', 'hung-audit'))
    const elapsed = performance.now() - started
    expect(answer.json).toMatchObject({ response: { uid: 'hung-audit', allowed: false, status: { code: 403 } } })
    // It waited (a timer never fires early); that the wait ends at all is the answer arriving, as
    // the writer's commit never does.
    expect(elapsed).toBeGreaterThanOrEqual(45)
  })

  it('answers when the store is down and logs the lost audits once per interval', async () => {
    const logger = recordingLogger()
    const failing = new AuditWriter(auditStore(() => Promise.reject(new StoreUnavailableError('connection refused'))))
    const server = await h.start({ audits: failing, logger, auditWaitMs: 50 })
    const first = await postReview(server.target, variant('pod-create', 'down-1'))
    const second = await postReview(server.target, variant('pod-create', 'down-2'))
    expect(first.json).toMatchObject({ response: { uid: 'down-1', allowed: false } })
    expect(second.json).toMatchObject({ response: { uid: 'down-2', allowed: false } })
    await failing.flush()
    const errors = logger.lines.filter((line) => line.level === 'error')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({
      fields: { requestId: 'down-1', occurrences: 1 },
      message: 'writing admission audits failed; the reviews were answered without them',
    })
  })
})
