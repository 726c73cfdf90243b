import { describe, expect, it } from 'vitest'
import { notCompiled, verdictsOf } from './reading.js'

const labels = { platform: 'kubernetes', resource: 'Pod' }

const verdicts = (instruction: string, documents: unknown[]): boolean[] => verdictsOf(instruction, labels, documents)

const refusedBecause = (instruction: string): string[] => notCompiled(instruction, labels).map((sentence) => sentence.became)

function pod(container: Record<string, unknown>, spec: Record<string, unknown> = {}): unknown {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1', ...container }], ...spec } }
}

const withEnv = (...env: Array<{ name: string; value?: string }>): unknown => pod({ env })
const dropping = (...drop: string[]): unknown => pod({ securityContext: { capabilities: { drop } } })

describe('one element of a named list, picked by the name written beside its noun', () => {
  it('"if the `X` environment variable is set, its value must be ..." judges only the variable of that name', () => {
    const instruction = 'When the `LOG_LEVEL` environment variable is set, its value must be one of `info` or `warn`.'
    expect(verdicts(instruction, [withEnv({ name: 'LOG_LEVEL', value: 'info' }), withEnv({ name: 'LOG_LEVEL', value: 'debug' }), withEnv({ name: 'OTHER', value: 'debug' }), pod({})])).toEqual([true, false, true, true])
  })

  it('said outright, a positive requirement asks for an element of that name', () => {
    expect(verdicts('The env var `REGION` must be set to `eu-west`.', [withEnv({ name: 'REGION', value: 'eu-west' }), withEnv({ name: 'REGION', value: 'us-east' }), withEnv({ name: 'ZONE', value: 'eu-west' }), pod({})])).toEqual([true, false, false, false])
    expect(verdicts('Every pod must define the `scratch` volume.', [pod({}, { volumes: [{ name: 'scratch', emptyDir: {} }] }), pod({}, { volumes: [{ name: 'data', emptyDir: {} }] }), pod({})])).toEqual([true, false, false])
  })

  it('a ban of the named element lets a document without it through', () => {
    expect(verdicts('Containers must not declare the env var `DEBUG_DUMP`.', [withEnv({ name: 'DEBUG_DUMP', value: '1' }), withEnv({ name: 'OTHER', value: '1' }), pod({})])).toEqual([false, true, true])
  })

  it('an element with no field the sentence can mean refuses rather than judging a namesake', () => {
    // A port has no `value`, and the sentence names none of its fields: which one must be 8443 is not said.
    expect(refusedBecause('If the `https` container port is defined, it must be 8443.')).toHaveLength(1)
  })
})

describe('a capability written in the kernel spelling', () => {
  it('names the capabilities field without the word, and matches the names a runtime accepts', () => {
    const instruction = 'Each container has to drop the CAP_SYS_ADMIN ability.'
    expect(verdicts(instruction, [dropping('CAP_SYS_ADMIN'), dropping('SYS_ADMIN'), dropping('sys_admin'), dropping('CAP_CHOWN'), pod({})])).toEqual([true, true, true, false, false])
  })

  it('a name without the CAP_ prefix and without the word capability is not taken for one', () => {
    expect(refusedBecause('Each container has to drop the SYS_ADMIN ability.')).toHaveLength(1)
  })
})

describe('elements banned for pieces of text in one of their fields', () => {
  it('"forbid X containing `$(` in their value": that field of every element must not hold it', () => {
    expect(verdicts('Forbid environment variables containing `$(` in their value.', [withEnv({ name: 'A', value: 'x$(y)' }), withEnv({ name: 'A', value: 'xy' }), pod({})])).toEqual([false, true, true])
    const sysctls = (value: string): unknown => pod({}, { securityContext: { sysctls: [{ name: 'kernel.msgmax', value }] } })
    expect(verdicts('Reject sysctls with # or | in their value.', [sysctls('1#2'), sysctls('1|2'), sysctls('12')])).toEqual([false, false, true])
  })

  it('pieces named in words are not written pieces: the sentence refuses', () => {
    expect(refusedBecause('Disallow sysctl settings with odd symbols in their value.')).toHaveLength(1)
  })
})
