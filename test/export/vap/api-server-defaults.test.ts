import { describe, expect, it } from 'vitest'
import { generateValidatingAdmissionPolicies, sameBindingSpec, sameVapSpec, type GeneratedVap } from '../../../src/export/vap/index.js'

function generated(): GeneratedVap {
  const result = generateValidatingAdmissionPolicies(
    { name: 'prod', rulesets: ['images'], action: 'Deny', match: { namespaceSelector: { matchLabels: { env: 'prod' } } } },
    [{ name: 'images', rules: [{ name: 'no-latest', match: { kinds: ['Pod'] }, autogen: false, validate: { cel: [{ expression: "object.spec.containers.all(c, !c.image.endsWith(':latest'))", message: 'pin it' }] } }] }],
  )
  if (!result.ok) throw new Error('expected a policy')
  return result.policies[0] as GeneratedVap
}

/** What a real API server answers for the generated objects: its defaults filled in, empty lists dropped, keys in its own order. */
function asStored(vap: GeneratedVap): { policy: Record<string, unknown>; binding: Record<string, unknown> } {
  const spec = vap.policy.spec
  return {
    policy: {
      validations: spec.validations,
      matchConstraints: {
        objectSelector: {},
        namespaceSelector: {},
        matchPolicy: 'Equivalent',
        resourceRules: (spec.matchConstraints.resourceRules ?? []).map((rule) => ({ ...rule, scope: '*' })),
      },
      failurePolicy: 'Fail',
    },
    binding: {
      validationActions: vap.binding.spec.validationActions,
      policyName: vap.binding.spec.policyName,
      matchResources: { ...vap.binding.spec.matchResources, objectSelector: {}, matchPolicy: 'Equivalent' },
    },
  }
}

describe('sameVapSpec and sameBindingSpec', () => {
  it('take the API server\'s defaults and key order for the generated spec', () => {
    const vap = generated()
    const stored = asStored(vap)
    expect(sameVapSpec(stored.policy, vap.policy.spec)).toBe(true)
    expect(sameBindingSpec(stored.binding, vap.binding.spec)).toBe(true)
  })

  it('see every hand edit: a validation, an action, a selector, a rule\'s scope, a field added', () => {
    const vap = generated()
    const stored = asStored(vap)
    const edit = (change: (copy: ReturnType<typeof asStored>) => void) => {
      const copy = structuredClone(stored)
      change(copy)
      return copy
    }
    expect(sameVapSpec(edit((copy) => ((copy.policy.validations as { expression: string }[])[0]!.expression = 'true')).policy, vap.policy.spec)).toBe(false)
    expect(sameVapSpec(edit((copy) => (copy.policy.failurePolicy = 'Ignore')).policy, vap.policy.spec)).toBe(false)
    expect(sameVapSpec(edit((copy) => ((copy.policy.matchConstraints as { resourceRules: { scope: string }[] }).resourceRules[0]!.scope = 'Namespaced')).policy, vap.policy.spec)).toBe(false)
    expect(sameVapSpec(edit((copy) => (copy.policy.auditAnnotations = [{ key: 'a', valueExpression: "'b'" }])).policy, vap.policy.spec)).toBe(false)
    expect(sameBindingSpec(edit((copy) => (copy.binding.validationActions = ['Audit'])).binding, vap.binding.spec)).toBe(false)
    expect(sameBindingSpec(edit((copy) => (copy.binding.matchResources = {})).binding, vap.binding.spec)).toBe(false)
  })

  it('take an absent matchResources and one of defaults alike', () => {
    expect(sameBindingSpec({ policyName: 'p', validationActions: ['Deny'], matchResources: { namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' } }, { policyName: 'p', validationActions: ['Deny'] })).toBe(true)
    expect(sameBindingSpec({ policyName: 'p', validationActions: ['Deny'], matchResources: { matchPolicy: 'Exact' } }, { policyName: 'p', validationActions: ['Deny'] })).toBe(false)
  })
})
