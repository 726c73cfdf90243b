import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './run-cli.js'

interface Manifest {
  apiVersion: string
  kind: string
  metadata: { name: string }
  spec: Record<string, unknown>
}

describe('verdict import of Kyverno PolicyExceptions', () => {
  it('refuses an exception without a reason, naming the annotation and the flag', async () => {
    const run = await runCli(['import', 'kyverno-exceptions/delta-exception.yaml'])
    expect(run.stderr).toBe(
      'verdict import: kyverno-exceptions/delta-exception.yaml: PolicyException "delta-exception" (document 1): metadata.annotations.verdict.dev/reason: is required: a Verdict exception says why it exists and a Kyverno PolicyException has no field for it; write the reason in this annotation or pass --exception-reason\n',
    )
    expect(run.stdout).toBe('')
    expect(run.status).toBe(2)
  })

  it('prints Verdict PolicyException manifests, the reason from the annotation, Kyverno properties or --exception-reason', async () => {
    const run = await runCli(['import', 'kyverno-exceptions/delta-exception.yaml', 'kyverno-exceptions/check-name.yaml', 'kyverno-exceptions/annotated-exception.yaml', '--exception-reason', 'needs the host IPC namespace', '-o', 'json'])
    expect(run.stderr).toBe('')
    expect(run.status).toBe(0)
    const manifests = JSON.parse(run.stdout) as Manifest[]
    expect(manifests.map((manifest) => [manifest.apiVersion, manifest.kind, manifest.metadata.name, manifest.spec.reason])).toEqual([
      ['verdict.dev/v1alpha1', 'PolicyException', 'delta-exception', 'needs the host IPC namespace'],
      ['verdict.dev/v1alpha1', 'PolicyException', 'check-name', 'the deployment predates the naming rule'],
      ['verdict.dev/v1alpha1', 'PolicyException', 'container-exception', 'blue workloads run a sidecar pair until the mesh migration'],
    ])
    expect(manifests[1]?.spec).toEqual({
      policies: ['check-deployment-name'],
      match: {},
      conditions: [{ name: 'check-name', expression: "object.metadata.name == 'skipped-deployment'" }],
      matchPodTemplates: false,
      reason: 'the deployment predates the naming rule',
      ticket: 'OPS-12',
      expiresAt: '2027-01-31T00:00:00.000Z',
    })
    expect(manifests[2]?.spec).toMatchObject({ owner: 'mesh-team@example.com', conditions: [{ name: 'kyverno-any' }] })
  })

  it('round-trips: the imported exception lets through what Kyverno lets through, and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-import-exception-'))
    try {
      const imported = await runCli(['import', 'kyverno-exceptions/delta-exception.yaml', '--exception-reason', 'needs the host IPC namespace'])
      expect(imported.status).toBe(0)
      const file = join(dir, 'delta-exception.yaml')
      writeFileSync(file, imported.stdout)
      const policy = 'kyverno-test-exceptions/host-namespaces/policy.yaml'
      const run = await runCli(['eval', '-f', 'kyverno-test-exceptions/host-namespaces/.kyverno-test/resources.yaml', '--ruleset', policy, '--policy', policy, '--policy', file])
      expect(run.stdout.split('\n').filter((line) => /^(PASS|FAIL) /.test(line))).toEqual([
        'PASS Deployment delta/important-tool (policy disallow-host-namespaces)',
        'PASS Pod delta/important-tool-debug (policy disallow-host-namespaces)',
        'FAIL StatefulSet delta/important-tool-store (policy disallow-host-namespaces)',
        'FAIL CronJob delta/important-tool-cleanup (policy disallow-host-namespaces)',
        'FAIL Deployment bad-deployment (policy disallow-host-namespaces)',
        'PASS Deployment good-deployment (policy disallow-host-namespaces)',
      ])
      expect(run.stdout).toContain('  SKIP disallow-host-namespaces/host-namespaces (medium) [Deployment pod template]: exempted by exception "delta-exception"\n')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('takes a Kyverno exception with its reason annotation directly among the --policy files', async () => {
    const policy = 'kyverno-test-exceptions/conditions/policy.yaml'
    const run = await runCli(['eval', '-f', 'kyverno-test-exceptions/conditions/.kyverno-test/resources.yaml', '--ruleset', policy, '--policy', policy, '--policy', 'kyverno-exceptions/annotated-exception.yaml'])
    expect(run.stdout.split('\n').filter((line) => /^(PASS|FAIL) /.test(line))).toEqual([
      'PASS Deployment excluded-deployment (policy max-containers)',
      'FAIL Deployment bad-deployment (policy max-containers)',
      'PASS Deployment good-deployment (policy max-containers)',
      'PASS Pod blue-pod (policy max-containers)',
      'FAIL Pod green-pod (policy max-containers)',
    ])
  })
})
