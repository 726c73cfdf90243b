import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { startServer, type RunningServer } from '../../src/server/start-server.js'
import { postReview, type HttpsTarget } from '../admission/https-client.js'
import { variant } from '../admission/fixtures.js'
import { startPostgresServer, type PostgresServer } from '../support/postgres-server.js'
import { serveProcess, stopProcess } from '../support/serve-process.js'
import { client } from './http-client.js'

const RULESET = { rules: [{ name: 'no-latest', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))" }] } }] }
const POLICY = { rulesets: ['pods'], action: 'Deny', match: { kinds: ['Pod'] } }
const pod = (index: number) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${index}`, namespace: 'default' }, spec: { containers: [{ name: 'c', image: index % 3 === 0 ? 'nginx:latest' : 'nginx:1.27' }] } })

function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  return new Promise((resolve, reject) => {
    const check = async (): Promise<void> => {
      if (await condition()) return resolve()
      if (Date.now() > deadline) return reject(new Error(`gave up waiting for ${what}`))
      setTimeout(() => void check(), 20)
    }
    void check()
  })
}

/** Audit rows per request id and table, read straight from PostgreSQL. */
async function auditCounts(url: string): Promise<{ policy: Map<string, number>; ruleset: Map<string, number> }> {
  const connection = new pg.Client({ connectionString: url })
  await connection.connect()
  try {
    const count = async (table: string) => {
      const result = await connection.query<{ request_id: string; n: number }>(`SELECT request_id, count(*)::int AS n FROM ${table} GROUP BY request_id`)
      return new Map(result.rows.map((row) => [row.request_id, row.n]))
    }
    return { policy: await count('policy_audits'), ruleset: await count('ruleset_audits') }
  } finally {
    await connection.end()
  }
}

async function metric(opsUrl: string, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${opsUrl}/metrics`)).text()
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1))
}

