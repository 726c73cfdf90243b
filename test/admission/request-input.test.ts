import { describe, expect, it } from 'vitest'
import type { AdmissionRequest } from '../../src/admission/admission-review.js'
import { evaluationInputOf } from '../../src/admission/evaluation-input-of.js'
import { selectsOperation } from '../../src/admission/judge-request.js'
import { shouldSkipRequest } from '../../src/admission/should-skip-request.js'

const team = { get: (name: string) => (name === 'team-a' ? { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { tier: 'restricted' } } } : undefined) }
const skip = { exemptNamespaces: new Set(['verdict']) }

function request(fields: Partial<AdmissionRequest>): AdmissionRequest {
  return { uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, operation: 'CREATE', ...fields }
}

describe('evaluationInputOf', () => {
  it('judges the oldObject of a DELETE as object and keeps it as oldObject', () => {
    const old = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'team-a' } }
    const input = evaluationInputOf(request({ operation: 'DELETE', namespace: 'team-a', oldObject: old, object: null }), team)
    expect(input.object).toBe(old)
    expect(input.oldObject).toBe(old)
    expect(input.namespaceObject).toEqual(team.get('team-a'))
  })

  it("fills a missing metadata.namespace and kind from the request, without changing the request's object", () => {
    const object = { metadata: { name: 'web' }, spec: {} }
    const input = evaluationInputOf(request({ namespace: 'team-a', object }), team)
    expect(input.object).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'team-a' }, spec: {} })
    expect(object).toEqual({ metadata: { name: 'web' }, spec: {} })
  })

  it('passes the request fields CEL reads', () => {
    const input = evaluationInputOf(
      request({ uid: 'abc', name: 'web', namespace: 'sandbox', subResource: 'ephemeralcontainers', dryRun: true, userInfo: { username: 'alice', groups: ['dev'] }, object: {} }),
      team,
    )
    expect(input.request).toEqual({ uid: 'abc', operation: 'CREATE', dryRun: true, userInfo: { username: 'alice', groups: ['dev'] }, namespace: 'sandbox', name: 'web', subResource: 'ephemeralcontainers' })
    expect(input.namespaceObject).toBeUndefined()
  })

  it('hands the cluster data (the ConfigMap cache) to the engine when there is a cluster, and none without', () => {
    const cluster = { configMap: (namespace: string, name: string) => (namespace === 'platform' && name === 'registries' ? { data: { allowed: 'ghcr.io' } } : undefined) }
    const input = evaluationInputOf(request({ namespace: 'team-a', object: {} }), team, cluster)
    expect(input.cluster).toBe(cluster)
    expect(input.cluster?.configMap('platform', 'registries')).toEqual({ data: { allowed: 'ghcr.io' } })
    expect(evaluationInputOf(request({ namespace: 'team-a', object: {} }), team)).not.toHaveProperty('cluster')
  })

  it('looks up no parent namespace for a Namespace, whose request.namespace is its own name', () => {
    const input = evaluationInputOf(request({ kind: { group: '', version: 'v1', kind: 'Namespace' }, namespace: 'team-a', object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } } }), team)
    expect(input.namespaceObject).toBeUndefined()
  })
})

describe('shouldSkipRequest', () => {
  it.each<[string, Partial<AdmissionRequest>, string | undefined]>([
    ['a status update', { operation: 'UPDATE', subResource: 'status', object: {} }, 'status subresource'],
    ['a CONNECT without object', { operation: 'CONNECT', subResource: 'exec', object: null }, 'CONNECT without an object'],
    ["a request in Verdict's namespace", { namespace: 'verdict', object: {} }, 'namespace verdict is exempt'],
    ['a scale update', { operation: 'UPDATE', subResource: 'scale', object: {} }, undefined],
    ['an ephemeral container', { operation: 'UPDATE', subResource: 'ephemeralcontainers', object: {} }, undefined],
    ['a CONNECT with its options object', { operation: 'CONNECT', subResource: 'exec', object: { kind: 'PodExecOptions' } }, undefined],
  ])('%s', (_, fields, reason) => {
    expect(shouldSkipRequest(request(fields), skip)).toBe(reason)
  })
})

describe('selectsOperation', () => {
  it('lets CREATE and UPDATE reach every policy, DELETE and CONNECT only policies naming them', () => {
    expect(selectsOperation(undefined, 'CREATE')).toBe(true)
    expect(selectsOperation({ kinds: ['Pod'] }, 'UPDATE')).toBe(true)
    expect(selectsOperation(undefined, 'DELETE')).toBe(false)
    expect(selectsOperation({ kinds: ['Pod'] }, 'DELETE')).toBe(false)
    expect(selectsOperation({ operations: ['DELETE'] }, 'DELETE')).toBe(true)
    expect(selectsOperation({ any: [{ operations: ['CONNECT'] }] }, 'CONNECT')).toBe(true)
    expect(selectsOperation({ all: [{ operations: ['DELETE', 'CREATE'] }] }, 'DELETE')).toBe(true)
    expect(selectsOperation({ operations: ['DELETE'] }, 'CONNECT')).toBe(false)
  })
})
