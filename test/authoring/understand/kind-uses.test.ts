import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { notCompiled, verdictsOf } from './reading.js'

const labels = { platform: 'kubernetes', resource: 'Pod' }

const judge = (instruction: string, spec: Record<string, unknown>): boolean => verdictsOf(instruction, labels, [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec }])[0] ?? false

const refusalOf = (instruction: string): string[] => notCompiled(instruction, labels).map((sentence) => sentence.became)

const container = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name: 'app', image: 'registry.example/app:1', ...extra })

describe('every way a pod uses another kind', () => {
  const ban = 'No Pod may consume a ConfigMap.'

  it('a ban on consuming a kind forbids each field through which a pod takes it in', () => {
    expect(compileInstruction(ban, labels).spec.rules.map((rule) => rule.description)).toEqual([
      'In every container (init and ephemeral included) of a Pod, `env[].valueFrom.configMapKeyRef`, `envFrom[].configMapRef`, `spec.volumes[].configMap` and `spec.volumes[].projected.sources[].configMap` must not be set.',
    ])
    expect(judge(ban, { containers: [container()] })).toBe(true)
    expect(judge(ban, { containers: [container({ envFrom: [{ configMapRef: { name: 'settings' } }] })] })).toBe(false)
    expect(judge(ban, { initContainers: [container({ env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'settings', key: 'a' } } }] })], containers: [container()] })).toBe(false)
    expect(judge(ban, { containers: [container()], volumes: [{ name: 'v', configMap: { name: 'settings' } }] })).toBe(false)
    expect(judge(ban, { containers: [container()], volumes: [{ name: 'v', projected: { sources: [{ configMap: { name: 'settings' } }] } }] })).toBe(false)
    // Another kind taken in the same ways is not what the sentence bans.
    expect(judge(ban, { containers: [container({ envFrom: [{ secretRef: { name: 'creds' } }] })] })).toBe(true)
  })

  it('the kind said first ("ConfigMaps can never be referenced by Pods") is what is used, and Pods are judged', () => {
    const passive = 'ConfigMaps can never be referenced by Pods.'
    expect(compileInstruction(passive, labels).spec.rules.map((rule) => rule.match?.kinds)).toEqual([['Pod']])
    expect(judge(passive, { containers: [container()], volumes: [{ name: 'v', configMap: { name: 'settings' } }] })).toBe(false)
    expect(judge(passive, { containers: [container()] })).toBe(true)
    // "may be referenced" permits; nothing is read as a ban.
    expect(() => compileInstruction('ConfigMaps may be referenced by Pods.', labels)).toThrow(InstructionNotUnderstoodError)
  })

  it('a ban naming one way of using the kind is not read as all of them, and one field read alone refuses naming the others', () => {
    expect(() => compileInstruction('Pods must not consume ConfigMaps as environment variables.', labels)).toThrow(InstructionNotUnderstoodError)
    expect(refusalOf('Pods must not use secret volumes.')).toEqual([expect.stringMatching(/also used through `spec\.containers\[\]\.env\[\]\.valueFrom\.secretKeyRef`/)])
  })

  it('"may only use X whose names start with `p`" restricts the name every reference gives', () => {
    const only = 'Pods may only use Secrets whose names start with `team-`.'
    expect(compileInstruction(only, labels).spec.rules.map((rule) => rule.description)).toEqual([
      'In every container (init and ephemeral included) of a Pod, `env[].valueFrom.secretKeyRef.name`, `envFrom[].secretRef.name`, `spec.volumes[].projected.sources[].secret.name` and `spec.volumes[].secret.secretName` must start with "team-" (unset is accepted).',
    ])
    expect(judge(only, { containers: [container()] })).toBe(true)
    expect(judge(only, { containers: [container()], volumes: [{ name: 'v', secret: { secretName: 'team-db' } }] })).toBe(true)
    expect(judge(only, { containers: [container()], volumes: [{ name: 'v', secret: { secretName: 'other-db' } }] })).toBe(false)
    expect(judge(only, { containers: [container({ envFrom: [{ secretRef: { name: 'other-db' } }] })] })).toBe(false)
    // "whose name begins with" is about the Secrets' names, never a scope on the Pod's own name.
    const singular = 'Pods can only consume Secrets whose name begins with `team-`.'
    expect(judge(singular, { containers: [container()], volumes: [{ name: 'v', secret: { secretName: 'other-db' } }] })).toBe(false)
    expect(judge(singular, { containers: [container()], volumes: [{ name: 'v', secret: { secretName: 'team-db' } }] })).toBe(true)
  })

  it('"only X named `n` can be referenced" requires that name; a claim is named by its claimName', () => {
    const named = 'Only ConfigMaps named `shared-config` can be referenced by Pods.'
    expect(judge(named, { containers: [container({ envFrom: [{ configMapRef: { name: 'shared-config' } }] })] })).toBe(true)
    expect(judge(named, { containers: [container({ envFrom: [{ configMapRef: { name: 'private' } }] })] })).toBe(false)
    expect(compileInstruction('Only PersistentVolumeClaims ending with `-cache` can be used.', labels).spec.rules.map((rule) => rule.description)).toEqual([
      'For Pod objects, `spec.volumes[].persistentVolumeClaim.claimName` must end with "-cache" (unset is accepted).',
    ])
  })

  it('a limit on the names that writes no name in code or quotes refuses rather than reading the pod\'s own name', () => {
    expect(refusalOf('Pods may only use ConfigMaps whose names start with app.')).toEqual([expect.stringMatching(/limits the ConfigMaps a Pod may use to those "whose names start with app"/)])
    expect(refusalOf('Pods may only use ConfigMaps from the same team.')).toHaveLength(1)
  })
})
