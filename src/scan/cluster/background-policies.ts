import { judgesInBackground, type Definitions } from '../../engine/index.js'

/**
 * The definitions a background scan judges by: policies with `background: false`, or switched
 * off, are left out,
 * as the controller's background scan leaves them out (they judge admission requests only). Every
 * ruleset stays, for the policies that remain to name.
 */
export function backgroundPolicies(definitions: Definitions): Definitions {
  return { rulesets: definitions.rulesets, policies: definitions.policies.filter(judgesInBackground) }
}
