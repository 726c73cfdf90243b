import { compileKyvernoJmespath } from '../compile.js'
import { JmespathError } from '../errors.js'
import { evaluateCompiled } from '../evaluate.js'
import { marshalGoJson } from '../go-json.js'
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../json.js'
import { substituteVariables } from '../substitution/substitute.js'
import type { DeferredEntry, KyvernoContext } from './kyverno-context.js'

/**
 * A rule's (or a foreach's) `context` entries, as Kyverno loads them
 * (pkg/engine/context/loaders):
 *
 * - `variable`: `value` (with variables substituted) or, without it, a `jmesPath` queried over the
 *   context; `jmesPath` with a `value` is applied to the value; `default` (substituted) stands
 *   in when the query fails or gives null. A variable that ends up null is an error. Replaces
 *   any value of the same name (also one a values file gave).
 * - `configMap`: `{data, metadata}` of the named ConfigMap (name and namespace substituted;
 *   namespace '' means the policy's namespace, or `default` for a ClusterPolicy; a namespaced
 *   policy may not read another namespace), looked up in the ConfigMaps the caller provides, and
 *   deep-merged into any value of that name.
 * - `apiCall`, `imageRegistry` and `globalReference` need the cluster or a registry, which
 *   evaluation here does not reach: the entry fails when a rule uses it, with an error naming
 *   it. As in the Kyverno CLI, an entry whose name already has a value (a test's values file
 *   mocks cluster data this way) is skipped, and so is a `configMap` entry in that case.
 */

export interface KyvernoContextEntry {
  readonly name: string
  readonly variable?: { readonly value?: JsonValue; readonly jmesPath?: string; readonly default?: JsonValue }
  readonly configMap?: { readonly name: string; readonly namespace?: string }
  readonly apiCall?: JsonValue
  readonly imageRegistry?: JsonValue
  readonly globalReference?: JsonValue
}

/** A ConfigMap by namespace and name, or undefined when there is none. */
export type ConfigMapLookup = (namespace: string, name: string) => JsonObject | undefined

export interface ContextEntryOptions {
  /** The ConfigMaps `configMap` entries read: a lookup, or a list of ConfigMap objects. */
  readonly configMaps?: ConfigMapLookup | readonly JsonObject[]
  /** The namespace of a namespaced Policy; '' or absent for a ClusterPolicy. */
  readonly policyNamespace?: string
}

/** An apiCall, imageRegistry or globalReference entry a rule used. */
export class UnsupportedContextEntryError extends JmespathError {
  override name = 'UnsupportedContextEntryError'
  readonly entry: string
  readonly kind: string

  constructor(entry: string, kind: string) {
    super(
      `context entry ${JSON.stringify(entry)}: ${kind} is not supported by Verdict, which evaluates without calling the cluster or image registries; supply the value (for example in a test's values file)`,
    )
    this.entry = entry
    this.kind = kind
  }
}

/** The context with `entries` declared: they load when a query names them. */
export function withContextEntries(
  context: KyvernoContext,
  entries: readonly KyvernoContextEntry[],
  options: ContextEntryOptions = {},
): KyvernoContext {
  const deferred: DeferredEntry[] = []
  for (const entry of entries) {
    const external = externalKind(entry)
    if (entry.variable !== undefined) deferred.push({ name: entry.name, merge: false, load: (owner) => loadVariable(owner, entry) })
    else if (external !== undefined) {
      if (context.has(entry.name)) continue
      if (external === 'configMap') deferred.push({ name: entry.name, merge: true, load: (owner) => loadConfigMap(owner, entry, options) })
      else deferred.push({ name: entry.name, merge: false, load: () => { throw new UnsupportedContextEntryError(entry.name, external) } })
    } else {
      throw new JmespathError(`missing ConfigMap|APICall|ImageRegistry|Variable in context entry ${entry.name}`)
    }
  }
  return context.withDeferredEntries(deferred)
}

function externalKind(entry: KyvernoContextEntry): string | undefined {
  if (entry.configMap !== undefined) return 'configMap'
  if (entry.apiCall !== undefined) return 'apiCall'
  if (entry.imageRegistry !== undefined) return 'imageRegistry'
  if (entry.globalReference !== undefined) return 'globalReference'
  return undefined
}

const present = (value: JsonValue | undefined): value is JsonValue => value !== undefined && value !== null

function describe(value: JsonValue): string {
  return typeof value === 'string' ? value : marshalGoJson(value)
}

