import { describe, expect, it } from 'vitest'
import { VOCABULARY, WORKLOAD_TEMPLATES } from '../../../src/authoring/catalog/index.js'
import { compileWithCatalog as compileInstruction, understandInstruction } from '../../../src/authoring/compile-instruction.js'
import { baseKubernetesDocument } from '../../../src/authoring/samples/base-documents.js'
import { podSpecsOf } from '../../../src/authoring/samples/document-parts.js'
import { prepareClause } from '../../../src/authoring/text/clause.js'
import { compileRuleset, evaluateRuleset, PreparedInput, type CompiledRuleset } from '../../../src/engine/index.js'

type Json = Record<string, unknown>

interface Container extends Json {
  name: string
  image?: string
  env?: Json[]
  envFrom?: Json[]
  ports?: Json[]
  resources?: { requests?: Record<string, unknown>; limits?: Record<string, unknown> }
  securityContext?: Json
  imagePullPolicy?: string
}

interface PodSpec extends Json {
  containers: Container[]
  initContainers: Container[]
  ephemeralContainers?: Container[]
}

const LABELS = { platform: 'kubernetes' }
const DIGEST = `sha256:${'ab12'.repeat(16)}`

const compiledCache = new Map<string, CompiledRuleset>()

function compiled(instruction: string): CompiledRuleset {
  let ruleset = compiledCache.get(instruction)
  if (!ruleset) {
    const { spec } = compileInstruction(instruction, LABELS)
    ruleset = compileRuleset({ ...spec, name: 'workload-test' })
    compiledCache.set(instruction, ruleset)
  }
  return ruleset
}

function judge(instruction: string, document: Json): { passed: boolean; messages: string[] } {
  const result = evaluateRuleset(compiled(instruction), new PreparedInput({ object: document }))
  return { passed: result.passed, messages: result.results.map((entry) => `${entry.status}: ${entry.message ?? ''}`) }
}

/** A compliant base document of `kind` after `change` to its pod spec. */
function documentOf(kind: string, change: (spec: PodSpec) => void = () => {}): Json {
  const document = baseKubernetesDocument(kind)
  if (!document) throw new Error(`no base ${kind}`)
  const [spec] = podSpecsOf(document)
  if (spec) change(spec as PodSpec)
  return document
}

const pod = (change?: (spec: PodSpec) => void): Json => documentOf('Pod', change)
const app = (spec: PodSpec): Container => spec.containers[0] as Container
const init = (spec: PodSpec): Container => spec.initContainers[0] as Container
const withImage = (image: string) => (spec: PodSpec) => void (app(spec).image = image)
const withEphemeral = (container: Omit<Container, 'name'>) => (spec: PodSpec) => void (spec.ephemeralContainers = [{ name: 'debug', ...container }])

function templatesOf(instruction: string): Array<string | undefined> {
  return understandInstruction(instruction, LABELS).clauses.map((entry) => entry.report.template)
}

function parametersOf(instruction: string): unknown {
  const [entry] = understandInstruction(instruction, LABELS).clauses
  return entry?.report.parameters
}

function expectVerdicts(instruction: string, cases: ReadonlyArray<readonly [string, Json, boolean]>): void {
  for (const [description, document, passes] of cases) {
    expect(judge(instruction, document).passed, `${instruction} / ${description}`).toBe(passes)
  }
}

