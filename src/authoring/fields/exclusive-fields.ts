/**
 * Fields of a kind that the API server never accepts together (a PodDisruptionBudget sets
 * `minAvailable` or `maxUnavailable`, not both). Requiring both rejects every valid object, so
 * bounds on both are each read as holding when that field is set.
 */
export const MUTUALLY_EXCLUSIVE_FIELDS: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  PodDisruptionBudget: [['spec.minAvailable', 'spec.maxUnavailable']],
}
