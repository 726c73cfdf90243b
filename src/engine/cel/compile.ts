import type { ParseResult } from '@marcbachmann/cel-js'
import { beginEvaluation, budgetExceededReason, endEvaluation } from './cost-budget.js'
import { celEnvironment } from './environment.js'
import { CelEvaluationError, compileErrorFrom, evaluationErrorFrom } from './errors.js'
import { compileFastPath, type CelAstNode, type FastEvaluator } from './fast-path.js'
import { expressionDepth, MAX_EXPRESSION_DEPTH } from './expression-depth.js'

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
  /** Whether the expression also runs on the fast path (see fast-path.ts); false: cel-js only. */
  readonly accelerated: boolean
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
  if (expressionDepth(parsed.ast as CelAstNode) > MAX_EXPRESSION_DEPTH) {
    throw compileErrorFrom(source, new Error(`the expression nests deeper than ${MAX_EXPRESSION_DEPTH} levels (a chain of that many operators); split it, for example into variables`))
  }
  // Checking now also stores the types on the AST, so evaluation skips cel-js's per-call check.
  const checked = parsed.check()
  if (!checked.valid) throw compileErrorFrom(source, checked.error)
  return new CompiledProgram(source, parsed, compileFastPath(parsed.ast as CelAstNode))
}

let fastPathEnabled = true

/** Turns the fast path off (every expression on cel-js) or back on; for comparison and as a safety switch. */
export function setCelFastPath(enabled: boolean): void {
  fastPathEnabled = enabled
}

class CompiledProgram implements CelProgram {
  readonly source: string
  readonly #run: ParseResult
  readonly #fast: FastEvaluator | undefined

  constructor(source: string, run: ParseResult, fast: FastEvaluator | undefined) {
    this.source = source
    this.#run = run
    this.#fast = fast
  }

  get accelerated(): boolean {
    return this.#fast !== undefined
  }

  evaluate(activation: CelActivation): unknown {
    beginEvaluation()
    try {
      if (this.#fast && fastPathEnabled) {
        try {
          const fast = this.#fast(activation)
          if (budgetExceededReason() === undefined) return fast
        } catch {
          // Anything unusual (a bailout, an error, the budget) is decided by cel-js below.
        }
      }
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
