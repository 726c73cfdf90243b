import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Definitions } from '../../src/engine/index.js'
import { LocalJudge } from '../../src/scan/judge/local-judge.js'
import { ServerJudge } from '../../src/scan/judge/server-judge.js'
import { VerdictApiClient } from '../../src/scan/judge/verdict-api-client.js'
import type { ManifestObject } from '../../src/scan/manifests/manifest-object.js'
import { toJsonScan } from '../../src/scan/output/json-output.js'
import { formatSarif } from '../../src/scan/output/sarif-output.js'
import type { ObjectJudgement } from '../../src/scan/scan-result.js'
import { summarizeScan } from '../../src/scan/summarize-scan.js'
import { client } from '../server/http-client.js'
import { startTestService, type TestService } from '../server/test-service.js'
import { sarifValidator } from './sarif-schema.js'

/**
 * `verdict scan`'s two judges with a rule switched off and a policy switched off: the rule is a
 * skip saying so (JSON `disabled`, a SARIF suppression), the policy judges nothing.
 */
const REASON = 'the registry migration retags every image; OPS-77'

const hygiene = {
  name: 'hygiene',
  rules: [
    { name: 'no-latest', severity: 'high' as const, match: { kinds: ['Pod'] }, enabled: false, disabledReason: REASON, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))" }] } },
    { name: 'team-label', severity: 'medium' as const, match: { kinds: ['Pod'] }, validate: { cel: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels", message: 'the label team is required' }] } },
  ],
}
const production = { name: 'production', rulesets: ['hygiene'], action: 'Deny' as const }
const retired = { name: 'retired', rulesets: ['hygiene'], action: 'Deny' as const, enabled: false, disabledReason: 'replaced by production' }

const pod: ManifestObject = {
  file: 'pods.yaml',
  line: 1,
  apiVersion: 'v1',
  kind: 'Pod',
  namespace: 'shop',
  name: 'web',
  value: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'shop' }, spec: { containers: [{ name: 'web', image: 'nginx:latest' }] } },
}

const switchedOff = { ruleset: 'hygiene', rule: 'no-latest', status: 'skip', severity: 'high', message: `rule switched off: ${REASON}`, disabled: true, disabledReason: REASON }
const noTeam = { ruleset: 'hygiene', rule: 'team-label', status: 'fail', severity: 'medium', message: 'the label team is required' }

describe('LocalJudge with a rule and a policy switched off', () => {
  const definitions: Definitions = { rulesets: [hygiene], policies: [production, retired] }
  const judge = new LocalJudge(definitions)

  it('lists the rule switched off as a skip saying so; the policy switched off judges nothing', () => {
    expect(judge.judge(pod)).toEqual([{ policy: 'production', action: 'Deny', passed: false, results: [switchedOff, noTeam] }])
  })

  it('writes the skip into the JSON output with its reason, and into SARIF as a suppressed result', () => {
    const judgements: ObjectJudgement[] = judge.judge(pod).map((judgement) => ({ ...judgement, object: pod }))
    const report = { objects: [pod], policies: judge.policies, judgements, summary: summarizeScan(1, judgements) }
    expect(toJsonScan(report).results.map(({ rule, status, disabled, disabledReason }) => ({ rule, status, disabled, disabledReason }))).toEqual([
      { rule: 'no-latest', status: 'skip', disabled: true, disabledReason: REASON },
      { rule: 'team-label', status: 'fail', disabled: undefined, disabledReason: undefined },
    ])
    const sarif = JSON.parse(formatSarif(report, { cwd: '/repo', toolVersion: '1.2.3' })) as { runs: Array<{ results: Array<Record<string, unknown>> }> }
    expect(sarifValidator()(sarif)).toBe(true)
    const results = sarif.runs[0]?.results ?? []
    expect(results.map((result) => [result.ruleId, result.suppressions, (result.properties as Record<string, unknown>).disabledReason])).toEqual([
      ['production/hygiene/no-latest', [{ kind: 'external', status: 'accepted', justification: `rule switched off: ${REASON}` }], REASON],
      ['production/hygiene/team-label', undefined, undefined],
    ])
  })
})

describe('ServerJudge with a rule and a policy switched off in the service', () => {
  let service: TestService

  beforeAll(async () => {
    service = await startTestService('pglite')
    const api = client(service.server.apiUrl)
    const token = service.adminToken
    const { name: _ruleset, ...rulesetBody } = hygiene
    expect((await api('POST', '/api/rulesets/hygiene', { token, body: rulesetBody })).status).toBe(201)
    for (const { name, ...body } of [production, retired]) expect((await api('POST', `/api/policies/${name}`, { token, body })).status).toBe(201)
  })

  afterAll(async () => {
    await service?.close()
  })

  it('asks only the policies switched on, and reports the rule switched off as the server lists it', async () => {
    const judge = await ServerJudge.connect(new VerdictApiClient(service.server.apiUrl, service.adminToken))
    expect(judge.policies.map((policy) => policy.name)).toEqual(['production'])
    expect(await judge.judge(pod)).toEqual([{ policy: 'production', action: 'Deny', passed: false, results: [switchedOff, noTeam] }])
  })
})
