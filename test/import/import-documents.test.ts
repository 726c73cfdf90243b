import { describe, expect, it } from 'vitest'
import { importDocuments, isImportable } from '../../src/import/index.js'
import { docs } from './helpers.js'

describe('isImportable', () => {
  it.each([
    ['kyverno.io/v1', 'ClusterPolicy', true],
    ['kyverno.io/v1', 'Policy', true],
    ['kyverno.io/v2beta1', 'ClusterPolicy', true],
    ['policies.kyverno.io/v1alpha1', 'ValidatingPolicy', true],
    ['policies.kyverno.io/v1beta1', 'ValidatingPolicy', true],
    ['policies.kyverno.io/v1', 'ValidatingPolicy', true],
    ['admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', true],
    ['admissionregistration.k8s.io/v1beta1', 'ValidatingAdmissionPolicyBinding', true],
    ['policies.kyverno.io/v1alpha1', 'MutatingPolicy', false],
    ['kyverno.io/v2', 'PolicyException', false],
    ['verdict.dev/v1alpha1', 'Ruleset', false],
    ['v1', 'Pod', false],
  ])('%s %s -> %s', (apiVersion, kind, expected) => {
    expect(isImportable({ apiVersion, kind, metadata: { name: 'x' } })).toBe(expected)
  })

  it('is false for anything that is not a manifest', () => {
    expect(isImportable(null)).toBe(false)
    expect(isImportable('ClusterPolicy')).toBe(false)
    expect(isImportable([{ apiVersion: 'kyverno.io/v1', kind: 'ClusterPolicy' }])).toBe(false)
  })
})

describe('importDocuments', () => {
  it('passes over documents that are not policies, and reports policy kinds it does not translate', () => {
    const imported = importDocuments([
      null,
      ...docs(`
        apiVersion: v1
        kind: Pod
        metadata: { name: web }
        ---
        apiVersion: policies.kyverno.io/v1alpha1
        kind: ImageValidatingPolicy
        metadata: { name: verify-images }
        spec: {}
        ---
        apiVersion: kyverno.io/v1
        kind: ClusterPolicy
        metadata: { name: cel }
        spec:
          rules:
          - { name: r, match: { any: [{ resources: { kinds: [Service] } }] }, validate: { cel: { expressions: [{ expression: 'true' }] } } }
      `),
    ])
    expect(imported.map((d) => [d.sourceKind, d.sourceName, d.rulesets.length, d.skipped])).toEqual([
      ['ImageValidatingPolicy', 'verify-images', 0, [{ policy: 'verify-images', rule: 'verify-images', reason: 'policies.kyverno.io/v1alpha1 ImageValidatingPolicy is not supported' }]],
      ['ClusterPolicy', 'cel', 1, []],
    ])
  })

  it('returns nothing for an input without policies', () => {
    expect(importDocuments([])).toEqual([])
    expect(importDocuments(docs('{ apiVersion: v1, kind: ConfigMap, metadata: { name: x } }'))).toEqual([])
  })
})
