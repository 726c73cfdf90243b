import { canonicalJson } from './canonical-json.js'

/** What the controller writes to `.status` of a Ruleset or Policy. */
export interface DefinitionStatus {
  observedGeneration?: number
  rules: number
  conditions: Condition[]
}

export interface Condition {
  type: 'Ready'
  status: 'True' | 'False'
  reason: ReadyReason
  message: string
  lastTransitionTime: string
  observedGeneration?: number
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
 * The status for a verdict on one generation. `lastTransitionTime` moves only when Ready flips,
 * as the Kubernetes condition conventions ask, so a resync does not rewrite the status.
 */
export function statusFor(verdict: Verdict, generation: number | undefined, previous: unknown, now: Date): DefinitionStatus {
  const status: Condition['status'] = verdict.ready ? 'True' : 'False'
  const before = readyConditionOf(previous)
  const message = verdict.message.length > MAX_MESSAGE ? `${verdict.message.slice(0, MAX_MESSAGE - 1)}…` : verdict.message
  const condition: Condition = {
    type: 'Ready',
    status,
    reason: verdict.reason,
    message,
    lastTransitionTime: before?.status === status && typeof before.lastTransitionTime === 'string' ? before.lastTransitionTime : rfc3339(now),
  }
  if (generation !== undefined) condition.observedGeneration = generation
  const next: DefinitionStatus = { rules: verdict.rules, conditions: [condition] }
  if (generation !== undefined) next.observedGeneration = generation
  return next
}

/** Whether writing `next` would change nothing. */
export function sameStatus(previous: unknown, next: DefinitionStatus): boolean {
  return canonicalJson(previous) === canonicalJson(next)
}

function readyConditionOf(status: unknown): Partial<Condition> | undefined {
  const conditions = (status as { conditions?: unknown } | undefined)?.conditions
  if (!Array.isArray(conditions)) return undefined
  return conditions.find((condition): condition is Partial<Condition> => (condition as { type?: unknown } | null)?.type === 'Ready')
}

/** Kubernetes metav1.Time: RFC 3339 in whole seconds. */
function rfc3339(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`
}
