import { charge } from '../budget.js'
import { JmespathError } from '../errors.js'
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../json.js'

/**
 * How Kyverno's context adds data (pkg/engine/context utils): values are pushed under a path of
 * keys and deep-merged into what is there (mergeMaps without overwriting maps), and a values
 * file's dotted key ("request.object.metadata.name") names that path, split as a CSV record with
 * '.' as the separator, so a quoted part may hold dots ('"app.kubernetes.io/name".x').
 */

/** Kyverno's mergeMaps(src, dest, false), without modifying either: a merged copy of `dest`. */
export function mergeValue(dest: JsonValue | undefined, src: JsonValue): JsonValue {
  if (!isJsonObject(src) || !isJsonObject(dest)) return src
  const out: JsonObject = {}
  for (const key of Object.keys(dest)) setOwn(out, key, dest[key] as JsonValue)
  for (const key of Object.keys(src)) {
    charge(1)
    setOwn(out, key, mergeValue(Object.hasOwn(dest, key) ? dest[key] : undefined, src[key] as JsonValue))
  }
  return out
}

/** `value` under the path `keys` ({a: {b: value}} for ["a", "b"]). */
export function pushValue(keys: readonly string[], value: JsonValue): JsonValue {
  let out = value
  for (let i = keys.length - 1; i >= 0; i--) {
    const wrapper: JsonObject = {}
    setOwn(wrapper, keys[i] as string, out)
    out = wrapper
  }
  return out
}

/** encoding/csv reading one record of `key` with '.' as the separator. */
export function splitVariableKey(key: string): string[] {
  const fields: string[] = []
  let i = 0
  for (;;) {
    let field = ''
    if (key[i] === '"') {
      i++
      for (;;) {
        if (i >= key.length) throw new JmespathError(`invalid variable key ${JSON.stringify(key)}: extraneous or missing " in quoted-field`)
        if (key[i] === '"') {
          if (key[i + 1] === '"') {
            field += '"'
            i += 2
            continue
          }
          i++
          break
        }
        field += key[i]
        i++
      }
      if (i < key.length && key[i] !== '.') throw new JmespathError(`invalid variable key ${JSON.stringify(key)}: extraneous or missing " in quoted-field`)
    } else {
      while (i < key.length && key[i] !== '.') {
        if (key[i] === '"') throw new JmespathError(`invalid variable key ${JSON.stringify(key)}: bare " in non-quoted-field`)
        field += key[i]
        i++
      }
    }
    fields.push(field)
    if (i >= key.length) return fields
    i++
  }
}
