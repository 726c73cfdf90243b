import { describe, expect, it } from 'vitest'
import { runCli } from './run-cli.js'

describe('verdict import', () => {
  it('prints Verdict manifests for a Kyverno ClusterPolicy and names the rules it skips', async () => {
    const run = await runCli(['import', 'cli/kyverno-policy.yaml', '-o', 'json'])
    expect(run.status).toBe(0)
    expect(run.stderr).toMatch(/^cli\/kyverno-policy\.yaml: skipped rule require-team\/add-team: mutate rules are not supported$/m)
    const manifests = JSON.parse(run.stdout) as { kind: string; metadata: { name: string }; spec: Record<string, unknown> }[]
    expect(manifests.map((m) => [m.kind, m.metadata.name])).toEqual([
      ['Ruleset', 'require-team'],
      ['Policy', 'require-team'],
    ])
    expect(manifests[0]?.spec.rules).toEqual([
      expect.objectContaining({
        name: 'check-team',
        severity: 'high',
        validate: { cel: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels", message: 'the label team is required' }] },
      }),
    ])
    expect(manifests[1]?.spec).toMatchObject({ rulesets: ['require-team'], action: 'Deny' })
  })

  it('round-trips: the imported YAML loads as Verdict definitions', async () => {
    const run = await runCli(['import', 'cli/kyverno-policy.yaml'])
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^apiVersion: verdict\.dev\/v1alpha1\nkind: Ruleset\n/)
  })

  it('exits 2 on a file without foreign policies', async () => {
    const run = await runCli(['import', 'cli/ruleset.yaml'])
    expect(run.stderr).toBe('verdict import: cli/ruleset.yaml: holds no Kyverno policy or ValidatingAdmissionPolicy\n')
    expect(run.status).toBe(2)
  })
})
