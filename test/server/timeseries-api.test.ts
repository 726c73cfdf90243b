import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RuleResult } from '../../src/engine/results/rule-result.js'
import { insertAudits, type PolicyAuditRow, type RulesetAuditRow } from '../../src/store/audits-repository.js'
import { testDatabases } from '../support/databases.js'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const t = (time: string) => `2026-11-21T${time}Z`

function failure(ruleset: string, rule: string): RuleResult {
  return { ruleset, rule, status: 'fail', severity: 'high', message: `${rule} failed` }
}

function policyAudit(requestId: string, policyName: string, time: string, results: RuleResult[] = []): PolicyAuditRow {
  return {
    requestId,
    policyName,
    input: '{"kind":"Pod"}',
    inputFormat: 'json',
    output: { policy: policyName, passed: results.length === 0, results },
    updatedBy: 'loader@example.com',
    updatedAt: new Date(t(time)),
  }
}

function rulesetAudit(requestId: string, rulesetName: string, time: string, results: RuleResult[] = []): RulesetAuditRow {
  return {
    requestId,
    rulesetName,
    input: '{"kind":"Pod"}',
    inputFormat: 'json',
    output: { ruleset: rulesetName, passed: results.length === 0, results },
    updatedBy: 'loader@example.com',
    updatedAt: new Date(t(time)),
  }
}

const bucket = (time: string, total: number, failed: number) => ({ start: t(time), total, passed: total - failed, failed })

