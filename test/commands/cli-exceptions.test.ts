import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sarifValidator } from '../scan/sarif-schema.js'
import { runCli } from './run-cli.js'

/** `verdict scan` honours the PolicyExceptions beside the --policies definitions, as the service does. */
describe('verdict scan with PolicyExceptions', () => {
  const pod = (name: string, line: number) => ({ file: 'scan/manifests/pods-list.yaml', line, apiVersion: 'v1', kind: 'Pod', namespace: 'prod', name })

  it('lists the exempted rule as a skip naming the exception and exits 0', async () => {
    const run = await runCli(['scan', '-p', 'scan/policies/verdict-deny.yaml', '-p', 'scan/exceptions/api-2-latest.yaml', 'scan/manifests/pods-list.yaml', '-o', 'json'])
    expect(JSON.parse(run.stdout)).toEqual({
      objects: [pod('api-1', 3), pod('api-2', 14)],
      results: [
        {
          ...pod('api-2', 14),
          policy: 'production',
          action: 'Deny',
          ruleset: 'hygiene',
          rule: 'no-latest',
          status: 'skip',
          severity: 'high',
          message: 'exempted by exception "api-2-latest"',
          exception: 'api-2-latest',
        },
      ],
      summary: { objects: 2, judged: 2, passed: 1, failed: 0, errors: 0, failuresByAction: { Deny: 0, Warn: 0, Audit: 0 }, denied: false },
    })
    expect(run.status).toBe(0)
  })

  it('judges the rule when the exception has expired', async () => {
    const run = await runCli(['scan', '-p', 'scan/policies/verdict-deny.yaml', '-p', 'scan/exceptions/expired.yaml', 'scan/manifests/pods-list.yaml', '-o', 'json'])
    expect(JSON.parse(run.stdout).results).toMatchObject([{ name: 'api-2', status: 'fail', message: 'images must be pinned' }])
    expect(run.status).toBe(1)
  })

  it('shows the exemption in every output: a table row, a JUnit <skipped>, a suppressed SARIF result', async () => {
    const args = ['scan', '-p', 'scan/policies/verdict-deny.yaml', '-p', 'scan/exceptions/api-2-latest.yaml', 'scan/manifests/pods-list.yaml']
    expect((await runCli(args)).stdout).toContain('exempted by exception "api-2-latest"')
    const junit = (await runCli([...args, '-o', 'junit'])).stdout
    expect(junit).toContain('<testsuite name="production" tests="2" failures="0" errors="0" skipped="1">')
    expect(junit).toContain('<skipped message="exempted by exception &quot;api-2-latest&quot;"/>')
    const sarif = JSON.parse((await runCli([...args, '-o', 'sarif'])).stdout)
    expect(sarifValidator()(sarif)).toBe(true)
    expect(sarif.runs[0].results).toMatchObject([
      { suppressions: [{ kind: 'external', status: 'accepted', justification: 'exempted by exception "api-2-latest"' }], properties: { status: 'skip', exception: 'api-2-latest' } },
    ])
  })

  it('refuses an invalid exception naming the file, the document and the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdict-exception-'))
    const file = join(dir, 'bad.yaml')
    writeFileSync(file, 'apiVersion: verdict.dev/v1alpha1\nkind: PolicyException\nmetadata: {name: x}\nspec: {policies: [production], match: {kinds: [Pod]}}\n')
    try {
      const run = await runCli(['scan', '-p', 'scan/policies/verdict-deny.yaml', '-p', file, 'scan/manifests/pods-list.yaml'])
      expect(run.status).toBe(2)
      expect(run.stderr).toContain(`${file}, document 1: spec.reason: is required`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('verdict eval with PolicyExceptions', () => {
  it('applies an exception given among the --policy files', async () => {
    const args = ['eval', '-f', 'scan/manifests/pods-list.yaml', '--ruleset', 'scan/policies/verdict-deny.yaml', '--policy', 'scan/policies/verdict-deny.yaml']
    const exempted = await runCli([...args, '--policy', 'scan/exceptions/api-2-latest.yaml'])
    expect(exempted.stdout).toContain('SKIP hygiene/no-latest (high): exempted by exception "api-2-latest"')
    expect(exempted.status).toBe(0)
    const judged = await runCli([...args, '--policy', 'scan/exceptions/expired.yaml'])
    expect(judged.stdout).toContain('FAIL hygiene/no-latest (high): images must be pinned')
    expect(judged.status).toBe(1)
  })
})