describe('workload templates: recognition', () => {
  it('each phrasing maps to its own template alone', () => {
    for (const template of WORKLOAD_TEMPLATES) {
      expect(template.phrasings.length, template.id).toBeGreaterThanOrEqual(3)
      for (const phrasing of template.phrasings) expect(templatesOf(phrasing), phrasing).toEqual([template.id])
    }
  })

  it.each([
    ['images only from registry.acme.io and never :latest', ['image-registry-allowed', 'image-tag-not-latest']],
    ['containers need cpu and memory limits and liveness probes', ['container-resources-required', 'container-probes-required']],
    ['read-only root filesystem and no privileged containers', ['read-only-root-filesystem', 'pss-privileged']],
    ['memory limit at most 2Gi, cpu requests required', ['container-resources-bounded', 'container-resources-required']],
    ['pin images by digest and require readiness probes', ['image-digest-required', 'container-probes-required']],
    ['no images from docker.io, imagePullPolicy must be Always', ['image-registry-denied', 'image-pull-policy']],
    ['never :latest and no images from docker.io', ['image-tag-not-latest', 'image-registry-denied']],
    ['priorityClassName required; automountServiceAccountToken must be false', ['priority-class-required', 'service-account-token-automount-disabled']],
  ])('"%s" gives one rule per request', (instruction, expected) => {
    expect(templatesOf(instruction)).toEqual(expected)
    expect(compileInstruction(instruction, LABELS).spec.rules.map((rule) => rule.template?.id)).toEqual(expected)
  })

  it.each([
    'no privileged pods',
    'drop all capabilities',
    'run as non-root',
    'containers must not run as root',
    'require team label',
    'every resource needs team',
    'no host ports',
    'disallow hostPort 22',
    'replicas at least 2',
    'ingress hosts must end with .acme.io',
  ])(
    'no workload template claims "%s"',
    (text) => {
      const clause = prepareClause(text, { platform: 'kubernetes', inheritedKinds: [], vocabulary: VOCABULARY })
      for (const template of WORKLOAD_TEMPLATES) expect(template.recognize(clause).score, template.id).toBe(0)
    },
  )

  it('asks for what a clause leaves out', () => {
    const [registries] = understandInstruction('images only from approved registries', LABELS).clauses
    expect(registries?.report.status).toBe('missing-parameters')
    expect(registries?.report.missing?.[0]?.question).toMatch(/which registries/)
    const [memory] = understandInstruction('memory limit at most 512', LABELS).clauses
    expect(memory?.report).toMatchObject({ status: 'missing-parameters', template: 'container-resources-bounded' })
    const [ports] = understandInstruction('containers must not listen on privileged ports', LABELS).clauses
    expect(ports?.report).toMatchObject({ status: 'missing-parameters', template: 'container-port-denied' })
  })

  it('reads registry entries exactly as written, Docker Hub by name', () => {
    expect(parametersOf('only pull from ghcr.io/acme or registry.acme.io')).toEqual({ registries: ['ghcr.io/acme', 'registry.acme.io'] })
    expect(parametersOf('images must come from https://registry.acme.io:5000/')).toEqual({ registries: ['registry.acme.io:5000'] })
    expect(parametersOf('no images from Docker Hub')).toEqual({ registries: ['docker.io'] })
    expect(parametersOf('no images except from registry.acme.io')).toEqual({ registries: ['registry.acme.io'] })
    expect(templatesOf('no images except from registry.acme.io')).toEqual(['image-registry-allowed'])
    expect(parametersOf('images only from GHCR.io/Acme')).toEqual({ registries: ['ghcr.io/acme'] })
    expect(parametersOf('images only from *.acme.io')).toEqual({ registries: ['*.acme.io'] })
  })

  it('reads resource bounds with their units', () => {
    expect(parametersOf('limits of at most 512Mi memory and 1 cpu')).toEqual({ bounds: { 'limits.memory': { max: '512Mi' }, 'limits.cpu': { max: '1' } } })
    expect(parametersOf('cpu limits no more than 2 cores')).toEqual({ bounds: { 'limits.cpu': { max: '2' } } })
    expect(parametersOf('cpu requests at least 100m')).toEqual({ bounds: { 'requests.cpu': { min: '100m' } } })
    expect(parametersOf('cpu requests between 100m and 2')).toEqual({ bounds: { 'requests.cpu': { min: '100m', max: '2' } } })
    expect(parametersOf('memory requests and limits at most 4 GiB')).toEqual({ bounds: { 'requests.memory': { max: '4Gi' }, 'limits.memory': { max: '4Gi' } } })
    expect(parametersOf('memory limit at most 2Gi and cpu limit at most 500 millicores')).toEqual({
      bounds: { 'limits.memory': { max: '2Gi' }, 'limits.cpu': { max: '500m' } },
    })
    expect(parametersOf('containers need 1Gi memory limits or less')).toEqual({ bounds: { 'limits.memory': { max: '1Gi' } } })
    // A negated "more than" is "at most", not "more than".
    expect(parametersOf('containers must not have more than 2 cpus')).toEqual({ bounds: { 'limits.cpu': { max: '2' } } })
    expect(parametersOf('no containers with memory limits above 4Gi')).toEqual({ bounds: { 'limits.memory': { max: '4Gi' } } })
    expect(parametersOf('cpu limits under 4 cores')).toEqual({ bounds: { 'limits.cpu': { lessThan: '4' } } })
  })

  it('reads which resources, probes and pull policy are required', () => {
    expect(parametersOf('containers need cpu and memory limits')).toEqual({ resources: ['cpu', 'memory'], fields: ['limits'] })
    expect(parametersOf('memory requests required')).toEqual({ resources: ['memory'], fields: ['requests'] })
    expect(parametersOf('containers must declare resources')).toEqual({ resources: ['cpu', 'memory'], fields: ['requests', 'limits'] })
    expect(templatesOf('every resource needs team and cost-center labels')).not.toContain('container-resources-required')
    expect(parametersOf('containers need liveness and readiness probes')).toEqual({ probes: ['liveness', 'readiness'] })
    expect(parametersOf('imagePullPolicy must be IfNotPresent')).toEqual({ policy: 'IfNotPresent', forbidden: false, onlyLatest: false })
    expect(parametersOf('imagePullPolicy must be Never')).toEqual({ policy: 'Never', forbidden: false, onlyLatest: false })
    expect(parametersOf('priorityClassName must be one of high, medium')).toEqual({ allowed: ['high', 'medium'] })
    expect(parametersOf('no containers listening on ports 22 or 2375-2376')).toEqual({ ports: ['22', '2375-2376'] })
  })

  it('tells "no credentials in env" from "credentials in env come from Secrets"', () => {
    expect(templatesOf('no secrets in env vars')).toEqual(['env-no-secrets'])
    expect(templatesOf('secrets must be mounted as files, not env vars')).toEqual(['env-no-secrets'])
    expect(templatesOf('secrets must come from secretKeyRef, not literal env values')).toEqual(['env-secrets-from-secret-refs'])
    expect(templatesOf('no hardcoded credentials in environment variables')).toEqual(['env-secrets-from-secret-refs'])
  })
})