describe('when PostgreSQL goes away', () => {
  let postgres: PostgresServer
  let dir: string

  beforeAll(async () => {
    // Commits must be durable for a killed server to keep them (the shared test server does not wait for the WAL).
    postgres = await startPostgresServer({ settings: { synchronous_commit: 'on' } })
  })

  afterAll(async () => {
    await postgres?.stop().catch(() => {})
  })

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verdict-outage-'))
  })

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  async function freshDatabase(): Promise<string> {
    const name = `outage_${Math.random().toString(16).slice(2, 10)}`
    const admin = new pg.Client({ connectionString: postgres.adminUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    return postgres.urlFor(name)
  }

  function settings(databaseUrl: string, dataDir: string): Record<string, string> {
    return {
      VERDICT_API_PORT: '0',
      VERDICT_WEBHOOK_PORT: '0',
      VERDICT_OPS_PORT: '0',
      VERDICT_DATABASE_URL: databaseUrl,
      VERDICT_DATA_DIR: dataDir,
      VERDICT_ADMIN_TOKEN_FILE: join(dir, 'admin-token'),
      VERDICT_LOG_LEVEL: 'silent',
      VERDICT_RATE_LIMIT: '100000',
      VERDICT_RATE_BURST: '100000',
    }
  }

  it('without a spool (no data directory) evaluations answer 503 {error, details}', async () => {
    const url = await freshDatabase()
    const server = await startServer(loadConfig(settings(url, 'memory://'), []), { host: '127.0.0.1', logger: false })
    try {
      const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim()
      const api = client(server.apiUrl)
      expect((await api('POST', '/api/rulesets/pods', { token, body: RULESET })).status).toBe(201)
      postgres.kill()
      // The token and the ruleset are known from memory; the audit can be kept nowhere.
      const evaluation = await api('POST', '/api/eval/rulesets/pods', { token, body: { inputData: pod(1) } })
      expect(evaluation.status).toBe(503)
      expect(Object.keys(evaluation.body as object).sort()).toEqual(['details', 'error'])
      expect((await api('GET', '/api/rulesets/pods', { token })).status).toBe(503)
      expect((await fetch(`${server.opsUrl}/readyz`)).status).toBe(503)
    } finally {
      await postgres.restart()
      await server.close()
    }
  })

  it('killed in the middle of a stream of evaluations and reviews: every answered request has its audits once, after it is back', async () => {
    const url = await freshDatabase()
    const server: RunningServer = await startServer(loadConfig(settings(url, join(dir, 'data')), []), { host: '127.0.0.1', logger: false })
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim()
    const api = client(server.apiUrl)
    const webhook: HttpsTarget = { port: server.webhook.port, ca: await readFile(server.webhook.certFile) }
    try {
      expect((await api('POST', '/api/rulesets/pods', { token, body: RULESET })).status).toBe(201)
      expect((await api('POST', '/api/policies/pods', { token, body: POLICY })).status).toBe(201)

      const answered: { id: string; kind: 'eval' | 'review'; audit?: string | null }[] = []
      let failures = 0
      let stop = false
      let sent = 0
      const worker = async (): Promise<void> => {
        while (!stop) {
          const index = sent++
          if (index % 4 === 3) {
            const uid = `review-${index}`
            const review = variant('pod-create', uid, (body) => {
              body.request.object = pod(index)
            })
            const answer = await postReview(webhook, review).catch(() => undefined)
            if (answer?.status === 200) answered.push({ id: uid, kind: 'review' })
            else failures += 1
          } else {
            const answer = await api('POST', '/api/eval/policies/pods', { token, body: { inputData: pod(index) } }).catch(() => undefined)
            if (answer?.status === 200) answered.push({ id: (answer.body as { requestId: string }).requestId, kind: 'eval', audit: answer.headers.get('x-audit-status') })
            else failures += 1
          }
        }
      }
      const workers = Array.from({ length: 4 }, () => worker())
      await until(() => answered.length >= 60, '60 answers before the outage')
      postgres.kill()
      const atKill = answered.length
      await until(() => answered.length >= atKill + 60, '60 answers during the outage')
      const readyDuringOutage = await fetch(`${server.opsUrl}/readyz`)
      await postgres.restart()
      const atRestart = answered.length
      await until(() => answered.length >= atRestart + 60, '60 answers after the restart')
      stop = true
      await Promise.all(workers)
      await until(async () => (await metric(server.opsUrl, 'verdict_audit_spooling')) === 0, 'the spool replayed')
      // Reviews hand their audits to the writer after a short gathering window, unseen by the queue depth: wait for the rows.
      await until(async () => (await auditCounts(url)).policy.size >= answered.length, 'every answered request audited').catch(() => {})

      expect(failures).toBe(0)
      expect(readyDuringOutage.status).toBe(200)
      expect(answered.filter((entry) => entry.audit === 'spooled').length).toBeGreaterThan(0)
      const counts = await auditCounts(url)
      const missing = answered.filter((entry) => counts.policy.get(entry.id) !== 1 || counts.ruleset.get(entry.id) !== 1)
      expect(missing).toEqual([])
      // Nothing that was not answered, nothing twice.
      expect(counts.policy.size).toBe(answered.length)
      expect([...counts.policy.values(), ...counts.ruleset.values()].every((count) => count === 1)).toBe(true)
    } finally {
      await server.close()
    }
  })

  it('a crash of the service after spooling and before the replay loses nothing: the next start replays', async () => {
    const url = await freshDatabase()
    // The process says where it listens in its log.
    const env = { ...settings(url, join(dir, 'data')), VERDICT_LOG_LEVEL: 'info' }
    const first = await serveProcess([], env)
    const token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim()
    const api = client(first.apiUrl)
    expect((await api('POST', '/api/rulesets/pods', { token, body: RULESET })).status).toBe(201)
    postgres.kill()
    const spooled: string[] = []
    for (let index = 0; index < 20; index += 1) {
      const answer = await api('POST', '/api/eval/rulesets/pods', { token, body: { inputData: pod(index) } })
      expect([answer.status, answer.headers.get('x-audit-status')]).toEqual([200, 'spooled'])
      spooled.push((answer.body as { requestId: string }).requestId)
    }
    // No shutdown: whatever is not on disk yet is gone with the process.
    expect(await stopProcess(first, 'SIGKILL')).toBeNull()
    await postgres.restart()
    const second = await serveProcess([], env)
    try {
      const drained = () => second.logs.some((line) => line.msg === 'the audit spool is replayed; audits go to the store again')
      await until(async () => drained() && (await auditCounts(url)).ruleset.size >= spooled.length, 'the spool replayed by the next start')
      const counts = await auditCounts(url)
      expect(spooled.filter((id) => counts.ruleset.get(id) !== 1)).toEqual([])
      expect(counts.ruleset.size).toBe(spooled.length)
    } finally {
      expect(await stopProcess(second)).toBe(0)
    }
  })
})
