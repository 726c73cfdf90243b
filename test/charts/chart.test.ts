import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import * as yaml from 'js-yaml'
import { beforeAll, describe, expect, it } from 'vitest'
import { SETTINGS } from '../../src/config.js'
import { CHART_DIR, CI_DIR, ciValueFiles, helm, NAMESPACE, ofKind, only, renderChart, ROOT, type K8sObject } from './chart-render.js'
import { validateObject } from './k8s-validate.js'

/** The value sets: the defaults plus every charts/verdict/ci/*-values.yaml, each rendered once. */
const VALUE_SETS: Record<string, string[]> = {
  default: [],
  ...Object.fromEntries(ciValueFiles().map((file) => [basename(file, '-values.yaml'), [file]])),
}
const rendered = new Map<string, K8sObject[]>()

beforeAll(async () => {
  await Promise.all(Object.entries(VALUE_SETS).map(async ([name, files]) => rendered.set(name, await renderChart(files))))
})

function objectsOf(set: string): K8sObject[] {
  const objects = rendered.get(set)
  if (!objects) throw new Error(`value set ${set} was not rendered`)
  return objects
}

interface Container {
  name: string
  env?: { name: string; value?: string; valueFrom?: Record<string, Record<string, string>> }[]
  securityContext?: Record<string, unknown>
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[]
  ports?: { name: string; containerPort: number }[]
  [field: string]: unknown
}
interface PodSpec {
  containers: Container[]
  securityContext?: Record<string, unknown>
  volumes?: ({ name: string } & Record<string, unknown>)[]
  serviceAccountName?: string
}
type Deployment = K8sObject & { spec: { replicas: number; strategy: { type: string }; template: { spec: PodSpec } } }
interface WebhookRule {
  apiGroups: string[]
  apiVersions: string[]
  operations: string[]
  resources: string[]
  scope?: string
}
interface Webhook {
  name: string
  failurePolicy: string
  timeoutSeconds: number
  sideEffects: string
  admissionReviewVersions: string[]
  clientConfig: { service: { name: string; namespace: string; path: string; port: number }; caBundle?: string }
  namespaceSelector: { matchExpressions: { key: string; operator: string; values?: string[] }[] }
  rules: WebhookRule[]
}
type WebhookConfiguration = K8sObject & { webhooks: Webhook[] }
type Secret = K8sObject & { data: Record<string, string>; type?: string }

const deploymentOf = (set: string) => only<Deployment>(objectsOf(set), 'Deployment')

interface ContainerResources {
  requests: { cpu: string; memory: string }
  limits: { memory: string }
}

/** The rows of docs/memory.md's table "| mode | peak (MiB) | settled (MiB) | request | limit |". */
function measuredFootprints(): Record<string, { peakMiB: number; settledMiB: number; request: string; limit: string }> {
  const text = readFileSync(join(ROOT, 'docs', 'memory.md'), 'utf8')
  const rows: Record<string, { peakMiB: number; settledMiB: number; request: string; limit: string }> = {}
  for (const match of text.matchAll(/^\| (embedded|external) \| (\d+) \| (\d+) \| `(\d+Mi)` \| `(\d+Mi)` \|$/gm)) {
    rows[match[1] as string] = { peakMiB: Number(match[2]), settledMiB: Number(match[3]), request: match[4] as string, limit: match[5] as string }
  }
  return rows
}

function mebibytes(quantity: string): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity)
  if (!match) throw new Error(`not a quantity in Mi or Gi: ${quantity}`)
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1)
}
const containerOf = (set: string) => deploymentOf(set).spec.template.spec.containers[0] as Container
const envOf = (set: string) => new Map((containerOf(set).env ?? []).map((variable) => [variable.name, variable]))
const webhookOf = (set: string) => only<WebhookConfiguration>(objectsOf(set), 'ValidatingWebhookConfiguration')
const secret = (set: string, name: string) => only<Secret>(objectsOf(set), 'Secret', name)
const decode = (text: string | undefined) => Buffer.from(text ?? '', 'base64').toString('utf8')

describe('helm lint', () => {
  it.each(Object.entries(VALUE_SETS))('passes with --strict for the %s values', async (_name, files) => {
    const result = await helm(['lint', '--strict', CHART_DIR, ...files.flatMap((file) => ['--values', file])])
    expect(result.stderr + result.stdout).toContain('0 chart(s) failed')
    expect(result.ok).toBe(true)
  })
})