describe('workload templates: image tags and digests', () => {
  it('"never :latest" fails :latest and untagged images, in every container type', () => {
    expectVerdicts('never :latest', [
      ['the base pod', pod(), true],
      ['nginx:latest', pod(withImage('nginx:latest')), false],
      ['nginx (implicitly latest)', pod(withImage('nginx')), false],
      ['a registry with a port and no tag', pod(withImage('localhost:5000/nginx')), false],
      ['a registry with a port and a tag', pod(withImage('localhost:5000/nginx:1.25')), true],
      ['pinned by digest alone', pod(withImage(`nginx@${DIGEST}`)), true],
      [':latest with a digest (the tag is still written)', pod(withImage(`nginx:latest@${DIGEST}`)), false],
      ['a tag that only contains latest', pod(withImage('nginx:latest-alpine')), true],
      ['an untagged init container', pod((spec) => void (init(spec).image = 'registry.example.com/payments/migrate')), false],
      ['an ephemeral container on :latest', pod(withEphemeral({ image: 'busybox:latest' })), false],
      ['a Deployment template on :latest', documentOf('Deployment', withImage('nginx:latest')), false],
      ['a CronJob template untagged', documentOf('CronJob', withImage('nginx')), false],
      ['a compliant CronJob', documentOf('CronJob'), true],
    ])
  })

  it('names the offending container and image', () => {
    const { messages } = judge('never :latest', pod(withEphemeral({ image: 'busybox:latest' })))
    expect(messages.join()).toContain('debug (busybox:latest)')
  })

  it('"no untagged images" accepts any tag, or a digest', () => {
    expectVerdicts('no untagged images', [
      ['nginx', pod(withImage('nginx')), false],
      ['nginx:latest', pod(withImage('nginx:latest')), true],
      ['digest only', pod(withImage(`nginx@${DIGEST}`)), true],
      ['a port but no tag', pod(withImage('registry.acme.io:5000/app')), false],
      ['an ephemeral container without a tag', pod(withEphemeral({ image: 'busybox' })), false],
    ])
  })

  it('"images must be pinned by digest" needs a full digest', () => {
    expectVerdicts('images must be pinned by digest', [
      ['a tag only', pod(), false],
      ['every image with a digest', pod((spec) => [...spec.containers, ...spec.initContainers].forEach((c) => void (c.image = `${c.image ?? ''}@${DIGEST}`))), true],
      ['a truncated digest', pod((spec) => [...spec.containers, ...spec.initContainers].forEach((c) => void (c.image = `${c.image ?? ''}@sha256:ab12`))), false],
    ])
  })
})

