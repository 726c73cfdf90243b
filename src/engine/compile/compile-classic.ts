import { checkConditions, prepareConditions, type OperandReader, type PreparedConditions } from '../conditions/index.js'
import { compileKyvernoJmespath } from '../jmespath/compile.js'
import { prepareWholeVariable, type KyvernoContextEntry } from '../jmespath/index.js'
import { ForEachSchema, type ContextEntry, type ForEach } from '../model/classic-validation.js'
import { schemaChecker } from '../model/check-schema.js'
import type { Rule } from '../model/rule.js'
import { compilePattern, holdsVariables, type CompiledPattern, type PatternValidation } from '../pattern/index.js'
import type { CompileProblem } from './compile-problem.js'
import type { CompiledClassic, CompiledDeny, CompiledForEach } from './compiled-classic.js'

/**
 * Nested foreach loops deeper than this are refused: Kyverno sets no limit, but every level
 * multiplies the work per element and real policies nest two deep at most.
 */
export const MAX_FOREACH_NESTING = 8

const checkForEachSchema = schemaChecker(ForEachSchema)
const FOREACH_KINDS = ['pattern', 'anyPattern', 'deny', 'foreach'] as const
const ENTRY_KINDS = ['variable', 'configMap', 'apiCall', 'imageRegistry', 'globalReference'] as const

/** Reports each problem of a rule as found, with the rule's name. */
type Report = (path: string, message: string, expression?: string) => void

/**
 * The classic parts of a rule, every problem reported against its field; undefined when the rule
 * has none and its patterns and message read no variable (those judge without a JMESPath context).
 */
export function compileClassic(rule: Rule, path: string, problems: CompileProblem[], patterns: PatternValidation | undefined): CompiledClassic | undefined {
  const report: Report = (at, message, expression) => problems.push({ rule: rule.name, path: at, message, ...(expression === undefined ? {} : { expression }) })
  const context = compileContext(rule.context, `${path}.context`, report)
  const preconditions = compileConditions(rule.preconditions, `${path}.preconditions`, report)
  const deny = rule.validate.deny === undefined ? undefined : compileDeny(rule.validate.deny.conditions, `${path}.validate.deny.conditions`, report)
  const foreach = rule.validate.foreach === undefined ? undefined : compileLoops(rule.validate.foreach, `${path}.validate.foreach`, report, rule.name, problems, 1)
  const messageHasVariables = rule.message !== undefined && holdsVariables(rule.message)
  const patternsNeedContext = patterns?.patterns.some(needsSubstitution) ?? false
  if (context.length === 0 && preconditions === undefined && !deny && !foreach && !messageHasVariables && !patternsNeedContext) return undefined
  const classic: CompiledClassic = { context, messageHasVariables }
  if (preconditions !== undefined) classic.preconditions = preconditions
  if (deny) classic.deny = deny
  if (foreach) classic.foreach = foreach
  return classic
}

/** `validate.pattern` or `validate.anyPattern` (of a rule or a loop), each pattern compiled once. */
export function compilePatternValidation(
  source: { pattern?: unknown; anyPattern?: unknown[] },
  path: string,
  rule: string,
  problems: CompileProblem[],
): PatternValidation | undefined {
  const kind = source.pattern !== undefined ? 'pattern' : source.anyPattern !== undefined ? 'anyPattern' : undefined
  if (kind === undefined) return undefined
  const sources = kind === 'pattern' ? [{ raw: source.pattern, at: `${path}.pattern` }] : (source.anyPattern ?? []).map((raw, index) => ({ raw, at: `${path}.anyPattern[${index}]` }))
  const patterns: CompiledPattern[] = sources.map(({ raw, at }) => {
    const { pattern, problems: found } = compilePattern(raw)
    // A pattern holding variables is compiled again once substituted; what it says before then is not final.
    if (!needsSubstitution(pattern)) for (const problem of found) problems.push({ rule, path: joinPath(at, problem.path), message: problem.message })
    return pattern
  })
  return { kind, patterns }
}

function needsSubstitution(pattern: CompiledPattern): boolean {
  return pattern.variables.length > 0 || pattern.references.length > 0
}

function compileConditions(block: unknown, path: string, report: Report): PreparedConditions | undefined {
  if (block === undefined || block === null) return undefined
  for (const problem of checkConditions(block, path)) report(problem.path, problem.message)
  return prepareConditions(block, '', OPERANDS)
}

function compileDeny(conditions: unknown, path: string, report: Report): CompiledDeny {
  return { conditions: compileConditions(conditions, path, report) ?? prepareConditions(null) }
}

