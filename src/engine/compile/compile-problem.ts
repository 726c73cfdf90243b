/** Why one expression of one rule does not compile. */
export interface CompileProblem {
  rule: string
  /** Field path inside the ruleset spec, e.g. `rules[2].validate.cel[0].expression`. */
  path: string
  expression?: string
  line?: number
  column?: number
  message: string
}

export class RulesetCompileError extends Error {
  readonly ruleset: string
  readonly problems: CompileProblem[]

  constructor(ruleset: string, problems: CompileProblem[]) {
    super(`ruleset "${ruleset}" does not compile:\n${problems.map(formatCompileProblem).join('\n')}`)
    this.name = 'RulesetCompileError'
    this.ruleset = ruleset
    this.problems = problems
  }
}

/**
 * Where a problem is, as every surface states it (REST details, CRD status, CLI output): the field
 * path with the rule's name after its index, and the position in the expression, e.g.
 * `body.rules[0] (rule "broken-rule").validate.cel[0].expression (line 1, column 61)`. The name,
 * because a user who wrote a rule called `broken-rule` should not have to count rules to find it.
 */
export function compileProblemLocation(problem: CompileProblem, prefix = ''): string {
  const at = problem.line === undefined ? '' : ` (line ${problem.line}, column ${problem.column ?? 1})`
  const named = problem.path.replace(/^rules\[\d+\]/, (segment) => `${segment} (rule ${JSON.stringify(problem.rule)})`)
  return `${prefix}${named}${at}`
}

/** One line naming rule, field and position, then the offending line of the expression with a caret. */
export function formatCompileProblem(problem: CompileProblem): string {
  const head = `  ${compileProblemLocation(problem)}: ${problem.message}`
  if (problem.expression === undefined) return head
  const lines = problem.expression.split('\n')
  const source = lines[(problem.line ?? 1) - 1] ?? lines[0] ?? ''
  const caret = problem.line === undefined ? '' : `\n    ${' '.repeat(Math.max(0, (problem.column ?? 1) - 1))}^`
  return `${head}\n    ${source}${caret}`
}
