import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixtures, runCli } from './run-cli.js'

describe('verdict test with the exceptions: of a Kyverno test', () => {
  it('lists the pairs an exception let through, naming it, and fails a test whose exception cannot be translated', () => {
    const run = runCli(['test', 'kyverno-test-exceptions'])
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines.slice(0, 5)).toEqual([
      'ok    kyverno-test-exceptions/conditions [-] 5/5',
      '      kyverno-test-exceptions/conditions max-containers/autogen-max-two-containers excluded-deployment: skip, exempted by exception "container-exception"',
      '      kyverno-test-exceptions/conditions max-containers/max-two-containers blue-pod: skip, exempted by exception "container-exception"',
      'ok    kyverno-test-exceptions/host-namespaces [-] 6/6',
      '      kyverno-test-exceptions/host-namespaces disallow-host-namespaces/autogen-host-namespaces important-tool: skip, exempted by exception "delta-exception"',
    ])
    expect(lines).toContain(
      `ERROR kyverno-test-exceptions/pod-security: ${join(fixtures, 'kyverno-test-exceptions', 'pod-security', '.kyverno-test', 'exception.yaml')}: PolicyException "pod-security-exception" (document 1): spec.podSecurity: exempts single Pod Security controls, which Verdict exceptions cannot: they let whole rules through. Leave podSecurity out to let the rule through, or add the control to the rule's podSecurity.exclude`,
    )
    expect(lines).toContain('      kyverno-test-exceptions/validating-policy check-deployment-name/check-deployment-name skipped-deployment: skip, exempted by exception "check-name"')
    expect(lines.at(-1)).toBe('14 passed, 1 failed')
    expect(run.status).toBe(1)
  })

  it('agrees with every expected result of the tests it can load', () => {
    const run = runCli(['test', 'kyverno-test-exceptions/host-namespaces', 'kyverno-test-exceptions/conditions', 'kyverno-test-exceptions/validating-policy'])
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('14 passed, 0 failed')
    expect(run.status).toBe(0)
  })
})
