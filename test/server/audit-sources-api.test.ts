import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertAudits, type AuditSource } from '../../src/store/audits-repository.js'
import { testDatabases } from '../support/databases.js'
import { client, errorBody } from './http-client.js'
import { startTestService, type TestService } from './test-service.js'

describe.each(testDatabases())('audit sources over HTTP ($kind)', ({ kind }) => {
  let service: TestService
  let api: ReturnType<typeof client>

  beforeAll(async () => {
    service = await startTestService(kind)
    api = client(service.server.apiUrl)
    const row = (source: AuditSource, index: number) => ({
      requestId: `${source}-${index}`,
      input: '{}',
      inputFormat: 'json' as const,
      updatedBy: source,
      updatedAt: new Date(Date.UTC(2026, 10, 24, 10, 0, index)),
      source,
    })
    const sources: AuditSource[] = ['admission', 'api', 'background', 'background']
    await insertAudits(service.server.db, {
      policyAudits: sources.map((source, index) => ({ ...row(source, index), policyName: 'pss', output: { policy: 'pss', passed: true, results: [] } })),
      rulesetAudits: sources.map((source, index) => ({ ...row(source, index), rulesetName: 'pss', output: { ruleset: 'pss', passed: true, results: [] } })),
    })
  })

  afterAll(async () => {
    await service?.close()
  })

  const routes = ['/api/audits/policies/pss', '/api/audits/policies?policy_name=p*', '/api/audits/rulesets/pss', '/api/audits/rulesets?ruleset_name=*']

  it.each(routes)('lists only the audits of the source asked for on %s, and every source without it', async (route) => {
    const separator = route.includes('?') ? '&' : '?'
    const ids = async (query: string): Promise<string[]> => {
      const response = await api('GET', `${route}${query === '' ? '' : `${separator}${query}`}`, { token: service.adminToken })
      expect(response.status).toBe(200)
      const body = response.body as Record<string, Array<{ requestId: string }>>
      return (body.policyAudits ?? body.rulesetAudits ?? []).map((audit) => audit.requestId)
    }
    expect(await ids('source=background')).toEqual(['background-3', 'background-2'])
    expect(await ids('source=admission')).toEqual(['admission-0'])
    expect(await ids('source=api')).toEqual(['api-1'])
    expect(await ids('')).toEqual(['background-3', 'background-2', 'api-1', 'admission-0'])
  })

  it.each(['/api/audits/policies/outcomes', '/api/audits/policies?policy_name=out*', '/api/audits/rulesets/outcomes', '/api/audits/rulesets?ruleset_name=out*'])(
    'lists only the audits that passed or failed, as asked, on %s (with source too), paging within them',
    async (route) => {
      const separator = route.includes('?') ? '&' : '?'
      const at = (second: number) => new Date(Date.UTC(2026, 10, 24, 11, 0, second))
      const row = (index: number, passed: boolean, source: AuditSource) => ({ requestId: `outcome-${index}`, input: '{}', inputFormat: 'json' as const, updatedBy: 'x', updatedAt: at(index), source, passed })
      if (route === '/api/audits/policies/outcomes') {
        const rows = [row(0, true, 'api'), row(1, false, 'api'), row(2, false, 'background'), row(3, true, 'background'), row(4, false, 'api')]
        await insertAudits(service.server.db, {
          policyAudits: rows.map((entry) => ({ ...entry, policyName: 'outcomes', output: { policy: 'outcomes', passed: entry.passed, results: [] } })),
          rulesetAudits: rows.map((entry) => ({ ...entry, rulesetName: 'outcomes', output: { ruleset: 'outcomes', passed: entry.passed, results: [] } })),
        })
      }
      const ids = async (query: string): Promise<string[]> => {
        const response = await api('GET', `${route}${separator}${query}`, { token: service.adminToken })
        expect(response.status).toBe(200)
        const body = response.body as Record<string, Array<{ requestId: string }>>
        return (body.policyAudits ?? body.rulesetAudits ?? []).map((audit) => audit.requestId)
      }
      expect(await ids('passed=false')).toEqual(['outcome-4', 'outcome-2', 'outcome-1'])
      expect(await ids('passed=true')).toEqual(['outcome-3', 'outcome-0'])
      expect(await ids('passed=false&source=api')).toEqual(['outcome-4', 'outcome-1'])
      expect(await ids('passed=false&pageSize=2&page=2')).toEqual(['outcome-1'])
    },
  )

  it('refuses an outcome that is not a boolean with 400 naming the parameter', async () => {
    const refused = await api('GET', '/api/audits/policies/pss?passed=maybe', { token: service.adminToken })
    expect(refused.status).toBe(400)
    expect(errorBody(refused).details).toContain('query.passed')
  })

  it('refuses an unknown source with 400 naming the parameter, and keeps the records shaped as the spec has them', async () => {
    const refused = await api('GET', '/api/audits/policies/pss?source=cron', { token: service.adminToken })
    expect(refused.status).toBe(400)
    expect(errorBody(refused).details).toContain('query.source')
    const listed = await api('GET', '/api/audits/policies/pss?source=background&pageSize=1', { token: service.adminToken })
    const [record] = (listed.body as { policyAudits: Record<string, unknown>[] }).policyAudits
    expect(Object.keys(record ?? {}).sort()).toEqual(['input', 'inputFormat', 'output', 'policyName', 'requestId', 'updatedAt', 'updatedBy'])
  })
})