describe('workload templates: registries', () => {
  const allowed = 'images only from registry.acme.io'
  it('matches the allowed host exactly', () => {
    const both = (image: string) => (spec: PodSpec) => {
      app(spec).image = image
      init(spec).image = 'registry.acme.io/payments/migrate:1.4.2'
    }
    expectVerdicts(allowed, [
      ['registry.acme.io', pod(both('registry.acme.io/payments/web:1.4.2')), true],
      ['registry.acme.io with a digest', pod(both(`registry.acme.io/payments/web@${DIGEST}`)), true],
      ['registry.acme.io with a tag and a digest', pod(both(`registry.acme.io/web:1.4.2@${DIGEST}`)), true],
      ['the host in capitals', pod(both('REGISTRY.ACME.IO/payments/web:1.4.2')), true],
      ['a longer host', pod(both('registry.acme.io.evil.com/payments/web:1.4.2')), false],
      ['a host that ends the same', pod(both('evilregistry.acme.io/payments/web:1.4.2')), false],
      ['another port', pod(both('registry.acme.io:5000/payments/web:1.4.2')), false],
      ['the host as a path component', pod(both('evil.com/registry.acme.io/web:1.4.2')), false],
      ['the host in the tag', pod(both('evil.com/web:registry.acme.io')), false],
      ['Docker Hub, implicitly', pod(both('nginx:1.25')), false],
      ['a base pod from registry.example.com', pod(), false],
      ['an ephemeral container from Docker Hub', pod((spec) => {
        both('registry.acme.io/payments/web:1.4.2')(spec)
        withEphemeral({ image: 'busybox:1.36' })(spec)
      }), false],
      ['an init container from elsewhere', pod((spec) => {
        both('registry.acme.io/payments/web:1.4.2')(spec)
        init(spec).image = 'quay.io/payments/migrate:1.4.2'
      }), false],
    ])
  })

  it('keeps the port and path prefix the author gave', () => {
    const image = (value: string) => (spec: PodSpec) => {
      app(spec).image = value
      init(spec).image = value
    }
    expectVerdicts('images only from registry.acme.io:5000', [
      ['that port', pod(image('registry.acme.io:5000/web:1')), true],
      ['no port', pod(image('registry.acme.io/web:1')), false],
    ])
    const paths = 'only pull from ghcr.io/acme or registry.acme.io'
    expectVerdicts(paths, [
      ['under the path', pod(image('ghcr.io/acme/web:1')), true],
      ['deeper under the path', pod(image('ghcr.io/acme/team/web:1')), true],
      ['the other registry', pod(image('registry.acme.io/web:1')), true],
      ['a sibling path with the same prefix', pod(image('ghcr.io/acme-evil/web:1')), false],
      ['a longer first component', pod(image('ghcr.io/acmeweb:1')), false],
      ['another owner on the same host', pod(image('ghcr.io/other/web:1')), false],
    ])
  })

  it('matches *.domain on the host only', () => {
    const image = (value: string) => (spec: PodSpec) => {
      app(spec).image = value
      init(spec).image = value
    }
    expectVerdicts('images only from *.acme.io', [
      ['a subdomain', pod(image('registry.acme.io/web:1')), true],
      ['a deeper subdomain', pod(image('eu.registry.acme.io/web:1')), true],
      ['the bare domain', pod(image('acme.io/web:1')), false],
      ['a host that ends the same', pod(image('evilacme.io/web:1')), false],
      ['a longer host', pod(image('registry.acme.io.evil.com/web:1')), false],
      ['a subdomain with a port', pod(image('registry.acme.io:5000/web:1')), false],
      ['the domain in the path', pod(image('evil.com/x.acme.io/web:1')), false],
    ])
  })

  it('reads images without a registry as docker.io, official ones under library/', () => {
    const image = (value: string) => (spec: PodSpec) => {
      app(spec).image = value
      init(spec).image = value
    }
    expectVerdicts('images only from docker.io', [
      ['nginx', pod(image('nginx:1.25')), true],
      ['library/nginx', pod(image('library/nginx:1.25')), true],
      ['docker.io/library/nginx', pod(image('docker.io/library/nginx:1.25')), true],
      ['index.docker.io', pod(image('index.docker.io/bitnami/redis:7')), true],
      ['localhost is a registry', pod(image('localhost/nginx:1.25')), false],
      ['quay.io', pod(image('quay.io/nginx:1.25')), false],
    ])
    expectVerdicts('images only from docker.io/library', [
      ['an official image', pod(image('nginx:1.25')), true],
      ['docker.io/nginx is library/nginx', pod(image('docker.io/nginx:1.25')), true],
      ['a user image', pod(image('bitnami/redis:7')), false],
    ])
  })

  it('denies what the denylist names and nothing else', () => {
    const denied = 'no images from docker.io'
    expectVerdicts(denied, [
      ['the base pod', pod(), true],
      ['nginx', pod(withImage('nginx')), false],
      ['library/nginx@digest', pod(withImage(`library/nginx@${DIGEST}`)), false],
      ['docker.io/bitnami/redis', pod(withImage('docker.io/bitnami/redis:7')), false],
      ['a look-alike host', pod(withImage('docker.io.mirror.acme.io/nginx:1')), true],
      ['a registry with a port', pod(withImage('mirror:5000/nginx:1')), true],
      ['an ephemeral container from Docker Hub', pod(withEphemeral({ image: 'busybox' })), false],
      ['an ephemeral container without an image', pod(withEphemeral({})), true],
      ['a CronJob template from Docker Hub', documentOf('CronJob', withImage('nginx:1.25')), false],
    ])
  })
})