describe('every rendered object', () => {
  it('is valid against the Kubernetes OpenAPI schemas (or, for other APIs, well formed)', async () => {
    const problems: string[] = []
    for (const [set, objects] of rendered) {
      for (const object of objects) problems.push(...(await validateObject(object)).map((problem) => `${set}: ${problem}`))
    }
    expect(problems).toEqual([])
  })

  it('carries the release namespace when namespaced, and no namespace when cluster-scoped', () => {
    const clusterScoped = new Set(['ClusterRole', 'ClusterRoleBinding', 'ValidatingWebhookConfiguration', 'CustomResourceDefinition'])
    for (const objects of rendered.values()) {
      for (const object of objects) {
        expect({ kind: object.kind, namespace: object.metadata.namespace }).toEqual({
          kind: object.kind,
          namespace: clusterScoped.has(object.kind) ? undefined : NAMESPACE,
        })
      }
    }
  })

  it('covers the value sets the chart is tested with', () => {
    expect(Object.keys(VALUE_SETS)).toEqual(
      expect.arrayContaining(['default', 'external-database', 'cert-manager', 'replicas', 'service-monitor', 'network-policy', 'install', 'openreports']),
    )
  })
})

describe('the webhook configuration cannot brick the cluster', () => {
  it.each(Object.keys(VALUE_SETS))('%s: never kube-system, the release namespace, leases or events; answers within 10 s', (set) => {
    const configuration = webhookOf(set)
    expect(configuration.webhooks).toHaveLength(1)
    for (const webhook of configuration.webhooks) {
      expect(webhook.timeoutSeconds).toBeGreaterThanOrEqual(1)
      expect(webhook.timeoutSeconds).toBeLessThanOrEqual(10)
      expect(webhook.sideEffects).toBe('NoneOnDryRun')
      expect(webhook.admissionReviewVersions).toEqual(['v1'])
      expect(webhook.namespaceSelector.matchExpressions).toContainEqual({
        key: 'kubernetes.io/metadata.name',
        operator: 'NotIn',
        values: expect.arrayContaining(['kube-system', NAMESPACE]),
      })
      for (const rule of webhook.rules) {
        for (const resource of rule.resources) expect(resource).not.toMatch(/^(\*|leases|events)(\/.*)?$/)
        expect(rule.apiGroups).not.toContain('coordination.k8s.io')
        expect(rule.apiGroups).not.toContain('events.k8s.io')
      }
    }
  })

  it('defaults to failurePolicy Ignore and a 5 s timeout, on CREATE/UPDATE of Pods and pod controllers', () => {
    const [webhook] = webhookOf('default').webhooks as [Webhook]
    expect(webhook.failurePolicy).toBe('Ignore')
    expect(webhook.timeoutSeconds).toBe(5)
    expect(webhook.clientConfig.service).toEqual({ name: 'verdict-webhook', namespace: NAMESPACE, path: '/validate', port: 443 })
    const resources = webhook.rules.flatMap((rule) => rule.resources)
    expect(resources).toEqual(expect.arrayContaining(['pods', 'deployments', 'replicasets', 'statefulsets', 'daemonsets', 'jobs', 'cronjobs']))
    expect(new Set(webhook.rules.flatMap((rule) => rule.operations))).toEqual(new Set(['CREATE', 'UPDATE']))
  })

  it('switches to Fail when asked (the replicas value set)', () => {
    expect(webhookOf('replicas').webhooks[0]?.failurePolicy).toBe('Fail')
  })

  it('reaches the webhook Service, which forwards 443 to the container port 9443', () => {
    const service = only<K8sObject & { spec: { ports: { name: string; port: number; targetPort: string }[] } }>(objectsOf('default'), 'Service', 'verdict-webhook')
    expect(service.spec.ports).toEqual([{ name: 'webhook', port: 443, targetPort: 'webhook', protocol: 'TCP' }])
    expect(containerOf('default').ports).toContainEqual({ name: 'webhook', containerPort: 9443, protocol: 'TCP' })
  })
})

