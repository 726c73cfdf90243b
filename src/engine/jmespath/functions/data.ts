import * as yaml from 'js-yaml'
import { charge } from '../budget.js'
import { toJsonValue } from '../decoded-json.js'
import { jsonEqual } from '../equality.js'
import { functionError } from '../errors.js'
import { hasOwn, isJsonObject, setOwn, type JsonObject, type JsonValue } from '../json.js'
import { compareCodePoints } from '../text.js'
import { matchesWildcard } from '../wildcard.js'
import { ARRAY, OBJECT, OBJECT_OR_ARRAY, STRING, STRING_OR_NUMBER, argumentTypeError, stringArg, type JmespathFunction } from './function.js'
import { goInteger, goScalarText } from './go-numbers.js'

/**
 * Kyverno's functions that decode, reshape or look into data: parse_json, parse_yaml, items,
 * object_from_lists, lookup, label_match, pattern_match.
 */

// sigs.k8s.io/yaml reads YAML 1.1 (yes/no/on/off are booleans, 0777 is octal) and leaves
// timestamps as strings; js-yaml's YAML 1.1 schema without its timestamp tag does the same.
const YAML11_WITHOUT_TIMESTAMPS = new yaml.Schema(yaml.YAML11_SCHEMA.tags.filter((tag) => tag !== yaml.timestampTag))

export function parseYamlGo(text: string): JsonValue {
  charge(1 + (text.length >> 4))
  // Go's yaml.Unmarshal reads the first document, and an empty input as null.
  const documents = yaml.loadAll(text, null, { schema: YAML11_WITHOUT_TIMESTAMPS }) as unknown[]
  const value = documents[0]
  return toJsonValue(value === undefined ? null : value, 'parse_yaml')
}

export function parseJsonGo(text: string): JsonValue {
  charge(1 + (text.length >> 4))
  return toJsonValue(JSON.parse(text), 'parse_json')
}

function decoder(name: string, decode: (text: string) => JsonValue): JmespathFunction {
  return {
    name,
    signature: [STRING],
    call: (args) => {
      try {
        return decode(stringArg(args, 0))
      } catch (error) {
        if (error instanceof SyntaxError || error instanceof yaml.YAMLException) throw functionError(name, error.message)
        throw error
      }
    },
  }
}

function items(args: readonly JsonValue[]): JsonValue {
  const keyName = args[1]
  const valueName = args[2]
  if (typeof keyName !== 'string') throw argumentTypeError('items', 2, 'String', keyName)
  if (typeof valueName !== 'string') throw argumentTypeError('items', 3, 'String', valueName)
  const entry = (key: JsonValue, value: JsonValue): JsonObject => {
    const object: JsonObject = {}
    setOwn(object, keyName, key)
    setOwn(object, valueName, value)
    return object
  }
  const input = args[0] as JsonValue
  if (Array.isArray(input)) return input.map((value, index) => entry(index, value))
  const object = input as JsonObject
  return Object.keys(object)
    .sort(compareCodePoints)
    .map((key) => entry(key, object[key] as JsonValue))
}

function objectFromLists(args: readonly JsonValue[]): JsonValue {
  const keys = args[0] as JsonValue[]
  const values = args[1] as JsonValue[]
  const out: JsonObject = {}
  keys.forEach((key, index) => {
    const text = goScalarText(key)
    if (text === undefined) throw argumentTypeError('object_from_lists', 1, 'StringArray', key)
    setOwn(out, text, index < values.length ? (values[index] as JsonValue) : null)
  })
  return out
}

function lookup(args: readonly JsonValue[]): JsonValue {
  const [input, key] = args
  if (isJsonObject(input)) {
    if (typeof key !== 'string') throw argumentTypeError('lookup', 2, 'String', key)
    return hasOwn(input, key) ? (input[key] as JsonValue) : null
  }
  if (typeof key !== 'number') throw argumentTypeError('lookup', 2, 'Number', key)
  let index: number
  try {
    index = goInteger(key)
  } catch (error) {
    throw functionError('lookup', `argument #2: ${(error as Error).message}`)
  }
  const list = input as JsonValue[]
  return index < 0 || index >= list.length ? null : (list[index] as JsonValue)
}

/** label_match(selector, labels): every key of the first object has an equal value in the second. */
function labelMatch(args: readonly JsonValue[]): JsonValue {
  const selector = args[0] as JsonObject
  const labels = args[1] as JsonObject
  return Object.keys(selector).every((key) => hasOwn(labels, key) && jsonEqual(labels[key] as JsonValue, selector[key] as JsonValue))
}

export const DATA_FUNCTIONS: readonly JmespathFunction[] = [
  decoder('parse_json', parseJsonGo),
  decoder('parse_yaml', parseYamlGo),
  { name: 'items', signature: [OBJECT_OR_ARRAY, STRING, STRING], call: items },
  { name: 'object_from_lists', signature: [ARRAY, ARRAY], call: objectFromLists },
  { name: 'lookup', signature: [OBJECT_OR_ARRAY, STRING_OR_NUMBER], call: lookup },
  { name: 'label_match', signature: [OBJECT, OBJECT], call: labelMatch },
  {
    name: 'pattern_match',
    signature: [STRING, STRING_OR_NUMBER],
    call: (args) => {
      const text = goScalarText(args[1])
      if (text === undefined) throw argumentTypeError('pattern_match', 2, 'String or Real', args[1])
      return matchesWildcard(stringArg(args, 0), text)
    },
  },
]