describe('workload templates: resources', () => {
  it('requires exactly the fields named, on app and init containers', () => {
    const limits = 'containers need cpu and memory limits'
    expectVerdicts(limits, [
      ['the base pod', pod(), true],
      ['no requests', pod((spec) => [...spec.containers, ...spec.initContainers].forEach((c) => void delete c.resources?.requests)), true],
      ['an init container without a cpu limit', pod((spec) => void delete init(spec).resources?.limits?.cpu), false],
      ['an app container without resources', pod((spec) => void delete app(spec).resources), false],
      ['an ephemeral container without resources (Kubernetes forbids them)', pod(withEphemeral({ image: 'busybox:1.36' })), true],
      ['a Deployment template without memory limits', documentOf('Deployment', (spec) => void delete app(spec).resources?.limits?.memory), false],
    ])
  })

  it('compares quantities by value and fails a missing bounded field', () => {
    const memory = 'memory limit at most 2Gi'
    const limit = (value: unknown) => (spec: PodSpec) => void ((app(spec).resources as { limits: Record<string, unknown> }).limits.memory = value)
    expectVerdicts(memory, [
      ['2Gi', pod(limit('2Gi')), true],
      ['2048Mi', pod(limit('2048Mi')), true],
      ['2049Mi', pod(limit('2049Mi')), false],
      ['2G (less than 2Gi)', pod(limit('2G')), true],
      ['2.5Gi', pod(limit('2.5Gi')), false],
      ['3G', pod(limit('3G')), false],
      ['bytes as a number', pod(limit(1073741824)), true],
      ['no memory limit', pod((spec) => void delete app(spec).resources?.limits?.memory), false],
      ['an init container without resources', pod((spec) => void delete init(spec).resources), false],
      ['not a quantity', pod(limit('lots')), false],
      ['a CronJob template over the bound', documentOf('CronJob', limit('4Gi')), false],
    ])
    expectVerdicts('memory limits at most 1G', [['1Gi is more than 1G', pod(limit('1Gi')), false]])
  })

  it('reads cores, millicores and decimals alike', () => {
    const cpu = (value: unknown, field: 'limits' | 'requests' = 'limits') => (spec: PodSpec) => {
      const resources = app(spec).resources as Record<string, Record<string, unknown>>
      ;(resources[field] ??= {}).cpu = value
    }
    expectVerdicts('cpu limits no more than 2 cores', [
      ['2', pod(cpu('2')), true],
      ['2000m', pod(cpu('2000m')), true],
      ['2001m', pod(cpu('2001m')), false],
      ['the number 2', pod(cpu(2)), true],
      ['the number 2.5', pod(cpu(2.5)), false],
    ])
    expectVerdicts('cpu limits under 4 cores', [
      ['3999m', pod(cpu('3999m')), true],
      ['4', pod(cpu('4')), false],
    ])
    expectVerdicts('containers must not have more than 2 cpus', [
      ['2', pod(cpu('2')), true],
      ['3', pod(cpu('3')), false],
    ])
    expectVerdicts('cpu limit at most 0.5', [
      ['500m', pod(cpu('500m')), true],
      ['501m', pod(cpu('501m')), false],
    ])
    expectVerdicts('cpu requests at least 100m', [
      ['0.1', pod(cpu('0.1', 'requests')), true],
      ['0.05', pod(cpu('0.05', 'requests')), false],
      ['no cpu request on the app container', pod((spec) => void delete app(spec).resources?.requests?.cpu), false],
    ])
  })

  it('applies a list of bounds given once', () => {
    const both = 'limits of at most 512Mi memory and 1 cpu'
    const limits = (cpu: string, memory: string) => (spec: PodSpec) => void ((app(spec).resources as { limits: Record<string, unknown> }).limits = { cpu, memory })
    expectVerdicts(both, [
      ['within both', pod(limits('1', '512Mi')), true],
      ['cpu over', pod(limits('1500m', '512Mi')), false],
      ['memory over', pod(limits('1', '513Mi')), false],
    ])
  })
})

