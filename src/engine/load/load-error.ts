/** Where in which input something is wrong: file, document (1-based) and field path. */
export interface LoadProblem {
  source: string
  document?: number
  path?: string
  message: string
}

export class LoadError extends Error {
  readonly problems: LoadProblem[]

  constructor(problems: LoadProblem[]) {
    super(problems.map(formatLoadProblem).join('\n'))
    this.name = 'LoadError'
    this.problems = problems
  }
}

export function formatLoadProblem(problem: LoadProblem): string {
  const where = [problem.source, problem.document === undefined ? undefined : `document ${problem.document}`]
    .filter((part) => part !== undefined)
    .join(', ')
  return problem.path ? `${where}: ${problem.path}: ${problem.message}` : `${where}: ${problem.message}`
}
