import { Environment, type ParseResult } from '@marcbachmann/cel-js'
import { widenHasMacros } from './has-macro.js'
import { registerCidrLibrary } from './libraries/cidr.js'
import { registerClusterDataLibraries } from './libraries/cluster-data.js'
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
import { registerTimeLibrary } from './libraries/time.js'
import { registerUrlLibrary } from './libraries/url.js'
import type { CelAstNode } from './macro-api.js'
import { meterNodes } from './metered-nodes.js'
import { MethodOverrides, registerHookType } from './method-override.js'

/**
 * The variables every expression may use; all are dynamically typed JSON-like values. Besides
 * them, `resource` and `image` (Kyverno's cluster libraries, see libraries/cluster-data.ts) hold
 * the lookups of the input's cluster data; every activation built from an input carries them.
 */
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

/**
 * The environment whose type-checked expressions charge cel-js's own operators and functions to
 * the cost budget (see metered-nodes.ts). Metering needs the checked tree, so it happens when an
 * expression passes its check; an expression only parsed (explanations read the tree) is left as is.
 * Every parsed `has()` is widened to accept any operand, as cel-go does (see has-macro.ts).
 */
class MeteredEnvironment extends Environment {
  override parse(expression: string): ParseResult {
    const parsed = super.parse(expression)
    widenHasMacros(parsed.ast as unknown as CelAstNode)
    const check = parsed.check
    let metered = false
    parsed.check = () => {
      const result = check()
      if (result.valid && !metered) {
        meterNodes(parsed.ast as unknown as CelAstNode)
        metered = true
      }
      return result
    }
    return parsed
  }
}

function createEnvironment(): Environment {
  const env = new MeteredEnvironment({
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
  registerTimeLibrary(env)
  registerClusterDataLibraries(env)
  return env
}
