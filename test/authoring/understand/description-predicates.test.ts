import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { notCompiled, verdictsOf } from './reading.js'

/**
 * Predicates published policy descriptions use, each read from the sentence's structure: an
 * exemption by name, a field that must not be empty, "flags X if C", a reference to a named
 * object, an owner, an element holding two things at once. Each is shown reading right in our
 * own words, and a near miss refusing.
 */
const verdicts = verdictsOf

const refused = (instruction: string, labels: Record<string, string>): string[] => notCompiled(instruction, labels).map((sentence) => sentence.text)

const k8s = (resource: string): Record<string, string> => ({ platform: 'kubernetes', resource })

describe('an exemption by name and a field that must not be empty', () => {
  const policy = (name: string, podSelector: unknown): unknown => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name, namespace: 'web' }, spec: { podSelector } })

  it('"Xs other than `name`" exempts the object so named; "must not use an empty field" asks for a field holding something', () => {
    const instruction = 'Every NetworkPolicy other than `allow-dns` must not use an empty podSelector.'
    expect(verdicts(instruction, k8s('NetworkPolicy'), [policy('web', {}), policy('web', { matchLabels: { app: 'web' } }), policy('allow-dns', {})])).toEqual([false, true, true])
  })

  it('a name written as a hyphenated token is a name too', () => {
    expect(verdicts('Every NetworkPolicy except allow-dns must not use an empty podSelector.', k8s('NetworkPolicy'), [policy('allow-dns', {}), policy('web', {})])).toEqual([true, false])
  })

  it('an exception in ordinary words names no object: refused, never dropped', () => {
    expect(refused('Every NetworkPolicy except the default one must not use an empty podSelector.', k8s('NetworkPolicy'))).toEqual(['Every NetworkPolicy except the default one must not use an empty podSelector.'])
  })
})

describe('"this policy flags X if C": X fails where C holds', () => {
  const service = (type: string, externalName?: string): unknown => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { type, ...(externalName ? { externalName } : {}) } })

  it('reads as the negated condition for the subject, its narrowing kept', () => {
    const instruction = 'This policy flags Services of type ExternalName when the externalName field points to `metadata.google.internal`.'
    expect(verdicts(instruction, k8s('Service'), [service('ExternalName', 'metadata.google.internal'), service('ExternalName', 'db.example.com'), service('ClusterIP')])).toEqual([false, true, true])
  })

  it('a condition that is several statements is not negated as one', () => {
    expect(() => compileInstruction('This policy flags Services of type ExternalName when the externalName field points to `a.internal` or the port is 22.', k8s('Service'))).toThrow(InstructionNotUnderstoodError)
  })

  it('"must not point to" compares the name held, never taking the verb as a value', () => {
    const { spec } = compileInstruction('The externalName field must not point to `metadata.google.internal`.', k8s('Service'))
    expect(spec.rules.map((rule) => rule.description)).toEqual(['For Service objects, `spec.externalName` must not be "metadata.google.internal" (unset is accepted).'])
  })
})

describe('references to other objects by kind and name', () => {
  const binding = (kind: string, roleName: string, subjects: Array<{ kind: string; name: string }>): unknown => ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind,
    metadata: { name: 'b', ...(kind === 'RoleBinding' ? { namespace: 'team' } : {}) },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects,
  })

  it('a name beside a kind is read on the field that references that kind by name, for every binding kind the sentence names', () => {
    const instruction = 'Neither a RoleBinding nor a ClusterRoleBinding may bind to the `secret-admin` ClusterRole.'
    const documents = [binding('RoleBinding', 'secret-admin', []), binding('ClusterRoleBinding', 'secret-admin', []), binding('ClusterRoleBinding', 'view', [])]
    expect(verdicts(instruction, k8s('RoleBinding'), documents)).toEqual([false, false, true])
  })

  it('a plain word beside the kind names no object: refused', () => {
    expect(() => compileInstruction('RoleBindings must not bind to the admin ClusterRole.', k8s('RoleBinding'))).toThrow(InstructionNotUnderstoodError)
  })

  it('"bindings to the groups X or Y": no subject of any binding kind has one of those names', () => {
    const instruction = 'Forbid bindings to the groups `ops:root` or `ops:breakglass`.'
    const documents = [binding('RoleBinding', 'view', [{ kind: 'Group', name: 'ops:root' }]), binding('ClusterRoleBinding', 'view', [{ kind: 'User', name: 'ana' }, { kind: 'Group', name: 'ops:breakglass' }]), binding('ClusterRoleBinding', 'view', [{ kind: 'Group', name: 'ops:readers' }])]
    expect(verdicts(instruction, k8s('RoleBinding'), documents)).toEqual([false, false, true])
  })

  it('groups named in plain words are refused, never read as names', () => {
    expect(() => compileInstruction('Forbid bindings to the admin groups.', k8s('RoleBinding'))).toThrow(InstructionNotUnderstoodError)
  })

  it('"may only be created by a <kind>": an owner reference of that kind', () => {
    const replicaSet = (owners: Array<{ kind: string; name: string }>): unknown => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r', ownerReferences: owners.map((owner) => ({ apiVersion: 'apps/v1', uid: 'u', ...owner })) }, spec: { selector: {}, template: {} } })
    const instruction = 'ReplicaSets may only be created by a Deployment.'
    expect(verdicts(instruction, k8s('ReplicaSet'), [replicaSet([{ kind: 'Deployment', name: 'web' }]), replicaSet([]), replicaSet([{ kind: 'Rollout', name: 'web' }])])).toEqual([true, false, false])
  })

  it('an owner forbidden rather than required is not read as required: refused', () => {
    expect(() => compileInstruction('ReplicaSets must not be created by a Deployment.', k8s('ReplicaSet'))).toThrow(InstructionNotUnderstoodError)
  })
})

describe('entries of an RBAC rule banned together with a resource', () => {
  const role = (rules: Array<{ resources: string[]; verbs: string[] }>): unknown => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' }, rules: rules.map((rule) => ({ apiGroups: [''], ...rule })) })

  it('"these verbs ... in tandem with ConfigMap resources": each rule naming configmaps is judged on its own verbs, the verbs those written before', () => {
    const instruction = 'Guard ConfigMaps. The verbs `update` and `patch` let a role rewrite configuration. This policy blocks a ClusterRole from using these verbs together with ConfigMap resources.'
    const documents = [
      role([{ resources: ['pods', 'configmaps'], verbs: ['get', 'patch'] }]),
      role([{ resources: ['configmaps'], verbs: ['get'] }, { resources: ['deployments'], verbs: ['update'] }]),
      role([{ resources: ['configmaps'], verbs: ['list', 'update'] }]),
    ]
    expect(verdicts(instruction, k8s('ClusterRole'), documents)).toEqual([false, true, false])
  })

  it('a pairing with something that is no kind the API serves is refused, never dropped', () => {
    expect(() => compileInstruction('Guard widgets. The verbs `update` and `patch` are risky. This policy blocks a ClusterRole from using these verbs together with Widget resources.', k8s('ClusterRole'))).toThrow(InstructionNotUnderstoodError)
  })
})
