import { evaluateJmespath, type JsonValue } from '../../../src/engine/jmespath/index.js'

/** The value of `expression` on `data` (null by default). */
export function jp(expression: string, data: JsonValue = null, now?: Date): JsonValue {
  return evaluateJmespath(expression, data, now ? { now } : {})
}

/** The error `expression` throws; fails the test when it throws none. */
export function jpError(expression: string, data: JsonValue = null): Error {
  try {
    const value = evaluateJmespath(expression, data)
    throw new Error(`expected an error from ${expression}, got ${JSON.stringify(value)}`)
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('expected an error')) throw error
    return error as Error
  }
}
