import { describe, expect, it } from 'vitest'
import { compileInstruction } from '../../../src/authoring/compile-instruction.js'
import { notCompiled, verdictsOf } from './reading.js'

const labels = { platform: 'kubernetes', resource: 'Pod' }

const judge = (instruction: string, spec: Record<string, unknown>): boolean => verdictsOf(instruction, labels, [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec }])[0] ?? false

const refusalOf = (instruction: string): string[] => notCompiled(instruction, labels).map((sentence) => sentence.became)

const mounting = (name: string, mount: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ name: `c-${name}`, image: 'registry.example/app:1', volumeMounts: [{ name, mountPath: `/mnt/${name}`, ...mount }], ...extra })

describe('volumes by type and the containers that mount them', () => {
  it('"<type> volumes must be mounted read-only" asks it of every mount of a volume of that type, and of no other mount', () => {
    const readOnly = 'Every container must mount NFS volumes read-only.'
    const volumes = [
      { name: 'share', nfs: { server: 'nfs.example', path: '/exports' } },
      { name: 'scratch', emptyDir: {} },
    ]
    expect(judge(readOnly, { containers: [mounting('share', { readOnly: true })], volumes })).toBe(true)
    expect(judge(readOnly, { containers: [mounting('share')], volumes })).toBe(false)
    expect(judge(readOnly, { containers: [mounting('share', { readOnly: false })], volumes })).toBe(false)
    expect(judge(readOnly, { containers: [mounting('scratch')], volumes })).toBe(true)
  })

  it('a condition "containers mounting a <type> volume" judges each container by its own mounts', () => {
    const rule = 'Containers mounting a hostPath volume must set `runAsNonRoot` to true.'
    const volumes = [
      { name: 'logs', hostPath: { path: '/var/log' } },
      { name: 'tmp', emptyDir: {} },
    ]
    expect(judge(rule, { containers: [mounting('logs', {}, { securityContext: { runAsNonRoot: true } }), mounting('tmp')], volumes })).toBe(true)
    expect(judge(rule, { containers: [mounting('tmp'), mounting('logs')], volumes })).toBe(false)
  })

  it('an emptyDir written as {} is an emptyDir volume, and "skip when the volume already has a sizeLimit" narrows the volume picked', () => {
    const rule = 'Containers mounting an emptyDir volume must have memory limits set. The rule does not apply if the volume already has a `sizeLimit`.'
    const limited = { resources: { limits: { memory: '128Mi' } } }
    expect(judge(rule, { containers: [mounting('tmp')], volumes: [{ name: 'tmp', emptyDir: {} }] })).toBe(false)
    expect(judge(rule, { containers: [mounting('tmp', {}, limited)], volumes: [{ name: 'tmp', emptyDir: {} }] })).toBe(true)
    expect(judge(rule, { containers: [mounting('tmp')], volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '1Gi' } }] })).toBe(true)
    // One sized emptyDir does not excuse a mount of another that is not sized.
    const two = { containers: [{ ...mounting('tmp'), volumeMounts: [{ name: 'tmp', mountPath: '/a' }, { name: 'other', mountPath: '/b' }] }], volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '1Gi' } }, { name: 'other', emptyDir: {} }] }
    expect(judge(rule, two)).toBe(false)
  })

  it('"mounted read-only" is how the mount is made: a read-only root filesystem is another field; a pod mounting one picks its volumes', () => {
    expect(compileInstruction('Containers mounting hostPath volumes must have a read-only root filesystem.', labels).spec.rules.map((rule) => rule.description)).toEqual([
      'In every container (init and ephemeral included) of a Pod, `securityContext.readOnlyRootFilesystem` must be true (unset fails), when `volumeMounts` have a volume mount whose name is the name of a hostPath volume in `spec.volumes` whose hostPath is set.',
    ])
    const podLevel = 'Pods mounting an emptyDir volume must carry the label `scratch`. Skip it if the volume already has a sizeLimit.'
    const pod = (emptyDir: Record<string, unknown>, labels: Record<string, string> = {}): unknown => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels }, spec: { containers: [mounting('tmp')], volumes: [{ name: 'tmp', emptyDir }] } })
    const judged = (document: unknown): boolean => verdictsOf(podLevel, { platform: 'kubernetes', resource: 'Pod' }, [document])[0] ?? false
    expect(judged(pod({}))).toBe(false)
    expect(judged(pod({}, { scratch: 'yes' }))).toBe(true)
    expect(judged(pod({ sizeLimit: '1Gi' }))).toBe(true)
  })

  it('near misses refuse: a volume type the schema lacks, "the volume" with no volume picked', () => {
    expect(refusalOf('Containers mounting a frobnicator volume must set `runAsNonRoot` to true.')).toEqual([expect.stringMatching(/applies only "mounting a frobnicator volume"/)])
    // Both the requirement it qualifies and the sentence itself say so.
    expect(refusalOf('Containers must set `runAsNonRoot` to true. Skip this when the volume has a `sizeLimit` set.')).toEqual([
      expect.stringMatching(/no requirement it qualifies picks a volume with a `sizeLimit`/),
      expect.stringMatching(/no requirement it qualifies picks a volume by its type/),
    ])
  })
})
