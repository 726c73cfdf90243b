import { X509Certificate } from 'node:crypto'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as yaml from 'js-yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHART_DIR, helm, NAMESPACE, only, RELEASE, renderChart, type K8sObject } from './chart-render.js'

/**
 * What `helm upgrade` keeps. `lookup` finds nothing without a cluster, so these tests call the chart's
 * own helpers (templates/_generated.tpl) from a probe template in a copy of the chart, handing them
 * the Secrets a first install made, as `lookup` would on the upgrade.
 */
type Secret = K8sObject & { data: Record<string, string> }
interface TlsResult {
  caCert: string
  caKey: string
  caNotAfter: string
  tlsCert: string
  tlsKey: string
  tlsNotAfter: string
  dnsNames: string
}

const work = mkdtempSync(join(tmpdir(), 'verdict-chart-upgrade-'))
const chart = join(work, 'verdict')
let installed: K8sObject[] = []

beforeAll(async () => {
  cpSync(CHART_DIR, chart, { recursive: true })
  writeFileSync(
    join(chart, 'templates', 'zz-probe.yaml'),
    `probe:
  tls: {{ include "verdict.webhookTLS" (dict "root" . "oldCa" .Values.probe.oldCa "oldTls" .Values.probe.oldTls) }}
  token: {{ include "verdict.adminToken" .Values.probe.oldToken | quote }}
  rules: {{ include "verdict.webhookRules" (dict "root" . "live" .Values.probe.live "webhook" "validate.verdict.dev") }}
`,
  )
  installed = await renderChart()
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

interface Probe {
  tls: TlsResult
  token: string
  rules: unknown[]
}

async function upgradeWith(oldCa: unknown, oldTls: unknown, oldToken: unknown, sets: string[] = [], live?: unknown): Promise<Probe> {
  const valuesFile = join(work, `probe-${Math.random().toString(36).slice(2)}.yaml`)
  writeFileSync(valuesFile, JSON.stringify({ probe: { oldCa, oldTls, oldToken, live } }))
  const result = await helm([
    'template', RELEASE, chart, '--namespace', NAMESPACE, '--skip-schema-validation', '--values', valuesFile,
    '--show-only', 'templates/zz-probe.yaml', ...sets.flatMap((set) => ['--set', set]),
  ])
  if (!result.ok) throw new Error(result.stderr)
  return (yaml.load(result.stdout) as { probe: Probe }).probe
}

const secret = (name: string) => only<Secret>(installed, 'Secret', name)
const withAnnotation = (object: Secret, key: string, value: string): Secret => ({
  ...object,
  metadata: { ...object.metadata, annotations: { ...object.metadata.annotations, [key]: value } },
})
const pem = (base64: string) => new X509Certificate(Buffer.from(base64, 'base64').toString('utf8'))

describe('helm upgrade keeps what the install generated', () => {
  it('the CA, hence caBundle, and the serving certificate', async () => {
    const ca = secret('verdict-webhook-ca')
    const serving = secret('verdict-webhook-tls')
    const { tls } = await upgradeWith(ca, serving, undefined)
    expect(tls.caCert).toBe(ca.data['tls.crt'])
    expect(tls.caKey).toBe(ca.data['tls.key'])
    expect(tls.tlsCert).toBe(serving.data['tls.crt'])
    expect(tls.tlsKey).toBe(serving.data['tls.key'])
    expect(tls.tlsNotAfter).toBe(serving.metadata.annotations?.['verdict.dev/not-after'])
  })

  it('the admin token', async () => {
    const token = secret('verdict-admin-token')
    expect((await upgradeWith(undefined, undefined, token)).token).toBe(token.data.token)
    const fresh = (await upgradeWith(undefined, undefined, undefined)).token
    expect(Buffer.from(fresh, 'base64').toString('utf8')).toMatch(/^vdt_[A-Za-z0-9]{43}$/)
    expect(fresh).not.toBe(token.data.token)
  })

  it('reissues the certificate from the same CA when it nears expiry or the Service names change', async () => {
    const ca = secret('verdict-webhook-ca')
    const serving = secret('verdict-webhook-tls')
    const soon = new Date(Date.now() + 5 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z')
    for (const [old, sets] of [
      [withAnnotation(serving, 'verdict.dev/not-after', soon), []],
      [serving, ['fullnameOverride=policy-engine']],
    ] as const) {
      const { tls } = await upgradeWith(ca, old, undefined, [...sets])
      expect(tls.caCert).toBe(ca.data['tls.crt'])
      expect(tls.tlsCert).not.toBe(serving.data['tls.crt'])
      expect(pem(tls.tlsCert).checkIssued(pem(ca.data['tls.crt'] as string))).toBe(true)
    }
    const renamed = await upgradeWith(ca, serving, undefined, ['fullnameOverride=policy-engine'])
    expect(pem(renamed.tls.tlsCert).subjectAltName).toContain('DNS:policy-engine-webhook.verdict.svc')
  })

  it('replaces the CA and the certificate when the CA nears expiry', async () => {
    const soon = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z')
    const ca = withAnnotation(secret('verdict-webhook-ca'), 'verdict.dev/not-after', soon)
    const serving = secret('verdict-webhook-tls')
    const { tls } = await upgradeWith(ca, serving, undefined)
    expect(tls.caCert).not.toBe(ca.data['tls.crt'])
    expect(tls.tlsCert).not.toBe(serving.data['tls.crt'])
    expect(pem(tls.tlsCert).checkIssued(pem(tls.caCert))).toBe(true)
    expect(Date.parse(tls.caNotAfter)).toBeGreaterThan(Date.now() + 3000 * 86_400_000)
  })

  it('the webhook rules the controller set, unless webhook.keepLiveRules is false', async () => {
    const defaults = only<K8sObject & { webhooks: { rules: unknown[] }[] }>(installed, 'ValidatingWebhookConfiguration').webhooks[0]?.rules
    const narrowed = [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: 'Namespaced' }]
    const live = (rules?: unknown[]) => ({ webhooks: [{ name: 'validate.verdict.dev', ...(rules ? { rules } : {}) }, { name: 'other.example.com', rules: [] }] })
    expect((await upgradeWith(undefined, undefined, undefined, [], live(narrowed))).rules).toEqual(narrowed)
    // The API server leaves out an empty list: the controller chose to send nothing.
    expect((await upgradeWith(undefined, undefined, undefined, [], live())).rules).toEqual([])
    expect((await upgradeWith(undefined, undefined, undefined, [], undefined)).rules).toEqual(defaults)
    const reset = await renderChart([], ['webhook.keepLiveRules=false'])
    expect(only<K8sObject & { webhooks: { rules: unknown[] }[] }>(reset, 'ValidatingWebhookConfiguration').webhooks[0]?.rules).toEqual(defaults)
  })
})
