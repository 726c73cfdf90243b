/**
 * The JSON values JMESPath reads and produces, and the few helpers every other file needs to
 * handle them safely. Objects come from JSON.parse and YAML loaders, so a key such as
 * `constructor` or `__proto__` is data: lookups read own properties only, and writes define
 * properties instead of assigning, so a `__proto__` key never reaches the prototype setter.
 */

export type JsonPrimitive = string | number | boolean | null
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject
export interface JsonObject {
  [key: string]: JsonValue
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key)
}

export function setOwn(object: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })
  else object[key] = value
}

/** JMESPath's type name for a value, as the `type()` function and error messages spell it. */
export function jsonTypeName(value: JsonValue): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value === 'object' ? 'object' : typeof value
}

/** JMESPath truthiness: false, null, '', [] and {} are false. */
export function isFalsy(value: JsonValue): boolean {
  if (value === null || value === false || value === '') return true
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === 'object') return Object.keys(value).length === 0
  return false
}
