import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client } from '../server/http-client.js'
import { startTestService, type TestService } from '../server/test-service.js'

describe('the operations listener', () => {
  let service: TestService
  let api: ReturnType<typeof client>

  beforeAll(async () => {
    service = await startTestService('pglite', { VERDICT_RATE_LIMIT: '1', VERDICT_RATE_BURST: '2' })
    api = client(service.server.apiUrl)
  })
  afterAll(() => service?.close())

  const ops = (path: string) => fetch(`${service.server.opsUrl}${path}`)

  it('answers /healthz and /readyz without a token', async () => {
    const health = await ops('/healthz')
    expect([health.status, await health.text()]).toEqual([200, 'ok\n'])
    const ready = await ops('/readyz')
    expect([ready.status, await ready.text()]).toEqual([200, 'ready\n'])
    expect((await ops('/nothing')).status).toBe(404)
  })

  it('counts evaluations by kind, name and result, rate-limited requests, and shows the audit queue', async () => {
    const admin = service.adminToken
    await api('POST', '/api/rulesets/team', { token: admin, body: { rules: [{ name: 'team', validate: { cel: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels" }] } }] } })
    await api('POST', '/api/eval/rulesets/team', { token: admin, body: { inputData: { metadata: { labels: { team: 'a' } } } } })
    const limited = await api('POST', '/api/eval/rulesets/team', { token: admin, body: { inputData: { metadata: {} } } })
    expect(limited.status).toBe(429)
    const metrics = await (await ops('/metrics')).text()
    expect(metrics).toContain('verdict_evaluations_total{kind="ruleset",name="team",result="pass"} 1')
    expect(metrics).toContain('verdict_rate_limited_total 1')
    expect(metrics).toMatch(/^verdict_audit_queue_depth 0$/m)
    expect(metrics).toMatch(/^verdict_audit_write_duration_seconds_count\{outcome="ok"\} [1-9]/m)
    expect(metrics).toMatch(/^verdict_evaluation_duration_seconds_count\{kind="ruleset"\} 1$/m)
    // The store never went away: nothing spooled.
    expect(metrics).toMatch(/^verdict_audit_spooling 0$/m)
    expect(metrics).toMatch(/^verdict_audit_spool_bytes 0$/m)
    expect(metrics).toContain('# TYPE verdict_audit_spool_entries_total counter')
    expect(metrics).toContain('# TYPE verdict_controller_reconciles_total counter')
    expect(metrics).toContain('# TYPE verdict_events_written_total counter')
    expect(metrics).toContain('# TYPE verdict_events_dropped_total counter')
    expect(metrics).toContain('process_cpu_user_seconds_total')
  })

  it('is not ready once the store is gone', async () => {
    await service.server.db.close()
    const ready = await ops('/readyz')
    expect(ready.status).toBe(503)
    expect(await ready.text()).toMatch(/^not ready: store: /)
    expect((await ops('/healthz')).status).toBe(200)
  })
})