function substituteIn(context: KyvernoContext, entry: string, value: JsonValue): JsonValue {
  try {
    return substituteVariables(value, context)
  } catch (error) {
    throw new JmespathError(`failed to substitute variables in context entry ${entry} ${describe(value)}: ${(error as Error).message}`, { cause: error })
  }
}

function loadVariable(context: KyvernoContext, entry: KyvernoContextEntry): JsonValue {
  const variable = entry.variable ?? {}
  let path = ''
  if (variable.jmesPath !== undefined && variable.jmesPath !== '') {
    const substituted = substituteIn(context, entry.name, variable.jmesPath)
    if (typeof substituted !== 'string') throw new JmespathError(`jmespath value must be a string ${entry.name} ${variable.jmesPath}: <nil>`)
    path = substituted
  }
  const defaultValue = present(variable.default) ? substituteIn(context, entry.name, variable.default) : null
  let output: JsonValue = defaultValue
  if (present(variable.value)) {
    const value = substituteIn(context, entry.name, variable.value)
    if (path === '') output = value
    else {
      try {
        output = applyJmespath(path, value)
      } catch (error) {
        if (defaultValue === null) {
          throw new JmespathError(`failed to apply jmespath ${path} to variable ${describe(value)}: ${(error as Error).message}`, { cause: error })
        }
      }
    }
  } else if (path !== '') {
    try {
      const value = context.query(path)
      if (value !== null) output = value
    } catch (error) {
      if (defaultValue === null) throw new JmespathError(`failed to apply jmespath ${path} to variable <nil>: ${(error as Error).message}`, { cause: error })
    }
  }
  if (output === null) throw new JmespathError(`failed to add context entry for variable ${entry.name} since it evaluated to nil`)
  return output
}

function applyJmespath(path: string, data: JsonValue): JsonValue {
  let ast
  try {
    ast = compileKyvernoJmespath(path)
  } catch (error) {
    throw new JmespathError(`failed to compile JMESPath: ${path}, error: ${(error as Error).message}`, { cause: error })
  }
  return evaluateCompiled(ast, data)
}

function lookupConfigMap(options: ContextEntryOptions, namespace: string, name: string): JsonObject | undefined {
  const source = options.configMaps
  if (source === undefined) return undefined
  if (typeof source === 'function') return source(namespace, name)
  return source.find((configMap) => {
    const metadata = configMap.metadata
    if (!isJsonObject(metadata)) return false
    return metadata.name === name && (metadata.namespace ?? 'default') === namespace
  })
}

function loadConfigMap(context: KyvernoContext, entry: KyvernoContextEntry, options: ContextEntryOptions): JsonValue {
  const reference = entry.configMap ?? { name: '' }
  const failure = (reason: string): JmespathError =>
    new JmespathError(`failed to retrieve config map for context entry ${entry.name}: ${reason}`)
  const name = substituteVariables(reference.name, context)
  if (typeof name !== 'string') throw failure(`failed to substitute variables in context ${entry.name} configMap.name ${reference.name}: expected string`)
  const namespaceValue = substituteVariables(reference.namespace ?? '', context)
  if (typeof namespaceValue !== 'string') {
    throw failure(`failed to substitute variables in context ${entry.name} configMap.namespace ${reference.namespace ?? ''}: expected string`)
  }
  const policyNamespace = options.policyNamespace ?? ''
  const namespace = namespaceValue !== '' ? namespaceValue : policyNamespace !== '' ? policyNamespace : 'default'
  if (policyNamespace !== '' && namespace !== policyNamespace) {
    throw failure(`context entry ${entry.name}: configMap namespace "${namespace}" is different from policy namespace "${policyNamespace}"`)
  }
  const configMap = lookupConfigMap(options, namespace, name)
  if (configMap === undefined) throw failure(`failed to get configmap ${namespace}/${name} : configmaps "${name}" not found`)
  // Kyverno stores {data, metadata} from the typed ConfigMap: creationTimestamp is always written.
  const metadata: JsonObject = isJsonObject(configMap.metadata) ? { ...configMap.metadata } : {}
  if (!Object.hasOwn(metadata, 'creationTimestamp')) setOwn(metadata, 'creationTimestamp', null)
  const out: JsonObject = {}
  setOwn(out, 'data', isJsonObject(configMap.data) ? configMap.data : null)
  setOwn(out, 'metadata', metadata)
  return out
}