describe('TLS', () => {
  it('by default: a Helm-generated CA in caBundle that signed the serving certificate for the webhook Service', () => {
    const [webhook] = webhookOf('default').webhooks as [Webhook]
    const ca = secret('default', 'verdict-webhook-ca')
    const serving = secret('default', 'verdict-webhook-tls')
    expect(serving.type).toBe('kubernetes.io/tls')
    expect(webhook.clientConfig.caBundle).toBe(ca.data['tls.crt'])
    expect(serving.data['ca.crt']).toBe(ca.data['tls.crt'])
    const caCert = new X509Certificate(decode(ca.data['tls.crt']))
    const cert = new X509Certificate(decode(serving.data['tls.crt']))
    expect(caCert.ca).toBe(true)
    expect(cert.checkIssued(caCert)).toBe(true)
    expect(cert.verify(caCert.publicKey)).toBe(true)
    expect(cert.subjectAltName).toContain('DNS:verdict-webhook.verdict.svc')
    expect(decode(serving.data['tls.key'])).toMatch(/^-----BEGIN (RSA )?PRIVATE KEY-----/)
    // The CA's key stays out of the pod: only the serving Secret is mounted.
    const volumes = deploymentOf('default').spec.template.spec.volumes ?? []
    expect(volumes).toContainEqual({ name: 'tls', secret: { secretName: 'verdict-webhook-tls' } })
    expect(JSON.stringify(volumes)).not.toContain('verdict-webhook-ca')
  })

  it('with cert-manager: Issuers and Certificates instead of generated Secrets, and the CA injected by annotation', () => {
    const objects = objectsOf('cert-manager')
    const configuration = webhookOf('cert-manager')
    expect(configuration.metadata.annotations?.['cert-manager.io/inject-ca-from']).toBe(`${NAMESPACE}/verdict-webhook`)
    expect(configuration.webhooks[0]?.clientConfig.caBundle).toBeUndefined()
    expect(ofKind(objects, 'Secret').map((object) => object.metadata.name)).not.toContain('verdict-webhook-tls')
    const certificate = only<K8sObject & { spec: Record<string, unknown> }>(objects, 'Certificate', 'verdict-webhook')
    expect(certificate.apiVersion).toBe('cert-manager.io/v1')
    expect(certificate.spec).toMatchObject({
      secretName: 'verdict-webhook-tls',
      dnsNames: expect.arrayContaining(['verdict-webhook.verdict.svc', 'verdict-webhook.verdict.svc.cluster.local']),
      issuerRef: { name: 'verdict-ca', kind: 'Issuer', group: 'cert-manager.io' },
    })
    const caCertificate = only<K8sObject & { spec: Record<string, unknown> }>(objects, 'Certificate', 'verdict-webhook-ca')
    expect(caCertificate.spec).toMatchObject({ isCA: true, secretName: 'verdict-webhook-ca', issuerRef: { name: 'verdict-selfsigned' } })
    expect(only<K8sObject & { spec: Record<string, unknown> }>(objects, 'Issuer', 'verdict-ca').spec).toEqual({ ca: { secretName: 'verdict-webhook-ca' } })
    expect(only<K8sObject & { spec: Record<string, unknown> }>(objects, 'Issuer', 'verdict-selfsigned').spec).toEqual({ selfSigned: {} })
  })

  it('with cert-manager and an issuerRef: no Issuers of its own', async () => {
    const objects = await renderChart([join(CI_DIR, 'cert-manager-values.yaml')], ['tls.certManager.issuerRef.name=corporate', 'tls.certManager.issuerRef.kind=ClusterIssuer'])
    expect(ofKind(objects, 'Issuer')).toEqual([])
    expect(only<K8sObject & { spec: Record<string, unknown> }>(objects, 'Certificate').spec).toMatchObject({
      issuerRef: { name: 'corporate', kind: 'ClusterIssuer', group: 'cert-manager.io' },
    })
  })
})

