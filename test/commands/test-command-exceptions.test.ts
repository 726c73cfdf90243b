import { describe, expect, it } from 'vitest'
import { runCli } from './run-cli.js'

describe('verdict test with the exceptions: of a Kyverno test', () => {
  it('lists the pairs an exception let through, naming it', async () => {
    const run = await runCli(['test', 'kyverno-test-exceptions'])
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines.slice(0, 5)).toEqual([
      'ok    kyverno-test-exceptions/conditions [-] 5/5',
      '      kyverno-test-exceptions/conditions max-containers/autogen-max-two-containers excluded-deployment: skip, exempted by exception "container-exception"',
      '      kyverno-test-exceptions/conditions max-containers/max-two-containers blue-pod: skip, exempted by exception "container-exception"',
      'ok    kyverno-test-exceptions/host-namespaces [-] 6/6',
      '      kyverno-test-exceptions/host-namespaces disallow-host-namespaces/autogen-host-namespaces important-tool: skip, exempted by exception "delta-exception"',
    ])
    expect(lines).toContain('ok    kyverno-test-exceptions/pod-security [-] 3/3')
    expect(lines).toContain('      kyverno-test-exceptions/pod-security psa/baseline excluded-pod: skip, exempted by exception "pod-security-exception"')
    expect(lines).toContain('      kyverno-test-exceptions/validating-policy check-deployment-name/check-deployment-name skipped-deployment: skip, exempted by exception "check-name"')
    expect(lines.at(-1)).toBe('17 passed, 0 failed')
    expect(run.status).toBe(0)
  })

  it('agrees with every expected result', async () => {
    const run = await runCli(['test', 'kyverno-test-exceptions/host-namespaces', 'kyverno-test-exceptions/conditions', 'kyverno-test-exceptions/validating-policy', 'kyverno-test-exceptions/pod-security'])
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('17 passed, 0 failed')
    expect(run.status).toBe(0)
  })
})
