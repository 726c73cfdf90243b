import { Environment } from '@marcbachmann/cel-js'
import { registerCidrLibrary } from './libraries/cidr.js'
import { registerComprehensions } from './libraries/comprehensions.js'
import { registerIpLibrary } from './libraries/ip.js'
import { registerDocumentLibrary } from './libraries/document.js'
import { registerJsonLibrary } from './libraries/json.js'
import { registerKyvernoLibrary } from './libraries/kyverno.js'
import { registerListsLibrary } from './libraries/lists.js'
import { registerOptionalsLibrary } from './libraries/optionals.js'
import { registerQuantityLibrary } from './libraries/quantity.js'
import { registerRegexLibrary } from './libraries/regex.js'
import { registerSemverLibrary } from './libraries/semver.js'
import { registerSetsLibrary } from './libraries/sets.js'
import { registerStringsLibrary } from './libraries/strings.js'
import { registerUrlLibrary } from './libraries/url.js'
import { MethodOverrides, registerHookType } from './method-override.js'

/** The variables every expression may use; all are dynamically typed JSON-like values. */
export const ACTIVATION_VARIABLES = ['object', 'oldObject', 'request', 'namespaceObject', 'params', 'variables', 'authorizer'] as const

let shared: Environment | undefined

/**
 * The one environment every expression is compiled in. Building it registers a few hundred
 * overloads, so it happens once, on first use.
 */
export function celEnvironment(): Environment {
  shared ??= createEnvironment()
  return shared
}

function createEnvironment(): Environment {
  const env = new Environment({
    enableOptionalTypes: true,
    // Kubernetes expressions mix element types in literals (`[1, 'a']` as format arguments...).
    homogeneousAggregateLiterals: false,
    unlistedVariablesAreDyn: false,
  })
  for (const name of ACTIVATION_VARIABLES) env.registerVariable(name, 'dyn')
  registerHookType(env)
  registerComprehensions(env)
  registerOptionalsLibrary(env)
  registerRegexLibrary(env)
  const overrides = new MethodOverrides()
  registerStringsLibrary(env, overrides)
  registerListsLibrary(env, overrides)
  overrides.install(env)
  registerSetsLibrary(env)
  registerQuantityLibrary(env)
  registerUrlLibrary(env)
  registerIpLibrary(env)
  registerCidrLibrary(env)
  registerSemverLibrary(env)
  registerKyvernoLibrary(env)
  registerJsonLibrary(env)
  registerDocumentLibrary(env)
  return env
}
