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

export function formatCompileProblem(problem: CompileProblem): string {
  const at = problem.line === undefined ? '' : ` (line ${problem.line}, column ${problem.column ?? 1})`
  const expression = problem.expression === undefined ? '' : `: ${JSON.stringify(problem.expression)}`
  return `  rule "${problem.rule}" ${problem.path}${at}: ${problem.message}${expression}`
}
