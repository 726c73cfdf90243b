import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { compileRuleset, evaluateRuleset, PreparedInput } from '../../../src/engine/index.js'

const labels = { platform: 'kubernetes', resource: 'Deployment' }

function verdicts(instruction: string, documents: unknown[]): boolean[] {
  const { spec } = compileInstruction(instruction, labels)
  const ruleset = compileRuleset({ ...spec, name: 'spread' })
  return documents.map((document) => evaluateRuleset(ruleset, new PreparedInput({ object: document })).passed)
}

function workload(kind: string, replicas: number | undefined, topologyKeys: string[]): unknown {
  const constraints = topologyKeys.map((topologyKey) => ({ maxSkew: 1, topologyKey, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } } }))
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name: 'web' },
    spec: {
      ...(replicas === undefined ? {} : { replicas }),
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'registry.example/web:1' }], ...(constraints.length > 0 ? { topologySpreadConstraints: constraints } : {}) } },
    },
  }
}

const ZONE = 'topology.kubernetes.io/zone'
const REGION = 'topology.kubernetes.io/region'

describe('spreading over named failure domains', () => {
  it('a written topologySpreadConstraints "to spread replicas across zones and regions" needs a constraint for each', () => {
    const instruction = 'Every Deployment must set topologySpreadConstraints so as to spread replicas across zones and regions.'
    expect(verdicts(instruction, [workload('Deployment', 3, [ZONE, REGION]), workload('Deployment', 3, [ZONE]), workload('Deployment', 3, [])])).toEqual([true, false, false])
  })

  it('"zones or regions" asks for neither in particular, and a domain the catalog does not know is not guessed', () => {
    expect(() => compileInstruction('topologySpreadConstraints must be defined to spread pods across zones or racks.', labels)).toThrow(InstructionNotUnderstoodError)
  })
})

describe('objects skipped by a numeric field', () => {
  it('"with fewer than N replicas are skipped" exempts them; absent replicas count as the default of 1', () => {
    const instruction = 'Deployments must define topologySpreadConstraints to spread pods over zones. Deployments with fewer than 2 replicas are skipped.'
    expect(verdicts(instruction, [workload('Deployment', 1, []), workload('Deployment', undefined, []), workload('Deployment', 2, []), workload('Deployment', 2, [ZONE])])).toEqual([true, true, false, true])
  })

  it('a skip sentence naming the judged kind and another judges the other where its fields sit at the same path', () => {
    const instruction = 'Deployments must define topologySpreadConstraints to spread pods over zones. Deployments and StatefulSets running no more than 1 replicas are exempt.'
    expect(verdicts(instruction, [workload('StatefulSet', 3, []), workload('StatefulSet', 3, [ZONE]), workload('StatefulSet', 1, [])])).toEqual([false, true, true])
  })

  it('a skip that also scopes by something else is not read as the bound alone: the sentence refuses', () => {
    expect(() => compileInstruction('Deployments must define topologySpreadConstraints to spread pods over zones. Deployments in the batch namespace with fewer than 3 replicas are exempt.', labels)).toThrow(InstructionNotUnderstoodError)
  })

  it('a word before "than" that is no comparative, nor one letter off exactly one, leaves the skip unread and refuses', () => {
    expect(() => compileInstruction('Zone Spread. This policy requires that Deployments define topologySpreadConstraints to spread pods over zones. Deployments with other than 3 replicas are skipped.', labels)).toThrow(/Deployments with other than 3 replicas are skipped.*which field and value (?:decide that a document is skipped|\(or name, namespace, label\) mark them)/)
  })
})