describe('workload templates: probes', () => {
  const probes = 'containers need liveness and readiness probes'
  it('judges app containers of long-running workloads only', () => {
    expectVerdicts(probes, [
      ['the base pod (init container has no probes)', pod(), true],
      ['no readiness probe', pod((spec) => void delete app(spec).readinessProbe), false],
      ['an ephemeral container without probes', pod(withEphemeral({ image: 'busybox:1.36' })), true],
      ['a Deployment template without a liveness probe', documentOf('Deployment', (spec) => void delete app(spec).livenessProbe), false],
      ['a CronJob runs to completion', documentOf('CronJob', (spec) => void delete app(spec).livenessProbe), true],
    ])
    const jobPod = pod((spec) => void delete app(spec).livenessProbe)
    ;(jobPod.metadata as Json).ownerReferences = [{ apiVersion: 'batch/v1', kind: 'Job', name: 'nightly-1', uid: 'x' }]
    expect(judge(probes, jobPod).passed).toBe(true)
  })
})

describe('workload templates: pull policy, service account tokens, root filesystem', () => {
  it('"imagePullPolicy must be Always" fails a missing policy, in every container type', () => {
    const always = (spec: PodSpec) => [...spec.containers, ...spec.initContainers].forEach((c) => void (c.imagePullPolicy = 'Always'))
    expectVerdicts('imagePullPolicy must be Always', [
      ['IfNotPresent', pod(), false],
      ['Always everywhere', pod(always), true],
      ['missing on the app container', pod((spec) => {
        always(spec)
        delete app(spec).imagePullPolicy
      }), false],
      ['an ephemeral container with IfNotPresent', pod((spec) => {
        always(spec)
        withEphemeral({ image: 'busybox:1.36', imagePullPolicy: 'IfNotPresent' })(spec)
      }), false],
    ])
  })

  it('"must not be Never" passes a missing policy; ":latest" scopes the rule', () => {
    expectVerdicts('image pull policy must not be Never', [
      ['missing', pod((spec) => void delete app(spec).imagePullPolicy), true],
      ['Never', pod((spec) => void (init(spec).imagePullPolicy = 'Never')), false],
    ])
    expectVerdicts('imagePullPolicy Always for :latest images', [
      ['tagged images with IfNotPresent', pod(), true],
      [':latest with IfNotPresent', pod(withImage('nginx:latest')), false],
      ['untagged with Always', pod((spec) => {
        app(spec).image = 'nginx'
        app(spec).imagePullPolicy = 'Always'
      }), true],
    ])
  })

  it('automountServiceAccountToken must be false on pods and service accounts', () => {
    const instruction = 'automountServiceAccountToken must be false'
    const serviceAccount = baseKubernetesDocument('ServiceAccount') as Json
    const defaultServiceAccount = { ...serviceAccount }
    delete defaultServiceAccount.automountServiceAccountToken
    expectVerdicts(instruction, [
      ['false', pod(), true],
      ['missing (the ServiceAccount decides, which the pod cannot show)', pod((spec) => void delete spec.automountServiceAccountToken), false],
      ['true', pod((spec) => void (spec.automountServiceAccountToken = true)), false],
      ['a Deployment template without it', documentOf('Deployment', (spec) => void delete spec.automountServiceAccountToken), false],
      ['a CronJob template with false', documentOf('CronJob'), true],
      ['a ServiceAccount with false', serviceAccount, true],
      ['a ServiceAccount with the default', defaultServiceAccount, false],
    ])
  })

  it('readOnlyRootFilesystem is required on every container type', () => {
    expectVerdicts('containers must use a read-only root filesystem', [
      ['the base pod', pod(), true],
      ['an ephemeral container without it', pod(withEphemeral({ image: 'busybox:1.36' })), false],
      ['an ephemeral container with it', pod(withEphemeral({ image: 'busybox:1.36', securityContext: { readOnlyRootFilesystem: true } })), true],
      ['an init container with false', pod((spec) => void ((init(spec).securityContext as Json).readOnlyRootFilesystem = false)), false],
    ])
  })
})

