import { schemaChecker } from './check-schema.js'
import type { DefinitionProblem } from './definition-problem.js'
import { PolicyManifestSchema, RulesetManifestSchema } from './manifest.js'
import { PolicySpecSchema } from './policy.js'
import type { Rule } from './rule.js'
import { RulesetSpecSchema, type RulesetSpec } from './ruleset.js'
import { checkSwitch } from './switched-off.js'

const checkRulesetSpecSchema = schemaChecker(RulesetSpecSchema)
const checkPolicySpecSchema = schemaChecker(PolicySpecSchema)
export const checkRulesetManifestSchema = schemaChecker(RulesetManifestSchema)
export const checkPolicyManifestSchema = schemaChecker(PolicyManifestSchema)

const VALIDATE_KINDS = ['cel', 'pattern', 'anyPattern', 'deny', 'foreach', 'podSecurity'] as const

/** Schema plus the rules a JSON Schema cannot say: one validate kind per rule, unique rule names. */
export function checkRulesetSpec(value: unknown, basePath: string): DefinitionProblem[] {
  const problems = checkRulesetSpecSchema(value, basePath)
  if (problems.length > 0) return problems
  return checkRulesetSemantics(value as RulesetSpec, basePath)
}

export function checkPolicySpec(value: unknown, basePath: string): DefinitionProblem[] {
  const problems = checkPolicySpecSchema(value, basePath)
  if (problems.length > 0) return problems
  const spec = value as { rulesets?: string[]; rulesetSelector?: unknown; enabled?: boolean; disabledReason?: string }
  if (!spec.rulesets?.length && spec.rulesetSelector === undefined) {
    return [{ path: child(basePath, 'rulesets'), message: 'a policy needs rulesets or a rulesetSelector' }]
  }
  return checkSwitch(spec, basePath)
}

function checkRulesetSemantics(spec: RulesetSpec, basePath: string): DefinitionProblem[] {
  const problems: DefinitionProblem[] = []
  const firstIndexByName = new Map<string, number>()
  spec.rules.forEach((rule, index) => {
    const path = child(basePath, `rules[${index}]`)
    const earlier = firstIndexByName.get(rule.name)
    if (earlier !== undefined) {
      problems.push({ path: `${path}.name`, message: `duplicate rule name "${rule.name}" (also rules[${earlier}])` })
    } else {
      firstIndexByName.set(rule.name, index)
    }
    problems.push(...checkValidateKind(rule, `${path}.validate`))
    problems.push(...checkSwitch(rule, path))
  })
  return problems
}

function checkValidateKind(rule: Rule, path: string): DefinitionProblem[] {
  const present = VALIDATE_KINDS.filter((kind) => rule.validate[kind] !== undefined)
  if (present.length === 1) return []
  if (present.length === 0) return [{ path, message: `needs exactly one of ${VALIDATE_KINDS.join(', ')}` }]
  return [{ path, message: `has ${present.join(' and ')}; a rule validates in exactly one way` }]
}

function child(basePath: string, field: string): string {
  return basePath === '' ? field : `${basePath}.${field}`
}
