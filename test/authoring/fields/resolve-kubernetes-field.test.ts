import { describe, expect, it } from 'vitest'
import { resolveKubernetesField, tokenize } from '../../../src/authoring/fields/resolve-kubernetes-field.js'

function paths(kind: string, mention: string): string[] {
  return resolveKubernetesField(kind, mention).map((field) => field.path)
}

describe('resolveKubernetesField', () => {
  it.each([
    ['Pod', 'securityContext.privileged', ['spec.containers[].securityContext.privileged']],
    ['Pod', 'privileged', ['spec.containers[].securityContext.privileged']],
    ['Pod', 'hostNetwork', ['spec.hostNetwork']],
    ['Pod', 'hostpid', ['spec.hostPID']],
    ['Deployment', 'spec.replicas', ['spec.replicas']],
    ['Job', 'ttlSecondsAfterFinished', ['spec.ttlSecondsAfterFinished']],
    ['CronJob', 'ttlSecondsAfterFinished', ['spec.jobTemplate.spec.ttlSecondsAfterFinished']],
    ['Ingress', 'ingressClassName', ['spec.ingressClassName']],
    ['Ingress', 'spec.tls[].hosts', ['spec.tls[].hosts']],
    ['Pod', 'containers[*].ports[*].hostPort', ['spec.containers[].ports[].hostPort']],
    ['Deployment', 'containers[*].ports[*].hostPort', ['spec.template.spec.containers[].ports[].hostPort']],
    ['Deployment', 'spec.containers[].image', ['spec.template.spec.containers[].image']],
    ['Pod', 'object.spec.hostIPC', ['spec.hostIPC']],
    ['Pod', 'image', ['spec.containers[].image']],
    ['Pod', 'resources.limits.memory', ['spec.containers[].resources.limits.memory']],
  ])('%s: the written name %s', (kind, mention, expected) => {
    expect(paths(kind, mention)).toEqual(expected)
  })

  it.each([
    ['Pod', 'memory limit', ['spec.containers[].resources.limits.memory']],
    ['Deployment', 'memory limit', ['spec.template.spec.containers[].resources.limits.memory']],
    ['Pod', 'CPU request', ['spec.containers[].resources.requests.cpu']],
    ['Pod', 'readiness probe', ['spec.containers[].readinessProbe']],
    ['Pod', 'service account name', ['spec.serviceAccountName']],
    ['Pod', 'runtime class', ['spec.runtimeClassName']],
    ['Pod', 'DNS policy', ['spec.dnsPolicy']],
    ['Pod', 'host aliases', ['spec.hostAliases']],
    ['Pod', 'topology spread constraints', ['spec.topologySpreadConstraints']],
    ['Pod', 'pod anti-affinity', ['spec.affinity.podAntiAffinity']],
    ['Pod', 'pod antiaffinity', ['spec.affinity.podAntiAffinity']],
    ['CronJob', 'concurrency policy', ['spec.concurrencyPolicy']],
    ['Job', 'backoff limit', ['spec.backoffLimit']],
    ['CronJob', 'backoff limit', ['spec.jobTemplate.spec.backoffLimit']],
    ['HorizontalPodAutoscaler', 'min replicas', ['spec.minReplicas']],
    ['CronJob', 'successful jobs history limit', ['spec.successfulJobsHistoryLimit']],
    ['Service', 'external IPs', ['spec.externalIPs']],
    ['NetworkPolicy', 'policy types', ['spec.policyTypes']],
    ['Ingress', 'ingress class', ['spec.ingressClassName']],
    ['Pod', 'image pull policy', ['spec.containers[].imagePullPolicy']],
    ['Pod', 'privilege escalation', ['spec.containers[].securityContext.allowPrivilegeEscalation']],
    ['Pod', 'read-only root filesystem', ['spec.containers[].securityContext.readOnlyRootFilesystem']],
    ['Pod', 'added capabilities', ['spec.containers[].securityContext.capabilities.add']],
    ['Pod', 'environment variables', ['spec.containers[].env']],
    ['Pod', 'host port', ['spec.containers[].ports[].hostPort']],
    ['Deployment', 'number of replicas', ['spec.replicas']],
    ['PersistentVolumeClaim', 'storage request', ['spec.resources.requests.storage']],
    ['StatefulSet', 'storage request', ['spec.volumeClaimTemplates[].spec.resources.requests.storage']],
    ['PodDisruptionBudget', 'min available', ['spec.minAvailable']],
    ['Role', 'verbs', ['rules[].verbs']],
  ])('%s: the words %s', (kind, mention, expected) => {
    expect(paths(kind, mention)).toEqual(expected)
  })

  it('returns the pod-level and the container-level field, pod level first', () => {
    expect(paths('Pod', 'runAsNonRoot')).toEqual([
      'spec.securityContext.runAsNonRoot',
      'spec.containers[].securityContext.runAsNonRoot',
    ])
    expect(paths('Deployment', 'runAsNonRoot')).toEqual([
      'spec.template.spec.securityContext.runAsNonRoot',
      'spec.template.spec.containers[].securityContext.runAsNonRoot',
    ])
    expect(paths('Pod', 'seccompProfile')).toEqual([
      'spec.securityContext.seccompProfile',
      'spec.containers[].securityContext.seccompProfile',
    ])
    expect(paths('Pod', 'run as user')).toEqual([
      'spec.securityContext.runAsUser',
      'spec.containers[].securityContext.runAsUser',
    ])
  })

  it('lets "pod" and "container" choose the level', () => {
    expect(paths('Pod', 'pod security context')).toEqual(['spec.securityContext'])
    expect(paths('Pod', 'container security context')).toEqual(['spec.containers[].securityContext'])
    expect(paths('Deployment', 'pod labels')).toEqual(['spec.template.metadata.labels'])
    expect(paths('Deployment', 'labels')).toEqual(['metadata.labels', 'spec.template.metadata.labels'])
  })

  it('names init and ephemeral containers only when the mention does', () => {
    expect(paths('Pod', 'init container image')).toEqual(['spec.initContainers[].image'])
    expect(paths('Pod', 'ephemeralContainers[].image')).toEqual(['spec.ephemeralContainers[].image'])
  })

  it('prefers fields that are neither deprecated nor feature-gated', () => {
    // spec.serviceAccount is a deprecated alias; spec.resources (pod-level resources) is alpha.
    expect(paths('Pod', 'service account')).toEqual(['spec.serviceAccountName'])
    expect(paths('Pod', 'pod memory limit')).toEqual(['spec.containers[].resources.limits.memory'])
  })

  it('reports the known keys of resource maps as quantities', () => {
    expect(resolveKubernetesField('Pod', 'memory limit')).toEqual([
      { path: 'spec.containers[].resources.limits.memory', type: 'quantity' },
    ])
    expect(paths('Pod', 'ephemeral-storage')).toEqual([
      'spec.containers[].resources.limits.ephemeral-storage',
      'spec.containers[].resources.requests.ephemeral-storage',
    ])
  })

  it('carries a map key written after a map', () => {
    expect(resolveKubernetesField('Pod', 'metadata.labels.team')).toEqual([{ path: 'metadata.labels.team', type: 'string' }])
    expect(paths('Pod', "metadata.annotations['example.com/owner']")).toEqual(["metadata.annotations['example.com/owner']"])
  })

  it('keeps the schema entry, with its type, enum and default', () => {
    expect(resolveKubernetesField('CronJob', 'concurrency policy')).toEqual([
      { path: 'spec.concurrencyPolicy', type: 'string', enum: ['Allow', 'Forbid', 'Replace'], default: 'Allow' },
    ])
  })

  it('resolves nothing for words no field has, or an unknown kind', () => {
    expect(resolveKubernetesField('Pod', 'banana colour')).toEqual([])
    expect(resolveKubernetesField('Pod', 'spec.bananaColour')).toEqual([])
    expect(resolveKubernetesField('Pod', '')).toEqual([])
    expect(resolveKubernetesField('Pod', 'pod')).toEqual([])
    expect(resolveKubernetesField('Banana', 'image')).toEqual([])
  })

  it('is deterministic', () => {
    const mentions = ['memory limit', 'runAsNonRoot', 'readiness probe', 'containers[*].ports[*].hostPort', 'banana colour']
    const first = mentions.map((mention) => paths('Deployment', mention))
    for (let i = 0; i < 20; i++) expect(mentions.map((mention) => paths('Deployment', mention))).toEqual(first)
  })
})

describe('tokenize', () => {
  it('splits names and phrases into singular lowercase words', () => {
    expect(tokenize('ttlSecondsAfterFinished')).toEqual(['ttl', 'second', 'after', 'finished'])
    expect(tokenize('externalIPs')).toEqual(['external', 'ip'])
    expect(tokenize('hostIPC')).toEqual(['host', 'ipc'])
    expect(tokenize('host aliases')).toEqual(['host', 'alias'])
    expect(tokenize('hostAliases')).toEqual(['host', 'alias'])
    expect(tokenize('topology_spread-constraints')).toEqual(['topology', 'spread', 'constraint'])
    expect(tokenize('policies')).toEqual(['policy'])
  })
})
