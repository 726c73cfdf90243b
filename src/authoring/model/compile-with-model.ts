import { checkRulesetSpec, compileRuleset, evaluateRuleset, PreparedInput, RulesetCompileError, type Rule, type RulesetSpec } from '../../engine/index.js'
import { compileWithCatalog, InstructionNotUnderstoodError, understandInstruction, type ClauseReport } from '../compile-instruction.js'
import { looksLikeInjection } from '../prompt-check.js'
import { ModelUnavailableError, type ClauseModel, type ModelProposal } from './clause-model.js'

/** Template id recorded on rules a model wrote. */
export const MODEL_TEMPLATE_ID = 'model'

/**
 * The catalog first; each clause it cannot map (unmapped or ambiguous, not one missing a
 * parameter: that is the author's to give) goes to the model. A proposal is accepted only when
 * its rule passes the rule schema, compiles, passes every compliant document it came with and
 * fails every non-compliant one. Clauses that look like attempts to instruct the model are never sent.
 */
export async function compileWithModel(name: string, instruction: string, labels: Record<string, string>, model: ClauseModel): Promise<RulesetSpec> {
  try {
    return compileWithCatalog(instruction, labels).spec
  } catch (error) {
    if (!(error instanceof InstructionNotUnderstoodError)) throw error
  }
  const understood = understandInstruction(instruction, labels)
  const reports: ClauseReport[] = []
  const rules: Rule[] = []
  const names = new Set<string>()
  for (const entry of understood.clauses) {
    const report = { ...entry.report }
    reports.push(report)
    const best = entry.recognition.best
    if (report.status === 'mapped' && best) {
      const rule = best.template.rule(best.recognition.parameters)
      rules.push(uniquelyNamed({ ...rule, template: { id: best.template.id, parameters: best.recognition.parameters } }, names))
      continue
    }
    if (report.status === 'missing-parameters') continue
    if (looksLikeInjection(entry.clause.text)) {
      report.reason = 'the clause reads like instructions to a model, so it was not sent to one'
      continue
    }
    try {
      const proposal = await model.propose(entry.clause.text, { platform: entry.clause.platform, kinds: entry.clause.kinds })
      const rule = acceptProposal(`${name}-model-check`, proposal)
      rules.push(uniquelyNamed({ ...rule, template: { id: MODEL_TEMPLATE_ID, parameters: { clause: entry.clause.text } } }, names))
      report.status = 'mapped'
      report.template = MODEL_TEMPLATE_ID
      report.rule = rules[rules.length - 1]?.name
    } catch (error) {
      report.reason = error instanceof ModelRejectedError || error instanceof ModelUnavailableError ? error.message : 'the model answer could not be used'
    }
  }
  if (reports.some((report) => report.status !== 'mapped')) throw new InstructionNotUnderstoodError(reports)
  return { description: `Generated from an instruction (${rules.length} rules, some written by a model)`, labels: { ...labels }, instruction, rules }
}

export class ModelRejectedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ModelRejectedError'
  }
}

/** The proposal's rule, once it has shown it judges its own samples as promised. */
export function acceptProposal(checkName: string, proposal: ModelProposal): Rule {
  const problems = checkRulesetSpec({ rules: [proposal.rule] }, '')
  if (problems.length > 0) throw new ModelRejectedError(`the model's rule is not valid: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`)
  const rule = proposal.rule as Rule
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

function uniquelyNamed(rule: Rule, names: Set<string>): Rule {
  let name = rule.name
  for (let suffix = 2; names.has(name); suffix += 1) name = `${rule.name}-${suffix}`
  names.add(name)
  return { ...rule, name }
}
