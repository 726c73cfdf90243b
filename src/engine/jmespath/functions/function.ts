import {
  TYPE_ANY,
  TYPE_ARRAY,
  TYPE_NUMBER,
  TYPE_OBJECT,
  TYPE_STRING,
  type InputSignature,
} from '@jmespath-community/jmespath'
import { functionError } from '../errors.js'
import { jsonTypeName, type JsonValue } from '../json.js'

/**
 * A function registered on the JMESPath runtime. The library checks arity and argument types
 * against `signature` before `call` runs, as go-jmespath does with its ArgSpecs.
 */
export interface JmespathFunction {
  readonly name: string
  readonly signature: readonly InputSignature[]
  readonly call: (args: readonly JsonValue[]) => JsonValue
}

export const ANY: InputSignature = { types: [TYPE_ANY] }
export const STRING: InputSignature = { types: [TYPE_STRING] }
export const NUMBER: InputSignature = { types: [TYPE_NUMBER] }
export const OBJECT: InputSignature = { types: [TYPE_OBJECT] }
export const ARRAY: InputSignature = { types: [TYPE_ARRAY] }
export const STRING_OR_NUMBER: InputSignature = { types: [TYPE_STRING, TYPE_NUMBER] }
export const OBJECT_OR_ARRAY: InputSignature = { types: [TYPE_OBJECT, TYPE_ARRAY] }

/** The i-th argument (0-based) as a string; the library has checked the type already. */
export function stringArg(args: readonly JsonValue[], index: number): string {
  return args[index] as string
}

export function numberArg(args: readonly JsonValue[], index: number): number {
  return args[index] as number
}

/** Kyverno's "argument #n is not of type T" error, numbered from 1. */
export function argumentTypeError(name: string, position: number, expected: string, got?: JsonValue): Error {
  const received = got === undefined ? '' : ` (got ${jsonTypeName(got)})`
  return functionError(name, `argument #${position} is not of type ${expected}${received}`)
}
