import type { ParseResult } from '@marcbachmann/cel-js'
import { beginEvaluation, budgetExceededReason, endEvaluation } from './cost-budget.js'
import { celEnvironment } from './environment.js'
import { CelEvaluationError, compileErrorFrom, evaluationErrorFrom } from './errors.js'

/**
 * The variables an expression sees. Values must already be CEL values (see toCelValue): convert a
 * resource once and reuse the activation for every expression that judges it. `variables` may be
 * an object of lazy getters; only the ones an expression reads are computed.
 */
export interface CelActivation {
  object?: unknown
  oldObject?: unknown
  request?: unknown
  namespaceObject?: unknown
  params?: unknown
  variables?: unknown
  authorizer?: unknown
  [name: string]: unknown
}

export interface CelProgram {
  readonly source: string
  /** Evaluates against an activation; throws CelEvaluationError on any runtime error, cost overrun or timeout. */
  evaluate(activation: CelActivation): unknown
}

/**
 * Parses and type-checks an expression against the shared environment. Throws CelCompileError
 * (syntax error, unknown variable or function, wrong argument types or count, invalid regex
 * literal). Nothing is cached here: callers cache compiled rulesets.
 */
export function compileCel(source: string): CelProgram {
  const env = celEnvironment()
  let parsed: ParseResult
  try {
    parsed = env.parse(source)
  } catch (error) {
    throw compileErrorFrom(source, error)
  }
  // Checking now also stores the types on the AST, so evaluation skips cel-js's per-call check.
  const checked = parsed.check()
  if (!checked.valid) throw compileErrorFrom(source, checked.error)
  return new CompiledProgram(source, parsed)
}

class CompiledProgram implements CelProgram {
  readonly source: string
  readonly #run: ParseResult

  constructor(source: string, run: ParseResult) {
    this.source = source
    this.#run = run
  }

  evaluate(activation: CelActivation): unknown {
    beginEvaluation()
    try {
      const result: unknown = this.#run(activation)
      // A budget error can be swallowed on the way out (`runaway || true`); it still ends the evaluation.
      const reason = budgetExceededReason()
      if (reason !== undefined) throw new CelEvaluationError(this.source, reason)
      return result
    } catch (error) {
      throw evaluationErrorFrom(this.source, error, budgetExceededReason())
    } finally {
      endEvaluation()
    }
  }
}
