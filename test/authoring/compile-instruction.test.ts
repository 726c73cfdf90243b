import { describe, expect, it } from 'vitest'
import { compileWithCatalog as compileInstruction, contextFromLabels, InstructionNotUnderstoodError } from '../../src/authoring/compile-instruction.js'

function refusal(instruction: string, labels: Record<string, string> = {}): InstructionNotUnderstoodError {
  try {
    compileInstruction(instruction, labels)
  } catch (error) {
    if (error instanceof InstructionNotUnderstoodError) return error
    throw error
  }
  throw new Error(`"${instruction}" compiled`)
}

describe('compileInstruction', () => {
  it('gives the same ruleset for the same instruction and labels, every time', () => {
    const instruction = '- no privileged pods\n- images only from registry.acme.io and never :latest\n- Deployments need at least 2 replicas and team + cost-center labels'
    const first = compileInstruction(instruction, { platform: 'kubernetes' })
    for (let run = 0; run < 5; run += 1) expect(compileInstruction(instruction, { platform: 'kubernetes' })).toEqual(first)
    expect(first.spec.rules.map((rule) => rule.template?.id)).toEqual([
      'pss-privileged',
      'image-registry-allowed',
      'image-tag-not-latest',
      'replica-count',
      'required-labels',
    ])
  })

  it('keeps the instruction and labels and records each rule\'s template and parameters', () => {
    const { spec } = compileInstruction('images only from registry.acme.io', { platform: 'kubernetes', team: 'platform' })
    expect(spec.instruction).toBe('images only from registry.acme.io')
    expect(spec.labels).toEqual({ platform: 'kubernetes', team: 'platform' })
    expect(spec.rules[0]?.template).toEqual({ id: 'image-registry-allowed', parameters: { registries: ['registry.acme.io'] } })
  })

  it('narrows rules to the kinds the clause or the labels name', () => {
    expect(compileInstruction('team label required', { platform: 'kubernetes', resource: 'Service' }).spec.rules[0]?.match?.kinds).toEqual(['Service'])
    expect(compileInstruction('Deployments need a team label').spec.rules[0]?.match?.kinds).toEqual(['Deployment'])
  })

  it('lets labels pick the platform: kubernetes, terraform, or generic JSON for anything else', () => {
    expect(contextFromLabels({ platform: 'K8s', resource: 'deployments' })).toEqual({ platform: 'kubernetes', kinds: ['Deployment'] })
    expect(contextFromLabels({ platform: 'terraform', resource: 'aws_s3_bucket' })).toEqual({ platform: 'terraform', kinds: ['aws_s3_bucket'] })
    expect(contextFromLabels({ platform: 'app-config' })).toEqual({ platform: 'generic', kinds: [] })
    expect(compileInstruction('debug must be false', { platform: 'app-config' }).spec.rules[0]?.template?.id).toBe('json-field-boolean')
  })

  it('refuses a clause that maps to nothing, naming it and the closest templates', () => {
    const error = refusal('no privileged pods; containers must be quick to start')
    expect(error.clauses.map((clause) => clause.status)).toEqual(['mapped', 'unmapped'])
    expect(error.message).toMatch(/^clause "containers must be quick to start" does not map to any rule template; closest templates: /)
  })

  it('refuses a clause that lacks a parameter, asking for it', () => {
    const error = refusal('images only from approved registries')
    expect(error.clauses[0]).toMatchObject({ status: 'missing-parameters', template: 'image-registry-allowed', missing: [{ name: 'registries' }] })
  })

  it('refuses an empty instruction', () => {
    expect(refusal('   ').clauses).toEqual([{ text: '   ', status: 'unmapped', suggestions: [] }])
  })
})