describe('the Deployment', () => {
  it('runs under the restricted Pod Security Standard', () => {
    for (const set of Object.keys(VALUE_SETS)) {
      const spec = deploymentOf(set).spec.template.spec
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } })
      expect(spec.containers).toHaveLength(1)
      expect(containerOf(set).securityContext).toEqual({
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
        seccompProfile: { type: 'RuntimeDefault' },
      })
    }
  })

  it('sets only real VERDICT_* settings (and NODE_OPTIONS), the pod identity from the downward API and the webhook configuration name', () => {
    const known = new Set([...SETTINGS.map((setting) => setting.name), 'NODE_OPTIONS'])
    for (const set of Object.keys(VALUE_SETS)) {
      const env = envOf(set)
      for (const name of env.keys()) expect(known, `${set}: ${name} is not a setting in src/config.ts`).toContain(name)
      expect(env.get('VERDICT_POD_NAMESPACE')?.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.namespace' } })
      expect(env.get('VERDICT_POD_NAME')?.valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.name' } })
      expect(env.get('VERDICT_WEBHOOK_CONFIGURATION')?.value).toBe(webhookOf(set).metadata.name)
      expect(env.get('VERDICT_DATA_DIR')?.value).toBe('/var/lib/verdict')
      expect(env.get('VERDICT_TLS_CERT_FILE')?.value).toBe('/etc/verdict/tls/tls.crt')
      expect(env.get('VERDICT_TLS_KEY_FILE')?.value).toBe('/etc/verdict/tls/tls.key')
      expect([env.get('VERDICT_CEL_MAX_COST')?.value, env.get('VERDICT_CEL_MAX_MILLIS')?.value]).toEqual(['100000', '50'])
    }
  })

  it('writes only to /tmp and the data directory (emptyDirs, or the claim of the embedded database)', () => {
    const mounts = (set: string) => containerOf(set).volumeMounts?.filter((mount) => !mount.readOnly).map((mount) => mount.mountPath)
    const volume = (set: string, name: string) => deploymentOf(set).spec.template.spec.volumes?.find((entry) => entry.name === name)
    for (const set of Object.keys(VALUE_SETS)) {
      expect(mounts(set)).toEqual(['/tmp', '/var/lib/verdict'])
      expect(volume(set, 'tmp')).toMatchObject({ emptyDir: { sizeLimit: '256Mi' } })
    }
    expect(volume('default', 'data')).toEqual({ name: 'data', persistentVolumeClaim: { claimName: 'verdict-data' } })
    expect(volume('external-database', 'data')).toEqual({ name: 'data', emptyDir: {} })
    expect(only<K8sObject & { spec: Record<string, unknown> }>(objectsOf('default'), 'PersistentVolumeClaim', 'verdict-data').spec).toMatchObject({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '2Gi' } },
    })
    expect(ofKind(objectsOf('external-database'), 'PersistentVolumeClaim')).toEqual([])
  })

  it('never runs two processes on the embedded database: Recreate; rolls with a surge on PostgreSQL', () => {
    expect(deploymentOf('default').spec.strategy).toEqual({ type: 'Recreate' })
    expect(deploymentOf('replicas').spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } })
  })

  it('gives each database mode requests and limits at least the footprint docs/memory.md states, and as the docs give them', async () => {
    const measured = measuredFootprints()
    expect(Object.keys(measured).sort()).toEqual(['embedded', 'external'])
    const rendered = { embedded: containerOf('default').resources, external: containerOf('external-database').resources } as Record<string, ContainerResources>
    for (const [mode, figures] of Object.entries(measured)) {
      const resources = rendered[mode] as ContainerResources
      expect(resources, mode).toEqual({ requests: { cpu: '100m', memory: figures.request }, limits: { memory: figures.limit } })
      expect(mebibytes(resources.limits.memory), `${mode}: the limit is under the measured peak`).toBeGreaterThanOrEqual(figures.peakMiB)
      expect(mebibytes(resources.requests.memory), `${mode}: the request is under the measured settled footprint`).toBeGreaterThanOrEqual(figures.settledMiB)
    }
    const own = only<Deployment>(await renderChart([], ['resources.limits.memory=2Gi']), 'Deployment').spec.template.spec.containers[0] as Container
    expect(own.resources).toEqual({ limits: { memory: '2Gi' } })
  })

  it('probes /healthz and /readyz on the metrics port by default', () => {
    const container = containerOf('default')
    expect(container.livenessProbe).toMatchObject({ httpGet: { path: '/healthz', port: 'metrics' } })
    expect(container.readinessProbe).toMatchObject({ httpGet: { path: '/readyz', port: 'metrics' } })
    expect(container.startupProbe).toMatchObject({ httpGet: { path: '/healthz', port: 'metrics' } })
  })

  it('probes the API port over TCP with probes.type=tcpSocket', async () => {
    const container = only<Deployment>(await renderChart([], ['probes.type=tcpSocket']), 'Deployment').spec.template.spec.containers[0] as Container
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe'] as const) {
      expect(container[probe]).toMatchObject({ tcpSocket: { port: 'api' } })
    }
  })
})

