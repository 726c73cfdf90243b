import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { waitFor } from '../k8s/wait-for.js'
import { testDatabases } from '../support/databases.js'
import { client } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

const START = new Date('2026-06-01T12:00:00.000Z')
const DAY_MS = 86_400_000
const later = (days: number) => new Date(START.getTime() + days * DAY_MS)

const ruleset = {
  rules: [{ name: 'no-latest', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'images must be pinned' }] } }],
}
const exception = { policies: ['production'], match: { kinds: ['Pod'], namespaces: ['billing'] }, reason: 'the vendor ships only :latest', owner: 'billing@example.com' }
const billingPod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'legacy', namespace: 'billing' }, spec: { containers: [{ name: 'app', image: 'vendor/app:latest' }] } }

/** `unused-exception`: an exception that let nothing through in VERDICT_UNUSED_EXCEPTION_DAYS days, as the service notes its applications. */
describe.each(testDatabases())('the unused-exception recommendation on $kind', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string
  const clock = { now: START }

  beforeAll(async () => {
    service = await startTestService(kind, { VERDICT_UNUSED_EXCEPTION_DAYS: '30' }, { now: () => clock.now })
    api = client(service.server.apiUrl)
    admin = service.adminToken
    for (const [path, body] of [
      ['/api/rulesets/hygiene', ruleset],
      ['/api/policies/production', { rulesets: ['hygiene'], action: 'Deny' }],
      ['/api/exceptions/billing-latest', exception],
    ] as const) {
      expect((await api('POST', path, { token: admin, body })).status).toBe(201)
    }
  })

  afterAll(async () => {
    await service?.close()
  })

  const unused = async () => (await api('GET', '/api/recommendations?type=unused-exception', { token: admin })).body as { recommendations: Array<{ id: string; evidence: Record<string, unknown> }> }

  it('says nothing of an exception younger than the setting', async () => {
    clock.now = later(29)
    expect((await unused()).recommendations).toEqual([])
  })

  it('names one that let nothing through since it was created, 30 days on', async () => {
    clock.now = later(30)
    expect((await unused()).recommendations).toEqual([
      {
        id: 'unused-exception:billing-latest',
        type: 'unused-exception',
        target: { kind: 'exception', name: 'billing-latest' },
        message: `Exception "billing-latest" let nothing through in the last 30 days (never since it was created at ${START.toISOString()}): delete it if the workload it was for is gone, or fix its match.`,
        evidence: { lastAppliedAt: null, changedAt: START.toISOString(), days: 30, owner: 'billing@example.com', ticket: null },
      },
    ])
  })

  it('no longer once an evaluation it let through is noted, and again 30 days after that one', async () => {
    const applied = later(31)
    clock.now = applied
    const evaluation = await api('POST', '/api/eval/policies/production', { token: admin, body: { inputData: billingPod } })
    expect(evaluation.body).toMatchObject({ passed: true, results: [{ status: 'skip', exception: 'billing-latest' }] })
    await waitFor('the application to be noted', async () => (await unused()).recommendations.length === 0)
    clock.now = later(61)
    expect((await unused()).recommendations).toEqual([
      expect.objectContaining({ id: 'unused-exception:billing-latest', evidence: expect.objectContaining({ lastAppliedAt: applied.toISOString() }) }),
    ])
  })
})
