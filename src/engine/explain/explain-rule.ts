import { controllerPathOf } from '../autogen/pod-template-path.js'
import { beginEvaluation, endEvaluation } from '../cel/cost-budget.js'
import { celEnvironment } from '../cel/environment.js'
import type { CelAstNode } from '../cel/macro-api.js'
import { fromCelValue } from '../cel/values.js'
import type { CompiledRule } from '../compile/compiled-ruleset.js'
import { activationFor, evaluateRule, judgePatternRule, subjectFor } from '../evaluate/evaluate-rule.js'
import type { PreparedInput } from '../evaluate/prepared-input.js'
import type { RuleStatus } from '../results/rule-result.js'
import { ExpressionTracer } from './expression-tracer.js'
import { formatPath, isReadable, type FieldFinding, type RawFinding } from './field-finding.js'
import { FieldFinder } from './find-fields.js'
import { patternFindings } from './pattern-findings.js'

export interface RuleExplanation {
  /** How the rule judges the input now. */
  status: RuleStatus
  /** For a failing rule, the fields its failing validations read and what they ask of them; else empty. */
  fields: FieldFinding[]
}

/**
 * Judges one input by one rule and, when it fails, names the fields to change: every failing
 * validation is re-run with provenance (see expression-tracer.ts) and its boolean structure
 * searched for the checks that came out false (see find-fields.ts). Paths are given in the
 * document that was submitted: under autogen, into the controller's pod template.
 *
 * Meant for remediation, not for admission: it costs several times an evaluation, runs under the
 * same cost and time budget, and answers "nothing known" (no fields) rather than fail.
 */
export function explainRule(rule: CompiledRule, input: PreparedInput): RuleExplanation {
  const { status } = evaluateRule(rule, input)
  if (rule.patterns) return { status, fields: status === 'fail' ? patternFindings(judgePatternRule(rule, input)?.fields ?? []) : [] }
  const subject = status === 'fail' ? subjectFor(rule, input) : undefined
  if (!subject) return { status, fields: [] }
  const controllerKind = subject === input.subject ? undefined : input.subject.target.gvk.kind
  beginEvaluation()
  try {
    const activation = activationFor(rule, subject)
    const finder = new FieldFinder(new ExpressionTracer(activation, variableExpressions(rule)))
    // Every validation that fails, not only the first the engine reported: the reader fixes them all at once.
    const raw = rule.validations.flatMap((validation) => {
      try {
        if (validation.program.evaluate(activation) !== false) return []
      } catch {
        return []
      }
      return finder.find(parse(validation.program.source), true, undefined)
    })
    return { status, fields: distinct(raw.map((finding) => shaped(finding, controllerKind))) }
  } catch {
    return { status, fields: [] }
  } finally {
    endEvaluation()
  }
}

function parse(source: string): CelAstNode {
  return celEnvironment().parse(source).ast as unknown as CelAstNode
}

function variableExpressions(rule: CompiledRule): ReadonlyMap<string, CelAstNode> {
  return new Map(rule.variables.map((variable) => [variable.name, parse(variable.program.source)]))
}

function shaped(finding: RawFinding, controllerKind: string | undefined): FieldFinding {
  const path = controllerKind === undefined ? finding.path : controllerPathOf(controllerKind, finding.path)
  const out: FieldFinding = { path: formatPath(path), requirement: finding.requirement }
  const actual = finding.actual === undefined ? undefined : fromCelValue(finding.actual)
  if (actual !== undefined && isReadable(actual)) out.actual = actual
  if (finding.expected !== undefined) out.expected = fromCelValue(finding.expected)
  return out
}

function distinct(findings: FieldFinding[]): FieldFinding[] {
  const seen = new Set<string>()
  return findings.filter((finding) => {
    const key = `${finding.path}\u0000${finding.requirement}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
