import { compilePattern } from '../engine/pattern/index.js'
import type { Validate } from '../engine/model/rule.js'
import { ImportError, Unsupported } from './import-error.js'
import type { JsonObject } from './read.js'

/**
 * validate.pattern / validate.anyPattern -> the same patterns in Verdict's rule: Verdict judges
 * them with Kyverno's semantics (src/engine/pattern), substituting `{{ }}` variables and `$(...)`
 * references for each evaluation. A pattern Verdict finds malformed is reported, naming the
 * place, and the rule is skipped rather than imported to judge differently.
 */
export function importedPatterns(validate: JsonObject, field: string): Validate {
  if (validate.pattern !== undefined && validate.pattern !== null) {
    checkPattern(validate.pattern, `${field}.pattern`)
    return { pattern: validate.pattern }
  }
  const anyPattern = validate.anyPattern
  if (!Array.isArray(anyPattern)) throw new ImportError(`${field}.anyPattern`, 'must be a list of patterns')
  if (anyPattern.length === 0) throw new ImportError(`${field}.anyPattern`, 'must list at least one pattern')
  anyPattern.forEach((pattern, index) => checkPattern(pattern, `${field}.anyPattern[${index}]`))
  return { anyPattern }
}

function checkPattern(raw: unknown, field: string): void {
  const { pattern, problems } = compilePattern(raw)
  // A pattern holding variables is judged once substituted, for each evaluation.
  if (pattern.variables.length > 0 || pattern.references.length > 0) return
  const problem = problems[0]
  if (problem !== undefined) throw new Unsupported(`${field}${problem.path === '' ? '' : problem.path.startsWith('[') ? problem.path : `.${problem.path}`}: ${problem.message}`)
}