describe('secrets', () => {
  it('generates a vdt_ admin token Secret that survives uninstall and feeds VERDICT_BOOTSTRAP_TOKEN', () => {
    const token = secret('default', 'verdict-admin-token')
    expect(decode(token.data.token)).toMatch(/^vdt_[A-Za-z0-9]{43}$/)
    expect(token.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep')
    expect(envOf('default').get('VERDICT_BOOTSTRAP_TOKEN')?.valueFrom).toEqual({ secretKeyRef: { name: 'verdict-admin-token', key: 'token' } })
  })

  it('reads the database URL from an existing Secret, or from one it makes out of database.url', () => {
    expect(envOf('external-database').get('VERDICT_DATABASE_URL')?.valueFrom).toEqual({ secretKeyRef: { name: 'verdict-postgres', key: 'DATABASE_URL' } })
    expect(ofKind(objectsOf('external-database'), 'Secret').map((object) => object.metadata.name)).not.toContain('verdict-database')
    expect(envOf('external-database-url').get('VERDICT_DATABASE_URL')?.valueFrom).toEqual({ secretKeyRef: { name: 'verdict-database', key: 'url' } })
    expect(decode(secret('external-database-url', 'verdict-database').data.url)).toBe('postgres://verdict:secret@postgres.databases.svc:5432/verdict')
    expect(envOf('default').has('VERDICT_DATABASE_URL')).toBe(false)
  })

  it('passes the audit spool size on, and gives an external-database pod an emptyDir data volume for the spool', () => {
    expect(envOf('external-database').get('VERDICT_AUDIT_SPOOL_MAX_BYTES')?.value).toBe('1gb')
    expect(envOf('external-database').get('VERDICT_DATA_DIR')?.value).toBe('/var/lib/verdict')
    const volumes = only<Deployment>(objectsOf('external-database'), 'Deployment').spec.template.spec.volumes ?? []
    expect(volumes.find((volume) => volume.name === 'data')).toEqual({ name: 'data', emptyDir: {} })
  })

  it('takes the admin token from an existing Secret, or leaves it to Verdict', async () => {
    const existing = await renderChart([], ['adminToken.existingSecret=my-token', 'adminToken.existingSecretKey=secret'])
    expect(ofKind(existing, 'Secret').map((object) => object.metadata.name)).not.toContain('verdict-admin-token')
    const env = (only<Deployment>(existing, 'Deployment').spec.template.spec.containers[0] as Container).env ?? []
    expect(env.find((variable) => variable.name === 'VERDICT_BOOTSTRAP_TOKEN')?.valueFrom).toEqual({ secretKeyRef: { name: 'my-token', key: 'secret' } })
    expect(envOf('install').has('VERDICT_BOOTSTRAP_TOKEN')).toBe(false)
  })
})

describe('availability and extras', () => {
  it('has a PodDisruptionBudget only with more than one replica', () => {
    for (const set of Object.keys(VALUE_SETS)) {
      const replicas = deploymentOf(set).spec.replicas
      expect(ofKind(objectsOf(set), 'PodDisruptionBudget'), set).toHaveLength(replicas > 1 ? 1 : 0)
    }
    expect(deploymentOf('replicas').spec.replicas).toBe(3)
    expect(only<K8sObject & { spec: Record<string, unknown> }>(objectsOf('replicas'), 'PodDisruptionBudget').spec).toEqual({
      minAvailable: 1,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'verdict', 'app.kubernetes.io/instance': 'verdict' } },
    })
  })

  it('spreads several replicas over nodes unless told otherwise', () => {
    const spread = (set: string) => (deploymentOf(set).spec.template.spec as PodSpec & { topologySpreadConstraints?: unknown[] }).topologySpreadConstraints
    expect(spread('default')).toBeUndefined()
    expect(spread('replicas')).toEqual([
      {
        maxSkew: 1,
        topologyKey: 'kubernetes.io/hostname',
        whenUnsatisfiable: 'ScheduleAnyway',
        labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'verdict', 'app.kubernetes.io/instance': 'verdict' } },
      },
    ])
  })

  it('makes a ServiceMonitor for the metrics port only when asked', () => {
    expect(ofKind(objectsOf('default'), 'ServiceMonitor')).toEqual([])
    const monitor = only<K8sObject & { spec: { endpoints: Record<string, unknown>[]; selector: Record<string, unknown> } }>(objectsOf('service-monitor'), 'ServiceMonitor')
    expect(monitor.apiVersion).toBe('monitoring.coreos.com/v1')
    expect(monitor.metadata.labels?.release).toBe('prometheus')
    expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics' })])
    const service = only<K8sObject & { spec: { ports: { name: string }[] } }>(objectsOf('service-monitor'), 'Service', 'verdict')
    expect(service.spec.ports.map((port) => port.name)).toContain('metrics')
    expect(service.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels as Record<string, string>)
  })

  it('makes a NetworkPolicy only when asked: the webhook open to all, the API and metrics to the given peers', () => {
    expect(ofKind(objectsOf('default'), 'NetworkPolicy')).toEqual([])
    const policy = only<K8sObject & { spec: { ingress: { ports: { port: string }[]; from?: unknown[] }[]; policyTypes: string[] } }>(objectsOf('network-policy'), 'NetworkPolicy')
    expect(policy.spec.policyTypes).toEqual(['Ingress'])
    const byPort = new Map(policy.spec.ingress.map((rule) => [rule.ports[0]?.port, rule.from]))
    expect(byPort.get('webhook')).toBeUndefined()
    expect(byPort.get('api')).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ci' } } }])
    expect(byPort.get('metrics')).toHaveLength(1)
  })

  it('passes the ConfigMap cache settings, sizes given as numbers as whole numbers, and grants nothing on ConfigMaps when the cache is off', async () => {
    expect(['SELECTOR', 'MAX_BYTES', 'CACHE_BYTES'].map((name) => envOf('default').get(`VERDICT_CONTEXT_CONFIGMAP_${name}`)?.value)).toEqual(['verdict.dev/context=true', '256kb', '32mb'])
    const off = await renderChart([], ['config.contextConfigMapCacheBytes=0', 'config.contextConfigMapMaxBytes=33554432', 'config.contextConfigMapSelector=cache.kyverno.io/enabled'])
    const env = new Map((only<Deployment>(off, 'Deployment').spec.template.spec.containers[0]?.env ?? []).map((variable) => [variable.name, variable.value]))
    expect(['SELECTOR', 'MAX_BYTES', 'CACHE_BYTES'].map((name) => env.get(`VERDICT_CONTEXT_CONFIGMAP_${name}`))).toEqual(['cache.kyverno.io/enabled', '33554432', '0'])
    const rules = only<K8sObject & { rules: { resources: string[] }[] }>(off, 'ClusterRole').rules
    expect(rules.flatMap((rule) => rule.resources)).not.toContain('configmaps')
  })

  it('records Events by default, and neither records them nor grants anything on them with config.events off', async () => {
    expect(envOf('default').get('VERDICT_EVENTS')).toEqual({ name: 'VERDICT_EVENTS', value: 'on' })
    const off = await renderChart([], ['config.events=off'])
    const env = new Map((only<Deployment>(off, 'Deployment').spec.template.spec.containers[0]?.env ?? []).map((variable) => [variable.name, variable.value]))
    expect(env.get('VERDICT_EVENTS')).toBe('off')
    const rules = only<K8sObject & { rules: { apiGroups: string[]; resources: string[] }[] }>(off, 'ClusterRole').rules
    expect(rules.filter((rule) => rule.resources.includes('events'))).toEqual([])
  })

  it('keeps generated ValidatingAdmissionPolicies by default, and neither keeps them nor grants anything on them with config.generatedVaps off', async () => {
    expect(envOf('default').get('VERDICT_GENERATED_VAPS')).toEqual({ name: 'VERDICT_GENERATED_VAPS', value: 'on' })
    const off = await renderChart([], ['config.generatedVaps=off'])
    const env = new Map((only<Deployment>(off, 'Deployment').spec.template.spec.containers[0]?.env ?? []).map((variable) => [variable.name, variable.value]))
    expect(env.get('VERDICT_GENERATED_VAPS')).toBe('off')
    const rules = only<K8sObject & { rules: { resources: string[] }[] }>(off, 'ClusterRole').rules
    expect(rules.flatMap((rule) => rule.resources).filter((resource) => resource.startsWith('validatingadmissionpolic'))).toEqual([])
  })

  it('passes the background scan settings, with the webhook\'s excluded namespaces, and grants scans nothing when they are off', async () => {
    const scanEnv = (names: string[], env: Map<string, { value?: string }>) => names.map((name) => env.get(name)?.value)
    const names = ['VERDICT_SCAN_INTERVAL', 'VERDICT_SCAN_PAGE_SIZE', 'VERDICT_REPORT_MAX_RESULTS', 'VERDICT_REPORTS_API', 'VERDICT_SCAN_EXCLUDED_NAMESPACES']
    expect(scanEnv(names, envOf('default'))).toEqual(['1h', '100', '1000', 'auto', 'kube-system'])
    expect(scanEnv(names, envOf('openreports'))).toEqual(['1h', '100', '1000', 'openreports', 'kube-system'])
    expect(envOf('default').get('NODE_OPTIONS')).toEqual({ name: 'NODE_OPTIONS', value: '--max-semi-space-size=8' })
    const tuned = await renderChart([], ['backgroundScan.interval=0', 'backgroundScan.pageSize=250', 'backgroundScan.reportsApi=off', 'webhook.excludeNamespaces={monitoring,kube-system}', 'nodeOptions='])
    const env = new Map((only<Deployment>(tuned, 'Deployment').spec.template.spec.containers[0]?.env ?? []).map((variable) => [variable.name, variable]))
    expect(scanEnv(names, env)).toEqual(['0', '250', '1000', 'off', 'kube-system,monitoring'])
    expect(env.has('NODE_OPTIONS')).toBe(false)
    const rules = only<K8sObject & { rules: { resources: string[] }[] }>(tuned, 'ClusterRole').rules
    expect(rules.flatMap((rule) => rule.resources)).not.toContain('pods')
    expect(rules.flatMap((rule) => rule.resources)).not.toContain('policyreports')
    expect(rules.flatMap((rule) => rule.resources)).not.toContain('reports')
    const extra = await renderChart([], ['backgroundScan.extraResources[0].apiGroups={networking.k8s.io}', 'backgroundScan.extraResources[0].resources={ingresses}'])
    expect(only<K8sObject & { rules: Record<string, string[]>[] }>(extra, 'ClusterRole').rules).toContainEqual({ apiGroups: ['networking.k8s.io'], resources: ['ingresses'], verbs: ['list', 'watch'] })
  })

  it('grants both report groups whatever group reports go to: Verdict deletes its reports from the one it does not write to', async () => {
    const reportRules = (objects: K8sObject[]) =>
      only<K8sObject & { rules: { apiGroups: string[] }[] }>(objects, 'ClusterRole').rules.filter((rule) => ['openreports.io', 'wgpolicyk8s.io'].includes(rule.apiGroups[0] ?? ''))
    const expected = BACKGROUND_SCAN_RULES.slice(-2)
    expect(reportRules(objectsOf('default'))).toEqual(expected)
    expect(reportRules(objectsOf('openreports'))).toEqual(expected)
    for (const setting of ['wgpolicyk8s', 'off']) expect(reportRules(await renderChart([], [`backgroundScan.reportsApi=${setting}`]))).toEqual(expected)
  })

  it('installs the OpenReports CRDs only when asked: as vendored, labelled, and kept on helm uninstall', () => {
    const crdNames = (set: string) => ofKind(objectsOf(set), 'CustomResourceDefinition').map((crd) => crd.metadata.name)
    const verdictCrds = ['policies.verdict.dev', 'policyexceptions.verdict.dev', 'rulesets.verdict.dev']
    expect(crdNames('default')).toEqual(verdictCrds)
    expect(crdNames('install')).toEqual(verdictCrds)
    expect(crdNames('openreports')).toEqual([...verdictCrds, 'reports.openreports.io', 'clusterreports.openreports.io'])
    for (const plural of ['reports', 'clusterreports']) {
      const rendered = only<K8sObject & { spec: unknown }>(objectsOf('openreports'), 'CustomResourceDefinition', `${plural}.openreports.io`)
      const vendored = yaml.load(readFileSync(join(CHART_DIR, 'files', 'openreports', `openreports.io_${plural}.yaml`), 'utf8')) as K8sObject & { spec: unknown }
      expect(rendered.spec).toEqual(vendored.spec)
      expect(rendered.metadata.annotations).toEqual({ ...vendored.metadata.annotations, 'helm.sh/resource-policy': 'keep' })
      expect(rendered.metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/part-of': 'verdict' })
    }
  })

  it('grants the controller what it needs and no more', () => {
    const objects = objectsOf('default')
    const clusterRole = only<K8sObject & { rules: Record<string, string[]>[] }>(objects, 'ClusterRole')
    expect(clusterRole.rules).toEqual([
      { apiGroups: ['verdict.dev'], resources: ['rulesets', 'policies', 'policyexceptions'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['verdict.dev'], resources: ['rulesets/status', 'policies/status', 'policyexceptions/status'], verbs: ['get', 'update', 'patch'] },
      { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch'] },
      { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
      { apiGroups: ['admissionregistration.k8s.io'], resources: ['validatingwebhookconfigurations'], resourceNames: ['verdict'], verbs: ['get', 'patch'] },
      GENERATED_VAP_RULE,
      ...BACKGROUND_SCAN_RULES,
    ])
    const role = only<K8sObject & { rules: Record<string, string[]>[] }>(objects, 'Role')
    expect(role.metadata.namespace).toBe(NAMESPACE)
    expect(role.rules).toEqual([{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] }])
    const serviceAccount = deploymentOf('default').spec.template.spec.serviceAccountName
    for (const kind of ['ClusterRoleBinding', 'RoleBinding']) {
      expect(only<K8sObject & { subjects: unknown[] }>(objects, kind).subjects).toEqual([{ kind: 'ServiceAccount', name: serviceAccount, namespace: NAMESPACE }])
    }
  })
})

describe('NOTES.txt', () => {
  /** `helm install --dry-run=client` renders the notes without a cluster. */
  async function notes(files: string[]): Promise<string> {
    const result = await helm(['install', 'verdict', CHART_DIR, '--namespace', NAMESPACE, '--dry-run=client', ...files.flatMap((file) => ['--values', file])])
    expect(result.ok, result.stderr).toBe(true)
    return result.stdout.slice(result.stdout.indexOf('NOTES:'))
  }

  it('tells how to read the admin token, reach the API and try a denial', async () => {
    const text = await notes([])
    expect(text).toContain("kubectl -n verdict get secret verdict-admin-token -o jsonpath='{.data.token}' | base64 -d")
    expect(text).toContain('kubectl -n verdict port-forward service/verdict 8080:8080')
    expect(text).toContain('curl -s -H "Authorization: Bearer $TOKEN" http://localhost:8080/api/auth/whoami')
    expect(text).toContain('kubectl apply -f manifests/examples/')
    expect(text).toMatch(/run privileged .*--privileged/)
    expect(text).toContain('failurePolicy is Ignore')
  })

  it('reads the token Verdict wrote itself when the chart made none, and waits for cert-manager', async () => {
    const text = await notes([join(CI_DIR, 'install-values.yaml')])
    expect(text).toContain('kubectl -n verdict exec deployment/verdict -- cat /var/lib/verdict/admin-token')
    expect(text).toContain('kubectl -n verdict get certificate verdict-webhook')
  })
})

/** The controller keeps generated ValidatingAdmissionPolicies and bindings (config.generatedVaps on): their names come from policies, so no resourceNames. */
const GENERATED_VAP_RULE = {
  apiGroups: ['admissionregistration.k8s.io'],
  resources: ['validatingadmissionpolicies', 'validatingadmissionpolicybindings'],
  verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
}

/** Background scans list the kinds of webhook.rules (subresources left out) and write Verdict's reports, in either group. */
const BACKGROUND_SCAN_RULES = [
  { apiGroups: [''], resources: ['pods', 'replicationcontrollers'], verbs: ['list', 'watch'] },
  { apiGroups: ['apps'], resources: ['deployments', 'replicasets', 'statefulsets', 'daemonsets'], verbs: ['list', 'watch'] },
  { apiGroups: ['batch'], resources: ['jobs', 'cronjobs'], verbs: ['list', 'watch'] },
  { apiGroups: ['openreports.io'], resources: ['reports', 'clusterreports'], verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'] },
  { apiGroups: ['wgpolicyk8s.io'], resources: ['policyreports', 'clusterpolicyreports'], verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'] },
]
