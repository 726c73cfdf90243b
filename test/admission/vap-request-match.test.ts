import { describe, expect, it } from 'vitest'
import type { AdmissionRequest } from '../../src/admission/admission-review.js'
import { matchResourcesSelect } from '../../src/admission/vap-request-match.js'
import type { MatchResources, ResourceRule } from '../../src/export/vap/index.js'
import { fixedNamespaces } from './admission-harness.js'

const namespaces = fixedNamespaces({ 'team-a': { env: 'prod' } })

function request(overrides: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return {
    uid: 'u',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    operation: 'CREATE',
    name: 'web',
    namespace: 'team-a',
    object: { metadata: { name: 'web', labels: { app: 'web' } } },
    oldObject: null,
    ...overrides,
  }
}

const rule = (overrides: Partial<ResourceRule & { scope: string }> = {}): ResourceRule => ({ apiGroups: [''], apiVersions: ['*'], resources: ['pods'], operations: ['CREATE', 'UPDATE'], ...overrides })
const selects = (match: MatchResources | undefined, req: AdmissionRequest, requireRules = true) => matchResourcesSelect(match, req, namespaces, requireRules)

describe('matchResourcesSelect: what the API server sends a ValidatingAdmissionPolicy or binding', () => {
  it('matches resources, subresources, operations and names as resource rules say', () => {
    expect(selects({ resourceRules: [rule()] }, request())).toBe(true)
    expect(selects({ resourceRules: [rule()] }, request({ operation: 'DELETE' }))).toBe(false)
    expect(selects({ resourceRules: [rule()] }, request({ subResource: 'ephemeralcontainers', operation: 'UPDATE' }))).toBe(false)
    expect(selects({ resourceRules: [rule({ resources: ['pods/*'] })] }, request({ subResource: 'ephemeralcontainers', operation: 'UPDATE' }))).toBe(true)
    expect(selects({ resourceRules: [rule({ resources: ['pods/*'] })] }, request())).toBe(true)
    expect(selects({ resourceRules: [rule({ apiGroups: ['*'], resources: ['*/scale'] })] }, request({ resource: { group: 'apps', version: 'v1', resource: 'deployments' }, subResource: 'scale', operation: 'UPDATE' }))).toBe(true)
    expect(selects({ resourceRules: [rule({ resources: ['*'] })] }, request({ subResource: 'resize', operation: 'UPDATE' }))).toBe(false)
    expect(selects({ resourceRules: [rule({ apiGroups: ['apps'] })] }, request())).toBe(false)
    expect(selects({ resourceRules: [rule({ resourceNames: ['api'] })] }, request())).toBe(false)
    expect(selects({ resourceRules: [rule()], excludeResourceRules: [rule({ resourceNames: ['web'] })] }, request())).toBe(false)
  })

  it('answers false where it cannot tell: no resource in the review, a rule scoped to Cluster or Namespaced', () => {
    expect(selects({ resourceRules: [rule()] }, request({ resource: undefined }) as AdmissionRequest)).toBe(false)
    expect(selects({ resourceRules: [rule({ scope: 'Namespaced' })] }, request())).toBe(false)
    // An exclusion that may apply is taken.
    expect(selects({ resourceRules: [rule()], excludeResourceRules: [rule({ scope: 'Cluster' })] }, request())).toBe(false)
  })

  it('asks a namespaceSelector about the namespace (unknown: not sent), a Namespace about itself, and never leaves out other cluster-scoped objects', () => {
    const prod = { matchLabels: { env: 'prod' } }
    expect(selects({ namespaceSelector: prod }, request(), false)).toBe(true)
    expect(selects({ namespaceSelector: prod }, request({ namespace: 'team-b' }), false)).toBe(false)
    const namespace = request({ resource: { group: '', version: 'v1', resource: 'namespaces' }, kind: { group: '', version: 'v1', kind: 'Namespace' }, namespace: 'new', name: 'new', object: { metadata: { name: 'new', labels: { env: 'prod' } } } })
    expect(selects({ namespaceSelector: prod }, namespace, false)).toBe(true)
    const clusterRole = request({ resource: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' }, namespace: '', object: { metadata: { name: 'r' } } })
    expect(selects({ namespaceSelector: prod }, clusterRole, false)).toBe(true)
  })

  it('asks an objectSelector about the object or the old object, either being enough', () => {
    const selector = { objectSelector: { matchLabels: { app: 'api' } } }
    expect(selects(selector, request(), false)).toBe(false)
    expect(selects(selector, request({ operation: 'UPDATE', oldObject: { metadata: { labels: { app: 'api' } } } }), false)).toBe(true)
  })

  it('takes a binding without resource rules as sent everything its policy is, and a policy without them as sent nothing', () => {
    expect(selects(undefined, request(), false)).toBe(true)
    expect(selects({}, request(), true)).toBe(false)
  })
})
