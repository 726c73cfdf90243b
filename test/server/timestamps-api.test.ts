import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDatabases } from '../support/databases.js'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

const NOT_RFC_3339 = 'is not an ISO 8601 date-time (RFC 3339) such as 2026-01-31T12:00:00Z'

/** Every route that takes a timestamp, with the parameter that carries it. */
const TIME_PARAMETERS: Array<[path: string, field: string]> = [
  ['/api/audits/policies/p?startTimestamp=', 'startTimestamp'],
  ['/api/audits/policies?endTimestamp=', 'endTimestamp'],
  ['/api/audits/count/policies/p?startTimestamp=', 'startTimestamp'],
  ['/api/audits/rulesets/r?endTimestamp=', 'endTimestamp'],
  ['/api/audits/rulesets?startTimestamp=', 'startTimestamp'],
  ['/api/audits/count/rulesets/r?endTimestamp=', 'endTimestamp'],
  ['/api/timeseries/policies/p?startTimestamp=', 'startTimestamp'],
  ['/api/timeseries/rulesets/r?endTimestamp=', 'endTimestamp'],
]

const IMPOSSIBLE: Array<[value: string, why: string]> = [
  ['0000-01-01T00:00:00Z', 'the year must be from 0001 to 9999'],
  ['2024-02-30T00:00:00Z', '2024-02 has 29 days'],
  ['2023-02-29T00:00:00Z', '2023-02 has 28 days'],
  ['2026-01-31', 'write a date, T, a time with seconds and a zone (Z or +hh:mm)'],
  ['2026-01-31T12:00:00', 'write a date, T, a time with seconds and a zone (Z or +hh:mm)'],
]

describe.each(testDatabases())('timestamps over HTTP ($kind)', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>
  let admin: string

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    admin = service.adminToken
  })

  afterAll(async () => {
    await service?.close()
  })

  for (const [value, why] of IMPOSSIBLE) {
    it.each(TIME_PARAMETERS)(`refuses ${value} in %s with 400 naming query.%s`, async (path, field) => {
      const response = await api('GET', `${path}${encodeURIComponent(value)}`, { token: admin })
      expect(response.status).toBe(400)
      expect(errorBody(response).details).toBe(`query.${field}: ${JSON.stringify(value)} ${NOT_RFC_3339}: ${why}`)
    })
  }

  it('answers the earliest and latest instants the store holds, echoing them as sent', async () => {
    const range = 'startTimestamp=0001-01-01T00:00:00Z&endTimestamp=9999-12-31T23:59:59.999Z'
    const listed = await api('GET', `/api/audits/policies/p?${range}`, { token: admin })
    expect(listed.status).toBe(200)
    expect(listed.body).toMatchObject({ startTimestamp: '0001-01-01T00:00:00Z', endTimestamp: '9999-12-31T23:59:59.999Z', policyAudits: [] })
    const counted = await api('GET', `/api/audits/count/rulesets/r?${range}`, { token: admin })
    expect(counted.body).toEqual({ rulesetName: 'r', rulesetAuditsCount: 0, startTimestamp: '0001-01-01T00:00:00Z', endTimestamp: '9999-12-31T23:59:59.999Z' })
  })

  it('answers a timeseries ending at 0001-01-01 with its default range cut at the first instant, buckets read back as year 0001', async () => {
    const response = await api('GET', '/api/timeseries/policies/p?endTimestamp=0001-01-01T00:00:00Z', { token: admin })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      policyName: 'p',
      startTimestamp: '0001-01-01T00:00:00.000Z',
      endTimestamp: '0001-01-01T00:00:00Z',
      interval: '1h',
      buckets: [{ start: '0001-01-01T00:00:00.000Z', total: 0, passed: 0, failed: 0 }],
      topFailingRules: [],
    })
    const early = await api('GET', '/api/timeseries/rulesets/r?startTimestamp=0001-01-01T00:00:00Z&endTimestamp=0001-01-03T00:00:00Z&interval=1d', { token: admin })
    expect(early.status).toBe(200)
    expect((early.body as { buckets: Array<{ start: string }> }).buckets.map((bucket) => bucket.start)).toEqual([
      '0001-01-01T00:00:00.000Z',
      '0001-01-02T00:00:00.000Z',
      '0001-01-03T00:00:00.000Z',
    ])
  })

  it('refuses a timeseries whose first bucket would begin before year 0001, naming the field that put it there', async () => {
    const sent = await api('GET', '/api/timeseries/policies/p?startTimestamp=0001-01-01T00:00:00Z&endTimestamp=0001-02-01T00:00:00Z&interval=7d', { token: admin })
    expect(sent.status).toBe(400)
    expect(errorBody(sent).details).toMatch(/^query\.startTimestamp: with interval 7d the bucket holding 0001-01-01T00:00:00Z would begin before 0001-01-01T00:00:00\.000Z/)
    const defaulted = await api('GET', '/api/timeseries/policies/p?endTimestamp=0001-01-01T00:00:00Z&interval=7d', { token: admin })
    expect(defaulted.status).toBe(400)
    expect(errorBody(defaulted).details).toMatch(/^query\.endTimestamp: with interval 7d the bucket holding 0001-01-01T00:00:00Z would begin before/)
  })

  it.each(IMPOSSIBLE.concat([['2099-02-29T00:00:00Z', '2099-02 has 28 days'], ['2099-02-30T00:00:00Z', '2099-02 has 28 days']]))(
    'refuses a token expiresAt of %s with 400 naming body.expiresAt, creating nothing',
    async (value, why) => {
      const before = (await api('GET', '/api/tokens', { token: admin })).body
      const response = await api('POST', '/api/tokens', { token: admin, body: { name: 'x', scopes: ['eval'], expiresAt: value } })
      expect(response.status).toBe(400)
      expect(errorBody(response).details).toBe(`body.expiresAt: ${JSON.stringify(value)} ${NOT_RFC_3339}: ${why}`)
      expect((await api('GET', '/api/tokens', { token: admin })).body).toEqual(before)
    },
  )

  it('creates a token expiring on a real leap day and at the last instant the store holds', async () => {
    for (const [expiresAt, stored] of [
      ['2096-02-29T12:00:00+02:00', '2096-02-29T10:00:00.000Z'],
      ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
    ]) {
      const response = await api('POST', '/api/tokens', { token: admin, body: { name: 'later', scopes: ['eval'], expiresAt } })
      expect(response.status).toBe(201)
      expect((response.body as { expiresAt: string }).expiresAt).toBe(stored)
    }
  })
})
