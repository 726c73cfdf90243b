import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './run-cli.js'

describe('verdict test', () => {
  it('scores every expected pair strictly and closes with the plain count line', async () => {
    const run = await runCli(['test', 'kyverno-test'])
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('FAIL  kyverno-test/require-team [-] 5/7')
    expect(lines.slice(1, 3)).toEqual([
      '      kyverno-test/require-team require-team/check-team unrelated: expected pass, got skip (no rule response (the rule did not match))',
      '      kyverno-test/require-team require-team/add-team with-team: expected pass, got unsupported (mutate rules are not supported)',
    ])
    expect(lines).toContain('tier  tests  pairs  passed  known  failed  agreement')
    expect(lines).toContain('-     1      7      5       0      2       71.43%')
    expect(lines.at(-1)).toBe('5 passed, 2 failed')
    expect(run.status).toBe(1)
  })

  it('--through-vap judges each policy as the ValidatingAdmissionPolicies it exports to, and a refused one as unsupported', async () => {
    const plain = await runCli(['test', 'kyverno-test-vap'])
    expect(plain.stdout.trimEnd().split('\n').at(-1)).toBe('8 passed, 0 failed')
    const run = await runCli(['test', '--through-vap', 'kyverno-test-vap'])
    expect(run.stdout.trimEnd().split('\n').slice(0, 4)).toEqual([
      'FAIL  kyverno-test-vap/config-from-json [-] 0/1',
      '      kyverno-test-vap/config-from-json config-from-json/config-from-json enabled: expected pass, got unsupported (not generated as a ValidatingAdmissionPolicy: validate.cel[0].expression: calls json.decode(), which the Kubernetes API server does not have (a Verdict or Kyverno function))',
      'ok    kyverno-test-vap/replica-limit [-] 2/2',
      'ok    kyverno-test-vap/require-team [-] 5/5',
    ])
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('7 passed, 1 failed')
    expect(run.status).toBe(1)
  })

  it('needs an existing directory', async () => {
    expect((await runCli(['test', 'nope'])).stderr).toBe('verdict test: test: nope does not exist\n')
  })
})

describe('verdict test with values, known differences and a recorded pass count', () => {
  it('applies request.operation (UPDATE sets oldObject) and namespace labels from the values file', async () => {
    const run = await runCli(['test', 'kyverno-test-values'])
    expect(run.stdout).toContain('ok    kyverno-test-values/update-only [-] 2/2\n')
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('2 passed, 0 failed')
    expect(run.status).toBe(0)
  })

  it('does not fail on listed differences but tells they exceed 1% of the pairs', async () => {
    const run = await runCli(['test', 'kyverno-test', '--known-differences', 'kyverno-test-known.yaml'])
    expect(run.stdout).toContain('1 pairs differ as recorded in the known-differences file\n5 passed, 1 failed\n')
    expect(run.stderr).toBe('known differences cover 1 of 7 pairs, more than 1%\n')
    expect(run.status).toBe(1)
  })

  it('fails when fewer pairs pass than recorded, and records a new count on request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-count-'))
    const file = join(dir, 'count.txt')
    writeFileSync(file, '3\n')
    const same = await runCli(['test', 'kyverno-test-values', '--recorded-pass-count', file])
    expect(same.stdout).not.toContain('pass count rose')
    expect(same.stderr).toBe(`pass count dropped: 2 passed, 3 recorded in ${file}\n`)
    expect(same.status).toBe(1)
    const record = await runCli(['test', 'kyverno-test-values', '--recorded-pass-count', file, '--record'])
    expect(record.stdout).toContain('recorded pass count: 2 (was 3)\n')
    expect(readFileSync(file, 'utf8')).toBe('2\n')
    expect((await runCli(['test', 'kyverno-test-values', '--recorded-pass-count', file])).status).toBe(0)
  })
})