describe.each(testDatabases())('the timeseries API on $kind', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    admin = service.adminToken
    await insertAudits(service.server.db, {
      policyAudits: [
        policyAudit('1', 'prod-web', '07:00:00.000'),
        policyAudit('2', 'prod-web', '07:20:00.000', [failure('pods', 'no-latest'), failure('pods', 'team-label')]),
        policyAudit('3', 'prod-web', '08:59:59.999', [failure('pods', 'no-latest')]),
        policyAudit('4', 'prod-db', '07:30:00.000', [failure('db', 'backups')]),
        policyAudit('5', 'dev-web', '08:00:00.000', [failure('pods', 'no-latest')]),
      ],
      rulesetAudits: [
        rulesetAudit('2', 'pods', '07:20:00.000', [failure('pods', 'no-latest'), failure('pods', 'team-label')]),
        rulesetAudit('3', 'pods', '08:59:59.999', [failure('pods', 'no-latest')]),
        rulesetAudit('4', 'db', '07:30:00.000', [failure('db', 'backups')]),
      ],
    })
  })

  afterAll(async () => {
    await service?.close()
  })

  const range = `startTimestamp=${t('06:30:00.000')}&endTimestamp=${t('09:00:00.000')}`

  it('answers a policy timeseries with every bucket and the rules failing most', async () => {
    const response = await api('GET', `/api/timeseries/policies/prod-web?${range}&interval=1h`, { token: admin })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-api-version')).toBe('1.0')
    expect(response.body).toEqual({
      policyName: 'prod-web',
      startTimestamp: t('06:30:00.000'),
      endTimestamp: t('09:00:00.000'),
      interval: '1h',
      buckets: [bucket('06:00:00.000', 0, 0), bucket('07:00:00.000', 2, 1), bucket('08:00:00.000', 1, 1), bucket('09:00:00.000', 0, 0)],
      topFailingRules: [
        { ruleset: 'pods', rule: 'no-latest', failures: 2 },
        { ruleset: 'pods', rule: 'team-label', failures: 1 },
      ],
    })
    expect(Object.keys(response.body as object)).toEqual(['policyName', 'startTimestamp', 'endTimestamp', 'interval', 'buckets', 'topFailingRules'])
  })

  it('takes *, globs and other intervals, and answers ruleset timeseries', async () => {
    const all = await api('GET', `/api/timeseries/policies/*?${range}&interval=90m`, { token: admin })
    expect(all.status).toBe(200)
    expect(all.body).toMatchObject({
      policyName: '*',
      interval: '90m',
      buckets: [bucket('06:00:00.000', 2, 1), bucket('07:30:00.000', 3, 3), bucket('09:00:00.000', 0, 0)],
      topFailingRules: [
        { ruleset: 'pods', rule: 'no-latest', failures: 3 },
        { ruleset: 'db', rule: 'backups', failures: 1 },
        { ruleset: 'pods', rule: 'team-label', failures: 1 },
      ],
    })
    const glob = await api('GET', `/api/timeseries/policies/${encodeURIComponent('*-web')}?${range}&interval=1d`, { token: admin })
    expect(glob.body).toMatchObject({ policyName: '*-web', buckets: [{ start: '2026-11-21T00:00:00.000Z', total: 4, passed: 1, failed: 3 }] })
    const single = await api('GET', `/api/timeseries/policies/${encodeURIComponent('prod-d?')}?${range}&interval=1d`, { token: admin })
    expect(single.body).toMatchObject({ policyName: 'prod-d?', buckets: [{ total: 1, failed: 1 }], topFailingRules: [{ ruleset: 'db', rule: 'backups', failures: 1 }] })

    const rulesets = await api('GET', `/api/timeseries/rulesets/pods?${range}&interval=6h`, { token: admin })
    expect(rulesets.status).toBe(200)
    expect(rulesets.body).toEqual({
      rulesetName: 'pods',
      startTimestamp: t('06:30:00.000'),
      endTimestamp: t('09:00:00.000'),
      interval: '6h',
      buckets: [bucket('06:00:00.000', 2, 2)],
      topFailingRules: [
        { ruleset: 'pods', rule: 'no-latest', failures: 2 },
        { ruleset: 'pods', rule: 'team-label', failures: 1 },
      ],
    })
    const none = await api('GET', `/api/timeseries/rulesets/nothing?${range}&interval=1h`, { token: admin })
    expect((none.body as { buckets: unknown[]; topFailingRules: unknown[] }).buckets).toHaveLength(4)
    expect((none.body as { topFailingRules: unknown[] }).topFailingRules).toEqual([])
  })

  it('defaults to the 24 hours before now by the hour, and echoes the defaults used', async () => {
    const before = Date.now()
    const response = await api('GET', '/api/timeseries/policies/prod-web', { token: admin })
    expect(response.status).toBe(200)
    const body = response.body as { startTimestamp: string; endTimestamp: string; interval: string; buckets: { start: string }[] }
    expect(body.endTimestamp).toMatch(ISO)
    expect(Date.parse(body.endTimestamp)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(body.startTimestamp)).toBe(Date.parse(body.endTimestamp) - 24 * 3600 * 1000)
    expect(body.interval).toBe('1h')
    expect(body.buckets).toHaveLength(25)
    expect(body.buckets[0]?.start).toBe(new Date(Math.floor(Date.parse(body.startTimestamp) / 3_600_000) * 3_600_000).toISOString())

    const dayBefore = await api('GET', `/api/timeseries/policies/prod-web?endTimestamp=${t('12:00:00.000')}`, { token: admin })
    expect(dayBefore.body).toMatchObject({ startTimestamp: '2026-11-20T12:00:00.000Z', endTimestamp: t('12:00:00.000'), interval: '1h' })
    expect((dayBefore.body as { buckets: { total: number }[] }).buckets.reduce((sum, b) => sum + b.total, 0)).toBe(3)
  })

  it.each([
    ['an interval in seconds', 'interval=30s', /^query\.interval: "30s" is not an interval/],
    ['a zero interval', 'interval=0m', /^query\.interval: "0m" is not an interval/],
    ['a fractional interval', 'interval=1.5h', /^query\.interval: "1\.5h" is not an interval/],
    ['an empty interval', 'interval=', /^query\.interval: "" is not an interval/],
    ['an interval over a year', 'interval=400d', /^query\.interval: "400d" is longer than 365d/],
    ['too many buckets', `startTimestamp=2026-01-01T00:00:00Z&endTimestamp=2026-02-01T00:00:00Z&interval=1m`, /^query\.interval: 1m splits .* into 44641 buckets, more than 10000/],
    ['a start after the end', `startTimestamp=${t('10:00:00.000')}&endTimestamp=${t('09:00:00.000')}`, /^query\.startTimestamp: .* is after query\.endTimestamp/],
    ['a start after the default end', 'startTimestamp=2999-01-01T00:00:00Z', /^query\.startTimestamp: .* is after query\.endTimestamp/],
    ['a start that is not ISO 8601', 'startTimestamp=yesterday', /^query\.startTimestamp: "yesterday" is not an ISO 8601 date-time/],
    ['an end that is not ISO 8601', 'endTimestamp=2026-13-45', /^query\.endTimestamp: "2026-13-45" is not an ISO 8601 date-time/],
  ])('answers 400 naming the field for %s', async (_what, query, details) => {
    for (const path of ['/api/timeseries/policies/prod-web', '/api/timeseries/rulesets/pods']) {
      const response = await api('GET', `${path}?${query}`, { token: admin })
      expect(response.status, path).toBe(400)
      const body = errorBody(response)
      expect(body.error).toBe('invalid request')
      expect(body.details).toMatch(details)
    }
  })

  it('needs a token with audits:read: 401 without one, 403 naming the scope otherwise', async () => {
    const path = `/api/timeseries/policies/prod-web?${range}`
    const anonymous = await api('GET', path)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect(errorBody(anonymous).error).toBe('unauthorized')

    const create = async (scopes: string[]) =>
      ((await api('POST', '/api/tokens', { token: admin, body: { name: `ts-${scopes.join('-')}`, scopes } })).body as { secret: string }).secret
    const evaluator = await create(['eval'])
    for (const denied of [path, `/api/timeseries/rulesets/pods?${range}`]) {
      const response = await api('GET', denied, { token: evaluator })
      expect(response.status).toBe(403)
      expect(errorBody(response).details).toBe('the token lacks the scope audits:read')
    }
    const reader = await create(['audits:read'])
    expect((await api('GET', path, { token: reader })).status).toBe(200)
    expect((await api('GET', `/api/timeseries/rulesets/pods?${range}`, { token: reader })).status).toBe(200)
  })

  it('documents both routes in /api/openapi.json', async () => {
    const response = await api('GET', '/api/openapi.json', { token: admin })
    const paths = (response.body as { paths: Record<string, { get?: { parameters?: { name: string }[] } }> }).paths
    for (const path of ['/api/timeseries/policies/{policy_name}', '/api/timeseries/rulesets/{ruleset_name}']) {
      expect(paths[path]?.get?.parameters?.map((parameter) => parameter.name).sort(), path).toEqual(
        ['endTimestamp', 'interval', path.includes('polic') ? 'policy_name' : 'ruleset_name', 'startTimestamp'].sort(),
      )
    }
  })
})
