import { metered } from './budget.js'
import { closuresOf } from './closures.js'
import { compileKyvernoJmespath } from './compile.js'
import type { ExpressionNode } from './dialect.js'
import { JmespathError } from './errors.js'
import { ALL_FUNCTIONS, REMOVED_LIBRARY_FUNCTIONS } from './functions/index.js'
import { KyvernoInterpreter } from './interpreter.js'
import type { JsonValue } from './json.js'

export interface EvaluateOptions {
  /** The clock time_now() and time_since() read; the real time when absent. */
  readonly now?: Date
}

// One interpreter serves every evaluation: evaluation is synchronous and keeps no state between calls.
let interpreter: KyvernoInterpreter | undefined

function kyvernoInterpreter(): KyvernoInterpreter {
  interpreter ??= new KyvernoInterpreter(ALL_FUNCTIONS, REMOVED_LIBRARY_FUNCTIONS)
  return interpreter
}

/**
 * Evaluates a Kyverno JMESPath expression against `data`. Throws JmespathSyntaxError for an
 * invalid expression, JmespathNotFoundError for a missing field along the main path,
 * JmespathBudgetError past the work or time budget, and JmespathError for any other failure.
 */
export function evaluateJmespath(expression: string, data: JsonValue, options: EvaluateOptions = {}): JsonValue {
  return metered(() => evaluateCompiled(compileKyvernoJmespath(expression), data), options.now)
}

/** Evaluates a compiled expression (see compileKyvernoJmespath) within the current budget. */
export function evaluateCompiled(ast: ExpressionNode, data: JsonValue): JsonValue {
  try {
    const interpreter = kyvernoInterpreter()
    return closuresOf(ast, interpreter).evaluate(data)
  } catch (error) {
    throw asJmespathError(error)
  }
}

/**
 * The evaluation of a compiled expression, to run many times within the current budget; it may
 * throw any error, which asJmespathError reads as evaluateCompiled does.
 */
export function evaluatorOf(ast: ExpressionNode): (data: JsonValue) => JsonValue {
  return closuresOf(ast, kyvernoInterpreter()).evaluate
}

/** Library errors (type checks, unknown functions) and stack exhaustion become JmespathErrors. */
export function asJmespathError(error: unknown): JmespathError {
  if (error instanceof JmespathError) return error
  if (error instanceof RangeError) return new JmespathError('expression or value too deeply nested to evaluate', { cause: error })
  return new JmespathError(error instanceof Error ? error.message : String(error), { cause: error })
}
