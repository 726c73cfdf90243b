import { compileRuleset, evaluateRuleset, PreparedInput } from '../../engine/index.js'
import { compileInstruction, InstructionNotUnderstoodError } from '../compile-instruction.js'
import type { AuthoringCase } from './authoring-case.js'

export interface CaseOutcome {
  case: AuthoringCase
  actual: 'pass' | 'fail' | 'rejected'
  correct: boolean
  /** Why it was rejected, or which rules failed, or which templates the clauses mapped to. */
  detail: string
}

/** Compiles each case's instruction with its labels and judges its document by the result. */
export function runAuthoringCase(item: AuthoringCase): CaseOutcome {
  let compiled
  try {
    compiled = compileInstruction(item.instruction, item.labels)
  } catch (error) {
    if (!(error instanceof InstructionNotUnderstoodError)) throw error
    return { case: item, actual: 'rejected', correct: item.expect === 'rejected', detail: error.message }
  }
  const templates = compiled.rules.map((rule) => rule.template.id).join(', ')
  const result = evaluateRuleset(compileRuleset({ ...compiled.spec, name: 'case' }), new PreparedInput({ object: item.document }))
  const actual = result.passed ? 'pass' : 'fail'
  const failed = result.results.map((entry) => `${entry.rule} (${entry.status}${entry.message ? `: ${entry.message}` : ''})`).join('; ')
  return { case: item, actual, correct: actual === item.expect, detail: `templates: ${templates}${failed ? `; failed: ${failed}` : ''}` }
}

export interface AccuracyReport {
  total: number
  correct: number
  byFile: Array<{ file: string; total: number; correct: number }>
  wrong: CaseOutcome[]
}

export function accuracyOf(outcomes: readonly CaseOutcome[]): AccuracyReport {
  const files = new Map<string, { total: number; correct: number }>()
  for (const outcome of outcomes) {
    const entry = files.get(outcome.case.file) ?? { total: 0, correct: 0 }
    entry.total += 1
    if (outcome.correct) entry.correct += 1
    files.set(outcome.case.file, entry)
  }
  return {
    total: outcomes.length,
    correct: outcomes.filter((outcome) => outcome.correct).length,
    byFile: [...files.entries()].map(([file, counts]) => ({ file, ...counts })),
    wrong: outcomes.filter((outcome) => !outcome.correct),
  }
}
