import type { Rule } from '../../engine/index.js'
import type { Platform } from '../catalog/rule-template.js'
import { compileRequirement } from './compile-requirement.js'
import { interpretInstruction, type Interpretation, type NamedRequirementReader } from './interpret-instruction.js'
import type { SentenceReading } from './requirement.js'

export interface UnderstoodRules {
  rules: Rule[]
  sentences: SentenceReading[]
  /** Sentences that state a requirement the compiler could not complete, with what was missing. */
  problems: Array<{ sentence: string; problem: string }>
  interpretation: Interpretation
}

/**
 * The rules an instruction asks for, read sentence by sentence (see interpret-instruction.ts),
 * with a report of every sentence's role and what it became.
 */
export function compileUnderstood(instruction: string, context: { platform: Platform; kinds: string[] }, named: NamedRequirementReader): UnderstoodRules {
  const interpretation = interpretInstruction(instruction, context, named)
  const rules: Rule[] = []
  const names = new Set<string>()
  const unique = (rule: Rule): Rule => {
    let name = rule.name
    for (let suffix = 2; names.has(name); suffix += 1) name = `${rule.name}-${suffix}`
    names.add(name)
    return { ...rule, name }
  }
  const sentences: SentenceReading[] = []
  const problems: UnderstoodRules['problems'] = []
  for (const sentence of interpretation.sentences) {
    const made: string[] = []
    for (const requirement of sentence.requirements) {
      const rule = unique(compileRequirement(requirement))
      rules.push(rule)
      made.push(rule.name)
    }
    for (const rule of sentence.catalogRules) {
      const named = unique(rule)
      rules.push(named)
      made.push(named.name)
    }
    if (sentence.problem) problems.push({ sentence: sentence.text, problem: sentence.problem })
    const reading: SentenceReading = { text: sentence.text, role: sentence.role, became: becameText(sentence, made) }
    if (made.length > 0) reading.rules = made
    sentences.push(reading)
  }
  return { rules, sentences, problems, interpretation }
}

function becameText(sentence: Interpretation['sentences'][number], made: string[]): string {
  if (sentence.problem) return `not compiled: ${sentence.problem}`
  if (made.length > 0) return `rule${made.length === 1 ? '' : 's'} ${made.join(', ')}`
  return sentence.note ?? sentence.role
}
