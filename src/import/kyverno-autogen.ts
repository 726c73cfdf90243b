import type { Autogen } from '../engine/model/rule.js'
import { containsPodKind, kindsOfBlock, resourceDescriptions } from './kyverno-match.js'
import { isObject, type JsonObject } from './read.js'

/**
 * Which rules of a Kyverno ClusterPolicy/Policy Kyverno extends to pod controllers, ported from
 * Kyverno's pkg/autogen/v1 (CanAutoGen, generateRuleForControllers) so that imported rules
 * reach the same resources Kyverno's `autogen-X` / `autogen-cronjob-X` rules do.
 */

export const AUTOGEN_ANNOTATION = 'pod-policies.kyverno.io/autogen-controllers'

/** Kyverno's default controllers, which are also Verdict's default (`autogen: true`). */
const ALL_CONTROLLERS: readonly string[] = [
  'DaemonSet',
  'Deployment',
  'Job',
  'StatefulSet',
  'ReplicaSet',
  'ReplicationController',
  'CronJob',
]
const POD_AND_CONTROLLERS = new Set(['Pod', ...ALL_CONTROLLERS])

/** One autogen setting per rule, in rule order. Rules that are skipped still count, as they do in Kyverno. */
export function kyvernoAutogen(rules: readonly JsonObject[], annotations: Readonly<Record<string, string>>): Autogen[] {
  const controllers = qualifies(rules) ? controllersOf(annotations[AUTOGEN_ANNOTATION]) : []
  return rules.map((rule) => {
    if (controllers.length === 0 || !extendsRule(rule)) return false
    return controllers.length === ALL_CONTROLLERS.length ? true : { controllers }
  })
}

/**
 * CanAutoGen: no rule generates or patches with JSON6902, no resource description filters on
 * names, label selector or annotations (they may not carry over to the controller) or mixes Pod
 * with other kinds, and some rule names Pod or a controller at all.
 */
function qualifies(rules: readonly JsonObject[]): boolean {
  let needed = false
  for (const rule of rules) {
    if (present(rule.generate)) return false
    const mutate = isObject(rule.mutate) ? rule.mutate : undefined
    if (mutate && present(mutate.patchesJson6902)) return false
    if (mutate && Array.isArray(mutate.foreach) && mutate.foreach.some((f) => isObject(f) && present(f.patchesJson6902))) return false
    const match = isObject(rule.match) ? rule.match : undefined
    const exclude = isObject(rule.exclude) ? rule.exclude : undefined
    for (const description of [...resourceDescriptions(match), ...resourceDescriptions(exclude)]) {
      const kinds = Array.isArray(description.kinds) ? description.kinds.filter((k): k is string => typeof k === 'string') : []
      if (
        (typeof description.name === 'string' && description.name !== '') ||
        (Array.isArray(description.names) && description.names.length > 0) ||
        present(description.selector) ||
        present(description.annotations) ||
        (kinds.length > 1 && containsPodKind(kinds))
      ) {
        return false
      }
      needed ||= kinds.some((kind) => POD_AND_CONTROLLERS.has(kind))
    }
  }
  return needed
}

/**
 * The annotation: absent or `all` -> every controller, `none` -> off, else a comma-separated
 * list of controllers (Kyverno drops names it does not know; so does this; spaces are forgiven).
 */
function controllersOf(annotation: string | undefined): string[] {
  if (annotation === undefined) return [...ALL_CONTROLLERS]
  const entries = annotation
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  if (entries.includes('all')) return [...ALL_CONTROLLERS]
  return [...new Set(entries.filter((entry) => ALL_CONTROLLERS.includes(entry)))]
}

/** generateRuleForControllers: the rule names Pod, and its exclude (if it names kinds) names Pod too. */
function extendsRule(rule: JsonObject): boolean {
  if (typeof rule.name === 'string' && rule.name.startsWith('autogen-')) return false
  const matchKinds = kindsOfBlock(isObject(rule.match) ? rule.match : undefined)
  const excludeKinds = kindsOfBlock(isObject(rule.exclude) ? rule.exclude : undefined)
  return containsPodKind(matchKinds) && (excludeKinds.length === 0 || containsPodKind(excludeKinds))
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== ''
}
