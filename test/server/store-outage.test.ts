import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { startServer, type RunningServer } from '../../src/server/start-server.js'
import { startPostgresServer, type PostgresServer } from '../support/postgres-server.js'
import { client } from './http-client.js'

/** A PostgreSQL of its own, stopped mid-test: the API answers 503 and stores nothing half-done. */
describe('when PostgreSQL goes away', () => {
  let postgres: PostgresServer
  let server: RunningServer
  let token: string
  let dir: string

  beforeAll(async () => {
    postgres = await startPostgresServer()
    dir = await mkdtemp(join(tmpdir(), 'verdict-outage-'))
    const env = { VERDICT_API_PORT: '0', VERDICT_WEBHOOK_PORT: '0', VERDICT_OPS_PORT: '0', VERDICT_DATABASE_URL: postgres.adminUrl, VERDICT_ADMIN_TOKEN_FILE: join(dir, 'admin-token'), VERDICT_LOG_LEVEL: 'silent' }
    server = await startServer(loadConfig(env, []), { host: '127.0.0.1', logger: false })
    token = (await readFile(join(dir, 'admin-token'), 'utf8')).trim()
  })

  afterAll(async () => {
    await server?.close()
    await postgres?.stop().catch(() => {})
    await rm(dir, { recursive: true, force: true })
  })

  it('answers evaluations and reads with 503 {error, details}', async () => {
    const api = client(server.apiUrl)
    const rules = { rules: [{ name: 'r', validate: { cel: [{ expression: 'true' }] } }] }
    expect((await api('POST', '/api/rulesets/r', { token, body: rules })).status).toBe(201)
    await postgres.stop()
    // The token and the ruleset are known from memory; the audit cannot be committed.
    const evaluation = await api('POST', '/api/eval/rulesets/r', { token, body: { inputData: {} } })
    expect(evaluation.status).toBe(503)
    expect(Object.keys(evaluation.body as object).sort()).toEqual(['details', 'error'])
    const read = await api('GET', '/api/rulesets/r', { token })
    expect(read.status).toBe(503)
  })
})
