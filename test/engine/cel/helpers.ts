import { compileCel, toCelValue, type CelActivation } from '../../../src/engine/cel/index.js'

/** Compiles and evaluates one expression; JSON inputs are converted the way the engine does. */
export function evalCel(expression: string, activation: Record<string, unknown> = {}): unknown {
  const converted: CelActivation = {}
  for (const [name, value] of Object.entries(activation)) converted[name] = toCelValue(value)
  return compileCel(expression).evaluate(converted)
}

/** The error an expression's evaluation throws (fails the test when it does not throw). */
export function evalError(expression: string, activation: Record<string, unknown> = {}): Error {
  try {
    evalCel(expression, activation)
  } catch (error) {
    if (error instanceof Error) return error
    throw new Error(`threw a non-Error: ${String(error)}`, { cause: error })
  }
  throw new Error(`expected ${expression} to throw`)
}
