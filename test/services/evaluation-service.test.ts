import { describe, expect, it, vi } from 'vitest'
import type { AuditWriter } from '../../src/audit/audit-writer.js'
import { compileRuleset, type ClusterData, type EvaluationInput, type Policy, type Ruleset } from '../../src/engine/index.js'
import type { DefinitionCatalog } from '../../src/services/definition-catalog.js'
import { EvaluationService, type EvaluationRequest } from '../../src/services/evaluation-service.js'

/** Every input the engine was given in this file: PreparedInput is where an evaluation starts. */
const given = vi.hoisted(() => [] as EvaluationInput[])

vi.mock('../../src/engine/index.js', async (importOriginal) => {
  const engine = await importOriginal<typeof import('../../src/engine/index.js')>()
  class RecordedInput extends engine.PreparedInput {
    constructor(input: EvaluationInput) {
      given.push(input)
      super(input)
    }
  }
  return { ...engine, PreparedInput: RecordedInput }
})

const ruleset: Ruleset = { name: 'rs', rules: [{ name: 'named', validate: { cel: [{ expression: 'has(object.metadata.name)' }] } }] }
const policy = { name: 'p', rulesets: ['rs'], action: 'Deny' } as Policy

/** A catalog holding one ruleset and one policy, and an audit writer that commits at once. */
function service(cluster?: () => ClusterData | undefined): EvaluationService {
  const catalog = {
    ruleset: (name: string) => (name === 'rs' ? ruleset : undefined),
    policy: (name: string) => (name === 'p' ? policy : undefined),
    rulesets: () => [ruleset],
    compiled: () => compileRuleset(ruleset),
    setAsideEntry: () => undefined,
  } as unknown as DefinitionCatalog
  const audits = { write: () => Promise.resolve('committed') } as unknown as AuditWriter
  return new EvaluationService(catalog, audits, cluster ? { cluster } : {})
}

function request(name: string): EvaluationRequest {
  return { name, inputData: { metadata: { name: 'web' } }, requestId: 'r', by: 'alice', inputText: '{}', inputFormat: 'json' }
}

describe('EvaluationService', () => {
  it('gives the engine the cluster data when the process runs a controller, for rulesets and policies', async () => {
    given.length = 0
    const cluster: ClusterData = { configMap: () => undefined }
    const controller: { configMaps?: ClusterData } = {}
    const evaluations = service(() => controller.configMaps)
    expect((await evaluations.evaluateRuleset(request('rs'))).response.passed).toBe(true)
    controller.configMaps = cluster
    expect((await evaluations.evaluateRuleset(request('rs'))).response.passed).toBe(true)
    expect((await evaluations.evaluatePolicy(request('p'))).response.passed).toBe(true)
    expect(given.map((input) => input.cluster)).toEqual([undefined, cluster, cluster])
    expect(given[0]).not.toHaveProperty('cluster')
  })

  it('gives none without a cluster', async () => {
    given.length = 0
    await service().evaluatePolicy(request('p'))
    expect(given).toHaveLength(1)
    expect(given[0]).not.toHaveProperty('cluster')
  })
})
