import { MUTUALLY_EXCLUSIVE_FIELDS } from '../fields/exclusive-fields.js'
import type { Requirement } from './requirement.js'

/**
 * "minAvailable should be no higher than 50% and maxUnavailable should be no lower than 50%":
 * a PodDisruptionBudget sets one of the two, never both, so requiring each to be present would
 * reject every budget. Where the requirements of one instruction ask for both fields of such a
 * pair, each holds when its field is set (absence passes). Returns the requirements it relaxed.
 */
export function relaxExclusiveBounds(requirements: readonly Requirement[]): Requirement[] {
  const relaxed: Requirement[] = []
  const pathOf = (requirement: Requirement): string[] => requirement.values.flatMap((ref) => ref.variants.map((variant) => variant.segments.join('.')))
  for (const kind of new Set(requirements.flatMap((requirement) => requirement.subject.kinds))) {
    for (const [first, second] of MUTUALLY_EXCLUSIVE_FIELDS[kind] ?? []) {
      const onKind = requirements.filter((requirement) => requirement.subject.kinds.includes(kind) && requirement.missing === 'fail' && requirement.conditions.length === 0)
      const onFirst = onKind.filter((requirement) => pathOf(requirement).includes(first))
      const onSecond = onKind.filter((requirement) => pathOf(requirement).includes(second))
      if (onFirst.length === 0 || onSecond.length === 0) continue
      for (const requirement of [...onFirst, ...onSecond]) {
        requirement.missing = 'pass'
        relaxed.push(requirement)
      }
    }
  }
  return relaxed
}
