import { canonicalJson } from './canonical-json.js'

/** What the controller writes to `.status` of a Ruleset or Policy. */
export interface DefinitionStatus {
  observedGeneration?: number
  rules: number
  conditions: Condition[]
}

export interface Condition {
  type: 'Ready' | typeof VAP_CONDITION
  status: 'True' | 'False'
  reason: ReadyReason | VapReason
  message: string
  lastTransitionTime: string
  observedGeneration?: number
}

/** A policy's condition when it asks for generated ValidatingAdmissionPolicies (generateValidatingAdmissionPolicy). */
export const VAP_CONDITION = 'ValidatingAdmissionPolicyGenerated'

/**
 * Generated: every ValidatingAdmissionPolicy and binding is in the cluster as generated and
 * type-checked by the API server. NotGeneratable: the policy cannot be generated (the message
 * names each rule, field and reason). Pending: some are not in force yet. Failed: writing them
 * failed (tried again). Conflict: an object of a generated name is not this policy's. Disabled:
 * VERDICT_GENERATED_VAPS is off. Whenever it is not Generated, the webhook judges what is not in force.
 */
export type VapReason = 'Generated' | 'NotGeneratable' | 'Pending' | 'Failed' | 'Conflict' | 'Disabled'

/** A condition besides Ready, as its writer decides it; statusFor dates it. */
export interface ConditionVerdict {
  type: typeof VAP_CONDITION
  holds: boolean
  reason: VapReason
  message: string
}

/**
 * Reconciled: stored and in effect. Invalid: the spec fails the checks the REST API runs (schema,
 * semantics, CEL compilation). MissingRulesets: a policy names rulesets that do not exist.
 * Conflict: a definition of that name was made through the REST API and is left alone.
 */
export type ReadyReason = 'Reconciled' | 'Invalid' | 'MissingRulesets' | 'Conflict'

export interface Verdict {
  ready: boolean
  reason: ReadyReason
  message: string
  rules: number
}

/** Kubernetes allows 32 KiB per condition message; a long list of CEL errors is cut well before. */
const MAX_MESSAGE = 4000

/**
 * The status for a verdict on one generation, with the other conditions given (a policy's
 * ValidatingAdmissionPolicyGenerated). Each condition's `lastTransitionTime` moves only when it
 * flips, as the Kubernetes condition conventions ask, so a resync does not rewrite the status.
 */
export function statusFor(verdict: Verdict, generation: number | undefined, previous: unknown, now: Date, others: readonly ConditionVerdict[] = []): DefinitionStatus {
  const conditions = [
    conditionOf('Ready', verdict.ready, verdict.reason, verdict.message, generation, previous, now),
    ...others.map((other) => conditionOf(other.type, other.holds, other.reason, other.message, generation, previous, now)),
  ]
  const next: DefinitionStatus = { rules: verdict.rules, conditions }
  if (generation !== undefined) next.observedGeneration = generation
  return next
}

function conditionOf(type: Condition['type'], holds: boolean, reason: Condition['reason'], text: string, generation: number | undefined, previous: unknown, now: Date): Condition {
  const status: Condition['status'] = holds ? 'True' : 'False'
  const before = conditionIn(previous, type)
  const message = text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text
  const condition: Condition = {
    type,
    status,
    reason,
    message,
    lastTransitionTime: before?.status === status && typeof before.lastTransitionTime === 'string' ? before.lastTransitionTime : rfc3339(now),
  }
  if (generation !== undefined) condition.observedGeneration = generation
  return condition
}

/** Whether writing `next` would change nothing. */
export function sameStatus(previous: unknown, next: DefinitionStatus): boolean {
  return canonicalJson(previous) === canonicalJson(next)
}

function conditionIn(status: unknown, type: Condition['type']): Partial<Condition> | undefined {
  const conditions = (status as { conditions?: unknown } | undefined)?.conditions
  if (!Array.isArray(conditions)) return undefined
  return conditions.find((condition): condition is Partial<Condition> => (condition as { type?: unknown } | null)?.type === type)
}

/** Kubernetes metav1.Time: RFC 3339 in whole seconds. */
function rfc3339(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`
}
