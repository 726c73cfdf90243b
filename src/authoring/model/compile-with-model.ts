import { checkRulesetSpec, compileRuleset, evaluateRuleset, PreparedInput, RulesetCompileError, type Rule, type RulesetSpec } from '../../engine/index.js'
import { VOCABULARY } from '../catalog/index.js'
import { compileInstruction, contextFromLabels, InstructionNotUnderstoodError, type ClauseReport } from '../compile-instruction.js'
import { prepareClause } from '../text/clause.js'
import { ruleStrings, unusedLiterals } from '../understand/coverage.js'
import { enumWordsOf } from '../understand/enum-words.js'
import { looksLikeInjection } from '../prompt-check.js'
import { ModelUnavailableError, type ClauseModel, type ModelProposal } from './clause-model.js'

/** Template id recorded on rules a model wrote. */
export const MODEL_TEMPLATE_ID = 'model'

/**
 * The one reading first (compileInstruction: each sentence read structurally or as a named
 * requirement). When it refuses and every refused sentence stands alone (nothing narrows it),
 * each refused sentence goes to the model. A proposal is accepted only when its rule passes the
 * rule schema, compiles, passes every compliant document it came with and fails every
 * non-compliant one, uses every number and literal the sentence writes, and compares with no text
 * the sentence does not write: the same coverage and grounding the reader's own rules meet.
 * Sentences that look like attempts to instruct the model are never sent.
 */
export async function compileWithModel(name: string, instruction: string, labels: Record<string, string>, model: ClauseModel): Promise<RulesetSpec> {
  let refusal: InstructionNotUnderstoodError
  try {
    return compileInstruction(instruction, labels).spec
  } catch (error) {
    if (!(error instanceof InstructionNotUnderstoodError)) throw error
    refusal = error
  }
  if (!refusal.understoodRules) throw refusal
  const context = contextFromLabels(labels)
  const platform = context.platform ?? 'kubernetes'
  const enumWords = enumWordsOf({ platform, kinds: context.kinds })
  const names = new Set<string>()
  const rules = refusal.understoodRules.map((rule) => uniquelyNamed(rule, names))
  const reports: ClauseReport[] = refusal.clauses.map((report) => ({ ...report }))
  for (const report of reports) {
    if (report.status === 'mapped') continue
    if (looksLikeInjection(report.text)) {
      report.reason = 'the clause reads like instructions to a model, so it was not sent to one'
      continue
    }
    const clause = prepareClause(report.text, { platform, inheritedKinds: context.kinds, vocabulary: VOCABULARY })
    try {
      const proposal = await model.propose(report.text, { platform: clause.platform, kinds: clause.kinds })
      const rule = acceptProposal(`${name}-model-check`, proposal, report.text, enumWords)
      rules.push(uniquelyNamed({ ...rule, template: { id: MODEL_TEMPLATE_ID, parameters: { clause: report.text } } }, names))
      report.status = 'mapped'
      report.template = MODEL_TEMPLATE_ID
      report.rule = rules[rules.length - 1]?.name
      delete report.reason
    } catch (error) {
      report.reason = error instanceof ModelRejectedError || error instanceof ModelUnavailableError ? error.message : 'the model answer could not be used'
    }
  }
  if (reports.some((report) => report.status !== 'mapped')) throw new InstructionNotUnderstoodError(reports, refusal.sentences)
  return { description: `Generated from an instruction (${rules.length} rules, some written by a model)`, labels: { ...labels }, instruction, rules }
}

export class ModelRejectedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModelRejectedError'
  }
}

/** The proposal's rule, once it has shown it judges its own samples as promised. */
export function acceptProposal(checkName: string, proposal: ModelProposal, sentence: string, enumWords: ReadonlySet<string>): Rule {
  const problems = checkRulesetSpec({ rules: [proposal.rule] }, '')
  if (problems.length > 0) throw new ModelRejectedError(`the model's rule is not valid: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`)
  const rule = proposal.rule as Rule
  const unused = unusedLiterals(sentence, ruleStrings(rule), enumWords)
  if (unused.length > 0) throw new ModelRejectedError(`the model's rule does not use ${unused.map((word) => `"${word}"`).join(', ')}, which the sentence writes`)
  const unwritten = textsCompared(rule).filter((text) => !sentence.toLowerCase().includes(text.toLowerCase()))
  if (unwritten.length > 0) throw new ModelRejectedError(`the model's rule compares with ${unwritten.map((text) => `"${text}"`).join(', ')}, which the sentence does not write`)
  let compiled
  try {
    compiled = compileRuleset({ name: checkName, rules: [rule] })
  } catch (error) {
    if (error instanceof RulesetCompileError) throw new ModelRejectedError(`the model's rule does not compile: ${error.problems.map((problem) => problem.message).join('; ')}`)
    throw error
  }
  if (proposal.compliant.length === 0 || proposal.nonCompliant.length === 0) throw new ModelRejectedError('the model gave no compliant and non-compliant documents to check its rule against')
  const passes = (document: unknown): boolean => evaluateRuleset(compiled, new PreparedInput({ object: document })).passed
  proposal.compliant.forEach((document, index) => {
    if (!passes(document)) throw new ModelRejectedError(`the model's rule rejects its own compliant document ${index + 1}`)
  })
  proposal.nonCompliant.forEach((document, index) => {
    if (passes(document)) throw new ModelRejectedError(`the model's rule accepts its own non-compliant document ${index + 1}`)
  })
  return rule
}

/** The text values a rule's CEL compares with: its string literals, other than empty and the field names it reads with them. */
function textsCompared(rule: Rule): string[] {
  const expressions = [...(rule.validate?.cel ?? []).map((check) => check.expression), ...(rule.variables ?? []).map((variable) => variable.expression)]
  const texts = expressions.flatMap((expression) => [...expression.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1] ?? match[2] ?? ''))
  // `object.metadata.?labels[?'app']`: a key read by name is a field, which the sentence may name in words.
  const keys = new Set(expressions.flatMap((expression) => [...expression.matchAll(/\[\??'([^']*)'\]/g)].map((match) => match[1] ?? '')))
  return [...new Set(texts)].filter((text) => text.trim() !== '' && !keys.has(text))
}

function uniquelyNamed(rule: Rule, names: Set<string>): Rule {
  let name = rule.name
  for (let suffix = 2; names.has(name); suffix += 1) name = `${rule.name}-${suffix}`
  names.add(name)
  return { ...rule, name }
}
