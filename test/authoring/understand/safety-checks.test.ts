import { describe, expect, it } from 'vitest'
import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { proseFieldsIn } from '../../../src/authoring/understand/named-fields-grounded.js'

/** The sentences of a refused instruction that were not compiled, with why. */
function refusal(instruction: string): string[] {
  try {
    compileInstruction(instruction)
  } catch (error) {
    if (!(error instanceof InstructionNotUnderstoodError)) throw error
    return error.sentences.filter((sentence) => sentence.became.startsWith('not compiled')).map((sentence) => `${sentence.text} => ${sentence.became}`)
  }
  throw new Error(`compiled: ${instruction}`)
}

describe('safety checks: what a reading leaves unused refuses the request', () => {
  it('a sentence read as a restatement that writes a bound no rule uses refuses', () => {
    expect(refusal('Every container must declare a memory limit, and cannot be more than 3Gi.')).toEqual([
      'cannot be more than 3Gi. => not compiled: it writes "3Gi", which no rule read from the instruction uses; which field must it be checked against, and how?',
    ])
  })

  it('a named rule whose message gives an example does not cover a bound the author wrote', () => {
    expect(refusal('Every container must declare a cpu request; be at least 100m.')).toHaveLength(1)
  })

  it('a named rule never takes an English word as its field', () => {
    expect(proseFieldsIn({ platform: 'generic' }, { field: 'be', minimum: 100 })).toEqual(['be'])
    expect(proseFieldsIn({ platform: 'generic' }, { fields: ['server.port', 'use'] })).toEqual(['use'])
    expect(proseFieldsIn({ platform: 'generic' }, { field: 'replicas', whenField: 'environment' })).toEqual([])
    // A platform template's own field choice ("limits" of a container's resources) is not a key taken from the text.
    expect(proseFieldsIn({ platform: 'kubernetes' }, { resources: ['memory'], fields: ['limits'] })).toEqual([])
  })
})
