import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client } from '../server/http-client.js'
import { startTestService, type TestService } from '../server/test-service.js'
import { sarifValidator } from '../scan/sarif-schema.js'
import { fixtures, runCli } from './run-cli.js'

const POLICIES = ['--policies', 'scan/policies']

describe('verdict scan', () => {
  it('lists every failure with its file and line, warns of documents that are not objects, and exits 1 when a Deny policy fails', async () => {
    const run = await runCli(['scan', ...POLICIES, 'scan/manifests'])
    expect(run.stdout).toBe(
      [
        'OBJECT               LOCATION                            POLICY        ACTION  RULE                            SEVERITY  MESSAGE',
        'Service shop-web     scan/manifests/helm-output.yaml:3   no-nodeport   Audit   no-nodeport/check-service-type  low       validation error: Services of type NodePort are not allowed. rule check-service-type failed at path /spec/type/',
        'Deployment shop-web  scan/manifests/helm-output.yaml:17  require-team  Deny    require-team/check-team         medium    the label team is required',
        'Deployment shop-web  scan/manifests/helm-output.yaml:17  production    Deny    hygiene/no-latest               high      images must be pinned',
        'Deployment shop-web  scan/manifests/helm-output.yaml:17  availability  Warn    replicas/two-or-more            low       run at least two replicas',
        'Pod prod/api-2       scan/manifests/pods-list.yaml:14    require-team  Deny    require-team/check-team         medium    the label team is required',
        'Pod prod/api-2       scan/manifests/pods-list.yaml:14    production    Deny    hygiene/no-latest               high      images must be pinned',
        'Pod shop/bad         scan/manifests/workloads.yaml:13    require-team  Deny    require-team/check-team         medium    the label team is required',
        'Pod shop/bad         scan/manifests/workloads.yaml:13    production    Deny    hygiene/no-latest               high      images must be pinned',
        '8 objects, 7 judged by a policy; 8 failures: Deny 6, Warn 1, Audit 1',
        '',
      ].join('\n'),
    )
    expect(run.stderr).toBe('warning: scan/manifests/workloads.yaml:25: not a Kubernetes object (no apiVersion or kind), skipped\n')
    expect(run.status).toBe(1)
  })

  it('exits 0 when only Warn and Audit policies fail', async () => {
    const run = await runCli(['scan', '-p', 'scan/policies/kyverno/no-nodeport.yaml', '-p', 'scan/policies/verdict-warn.yaml', 'scan/manifests/helm-output.yaml'])
    expect(run.stdout.split('\n').slice(-2)).toEqual(['2 objects, 2 judged by a policy; 2 failures: Deny 0, Warn 1, Audit 1', ''])
    expect(run.status).toBe(0)
  })

  it('exits 0 with the summary alone when every object passes', async () => {
    const run = await runCli(['scan', ...POLICIES, 'scan/manifests/deployments.json'])
    expect(run).toEqual({ status: 0, stdout: '1 object, 1 judged by a policy; 0 failures: Deny 0, Warn 0, Audit 0\n', stderr: '' })
  })

  it('prints the documented JSON shape', async () => {
    const run = await runCli(['scan', '--policies', 'scan/policies/verdict-deny.yaml', 'scan/manifests/pods-list.yaml', '-o', 'json'])
    const pod = (name: string, line: number) => ({ file: 'scan/manifests/pods-list.yaml', line, apiVersion: 'v1', kind: 'Pod', namespace: 'prod', name })
    expect(JSON.parse(run.stdout)).toEqual({
      objects: [pod('api-1', 3), pod('api-2', 14)],
      results: [
        { ...pod('api-2', 14), policy: 'production', action: 'Deny', ruleset: 'hygiene', rule: 'no-latest', status: 'fail', severity: 'high', message: 'images must be pinned' },
      ],
      summary: { objects: 2, judged: 2, passed: 1, failed: 1, errors: 0, failuresByAction: { Deny: 1, Warn: 0, Audit: 0 }, denied: true },
    })
    expect(run.status).toBe(1)
  })

  it('prints JUnit XML with a testcase per judged (object, rule)', async () => {
    const run = await runCli(['scan', '--policies', 'scan/policies/verdict-deny.yaml', '-o', 'junit', 'scan/manifests/pods-list.yaml'])
    expect(run.stdout).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="verdict scan" tests="2" failures="1" errors="0">
  <testsuite name="production" tests="2" failures="1" errors="0" skipped="0">
    <properties>
      <property name="action" value="Deny"/>
    </properties>
    <testcase name="Pod prod/api-1 hygiene/no-latest" classname="production.hygiene" file="scan/manifests/pods-list.yaml" line="3"/>
    <testcase name="Pod prod/api-2 hygiene/no-latest" classname="production.hygiene" file="scan/manifests/pods-list.yaml" line="14">
      <failure message="images must be pinned" type="fail">Pod prod/api-2 at scan/manifests/pods-list.yaml:14
policy production (Deny), rule hygiene/no-latest, severity high, fail
images must be pinned</failure>
    </testcase>
  </testsuite>
</testsuites>
`)
    expect(run.status).toBe(1)
  })

  it('prints SARIF 2.1.0 that the official schema accepts, located relative to the working directory', async () => {
    const run = await runCli(['scan', ...POLICIES, '-o', 'sarif', join(fixtures, 'scan/manifests')])
    const log = JSON.parse(run.stdout) as { runs: Array<{ tool: { driver: { name: string; rules: Array<{ id: string }> } }; results: Array<Record<string, unknown>> }> }
    const validate = sarifValidator()
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true)
    const [only] = log.runs
    expect(only?.tool.driver.name).toBe('verdict')
    expect(only?.tool.driver.rules.map((rule) => rule.id)).toEqual([
      'no-nodeport/no-nodeport/check-service-type',
      'require-team/require-team/check-team',
      'production/hygiene/no-latest',
      'availability/replicas/two-or-more',
    ])
    const located = only?.results.map((result) => {
      const location = (result.locations as Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>)[0]
      return `${result.level} ${result.ruleId} ${location?.physicalLocation.artifactLocation.uri}:${location?.physicalLocation.region.startLine}`
    })
    expect(located).toEqual([
      'note no-nodeport/no-nodeport/check-service-type scan/manifests/helm-output.yaml:3',
      'error require-team/require-team/check-team scan/manifests/helm-output.yaml:17',
      'error production/hygiene/no-latest scan/manifests/helm-output.yaml:17',
      'warning availability/replicas/two-or-more scan/manifests/helm-output.yaml:17',
      'error require-team/require-team/check-team scan/manifests/pods-list.yaml:14',
      'error production/hygiene/no-latest scan/manifests/pods-list.yaml:14',
      'error require-team/require-team/check-team scan/manifests/workloads.yaml:13',
      'error production/hygiene/no-latest scan/manifests/workloads.yaml:13',
    ])
    expect(run.status).toBe(1)
  })

  it('reads standard input for - and when no path is given (helm template | verdict scan)', async () => {
    const helm = readFileSync(join(fixtures, 'scan/manifests/helm-output.yaml'), 'utf8')
    for (const args of [['-'], []]) {
      const run = await runCli(['scan', '-p', 'scan/policies/verdict-deny.yaml', ...args], { input: helm })
      expect(run.stdout).toBe(
        [
          'OBJECT               LOCATION  POLICY      ACTION  RULE               SEVERITY  MESSAGE',
          'Deployment shop-web  stdin:17  production  Deny    hygiene/no-latest  high      images must be pinned',
          '2 objects, 1 judged by a policy; 1 failure: Deny 1, Warn 0, Audit 0',
          '',
        ].join('\n'),
      )
      expect(run.status).toBe(1)
    }
  })

  it('shows no progress line when standard error is not a terminal, however long the input', async () => {
    const pods = Array.from({ length: 250 }, (_, index) => `apiVersion: v1\nkind: Pod\nmetadata: {name: p${index}, labels: {team: a}}\nspec: {containers: [{name: c, image: "nginx:1"}]}\n`)
    const run = await runCli(['scan', ...POLICIES], { input: pods.join('---\n') })
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe('250 objects, 250 judged by a policy; 0 failures: Deny 0, Warn 0, Audit 0\n')
    expect(run.status).toBe(0)
  })

  it.each([
    ['bad YAML', 'scan/bad/broken.yaml', 'verdict scan: scan/bad/broken.yaml:10:2: invalid YAML: bad indentation of a mapping entry\n'],
    ['bad JSON', 'scan/bad/broken.json', `verdict scan: scan/bad/broken.json:4:33: invalid JSON: unexpected "}", expected a property name in double quotes\n`],
    ['a missing file', 'scan/nope.yaml', 'verdict scan: scan/nope.yaml: cannot read: ENOENT\n'],
  ])('exits 2 on %s, naming file and line, and prints no result', async (_what, file, stderr) => {
    expect(await runCli(['scan', ...POLICIES, 'scan/manifests', file])).toEqual({ status: 2, stdout: '', stderr: expect.stringContaining(stderr) })
    expect((await runCli(['scan', ...POLICIES, file])).stderr).toBe(stderr)
  })

  it('exits 2 on bad policies and bad flags', async () => {
    const expectRefusal = async (args: string[], stderr: string | RegExp) => {
      const run = await runCli(['scan', ...args])
      if (typeof stderr === 'string') expect(run.stderr).toBe(stderr)
      else expect(run.stderr).toMatch(stderr)
      expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 2, stdout: '' })
    }
    await expectRefusal(['scan/manifests'], 'verdict scan: scan: --policies <file|dir> (or --server <url>) is required\n')
    await expectRefusal([...POLICIES, '-o', 'xml'], 'verdict scan: scan: -o must be one of table, json, junit, sarif\n')
    await expectRefusal([...POLICIES, '--server', 'http://localhost:8080', '--token', 't'], 'verdict scan: scan: give --policies or --server, not both\n')
    await expectRefusal(['--server', 'http://localhost:8080'], 'verdict scan: scan: --server needs --token (or $VERDICT_TOKEN)\n')
    await expectRefusal(['--policies', '-'], 'verdict scan: scan: --policies reads files and directories, not standard input\n')
    await expectRefusal(['--policies', 'cli/ruleset.yaml', '--policies', 'cli/bad-cel.yaml', 'scan/manifests/pods-list.yaml'], /^verdict scan: ruleset "broken" does not compile:/)
    await expectRefusal(['--policies', 'scan/manifests', 'scan/manifests/pods-list.yaml'], /^verdict scan: scan\/manifests\/deployments\.json, document 1: apiVersion: must be verdict\.dev\/v1alpha1/)
    await expectRefusal(['--bogus'], /^verdict scan: Unknown option '--bogus'/)
  })

  it('explains itself and is listed among the commands', async () => {
    const help = await runCli(['scan', '--help'])
    expect(help.stdout).toMatch(/^verdict scan --policies <file\|dir> \[--policies \.\.\.\] \[-o table\|json\|junit\|sarif\] \[<file\|dir\|->\.\.\.\]\n/)
    expect(help.stdout).toContain('Exit status: 0 no Deny policy failed, 1 a Deny policy failed an object, 2 bad input (or a cluster\nthat cannot be read).')
    expect(help.stdout).toContain(
      '\nverdict scan --cluster [--kubeconfig <file>] [--context <name>] [--policies <file|dir>...] [--exclude-namespaces <ns,...>] [--configmap-selector <selector>] [-o table|json|junit|sarif]\n',
    )
    expect((await runCli(['help'])).stdout).toContain('\n  verdict scan --policies <file|dir> [--policies ...] [-o table|json|junit|sarif] [<file|dir|->...]\n')
  })

  describe('with --server', () => {
    let service: TestService

    beforeAll(async () => {
      service = await startTestService('pglite')
      const api = client(service.server.apiUrl)
      const ruleset = readFileSync(join(fixtures, 'scan/policies/verdict-deny.yaml'), 'utf8').split(/^---$/m)
      const created = [
        await api('POST', '/api/rulesets/hygiene', { token: service.adminToken, raw: ruleset[0] as string, contentType: 'application/x-yaml' }),
        await api('POST', '/api/policies/production', { token: service.adminToken, raw: ruleset[1] as string, contentType: 'application/x-yaml' }),
        await api('POST', '/api/policies/advice', { token: service.adminToken, body: { rulesets: ['hygiene'], action: 'Warn', match: { namespaces: ['prod'] } } }),
      ]
      expect(created.map((response) => response.status)).toEqual([201, 201, 201])
    })

    afterAll(async () => {
      await service?.close()
    })

    it('judges every object by the server\'s policies, with their actions, and exits 1 on a Deny failure', async () => {
      const run = await runCli(['scan', '--server', service.server.apiUrl, '--token', service.adminToken, 'scan/manifests/pods-list.yaml', 'scan/manifests/workloads.yaml'])
      expect(run.stdout).toBe(
        [
          'OBJECT          LOCATION                          POLICY      ACTION  RULE               SEVERITY  MESSAGE',
          'Pod prod/api-2  scan/manifests/pods-list.yaml:14  advice      Warn    hygiene/no-latest  high      images must be pinned',
          'Pod prod/api-2  scan/manifests/pods-list.yaml:14  production  Deny    hygiene/no-latest  high      images must be pinned',
          'Pod shop/bad    scan/manifests/workloads.yaml:13  production  Deny    hygiene/no-latest  high      images must be pinned',
          '5 objects, 4 judged by a policy; 3 failures: Deny 2, Warn 1, Audit 0',
          '',
        ].join('\n'),
      )
      expect(run.stderr).toBe('warning: scan/manifests/workloads.yaml:25: not a Kubernetes object (no apiVersion or kind), skipped\n')
      expect(run.status).toBe(1)
    })

    it('takes the token from VERDICT_TOKEN and exits 2 when the server refuses it', async () => {
      const sarif = await runCli(['scan', '--server', service.server.apiUrl, '-o', 'sarif', 'scan/manifests/deployments.json'], { env: { VERDICT_TOKEN: service.adminToken } })
      expect(sarifValidator()(JSON.parse(sarif.stdout))).toBe(true)
      expect(sarif.status).toBe(0)
      const refused = await runCli(['scan', '--server', service.server.apiUrl, '--token', 'not-a-token', 'scan/manifests'])
      expect(refused).toEqual({ status: 2, stdout: '', stderr: expect.stringMatching(/verdict scan: GET \/api\/policies answered 401: unauthorized: /) })
    })
  })
})
