import { describe, expect, it } from 'vitest'
import type { MatchTarget } from '../../../src/engine/match/match-target.js'
import { matchesMatch } from '../../../src/engine/match/matches-rule.js'
import { groupVersionKindOf } from '../../../src/engine/match/kind-selector.js'

function target(overrides: Partial<MatchTarget> = {}): MatchTarget {
  return {
    gvk: groupVersionKindOf('v1', 'Pod'),
    name: 'web-1',
    namespace: 'shop',
    labels: { app: 'web', tier: 'front' },
    namespaceLabels: { env: 'prod' },
    operation: 'CREATE',
    ...overrides,
  }
}

const deployment = target({ gvk: groupVersionKindOf('apps/v1', 'Deployment') })

describe('kinds', () => {
  it.each([
    [['Pod'], target(), true],
    [['Deployment'], target(), false],
    [['*'], deployment, true],
    [['apps/Deployment'], deployment, true],
    [['batch/Deployment'], deployment, false],
    [['apps/v1/Deployment'], deployment, true],
    [['apps/v1beta1/Deployment'], deployment, false],
    [['v1/Pod'], target(), true],
    [['core/Pod'], target(), true],
    [['core/Pod'], target({ gvk: groupVersionKindOf('example.com/v1', 'Pod') }), false],
    [['Pod'], target({ gvk: groupVersionKindOf('example.com/v1', 'Pod') }), true],
  ])('%j against %o -> %s', (kinds, resource, expected) => {
    expect(matchesMatch({ kinds }, resource)).toBe(expected)
  })
})

describe('names, namespaces and operations', () => {
  it('matches names and namespaces as globs', () => {
    expect(matchesMatch({ names: ['web-*'] }, target())).toBe(true)
    expect(matchesMatch({ names: ['api-?'] }, target())).toBe(false)
    expect(matchesMatch({ namespaces: ['sh*'] }, target())).toBe(true)
    expect(matchesMatch({ namespaces: ['kube-*'] }, target())).toBe(false)
    expect(matchesMatch({ excludeNamespaces: ['shop'] }, target())).toBe(false)
    expect(matchesMatch({ excludeNamespaces: ['kube-*'] }, target())).toBe(true)
  })

  it('treats glob metacharacters of regular expressions literally', () => {
    expect(matchesMatch({ names: ['web.1'] }, target())).toBe(false)
    expect(matchesMatch({ names: ['web.1'] }, target({ name: 'web.1' }))).toBe(true)
  })

  it('matches operations', () => {
    expect(matchesMatch({ operations: ['UPDATE'] }, target())).toBe(false)
    expect(matchesMatch({ operations: ['CREATE', 'UPDATE'] }, target())).toBe(true)
  })

  it('reads a Namespace as belonging to itself', () => {
    const prod = target({ gvk: groupVersionKindOf('v1', 'Namespace'), name: 'prod', namespace: '' })
    expect(matchesMatch({ namespaces: ['prod'] }, prod)).toBe(true)
    expect(matchesMatch({ namespaces: ['dev'] }, prod)).toBe(false)
    expect(matchesMatch({ excludeNamespaces: ['pr*'] }, prod)).toBe(false)
  })

  it('never selects a cluster-scoped resource by namespace but never excludes it either', () => {
    const node = target({ gvk: groupVersionKindOf('v1', 'Node'), namespace: '' })
    expect(matchesMatch({ namespaces: ['shop'] }, node)).toBe(false)
    expect(matchesMatch({ excludeNamespaces: ['*'] }, node)).toBe(true)
  })
})

describe('label and namespace selectors', () => {
  it('applies matchLabels and every matchExpressions operator', () => {
    expect(matchesMatch({ labelSelector: { matchLabels: { app: 'web' } } }, target())).toBe(true)
    expect(matchesMatch({ labelSelector: { matchLabels: { app: 'api' } } }, target())).toBe(false)
    const expression = (operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist', key: string, values?: string[]): boolean =>
      matchesMatch({ labelSelector: { matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] } }, target())
    expect(expression('In', 'tier', ['front', 'back'])).toBe(true)
    expect(expression('In', 'missing', ['x'])).toBe(false)
    expect(expression('NotIn', 'tier', ['front'])).toBe(false)
    expect(expression('NotIn', 'missing', ['front'])).toBe(true)
    expect(expression('Exists', 'app')).toBe(true)
    expect(expression('Exists', 'missing')).toBe(false)
    expect(expression('DoesNotExist', 'missing')).toBe(true)
    expect(expression('DoesNotExist', 'app')).toBe(false)
  })

  it('judges namespaced resources by their namespace labels, unknown labels as none', () => {
    expect(matchesMatch({ namespaceSelector: { matchLabels: { env: 'prod' } } }, target())).toBe(true)
    expect(matchesMatch({ namespaceSelector: { matchLabels: { env: 'dev' } } }, target())).toBe(false)
    expect(matchesMatch({ namespaceSelector: { matchLabels: { env: 'prod' } } }, target({ namespaceLabels: undefined }))).toBe(false)
  })

  it('judges a Namespace by its own labels and lets other cluster-scoped resources through', () => {
    const namespace = target({ gvk: groupVersionKindOf('v1', 'Namespace'), namespace: '', labels: { env: 'dev' } })
    expect(matchesMatch({ namespaceSelector: { matchLabels: { env: 'dev' } } }, namespace)).toBe(true)
    expect(matchesMatch({ namespaceSelector: { matchLabels: { env: 'prod' } } }, namespace)).toBe(false)
    const clusterRole = target({ gvk: groupVersionKindOf('rbac.authorization.k8s.io/v1', 'ClusterRole'), namespace: '' })
    expect(matchesMatch({ namespaceSelector: { matchLabels: { env: 'prod' } } }, clusterRole)).toBe(true)
  })
})

describe('any, all and exclude', () => {
  it('needs one alternative of any and every part of all', () => {
    expect(matchesMatch({ any: [{ kinds: ['Deployment'] }, { kinds: ['Pod'] }] }, target())).toBe(true)
    expect(matchesMatch({ any: [{ kinds: ['Deployment'] }, { namespaces: ['x'] }] }, target())).toBe(false)
    expect(matchesMatch({ all: [{ kinds: ['Pod'] }, { namespaces: ['shop'] }] }, target())).toBe(true)
    expect(matchesMatch({ all: [{ kinds: ['Pod'] }, { namespaces: ['x'] }] }, target())).toBe(false)
  })

  it('leaves out what exclude selects, and an empty exclude excludes nothing', () => {
    expect(matchesMatch({ kinds: ['Pod'], exclude: { namespaces: ['shop'] } }, target())).toBe(false)
    expect(matchesMatch({ kinds: ['Pod'], exclude: { any: [{ names: ['api-*'] }, { names: ['web-*'] }] } }, target())).toBe(false)
    expect(matchesMatch({ kinds: ['Pod'], exclude: { namespaces: ['kube-system'] } }, target())).toBe(true)
    expect(matchesMatch({ kinds: ['Pod'], exclude: {} }, target())).toBe(true)
  })
})
