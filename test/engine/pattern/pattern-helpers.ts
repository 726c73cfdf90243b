import { compilePattern, judgePatterns, matchPattern, type PatternJudgement, type PatternOutcome } from '../../../src/engine/pattern/index.js'

/** Matches a JSON resource as the engine does (whole numbers read as int64), failing the test on a malformed pattern. */
export function match(pattern: unknown, resource: unknown): PatternOutcome {
  const { pattern: compiled, problems } = compilePattern(pattern)
  if (problems.length > 0) throw new Error(`malformed test pattern: ${JSON.stringify(problems)}`)
  return matchPattern(compiled, resource)
}

export function status(pattern: unknown, resource: unknown): PatternOutcome['status'] {
  return match(pattern, resource).status
}

/** The Kyverno path of a failure (`/spec/x/`), or the status when it did not fail. */
export function failurePath(pattern: unknown, resource: unknown): string {
  const outcome = match(pattern, resource)
  return outcome.status === 'fail' ? `/${outcome.path.map((segment) => `${segment}/`).join('')}` : outcome.status
}

/** A whole rule: `kind` pattern with one pattern, anyPattern with several. */
export function judge(kind: 'pattern' | 'anyPattern', patterns: unknown[], resource: unknown, rule = 'check', message?: string): PatternJudgement {
  const compiled = patterns.map((pattern) => compilePattern(pattern).pattern)
  return judgePatterns({ kind, patterns: compiled }, resource, message === undefined ? { rule } : { rule, message })
}

/** A Pod with the given spec, named `web`. */
export function pod(spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', ...metadata }, spec }
}
