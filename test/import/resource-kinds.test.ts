import { describe, expect, it } from 'vitest'
import { Unsupported } from '../../src/import/import-error.js'
import { containsPodKind, parseKyvernoKind, translateKyvernoKinds } from '../../src/import/kyverno-match.js'
import { kindOfResource, kindsOfResourceRule } from '../../src/import/resource-kinds.js'

describe('plural resources', () => {
  it.each([
    ['', 'pods', 'Pod'],
    ['', 'services', 'Service'],
    ['', 'configmaps', 'ConfigMap'],
    ['', 'secrets', 'Secret'],
    ['', 'namespaces', 'Namespace'],
    ['', 'persistentvolumes', 'PersistentVolume'],
    ['apps', 'deployments', 'Deployment'],
    ['batch', 'cronjobs', 'CronJob'],
    ['networking.k8s.io', 'ingresses', 'Ingress'],
    ['networking.k8s.io', 'networkpolicies', 'NetworkPolicy'],
    ['rbac.authorization.k8s.io', 'roles', 'Role'],
    ['rbac.authorization.k8s.io', 'clusterrolebindings', 'ClusterRoleBinding'],
    ['flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations', 'PriorityLevelConfiguration'],
    ['*', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler'],
  ])('%s %s is %s', (group, resource, kind) => {
    expect(kindOfResource(group, resource)).toBe(kind)
  })

  it('knows a resource only in the groups that serve it', () => {
    expect(kindOfResource('apps', 'pods')).toBeUndefined()
    expect(kindOfResource('example.com', 'widgets')).toBeUndefined()
  })

  const kinds = (apiGroups: string[], resources: string[], apiVersions = ['v1'], exact = false) =>
    kindsOfResourceRule({ apiGroups, apiVersions, resources, exact }, 'rule').kinds

  it('writes core kinds bare, others with their group, and leaves out groups that do not serve a resource', () => {
    expect(kinds(['', 'apps'], ['pods', 'deployments'])).toEqual(['Pod', 'apps/Deployment'])
    expect(kinds(['apps', 'extensions'], ['deployments'])).toEqual(['apps/Deployment', 'extensions/Deployment'])
    expect(kinds(['*'], ['ingresses'])).toEqual(['Ingress'])
  })

  it('reads * as every resource', () => {
    expect(kinds(['*'], ['*'])).toEqual(['*'])
    expect(kinds(['*'], ['*/*'])).toEqual(['*'])
    expect(kinds(['', 'apps'], ['*'])).toEqual(['core/*', 'apps/*'])
  })

  it('maps subresources to the object their requests carry', () => {
    expect(kinds([''], ['pods/exec', 'pods/attach', 'pods/portforward', 'pods/eviction', 'pods/binding'])).toEqual([
      'PodExecOptions',
      'PodAttachOptions',
      'PodPortForwardOptions',
      'policy/Eviction',
      'Binding',
    ])
    expect(kinds(['apps'], ['deployments/scale'])).toEqual(['autoscaling/Scale'])
    expect(kinds([''], ['serviceaccounts/token'])).toEqual(['authentication.k8s.io/TokenRequest'])
    // The subresource carries the Pod itself, so it is matched as the Pod.
    expect(kinds([''], ['pods', 'pods/status', 'pods/ephemeralcontainers'])).toEqual(['Pod'])
  })

  it('names versions under matchPolicy Exact', () => {
    expect(kinds(['', 'autoscaling'], ['pods', 'horizontalpodautoscalers'], ['v1', 'v2'], true)).toEqual([
      'core/v1/Pod',
      'core/v2/Pod',
      'autoscaling/v1/HorizontalPodAutoscaler',
      'autoscaling/v2/HorizontalPodAutoscaler',
    ])
    expect(kinds(['apps'], ['deployments'], ['*'], true)).toEqual(['apps/Deployment'])
  })

  it.each([
    [['example.com'], ['widgets'], /the kind of resource "widgets" in API group "example.com" is not known/],
    [[''], ['pods/log'], /the subresource "pods\/log" are not supported/],
    [[''], ['pods/*'], /wildcard subresources/],
    [[''], ['*/status'], /wildcard subresources/],
  ])('refuses %j %j', (apiGroups, resources, reason) => {
    expect(() => kinds(apiGroups, resources)).toThrow(Unsupported)
    expect(() => kinds(apiGroups, resources)).toThrow(reason)
  })
})

describe('Kyverno kinds', () => {
  it.each([
    ['Pod', { group: '*', version: '*', kind: 'Pod', subresource: '' }],
    ['v1/Pod', { group: '*', version: 'v1', kind: 'Pod', subresource: '' }],
    ['apps/v1/Deployment', { group: 'apps', version: 'v1', kind: 'Deployment', subresource: '' }],
    ['batch/*/CronJob', { group: 'batch', version: '*', kind: 'CronJob', subresource: '' }],
    ['Pod/exec', { group: '*', version: '*', kind: 'Pod', subresource: 'exec' }],
    ['v1/Pod.status', { group: '*', version: 'v1', kind: 'Pod', subresource: 'status' }],
    ['apps/v1/Deployment/scale', { group: 'apps', version: 'v1', kind: 'Deployment', subresource: 'scale' }],
    ['*/*', { group: '*', version: '*', kind: '*', subresource: '*' }],
    ['networking.k8s.io/v1/Ingress', { group: 'networking.k8s.io', version: 'v1', kind: 'Ingress', subresource: '' }],
  ])('parses %s', (input, parsed) => {
    expect(parseKyvernoKind(input)).toEqual(parsed)
  })

  it('translates to model kind entries', () => {
    expect(translateKyvernoKinds(['Pod', 'v1/Pod', 'networking.k8s.io/v1/Ingress', 'batch/*/CronJob', 'Node/status', 'Node', '*/*'], 'kinds').kinds).toEqual([
      'Pod',
      'v1/Pod',
      'networking.k8s.io/v1/Ingress',
      'batch/CronJob',
      'Node',
      '*',
    ])
  })

  it('refuses kind patterns and subresources of every kind', () => {
    expect(() => translateKyvernoKinds(['*Set'], 'kinds')).toThrow(/kind patterns such as "\*Set" are not supported/)
    expect(() => translateKyvernoKinds(['*/status'], 'kinds')).toThrow(/matches subresources of many kinds/)
  })

  it('finds Pod the way Kyverno does for autogen', () => {
    expect(containsPodKind(['Pod'])).toBe(true)
    expect(containsPodKind(['v1/Pod'])).toBe(true)
    expect(containsPodKind(['Pod/exec'])).toBe(true)
    expect(containsPodKind(['v1/Pod.status'])).toBe(true)
    expect(containsPodKind(['Deployment', 'PodTemplate'])).toBe(false)
  })
})
