import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fixtures, runCli } from './run-cli.js'

describe('verdict eval', () => {
  it('exits 0 when every resource passes', async () => {
    const run = await runCli(['eval', '-f', 'cli/good-pod.json', '--ruleset', 'cli/ruleset.yaml'])
    expect(run.stdout).toBe('PASS Pod shop/good (ruleset hygiene)\n1 passed, 0 failed\n')
    expect(run.status).toBe(0)
  })

  it('exits 1 on violations and names rule, severity and message', async () => {
    const run = await runCli(['eval', '-f', 'cli/pods.yaml', '--ruleset', 'cli/ruleset.yaml'])
    expect(run.stdout).toBe(
      [
        'PASS Pod shop/good (ruleset hygiene)',
        'FAIL Pod shop/bad (ruleset hygiene)',
        '  FAIL hygiene/no-latest (high): images must be pinned',
        '  FAIL hygiene/team-label (medium): a team label is required',
        '1 passed, 1 failed',
        '',
      ].join('\n'),
    )
    expect(run.status).toBe(1)
  })

  it('reads resources from standard input with -f -', async () => {
    const pod = readFileSync(join(fixtures, 'cli/pods.yaml'), 'utf8')
    const run = await runCli(['eval', '-f', '-', '--ruleset', 'cli/ruleset.yaml'], { input: pod })
    expect(run.stdout.split('\n').slice(0, 2)).toEqual(['PASS Pod shop/good (ruleset hygiene)', 'FAIL Pod shop/bad (ruleset hygiene)'])
    expect(run.status).toBe(1)
    const broken = await runCli(['eval', '-f', '-', '--ruleset', 'cli/ruleset.yaml'], { input: 'kind: [' })
    expect(broken.stderr).toMatch(/^verdict eval: stdin, document 1: invalid YAML/)
    expect(broken.status).toBe(2)
  })

  it('refuses two rulesets of one name', async () => {
    const run = await runCli(['eval', '-f', 'cli/pods.yaml', '--ruleset', 'cli/ruleset.yaml', '--ruleset', './cli/ruleset.yaml'])
    expect(run.stderr).toBe('verdict eval: ruleset "hygiene" is defined more than once\n')
    expect(run.status).toBe(2)
  })

  it('prints policy results as JSON', async () => {
    const run = await runCli(['eval', '-f', 'cli/pods.yaml', '--ruleset', 'cli/ruleset.yaml', '--policy', 'cli/ruleset.yaml', '-o', 'json'])
    expect(run.status).toBe(1)
    expect(JSON.parse(run.stdout)).toEqual([
      { resource: 'Pod shop/good', result: { policy: 'prod', passed: true, results: [] } },
      {
        resource: 'Pod shop/bad',
        result: {
          policy: 'prod',
          passed: false,
          results: [
            { ruleset: 'hygiene', rule: 'no-latest', status: 'fail', severity: 'high', message: 'images must be pinned' },
            { ruleset: 'hygiene', rule: 'team-label', status: 'fail', severity: 'medium', message: 'a team label is required' },
          ],
        },
      },
    ])
  })

  it('evaluates Kyverno policies directly and reports the rules it cannot translate', async () => {
    const run = await runCli(['eval', '-f', 'cli/pods.yaml', '--ruleset', 'cli/kyverno-policy.yaml'])
    expect(run.stdout.split('\n')[0]).toMatch(/^skipped rule require-team\/add-team: mutate rules are not supported$/m)
    expect(run.stdout).toContain('FAIL Pod shop/bad (ruleset require-team)\n  FAIL require-team/check-team (high): the label team is required\n')
    expect(run.status).toBe(1)
  })

  it.each([
    ['malformed YAML', 'cli/malformed.yaml', /^verdict eval: cli\/malformed\.yaml, document 1: invalid YAML at line \d+, column \d+: /],
    ['an unknown field', 'cli/unknown-field.yaml', /^verdict eval: cli\/unknown-field\.yaml, document 1: rules\[0\]\.validate\.cel\[0\]\.mesage: unknown field "mesage"$/m],
    ['two validate kinds', 'cli/two-kinds.yaml', /^verdict eval: cli\/two-kinds\.yaml, document 2: spec\.rules\[0\]\.validate: has cel and pattern; a rule validates in exactly one way$/m],
    ['a CEL syntax error', 'cli/bad-cel.yaml', /ruleset "broken" does not compile:\n {2}rules\[1\] \(rule "syntax"\)\.validate\.cel\[0\]\.expression \(line 1, column \d+\): /],
    ['a missing file', 'cli/nope.yaml', /^verdict eval: cli\/nope\.yaml: cannot read: ENOENT$/m],
  ])('exits 2 on %s, naming file, document and field', async (_what, file, message) => {
    const run = await runCli(['eval', '-f', 'cli/good-pod.json', '--ruleset', file])
    expect(run.stderr).toMatch(message)
    expect(run.stderr).not.toMatch(/\n\s+at /)
    expect(run.stdout).toBe('')
    expect(run.status).toBe(2)
  })

  it('exits 2 on bad flags', async () => {
    expect((await runCli(['eval', '--ruleset', 'cli/ruleset.yaml'])).stderr).toBe('verdict eval: eval: -f <resource file> is required\n')
    expect((await runCli(['eval', '-f', 'cli/pods.yaml', '--ruleset', 'cli/ruleset.yaml', '--operation', 'PATCH'])).status).toBe(2)
    expect((await runCli(['eval', '--bogus'])).status).toBe(2)
    expect((await runCli(['frobnicate'])).status).toBe(2)
  })
})
