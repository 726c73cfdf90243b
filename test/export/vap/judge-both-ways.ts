import {
  compileRuleset,
  evaluatePolicy,
  parseDocuments,
  PreparedInput,
  resolvePolicyRulesets,
  type EvaluationInput,
  type Policy,
  type Ruleset,
} from '../../../src/engine/index.js'
import { generateValidatingAdmissionPolicies, vapYaml, type GeneratedVap } from '../../../src/export/vap/index.js'
import { importDocuments } from '../../../src/import/index.js'

/** Each rule's status for one input: pass, fail, error or skip (not matched, or a condition false). */
export type Statuses = Record<string, string>

/**
 * The policy judged by Verdict as written, and as the ValidatingAdmissionPolicies it exports to,
 * written as YAML and imported back through the VAP importer (each generated policy judged with
 * its binding's policy): per input, each original rule's status both ways.
 */
export function judgeBothWays(policy: Policy, rulesets: Ruleset[], inputs: EvaluationInput[]): { original: Statuses[]; exported: Statuses[]; generated: GeneratedVap[] } {
  const generation = generateValidatingAdmissionPolicies(policy, rulesets)
  if (!generation.ok) throw new Error(`refused: ${JSON.stringify(generation.refusals)}`)
  const origin = new Map(generation.policies.map((entry) => [entry.policy.metadata.name, entry.source.rule]))
  const reimported = importDocuments(parseDocuments(vapYaml(generation.policies), 'generated', 'yaml').map((document) => document.value))
  const { found } = resolvePolicyRulesets(policy, rulesets)
  const compiled = found.map(compileRuleset)
  const ruleNames = found.flatMap((ruleset) => ruleset.rules.map((rule) => rule.name))
  const original: Statuses[] = []
  const exported: Statuses[] = []
  for (const input of inputs) {
    const prepared = new PreparedInput(input)
    const mine: Statuses = Object.fromEntries(ruleNames.map((name) => [name, 'skip']))
    for (const result of evaluatePolicy(policy, compiled, prepared, { verbose: true }).output.results) mine[result.rule] = result.status
    original.push(mine)
    const theirs: Statuses = Object.fromEntries(ruleNames.map((name) => [name, 'skip']))
    for (const imported of reimported) {
      const [vapPolicy] = imported.policies
      const [ruleset] = imported.rulesets
      if (!vapPolicy || !ruleset) throw new Error(`not imported back: ${JSON.stringify(imported.skipped)}`)
      for (const result of evaluatePolicy(vapPolicy, [compileRuleset(ruleset)], prepared, { verbose: true }).output.results) {
        if (result.status === 'skip') continue
        const rule = origin.get(result.rule) as string
        if (theirs[rule] !== 'skip') throw new Error(`two generated policies judged rule ${rule}`)
        theirs[rule] = result.status
      }
    }
    exported.push(theirs)
  }
  return { original, exported, generated: generation.policies }
}
