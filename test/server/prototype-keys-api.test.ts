import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabases } from '../support/databases.js'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

const RULES = [{ name: 'named', match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "has(object.metadata.name) && object.metadata.name != 'bad'", message: 'bad name' }] } }]
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'shop' }, spec: { containers: [] } })

/** Keys every plain object inherits: a lookup by a caller's key must never find these. */
const INHERITED_KEYS = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf']

describe.each(testDatabases())('keys that name Object.prototype members ($kind)', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string

  const listed = async (path: string): Promise<string[]> => {
    const response = await api('GET', path, { token: admin })
    expect(response.status).toBe(200)
    return ((response.body as Record<string, Array<{ name: string }>>)[path.startsWith('/api/policies') ? 'policies' : 'rulesets'] ?? []).map((item) => item.name)
  }

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    admin = service.adminToken
    expect((await api('POST', '/api/rulesets/plain', { token: admin, body: { labels: { team: 'a' }, rules: RULES } })).status).toBe(201)
    for (const [index, key] of INHERITED_KEYS.entries()) {
      const created = await api('POST', `/api/rulesets/inherited-${index}`, { token: admin, body: { labels: { [key]: 'x' }, rules: RULES } })
      expect(created.status).toBe(201)
    }
    // A Kubernetes-style name may be "constructor" too.
    expect((await api('POST', '/api/rulesets/constructor', { token: admin, body: { labels: { team: 'b' }, rules: RULES } })).status).toBe(201)
    expect((await api('POST', '/api/policies/constructor', { token: admin, body: { labels: { constructor: 'y' }, rulesets: ['constructor'] } })).status).toBe(201)
  })

  afterAll(async () => {
    await service?.close()
  })

  it.each(['__proto__', 'constructor', 'toString', '__proto__.polluted', 'hasOwnProperty'])(
    'filters by the label %s=x like any other label, never listing everything',
    async (key) => {
      const expected = INHERITED_KEYS.includes(key) ? [`inherited-${INHERITED_KEYS.indexOf(key)}`] : []
      expect(await listed(`/api/rulesets?label=${encodeURIComponent(`${key}=x`)}`)).toEqual(expected)
      expect(await listed(`/api/rulesets?label=${encodeURIComponent(`${key}=x`)}&label=team=a`)).toEqual([])
    },
  )

  it('finds the policy by its constructor label and not by others', async () => {
    expect(await listed('/api/policies?label=constructor=y')).toEqual(['constructor'])
    expect(await listed('/api/policies?label=__proto__=y')).toEqual([])
  })

  it('lists every label key, inherited names included, with its own values', async () => {
    const response = await api('GET', '/api/labels/rulesets', { token: admin })
    expect(response.status).toBe(200)
    const labels = (response.body as { labels: Record<string, string[]> }).labels
    for (const key of INHERITED_KEYS) expect(Object.hasOwn(labels, key) ? labels[key] : undefined, key).toEqual(['x'])
    expect(labels.team).toEqual(['a', 'b'])
    const policies = await api('GET', '/api/labels/policies', { token: admin })
    expect((policies.body as { labels: Record<string, string[]> }).labels.constructor).toEqual(['y'])
  })

  it('refuses a body label named __proto__ with 400 and stores nothing', async () => {
    const response = await api('POST', '/api/rulesets/proto', { token: admin, raw: JSON.stringify({ rules: RULES }).replace('{', '{"labels":{"__proto__":"x"},') })
    expect(response.status).toBe(400)
    errorBody(response)
    expect((await api('GET', '/api/rulesets/proto', { token: admin })).status).toBe(404)
  })

  it('evaluates, audits and reports on a ruleset and a policy named constructor', async () => {
    const evaluated = await api('POST', '/api/eval/policies/constructor', { token: admin, body: { inputData: pod('bad') } })
    expect(evaluated.status).toBe(200)
    const { requestId } = evaluated.body as { requestId: string }
    for (const path of [
      '/api/audits/policies/constructor',
      '/api/audits/rulesets/constructor',
      '/api/audits/count/policies/constructor',
      `/api/audits/policies/uuid/${requestId}`,
      `/api/audits/rulesets/uuid/${requestId}`,
      '/api/timeseries/policies/constructor',
      '/api/timeseries/rulesets/constructor',
      '/api/remediations/rulesets/constructor',
      `/api/remediations/audits/${requestId}`,
      '/api/recommendations',
      '/api/audits/policies?policy_name=constructor',
      '/api/audits/rulesets/toString',
      '/api/audits/count/rulesets/__proto__',
      '/api/timeseries/rulesets/hasOwnProperty',
    ]) {
      const response = await api('GET', path, { token: admin })
      expect(response.status, path).toBe(200)
    }
    const count = await api('GET', '/api/audits/count/policies/constructor', { token: admin })
    expect((count.body as { policyAuditsCount: number }).policyAuditsCount).toBe(1)
  })
})