/** Kyverno's operands: literals read now, and strings that are one variable parsed now for substituting later. */
const OPERANDS: OperandReader = {
  isLiteral: needsNoSubstitution,
  prepare: (raw) => (typeof raw === 'string' ? prepareWholeVariable(raw) : undefined),
}

/**
 * A condition's key or value without variables or references (`DELETE`, `[CREATE, UPDATE]`, 5):
 * substitution would return it as it is, so it is read once here. Maps are left to substitution,
 * which also rewrites their keys.
 */
function needsNoSubstitution(raw: unknown): boolean {
  if (typeof raw === 'string') return !raw.includes('{{') && !raw.includes('$(')
  if (Array.isArray(raw)) return raw.every((item) => !Array.isArray(item) && needsNoSubstitution(item))
  return typeof raw !== 'object' || raw === null
}

function compileContext(entries: readonly ContextEntry[] | undefined, path: string, report: Report): KyvernoContextEntry[] {
  return (entries ?? []).map((entry, index) => {
    const at = `${path}[${index}]`
    const kinds = ENTRY_KINDS.filter((kind) => entry[kind] !== undefined && entry[kind] !== null)
    if (kinds.length !== 1) {
      report(at, kinds.length === 0 ? `needs one of ${ENTRY_KINDS.join(', ')}` : `has ${kinds.join(' and ')}; an entry loads its value in exactly one way`)
    }
    const variable = entry.variable
    if (variable) {
      const hasValue = variable.value !== undefined && variable.value !== null
      const hasPath = variable.jmesPath !== undefined && variable.jmesPath !== ''
      if (!hasValue && !hasPath) report(`${at}.variable`, 'needs a value or a jmesPath')
      if (hasPath) checkExpression(variable.jmesPath as string, `${at}.variable.jmesPath`, report)
    }
    return entry as KyvernoContextEntry
  })
}

function compileLoops(
  loops: readonly unknown[],
  path: string,
  report: Report,
  rule: string,
  problems: CompileProblem[],
  nesting: number,
): CompiledForEach[] | undefined {
  if (nesting > MAX_FOREACH_NESTING) {
    report(path, `foreach loops nest more than ${MAX_FOREACH_NESTING} deep`)
    return undefined
  }
  const compiled: CompiledForEach[] = []
  loops.forEach((raw, index) => {
    const at = `${path}[${index}]`
    // The top level was checked with the rule's schema; nested loops are opaque to it.
    const shapeProblems = nesting === 1 ? [] : checkForEachSchema(raw, at)
    for (const problem of shapeProblems) report(problem.path, problem.message)
    if (shapeProblems.length > 0) return
    const loop = raw as ForEach
    const kinds = FOREACH_KINDS.filter((kind) => loop[kind] !== undefined && loop[kind] !== null)
    if (kinds.length !== 1) {
      report(at, kinds.length === 0 ? `needs exactly one of ${FOREACH_KINDS.join(', ')}` : `has ${kinds.join(' and ')}; a loop validates in exactly one way`)
      return
    }
    checkExpression(loop.list, `${at}.list`, report)
    const entry: CompiledForEach = { list: loop.list, context: compileContext(loop.context, `${at}.context`, report) }
    const preconditions = compileConditions(loop.preconditions, `${at}.preconditions`, report)
    if (preconditions !== undefined) entry.preconditions = preconditions
    if (loop.elementScope !== undefined) entry.elementScope = loop.elementScope
    const patterns = compilePatternValidation(loop, at, rule, problems)
    if (patterns) entry.patterns = patterns
    if (loop.deny !== undefined) entry.deny = compileDeny(loop.deny.conditions, `${at}.deny.conditions`, report)
    if (loop.foreach !== undefined) {
      const nested = compileLoops(loop.foreach, `${at}.foreach`, report, rule, problems, nesting + 1)
      if (nested) entry.foreach = nested
    }
    compiled.push(entry)
  })
  return compiled
}

/** A JMESPath expression that holds no `{{ }}` is parsed now, so a typo is refused when stored rather than failing every evaluation. */
function checkExpression(expression: string, path: string, report: Report): void {
  if (holdsVariables(expression)) return
  try {
    compileKyvernoJmespath(expression.trim())
  } catch (error) {
    report(path, `JMESPath does not parse: ${error instanceof Error ? error.message : String(error)}`, expression)
  }
}

function joinPath(base: string, inner: string): string {
  if (inner === '') return base
  return inner.startsWith('[') ? `${base}${inner}` : `${base}.${inner}`
}
