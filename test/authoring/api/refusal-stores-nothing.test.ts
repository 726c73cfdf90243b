import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, errorBody } from '../../server/http-client.js'
import { startTestService, type TestService } from '../../server/test-service.js'

/** A refusal by the grounding gate, coverage or sentence roles answers 400 through the real API and stores nothing. */
describe('refused instructions store nothing', () => {
  let service: TestService
  let api: ReturnType<typeof client>

  beforeAll(async () => {
    service = await startTestService('pglite')
    api = client(service.server.apiUrl)
  })
  afterAll(() => service?.close())

  it.each([
    ['an unused number', 'unused-number', 'Autoscalers must keep `spec.minReplicas` at least 3, with 12 as the ceiling.', { platform: 'kubernetes', resource: 'HorizontalPodAutoscaler' }, /"12"/],
    ['only background', 'only-background', 'Quiet Nodes. Noisy pods wake people up at night. This policy was written after an outage.', { platform: 'kubernetes', resource: 'Pod' }, /./],
  ])('%s: 400 naming the sentence, and no ruleset', async (_what, name, instruction, labels, detail) => {
    const response = await api('POST', `/api/rulesets/${name}`, { token: service.adminToken, body: { instruction, labels } })
    expect(response.status).toBe(400)
    expect(errorBody(response).details).toMatch(detail)
    expect((await api('GET', `/api/rulesets/${name}`, { token: service.adminToken })).status).toBe(404)
  })
})
