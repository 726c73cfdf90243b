import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { describeRoles } from '../../../src/authoring/understand/description-roles.js'
import { compileRuleset, evaluateRuleset, PreparedInput } from '../../../src/engine/index.js'

/**
 * Sentence shapes read by what they say, each with a near miss that must not read: "other than",
 * "there must (not) be", "each A must have a B", "one of <fields>", "the only X that can be Y is V",
 * a list of enum strings set to a value, and an enum field told apart by a word of the subject.
 */
function verdicts(instruction: string, labels: Record<string, string>, documents: unknown[]): boolean[] {
  const ruleset = compileRuleset({ ...compileInstruction(instruction, labels).spec, name: 'shapes' })
  return documents.map((document) => evaluateRuleset(ruleset, new PreparedInput({ object: document })).passed)
}

function refused(instruction: string, labels: Record<string, string>): boolean {
  try {
    compileInstruction(instruction, labels)
  } catch (error) {
    if (error instanceof InstructionNotUnderstoodError) return true
    throw error
  }
  return false
}

const pod = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): unknown => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ...metadata }, spec })
const POD = { platform: 'kubernetes', resource: 'Pod' }

describe('"other than `v`"', () => {
  it('after the verb asking for a field, any value but v, and the field must be there', () => {
    const documents = [pod({ serviceAccountName: 'default', containers: [] }), pod({ serviceAccountName: 'builder', containers: [] }), pod({ containers: [] })]
    expect(verdicts('Every Pod must use a serviceAccountName other than `default`.', POD, documents)).toEqual([false, true, false])
  })

  it('before the verb it picks out the subject by name, never a value of the field', () => {
    const documents = [pod({ hostNetwork: true, containers: [] }, { name: 'debug' }), pod({ hostNetwork: true, containers: [] }), pod({ containers: [] })]
    expect(verdicts('Pods other than `debug` must not set hostNetwork.', POD, documents)).toEqual([true, false, true])
    expect(refused('Pods other than the usual ones must not set hostNetwork.', POD)).toBe(true)
  })

  it('words naming fields at several places ("a user": `runAsGroup`, `seLinuxOptions.user`) refuse', () => {
    expect(refused('Containers must run as a user other than `0`.', POD)).toBe(true)
  })
})

describe('"there must (not) be ..." with the thing as the subject', () => {
  it('"there must not be an X containing `y`" is every X not containing y', () => {
    const documents = [pod({ containers: [{ name: 'a', image: 'registry.example/busybox:1' }] }), pod({ containers: [{ name: 'a', image: 'nginx' }] })]
    expect(verdicts('There must not be a container image containing `busybox`.', POD, documents)).toEqual([false, true])
  })

  it('a thing that is an element of a list (a volume, a container) is not one value that could contain text: refused', () => {
    expect(refused('There must not be a volume containing the word `secret`.', POD)).toBe(true)
    expect(refused('There is no container using the image `nginx`.', POD)).toBe(true)
  })
})

describe('a field every element of a list sets', () => {
  const service = (ports: unknown[]): unknown => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports } })
  const SERVICE = { platform: 'kubernetes', resource: 'Service' }

  it('"each port must have a name" judges each element of spec.ports, not the object\'s name', () => {
    const documents = [service([{ port: 80, name: 'http' }, { port: 443, name: 'https' }]), service([{ port: 80, name: 'http' }, { port: 443 }])]
    expect(verdicts('Each port must have a name.', SERVICE, documents)).toEqual([true, false])
    expect(verdicts('For every port listed, there should be a protocol.', SERVICE, [service([{ port: 80, protocol: 'TCP' }]), service([{ port: 80 }])])).toEqual([true, false])
  })

  it('a text field is named by what it holds the name of ("a host name" is `host`)', () => {
    const ingress = (rules: unknown[]): unknown => ({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'i' }, spec: { rules } })
    expect(verdicts('There should be a host name for every rule.', { platform: 'kubernetes', resource: 'Ingress' }, [ingress([{ host: 'a.example.com' }]), ingress([{ host: 'a.example.com' }, { http: {} }])])).toEqual([true, false])
  })

  it('a field of the elements names them: only elements that set it are judged', () => {
    const documents = [
      pod({ containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 80, name: 'web' }] }] }),
      pod({ containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 80, name: 'web' }, { containerPort: 81 }] }] }),
    ]
    expect(verdicts('For each containerPort defined there must also be a name.', POD, documents)).toEqual([true, false])
  })

  it('the words before the list\'s name say where it is ("container port" is each container\'s `ports`)', () => {
    const deployment = (ports: unknown[]): unknown => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: {}, template: { spec: { containers: [{ name: 'a', image: 'x', ports }] } } } })
    expect(verdicts('Every container port needs a protocol.', { platform: 'kubernetes', resource: 'Deployment' }, [deployment([{ containerPort: 80, protocol: 'TCP' }]), deployment([{ containerPort: 80 }])])).toEqual([true, false])
  })

  it('a word that names no field of the element refuses, and "a B for each A" is never read another way', () => {
    expect(refused('Each port must have a colour.', { platform: 'kubernetes', resource: 'Service' })).toBe(true)
    // Read as "must have a label", the words "for each team" would be dropped.
    expect(refused('There must be a label for each team.', POD)).toBe(true)
  })
})

