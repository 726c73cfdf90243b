import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { CHART_DIR, helm, templateArgs } from './chart-render.js'

/** Renders with extra `--set` / `--set-json` arguments and returns helm's failure message (or fails the test). */
async function refusal(args: string[]): Promise<string> {
  const result = await helm([...templateArgs(), ...args])
  expect(result.ok, `helm template ${args.join(' ')} should have failed`).toBe(false)
  return result.stderr
}

const ruleWith = (rule: Record<string, unknown>) => ['--set-json', `webhook.rules=${JSON.stringify([{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], ...rule }])}`]

describe('values.schema.json', () => {
  it('is strict at every level: every object lists its keys or types its map values', () => {
    const schema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8')) as Record<string, unknown>
    const open: string[] = []
    // Walks the value types (properties, items, maps, alternatives), not the if/then constraints.
    const visit = (node: unknown, path: string): void => {
      if (typeof node !== 'object' || node === null) return
      const record = node as Record<string, unknown>
      // Open only where it says why: Helm's globals and Kubernetes types the API server validates.
      const explained = record.additionalProperties === true && typeof record.$comment === 'string'
      if (record.type === 'object' && record.additionalProperties !== false && typeof record.additionalProperties !== 'object' && !explained) {
        open.push(path || '/')
      }
      for (const [key, child] of Object.entries((record.properties ?? {}) as Record<string, unknown>)) visit(child, `${path}/${key}`)
      visit(record.items, `${path}[]`)
      visit(record.additionalProperties, `${path}{}`)
      for (const alternative of [...((record.oneOf ?? []) as unknown[]), ...((record.anyOf ?? []) as unknown[])]) visit(alternative, path)
    }
    visit(schema, '')
    expect(open).toEqual([])
  })

  it('describes every key of values.yaml', () => {
    const schema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8')) as { properties: Record<string, unknown> }
    const values = yaml.load(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8')) as Record<string, unknown>
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(Object.keys(values)))
  })

  it.each([
    [['--set', 'replicaCont=2'], /additional properties 'replicaCont' not allowed/],
    [['--set', 'webhook.failurPolicy=Fail'], /at '\/webhook': additional properties 'failurPolicy' not allowed/],
    [['--set', 'database.persistence.sise=5Gi'], /at '\/database\/persistence': additional properties 'sise' not allowed/],
    [['--set', 'replicaCount=two'], /at '\/replicaCount': got string, want integer/],
    [['--set', 'webhook.failurePolicy=fail'], /at '\/webhook\/failurePolicy': value must be one of 'Ignore', 'Fail'/],
    [['--set', 'webhook.timeoutSeconds=30'], /at '\/webhook\/timeoutSeconds': maximum: got 30, want 10/],
    [['--set', 'webhook.timeoutSeconds=0'], /at '\/webhook\/timeoutSeconds': minimum: got 0, want 1/],
    [['--set', 'database.mode=sqlite'], /at '\/database\/mode': value must be one of 'embedded', 'external'/],
    [['--set', 'tls.mode=none'], /at '\/tls\/mode': value must be one of 'helm', 'certManager'/],
    [['--set', 'config.logLevel=loud'], /at '\/config\/logLevel'/],
    [['--set', 'config.events=maybe'], /at '\/config\/events'/],
    [['--set', 'config.contextConfigMapCacheBytes=lots'], /at '\/config\/contextConfigMapCacheBytes'/],
    [['--set', 'config.contextConfigMapMaxBytes=0'], /at '\/config\/contextConfigMapMaxBytes'/],
    [['--set', 'probes.type=exec'], /at '\/probes\/type'/],
    [['--set', 'backgroundScan.reportsApi=policyreports'], /at '\/backgroundScan\/reportsApi': value must be one of 'auto', 'openreports', 'wgpolicyk8s', 'both', 'off'/],
    [['--set', 'backgroundScan.installOpenReportsCRDs=yes'], /at '\/backgroundScan\/installOpenReportsCRDs': got string, want boolean/],
    [['--set', 'database.url=mysql://db/verdict', '--set', 'database.mode=external'], /at '\/database\/url'/],
  ])('refuses %j', async (args, message) => {
    expect(await refusal(args)).toMatch(message)
  })

  it.each([['*'], ['leases'], ['events'], ['events/status'], ['*/*']])('refuses webhook rules on %s', async (resource) => {
    expect(await refusal(ruleWith({ resources: ['pods', resource] }))).toMatch(/at '\/webhook\/rules\/0\/resources\/1': 'not' failed/)
  })

  it('refuses more than one replica on the embedded database', async () => {
    expect(await refusal(['--set', 'replicaCount=2'])).toMatch(/at '\/replicaCount': maximum: got 2, want 1/)
  })

  it('refuses an external database without a URL or a Secret', async () => {
    expect(await refusal(['--set', 'database.mode=external'])).toMatch(/at '\/database\/existingSecret': minLength/)
  })
})

/** The same mistakes caught by the templates themselves, for `--skip-schema-validation` and a clearer message. */
describe('template checks', () => {
  const skip = ['--skip-schema-validation']

  it('refuses more than one replica on the embedded database, saying what to do', async () => {
    expect(await refusal([...skip, '--set', 'replicaCount=3'])).toContain(
      'replicaCount is 3 but database.mode is embedded: the embedded database is one PostgreSQL server inside one pod on one volume, so it allows 1 replica. Set database.mode=external',
    )
  })

  it('refuses an external database without a URL or a Secret', async () => {
    expect(await refusal([...skip, '--set', 'database.mode=external'])).toContain('database.mode is external: set database.existingSecret')
  })

  it('refuses webhook rules on leases or events', async () => {
    expect(await refusal([...skip, ...ruleWith({ resources: ['leases'] })])).toContain('webhook.rules[0].resources has "leases"')
  })

  it('refuses a certificate that would outlive its CA', async () => {
    expect(await refusal(['--set', 'tls.helm.caValidityDays=30', '--set', 'tls.helm.certValidityDays=365'])).toContain(
      'tls.helm.caValidityDays must be at least tls.helm.certValidityDays',
    )
  })

  it('lets helm lint report the same refusals', async () => {
    const result = await helm(['lint', CHART_DIR, '--set', 'replicaCount=3'])
    expect(result.ok).toBe(false)
    expect(result.stdout + result.stderr).toMatch(/replicaCount': maximum: got 3, want 1/)
  })
})
