import { describe, expect, it } from 'vitest'
import { runCli } from './run-cli.js'

describe('verdict test', () => {
  it('scores every expected pair strictly and closes with the plain count line', () => {
    const run = runCli(['test', 'kyverno-test'])
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('FAIL  kyverno-test/require-team [-] 3/5')
    expect(lines.slice(1, 3)).toEqual([
      '      kyverno-test/require-team require-team/check-team unrelated: expected pass, got skip (no rule response (the rule did not match))',
      expect.stringMatching(/^ {6}kyverno-test\/require-team require-team\/pattern-rule with-team: expected pass, got unsupported \(.*pattern.*\)$/),
    ])
    expect(lines).toContain('tier  tests  pairs  passed  known  failed  agreement')
    expect(lines).toContain('-     1      5      3       0      2       60.00%')
    expect(lines.at(-1)).toBe('3 passed, 2 failed')
    expect(run.status).toBe(1)
  })

  it('needs an existing directory', () => {
    expect(runCli(['test', 'nope']).stderr).toBe('verdict test: test: nope does not exist\n')
  })
})
