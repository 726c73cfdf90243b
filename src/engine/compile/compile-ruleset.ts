import { DEFAULT_POD_CONTROLLERS } from '../autogen/pod-controllers.js'
import { CelCompileError, compileCel, type CelProgram } from '../cel/index.js'
import { namesPodKind } from '../match/kind-selector.js'
import { compileMatch, kindsNamedBy } from '../match/matches-rule.js'
import type { PodSecurityExcludeEntry } from '../model/pod-security.js'
import type { Rule } from '../model/rule.js'
import type { Ruleset } from '../model/ruleset.js'
import { classicAutogen } from './classic-autogen.js'
import { compileClassic, compilePatternValidation } from './compile-classic.js'
import { RulesetCompileError, type CompileProblem } from './compile-problem.js'
import type { CompiledNamedProgram, CompiledRule, CompiledRuleset, CompiledValidation } from './compiled-ruleset.js'
import { isCompileProblem, podSecurityRuleAsCel } from './pod-security-rule.js'
import { variableOrderProblems } from './variable-order.js'

/** Parses every expression of a ruleset once; reports every broken expression, not just the first. */
export function compileRuleset(ruleset: Ruleset): CompiledRuleset {
  return compile(ruleset, { checkVariableOrder: true })
}

/**
 * Compiles a ruleset that is already stored, leaving out how its variables read each other
 * (variable-order.ts): those checks came after rulesets were first stored, and one stored before
 * them must keep evaluating, not fail every evaluation and admission review that meets it.
 * Evaluation stops a cycle among such variables on its own, as an error of that one rule.
 */
export function compileStoredRuleset(ruleset: Ruleset): CompiledRuleset {
  return compile(ruleset, { checkVariableOrder: false })
}

interface CompileOptions {
  readonly checkVariableOrder: boolean
}

function compile(ruleset: Ruleset, options: CompileOptions): CompiledRuleset {
  const problems: CompileProblem[] = []
  const rules = ruleset.rules.map((rule, index) => compileRule(ruleset.name, rule, `rules[${index}]`, problems, options))
  if (problems.length > 0) throw new RulesetCompileError(ruleset.name, problems)
  return { name: ruleset.name, version: ruleset.version ?? 0, rules }
}

function compileRule(ruleset: string, written: Rule, path: string, problems: CompileProblem[], options: CompileOptions): CompiledRule {
  const asCel = podSecurityRuleAsCel(written, path)
  if (isCompileProblem(asCel)) problems.push(asCel)
  const rule = isCompileProblem(asCel) ? { ...written, validate: {} } : asCel
  const compile = (expression: string, at: string): CelProgram | undefined => {
    try {
      return compileCel(expression)
    } catch (error) {
      problems.push(problemOf(rule.name, at, expression, error))
      return undefined
    }
  }
  const named = (list: { name?: string; expression: string }[] | undefined, at: string): CompiledNamedProgram[] =>
    (list ?? []).flatMap((entry, index) => {
      const program = compile(entry.expression, `${at}[${index}].expression`)
      return program ? [{ name: entry.name ?? `${index}`, program }] : []
    })

  const validations: CompiledValidation[] = (rule.validate.cel ?? []).flatMap((validation, index) => {
    const at = `${path}.validate.cel[${index}]`
    const program = compile(validation.expression, `${at}.expression`)
    const messageProgram =
      validation.messageExpression === undefined ? undefined : compile(validation.messageExpression, `${at}.messageExpression`)
    if (!program) return []
    const compiled: CompiledValidation = { program }
    if (validation.message !== undefined) compiled.message = validation.message
    if (messageProgram) compiled.messageProgram = messageProgram
    return [compiled]
  })

  const variables = named(rule.variables, `${path}.variables`).map(withShareKey)
  // Only expressions that compiled are walked for their reads: one refused for its depth could overflow the walk.
  const ruleCompiled = !problems.some((problem) => problem.rule === rule.name && problem.path.startsWith(`${path}.`))
  if (options.checkVariableOrder && ruleCompiled) problems.push(...variableOrderProblems(rule, path))
  const compiled: CompiledRule = {
    ruleset,
    name: rule.name,
    severity: rule.severity ?? 'medium',
    matches: compileMatch(rule.match),
    autogenControllers: autogenControllersOf(rule),
    conditions: named(rule.match?.conditions, `${path}.match.conditions`),
    variables,
    variableIndex: new Map(variables.map((variable, index) => [variable.name, index])),
    validations,
  }
  if (rule.message !== undefined) compiled.message = rule.message
  if (rule.remediation !== undefined) compiled.remediation = rule.remediation
  if (rule.match !== undefined) compiled.match = rule.match
  if (rule.enabled === false) compiled.disabledReason = rule.disabledReason ?? 'switched off'
  const patterns = compilePatternValidation(rule.validate, `${path}.validate`, rule.name, problems)
  if (patterns) compiled.patterns = patterns
  const classic = compileClassic(rule, path, problems, patterns)
  if (classic) compiled.classic = classic
  if (classic && compiled.autogenControllers.size > 0) compiled.classicAutogen = classicAutogen(rule)
  if (written.validate.podSecurity !== undefined) compiled.podSecurity = { rule: written, path }
  return compiled
}

/**
 * A `validate.podSecurity` rule compiled again with `extraExcludes` after its own excludes (a
 * PolicyException's `podSecurity`), or the problems that keep it from compiling so: an exclude
 * Kyverno would refuse at the rule's level, an order of excludes Verdict cannot judge as Kyverno.
 */
export function compileWithPodSecurityExcludes(rule: CompiledRule, extraExcludes: readonly PodSecurityExcludeEntry[]): CompiledRule | CompileProblem[] {
  if (!rule.podSecurity) return [{ rule: rule.name, path: 'validate', message: 'is not a podSecurity rule' }]
  const asCel = podSecurityRuleAsCel(rule.podSecurity.rule, rule.podSecurity.path, extraExcludes)
  if (isCompileProblem(asCel)) return [asCel]
  const problems: CompileProblem[] = []
  const compiled = compileRule(rule.ruleset, asCel, rule.podSecurity.path, problems, { checkVariableOrder: false })
  return problems.length > 0 ? problems : compiled
}

function withShareKey(variable: CompiledNamedProgram): CompiledNamedProgram {
  return READS_VARIABLES.test(variable.program.source) ? variable : { ...variable, shareKey: variable.program.source.trim() }
}

/** Conservative: any mention of the identifier, even inside a string literal, keeps the value private. */
const READS_VARIABLES = /\bvariables\b/

function autogenControllersOf(rule: Rule): ReadonlySet<string> {
  if (rule.autogen === false) return new Set()
  if (typeof rule.autogen === 'object') return new Set(rule.autogen.controllers)
  const kinds = kindsNamedBy(rule.match)
  return kinds && namesPodKind(kinds) ? new Set(DEFAULT_POD_CONTROLLERS) : new Set()
}

function problemOf(rule: string, path: string, expression: string, error: unknown): CompileProblem {
  if (error instanceof CelCompileError) {
    return { rule, path, expression, line: error.line, column: error.column, message: error.summary }
  }
  return { rule, path, expression, message: (error as Error).message }
}
