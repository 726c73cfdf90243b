import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { compileRuleset, evaluateRuleset, PreparedInput } from '../../../src/engine/index.js'

const labels = { platform: 'kubernetes', resource: 'Pod' }

function verdicts(instruction: string, documents: unknown[]): boolean[] {
  const { spec } = compileInstruction(instruction, labels)
  const ruleset = compileRuleset({ ...spec, name: 'sockets' })
  return documents.map((document) => evaluateRuleset(ruleset, new PreparedInput({ object: document })).passed)
}

function pod(hostPaths: string[], podLabels: Record<string, string> = {}): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', labels: podLabels },
    spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }], volumes: [{ name: 'cache', emptyDir: {} }, ...hostPaths.map((path, index) => ({ name: `host-${index}`, hostPath: { path } }))] },
  }
}

describe('a named container runtime socket mounted through a hostPath volume', () => {
  it('as a condition: only pods with a volume at the socket need what the sentence asks', () => {
    const instruction = 'For every Pod mounting the containerd socket, the label `runtime-access` must be `granted`.'
    expect(verdicts(instruction, [
      pod(['/run/containerd/containerd.sock'], { 'runtime-access': 'granted' }),
      pod(['/run/containerd/containerd.sock']),
      // One volume among others is enough to be mounting it.
      pod(['/data', '/var/run/containerd/containerd.sock'], { 'runtime-access': 'no' }),
      pod(['/data']),
      pod([]),
    ])).toEqual([true, false, false, true, true])
  })

  it('the condition said as the subject\'s relative clause is kept, not dropped', () => {
    const instruction = 'Pods that mount the Docker socket need the label `socket-owner` set to `platform`.'
    expect(verdicts(instruction, [pod(['/var/run/docker.sock'], { 'socket-owner': 'platform' }), pod(['/var/run/docker.sock']), pod(['/data'])])).toEqual([true, false, true])
  })

  it('as a ban: no volume may sit at its paths', () => {
    for (const instruction of ['Disallow mounting the Docker socket.', 'No pod may mount the docker socket.', 'Block pods that mount the Docker socket.']) {
      expect(verdicts(instruction, [pod(['/var/run/docker.sock']), pod(['/run/docker.sock']), pod(['/var/lib/data']), pod([])])).toEqual([false, false, true, true])
    }
  })

  it('a socket the catalog does not list is not guessed: the condition refuses', () => {
    expect(() => compileInstruction('For any Pod mounting the Podman socket, it must have the label `allow` set to `true`.', labels)).toThrow(InstructionNotUnderstoodError)
    expect(() => compileInstruction('Pods that mount the Podman socket need the label `allow` set to `true`.', labels)).toThrow(/applies only "that mount the Podman socket"/)
  })
})