describe('"one of" fields', () => {
  it('one of the listed fields set, in each container on its own', () => {
    const documents = [
      pod({ containers: [{ name: 'a', image: 'x', readinessProbe: { tcpSocket: { port: 1 } } }, { name: 'b', image: 'x', startupProbe: { tcpSocket: { port: 1 } } }] }),
      pod({ containers: [{ name: 'a', image: 'x', readinessProbe: { tcpSocket: { port: 1 } } }, { name: 'b', image: 'x' }] }),
    ]
    expect(verdicts('Each container needs one of `readinessProbe` or `startupProbe`.', POD, documents)).toEqual([true, false])
  })

  it('a list with an item that is not a field written by name is not read as fields: refused', () => {
    expect(refused('Each container needs one of livenessProbe or readiness.', POD)).toBe(true)
  })
})

describe('"the only X that can be Y is V"', () => {
  const volume = (hostPath?: Record<string, unknown>): unknown => ({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'v' }, spec: { capacity: { storage: '1Gi' }, ...(hostPath ? { hostPath } : { nfs: { server: 'n', path: '/x' } }) } })

  it('X must be V where there is one; the value is the object\'s one field that can hold it', () => {
    expect(verdicts('The only directory which may be used as a hostPath is `/srv`.', { platform: 'kubernetes', resource: 'PersistentVolume' }, [volume({ path: '/srv' }), volume({ path: '/etc' }), volume()])).toEqual([true, false, true])
  })

  it('an object none or several of whose fields could hold the value refuses', () => {
    expect(refused('The securityContext must be `x`.', POD)).toBe(true)
  })
})

describe('enum values', () => {
  it('a list of enum strings set to a value holds only that value; a value outside the enum refuses', () => {
    const policy = (policyTypes: string[]): unknown => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'n' }, spec: { podSelector: {}, policyTypes } })
    const NETPOL = { platform: 'kubernetes', resource: 'NetworkPolicy' }
    expect(verdicts('The policyTypes must be set to `Egress`.', NETPOL, [policy(['Egress']), policy(['Ingress', 'Egress'])])).toEqual([true, false])
    expect(refused('The policyTypes must be set to `Sideways`.', NETPOL)).toBe(true)
  })

  it('values of several fields\' enums are the field a word of the subject names; a word every candidate shares refuses', () => {
    const documents = [pod({ containers: [{ name: 'a', image: 'x', securityContext: { seccompProfile: { type: 'Unconfined' } } }] }), pod({ containers: [{ name: 'a', image: 'x' }] })]
    expect(verdicts('Seccomp has to be unset or set to `RuntimeDefault` or `Localhost`.', POD, documents)).toEqual([false, true])
    expect(refused('The profile must be `RuntimeDefault` or `Localhost`.', POD)).toBe(true)
  })
})

describe('the operative sentence in the subjunctive', () => {
  it('"requires that X be Y" is "X must be Y"', () => {
    expect(describeRoles('Never Restart. This policy requires that the restartPolicy be set to `Never`.')?.requirementText).toBe('The restartPolicy must be set to `Never`.')
    expect(describeRoles('Quiet. This policy requires that containers not be privileged.')?.requirementText).toBe('Containers must not be privileged.')
  })
})
