import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixtures, runCliProcess } from './run-cli.js'

/**
 * What only the built bin/verdict as a process shows: the exit status the shell sees, standard input
 * through a real pipe, and a failure that prints no stack. Every other command test runs the same
 * function in-process (run-cli.ts); `verdict serve` and its signals are in serve-command.test.ts.
 */
describe('bin/verdict as a process', () => {
  it('exits 0 when every resource passes, 1 on violations, 2 on bad input without a stack', async () => {
    const passed = await runCliProcess(['eval', '-f', 'cli/good-pod.json', '--ruleset', 'cli/ruleset.yaml'])
    expect(passed).toEqual({ status: 0, stdout: 'PASS Pod shop/good (ruleset hygiene)\n1 passed, 0 failed\n', stderr: '' })
    const failed = await runCliProcess(['eval', '-f', 'cli/pods.yaml', '--ruleset', 'cli/ruleset.yaml'])
    expect(failed.stdout).toContain('FAIL Pod shop/bad (ruleset hygiene)\n')
    expect(failed.status).toBe(1)
    const refused = await runCliProcess(['eval', '-f', 'cli/good-pod.json', '--ruleset', 'cli/bad-cel.yaml'])
    expect(refused.stderr).toMatch(/^verdict eval: ruleset "broken" does not compile:/)
    expect(refused.stderr).not.toMatch(/\n\s+at /)
    expect({ status: refused.status, stdout: refused.stdout }).toEqual({ status: 2, stdout: '' })
    const unknown = await runCliProcess(['frobnicate'])
    expect(unknown.stderr).toMatch(/^verdict: unknown command "frobnicate"\n\nverdict: policy engine/)
    expect(unknown.status).toBe(2)
  })

  it('reads manifests piped to standard input, for - and when no path is given', async () => {
    const helm = readFileSync(join(fixtures, 'scan/manifests/helm-output.yaml'), 'utf8')
    for (const args of [['-'], []]) {
      const run = await runCliProcess(['scan', '-p', 'scan/policies/verdict-deny.yaml', ...args], { input: helm })
      expect(run).toEqual({
        status: 1,
        stdout: [
          'OBJECT               LOCATION  POLICY      ACTION  RULE               SEVERITY  MESSAGE',
          'Deployment shop-web  stdin:17  production  Deny    hygiene/no-latest  high      images must be pinned',
          '2 objects, 1 judged by a policy; 1 failure: Deny 1, Warn 0, Audit 0',
          '',
        ].join('\n'),
        stderr: '',
      })
    }
    const evaluated = await runCliProcess(['eval', '-f', '-', '--ruleset', 'cli/ruleset.yaml'], { input: readFileSync(join(fixtures, 'cli/pods.yaml'), 'utf8') })
    expect(evaluated.stdout.split('\n').slice(0, 2)).toEqual(['PASS Pod shop/good (ruleset hygiene)', 'FAIL Pod shop/bad (ruleset hygiene)'])
    expect(evaluated.status).toBe(1)
  })
})
