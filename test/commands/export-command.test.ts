import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as yaml from 'js-yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client } from '../server/http-client.js'
import { startTestService, type TestService } from '../server/test-service.js'
import { runCli } from './run-cli.js'

const REQUIRE_TEAM = 'kyverno-test-vap/require-team/require-team.yaml'

interface Manifest {
  kind: string
  metadata: { name: string }
  spec: Record<string, unknown>
}

const manifests = (text: string): Manifest[] => yaml.loadAll(text) as Manifest[]
const names = (text: string): string[] => manifests(text).map((manifest) => `${manifest.kind}/${manifest.metadata.name}`)

describe('verdict export vap', () => {
  it('prints a policy as ValidatingAdmissionPolicies and bindings, which verdict import reads back', async () => {
    const run = await runCli(['export', 'vap', REQUIRE_TEAM])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    expect(names(run.stdout)).toEqual([
      'ValidatingAdmissionPolicy/require-team',
      'ValidatingAdmissionPolicyBinding/require-team',
      'ValidatingAdmissionPolicy/require-team-autogen',
      'ValidatingAdmissionPolicyBinding/require-team-autogen',
      'ValidatingAdmissionPolicy/require-team-autogen-cronjob',
      'ValidatingAdmissionPolicyBinding/require-team-autogen-cronjob',
    ])
    const [vap, binding] = manifests(run.stdout)
    expect(binding?.spec).toEqual({ policyName: 'require-team', validationActions: ['Deny'] })
    expect(vap?.spec.validations).toEqual([
      { expression: "has(object.metadata.labels) && 'team' in object.metadata.labels && object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'pods need a team label and pinned images' },
    ])

    const dir = mkdtempSync(join(tmpdir(), 'verdict-export-'))
    writeFileSync(join(dir, 'vaps.yaml'), run.stdout)
    const imported = await runCli(['import', 'vaps.yaml'], { cwd: dir })
    expect(imported.stderr).toBe('')
    expect(imported.status).toBe(0)
    expect(names(imported.stdout)).toEqual([
      'Ruleset/require-team',
      'Policy/require-team',
      'Ruleset/require-team-autogen',
      'Policy/require-team-autogen',
      'Ruleset/require-team-autogen-cronjob',
      'Policy/require-team-autogen-cronjob',
    ])
  })

  it('lists every refusal on stderr, naming the rule and field, prints the policies it could generate and exits 1', async () => {
    const run = await runCli(['export', 'vap', 'kyverno-test-vap'])
    expect(run.stderr).toBe(
      'verdict export vap: policy config-from-json, rule config-from-json/config-from-json, validate.cel[0].expression: calls json.decode(), which the Kubernetes API server does not have (a Verdict or Kyverno function)\n',
    )
    expect(names(run.stdout).filter((name) => name.startsWith('ValidatingAdmissionPolicy/'))).toEqual([
      'ValidatingAdmissionPolicy/replica-limit',
      'ValidatingAdmissionPolicy/require-team',
      'ValidatingAdmissionPolicy/require-team-autogen',
      'ValidatingAdmissionPolicy/require-team-autogen-cronjob',
    ])
    expect(run.status).toBe(1)
  })

  it('picks policies with --policy and prints JSON with -o json', async () => {
    const run = await runCli(['export', 'vap', 'kyverno-test-vap', '--policy', 'replica-limit', '-o', 'json'])
    expect(run.status).toBe(0)
    const printed = JSON.parse(run.stdout) as Manifest[]
    expect(printed.map((manifest) => `${manifest.kind}/${manifest.metadata.name}`)).toEqual(['ValidatingAdmissionPolicy/replica-limit', 'ValidatingAdmissionPolicyBinding/replica-limit'])
    expect(printed[0]?.spec).toEqual({
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['*'], resources: ['deployments'], operations: ['CREATE', 'UPDATE'] }] },
      variables: [{ name: 'replicas', expression: 'object.spec.?replicas.orValue(1)' }],
      validations: [{ expression: 'variables.replicas <= 5', messageExpression: "'at most 5 replicas, not ' + string(variables.replicas)" }],
    })
  })

  it.each([
    [['export'], 'verdict export: export: name what to export: verdict export vap ...\n'],
    [['export', 'rego', 'x'], 'verdict export: export: "rego" is not a format (vap is)\n'],
    [['export', 'vap'], 'verdict export: export: name the files or directories holding the policies (or --server)\n'],
    [['export', 'vap', REQUIRE_TEAM, '--policy', 'nope'], 'verdict export: export: no policy "nope" (there are require-team)\n'],
    [['export', 'vap', '--server', 'http://localhost:1'], 'verdict export: export: --server needs --policy NAME\n'],
    [['export', 'vap', REQUIRE_TEAM, '--server', 'http://localhost:1', '--policy', 'x'], 'verdict export: export: give files or --server, not both\n'],
    [['export', 'vap', REQUIRE_TEAM, '-o', 'xml'], 'verdict export: export: -o must be yaml or json\n'],
  ])('refuses bad input with exit 2: %j', async (args, message) => {
    const run = await runCli(args, { env: { VERDICT_TOKEN: undefined } })
    expect(run.stderr).toBe(message)
    expect(run.status).toBe(2)
  })

  describe('with --server', () => {
    let service: TestService

    beforeAll(async () => {
      service = await startTestService('pglite')
      const imported = await runCli(['import', REQUIRE_TEAM])
      const api = client(service.server.apiUrl)
      const statuses: number[] = []
      for (const manifest of manifests(imported.stdout)) {
        const path = manifest.kind === 'Ruleset' ? 'rulesets' : 'policies'
        statuses.push((await api('POST', `/api/${path}/${manifest.metadata.name}`, { token: service.adminToken, body: manifest })).status)
      }
      expect(statuses).toEqual([201, 201])
    })

    afterAll(async () => {
      await service?.close()
    })

    it('exports a running Verdict\'s policy as the same policies as from the files', async () => {
      const local = await runCli(['export', 'vap', REQUIRE_TEAM])
      const remote = await runCli(['export', 'vap', '--server', service.server.apiUrl, '--token', service.adminToken, '--policy', 'require-team'])
      expect(remote.stderr).toBe('')
      expect(remote.status).toBe(0)
      expect(remote.stdout).toBe(local.stdout)
    })

    it('refuses, exit 2, a policy the server does not hold', async () => {
      const run = await runCli(['export', 'vap', '--server', service.server.apiUrl, '--policy', 'nope'], { env: { VERDICT_TOKEN: service.adminToken } })
      expect(run.stderr).toMatch(/^verdict export: GET \/api\/policies\/nope answered 404: /)
      expect(run.status).toBe(2)
    })
  })
})