describe('workload templates: credentials in env vars', () => {
  const env = (...entries: Json[]) => (spec: PodSpec) => void (app(spec).env = entries)
  const fromSecret = { secretKeyRef: { name: 'db', key: 'password' } }

  it('credential-like names must come from secretKeyRef', () => {
    expectVerdicts('passwords in env vars must come from secretKeyRef', [
      ['the base pod', pod(), true],
      ['DB_PASSWORD literal', pod(env({ name: 'DB_PASSWORD', value: 'hunter2' })), false],
      ['db_password literal', pod(env({ name: 'db_password', value: 'hunter2' })), false],
      ['DB_PASSWORD from a Secret', pod(env({ name: 'DB_PASSWORD', valueFrom: fromSecret })), true],
      ['DB_PASSWORD from a ConfigMap', pod(env({ name: 'DB_PASSWORD', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } })), false],
      ['a path to a mounted file', pod(env({ name: 'DB_PASSWORD_FILE', value: '/var/run/secrets/db/password' })), true],
      ['TOKEN_TTL is not a credential', pod(env({ name: 'TOKEN_TTL', value: '3600' })), true],
      ['an ephemeral container with API_KEY literal', pod(withEphemeral({ image: 'busybox:1.36', env: [{ name: 'API_KEY', value: 'k' }] })), false],
      ['an init container with AWS_SECRET_ACCESS_KEY literal', pod((spec) => void (init(spec).env = [{ name: 'AWS_SECRET_ACCESS_KEY', value: 'k' }])), false],
    ])
  })

  it('"no credentials in env vars" also forbids Secret references', () => {
    expectVerdicts('no secretKeyRef env vars', [
      ['the base pod', pod(), true],
      ['a secretKeyRef', pod(env({ name: 'DB_URL', valueFrom: fromSecret })), false],
      ['envFrom a Secret', pod((spec) => void (app(spec).envFrom = [{ secretRef: { name: 'db' } }])), false],
      ['envFrom a ConfigMap', pod((spec) => void (app(spec).envFrom = [{ configMapRef: { name: 'web-config' } }])), true],
      ['a literal password', pod(env({ name: 'DB_PASSWORD', value: 'hunter2' })), false],
      ['a path to a mounted file', pod(env({ name: 'DB_PASSWORD_FILE', value: '/var/run/secrets/db/password' })), true],
    ])
  })
})

