import { EvaluationError, ParseError, TypeError as CelTypeError } from '@marcbachmann/cel-js'
import { CelBudgetExceededError } from './cost-budget.js'

/** An expression that does not parse or type-check: syntax error, unknown function, wrong arity... */
export class CelCompileError extends Error {
  override readonly name = 'CelCompileError'
  readonly expression: string
  /** 1-based position of the problem in `expression`. */
  readonly line: number
  readonly column: number
  /** The problem without the position, e.g. `Unknown variable: foo`. */
  readonly summary: string

  constructor(expression: string, summary: string, offset: number, options?: ErrorOptions) {
    const { line, column } = lineAndColumn(expression, offset)
    super(`${line}:${column}: ${summary}${pointer(expression, line, column)}`, options)
    this.expression = expression
    this.summary = summary
    this.line = line
    this.column = column
  }
}

/** An expression that failed while evaluating: missing key, type mismatch, cost budget exceeded... */
export class CelEvaluationError extends Error {
  override readonly name = 'CelEvaluationError'
  readonly expression: string

  constructor(expression: string, message: string, options?: ErrorOptions) {
    super(message, options)
    this.expression = expression
  }
}

/** Converts whatever `parse`/`check` threw into a CelCompileError with a position. */
export function compileErrorFrom(expression: string, error: unknown): CelCompileError {
  if (error instanceof CelCompileError) return error
  if (error instanceof ParseError || error instanceof CelTypeError || error instanceof EvaluationError) {
    return new CelCompileError(expression, error.summary, error.range?.start ?? 0, { cause: error })
  }
  // The parser recurses per prefix operator ("!!!!...true"): too many of them exhaust the stack.
  const message = error instanceof RangeError ? 'the expression nests too deeply to be parsed' : error instanceof Error ? error.message : String(error)
  return new CelCompileError(expression, message, 0, { cause: error })
}

/** Converts whatever evaluation threw into a CelEvaluationError; `budgetReason` wins when set. */
export function evaluationErrorFrom(expression: string, error: unknown, budgetReason: string | undefined): CelEvaluationError {
  if (budgetReason !== undefined) return new CelEvaluationError(expression, budgetReason, { cause: error })
  if (error instanceof CelEvaluationError) return error
  if (error instanceof CelBudgetExceededError) return new CelEvaluationError(expression, error.message, { cause: error })
  if (error instanceof EvaluationError || error instanceof ParseError || error instanceof CelTypeError) {
    const at = error.range ? ` (at ${positionText(expression, error.range.start)})` : ''
    return new CelEvaluationError(expression, `${readableTypes(error.summary)}${at}`, { cause: error })
  }
  const message = error instanceof Error ? error.message : String(error)
  return new CelEvaluationError(expression, message, { cause: error })
}

/** cel-js names a runtime-typed value `dyn<string>`; users think of it as a string. */
function readableTypes(message: string): string {
  return message.replace(/dyn<([^<>]+)>/g, '$1')
}

function positionText(expression: string, offset: number): string {
  const { line, column } = lineAndColumn(expression, offset)
  return `${line}:${column}`
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  const end = Math.max(0, Math.min(offset, text.length))
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: end - lineStart + 1 }
}

/** The offending source line with a caret under the column, for humans reading the message. */
function pointer(text: string, line: number, column: number): string {
  const source = text.split('\n')[line - 1] ?? ''
  if (source.trim() === '') return ''
  return `\n  ${source}\n  ${' '.repeat(column - 1)}^`
}
