import { describe, expect, it } from 'vitest'
import { CATALOG } from '../../src/authoring/catalog/index.js'
import { compileWithCatalog as compileInstruction, understandInstruction } from '../../src/authoring/compile-instruction.js'
import { instructionSamples } from '../../src/authoring/samples/instruction-samples.js'
import { compileRuleset } from '../../src/engine/index.js'

const labelsFor = (platform: string): Record<string, string> => ({ platform })

describe('the catalog', () => {
  it('has unique ids and at least two phrasings per template', () => {
    expect(new Set(CATALOG.map((template) => template.id)).size).toBe(CATALOG.length)
    for (const template of CATALOG) expect(template.phrasings.length, template.id).toBeGreaterThanOrEqual(2)
  })

  describe.each(CATALOG.map((template) => [template.id, template] as const))('%s', (_id, template) => {
    it.each(template.phrasings.map((phrasing) => [phrasing]))('"%s" maps to it alone, compiles, and its samples pass and fail', (phrasing) => {
      const understood = understandInstruction(phrasing, labelsFor(template.platform))
      expect(understood.clauses.map((entry) => entry.report.template)).toEqual([template.id])
      const { spec, rules } = compileInstruction(phrasing, labelsFor(template.platform))
      expect(spec.rules).toHaveLength(1)
      expect(spec.rules[0]?.template?.id).toBe(template.id)
      expect(() => compileRuleset({ ...spec, name: 'catalog-check' })).not.toThrow()
      const { samples, unverified } = instructionSamples('catalog-check', spec, rules)
      expect(unverified).toEqual([])
      expect(samples.filter((sample) => sample.label === 'compliant')).toHaveLength(1)
      expect(samples.filter((sample) => sample.label === 'non-compliant').length).toBeGreaterThanOrEqual(1)
    })
  })
})