describe('workload templates: priority classes and ports', () => {
  it('priorityClassName must be set, and one of the list when given', () => {
    const priority = (name?: string) => (spec: PodSpec) => {
      if (name === undefined) delete spec.priorityClassName
      else spec.priorityClassName = name
    }
    expectVerdicts('priorityClassName required', [
      ['missing', pod(), false],
      ['set', pod(priority('low')), true],
      ['empty', pod(priority('')), false],
    ])
    expectVerdicts('priorityClassName must be one of high, medium', [
      ['high', pod(priority('high')), true],
      ['low', pod(priority('low')), false],
      ['missing', pod(), false],
      ['a Deployment template with medium', documentOf('Deployment', priority('medium')), true],
    ])
    expect(parametersOf('workloads must not use the system-node-critical priority class')).toEqual({ forbidden: ['system-node-critical'] })
    expectVerdicts('workloads must not use the system-node-critical priority class', [
      ['missing', pod(), true],
      ['system-node-critical', documentOf('Deployment', priority('system-node-critical')), false],
      ['high', pod(priority('high')), true],
    ])
    expect(parametersOf('pods must not run without a priority class')).toEqual({})
  })

  it('container ports in the denied ranges fail, on app and init containers', () => {
    const port = (containerPort: number) => (spec: PodSpec) => void (app(spec).ports = [{ containerPort }])
    expectVerdicts('no containers listening on port 22', [
      ['8080', pod(), true],
      ['22', pod(port(22)), false],
      ['2222', pod(port(2222)), true],
      ['an init container on 22', pod((spec) => void (init(spec).ports = [{ containerPort: 22 }])), false],
    ])
    expectVerdicts('disallow container ports 30000-32767', [
      ['29999', pod(port(29999)), true],
      ['30000', pod(port(30000)), false],
      ['32767', pod(port(32767)), false],
      ['32768', pod(port(32768)), true],
    ])
  })
})
