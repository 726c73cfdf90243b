import { evaluate, Optional } from '@marcbachmann/cel-js'

/**
 * cel-js represents uint, duration and type values with classes its package entry point does not
 * export. We need them to recognise and build such values (list sum of durations, fromCelValue...),
 * so we take their constructors from values the public `evaluate` produces, once at load time.
 */

export interface CelUint {
  valueOf(): bigint
}

export interface CelDuration {
  readonly seconds: bigint
  readonly nanos: number
  addDuration(other: CelDuration): CelDuration
  toString(): string
}

export interface CelTypeValue {
  readonly name: string
}

type Constructor<T> = abstract new (...args: never[]) => T

function constructorOf<T>(expression: string): Constructor<T> {
  const value: unknown = evaluate(expression)
  if (value === null || typeof value !== 'object') throw new Error(`cel-js returned no object for ${expression}`)
  return value.constructor as Constructor<T>
}

const UintClass = constructorOf<CelUint>('uint(1)')
const DurationClass = constructorOf<CelDuration>('duration("1s")')
const TypeClass = constructorOf<CelTypeValue>('type(1)')

export function isCelUint(value: unknown): value is CelUint {
  return value instanceof UintClass
}

export function isCelDuration(value: unknown): value is CelDuration {
  return value instanceof DurationClass
}

export function isCelType(value: unknown): value is CelTypeValue {
  return value instanceof TypeClass
}

export function isOptional(value: unknown): value is Optional<unknown> {
  return value instanceof Optional
}

/** A cel-js uint; throws a cel-js overflow error outside 0..2^64-1. */
export function makeCelUint(value: bigint): CelUint {
  return new (UintClass as unknown as new (v: bigint) => CelUint)(value)
}

export function makeCelDuration(seconds: bigint, nanos: number): CelDuration {
  return new (DurationClass as unknown as new (s: bigint, n: number) => CelDuration)(seconds, nanos)
}
