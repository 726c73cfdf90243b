import { compileInstruction, InstructionNotUnderstoodError } from '../../../src/authoring/compile-instruction.js'
import { compileRuleset, evaluateRuleset, PreparedInput } from '../../../src/engine/index.js'

/** The sentences of a refused instruction that were not compiled, with why; a compiled instruction fails the test. */
export function notCompiled(instruction: string, labels: Record<string, string>): Array<{ text: string; became: string }> {
  try {
    compileInstruction(instruction, labels)
  } catch (error) {
    if (!(error instanceof InstructionNotUnderstoodError)) throw error
    return error.sentences.filter((sentence) => sentence.became.startsWith('not compiled')).map(({ text, became }) => ({ text, became }))
  }
  throw new Error(`compiled: ${instruction}`)
}

/** The verdict of an instruction's ruleset on each document, in order. */
export function verdictsOf(instruction: string, labels: Record<string, string>, documents: readonly unknown[]): boolean[] {
  const ruleset = compileRuleset({ ...compileInstruction(instruction, labels).spec, name: 'reading' })
  return documents.map((document) => evaluateRuleset(ruleset, new PreparedInput({ object: document })).passed)
}
