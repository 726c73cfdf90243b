import { canonicalJson } from './canonical-json.js'

/** What the controller writes to `.status` of a PolicyException. */
export interface ExceptionStatus {
  observedGeneration?: number
  conditions: ExceptionCondition[]
}

export interface ExceptionCondition {
  type: 'Ready' | 'Expired'
  status: 'True' | 'False'
  reason: string
  message: string
  lastTransitionTime: string
  observedGeneration?: number
}

/**
 * Ready: Reconciled (stored, in effect until it expires), Invalid (fails the checks the REST API
 * runs; the version stored before stays in effect) or Conflict (one of that name was made through
 * the REST API). Expired, for a stored exception: True from `expiresAt` on, when it lets nothing
 * through any more; False while it applies.
 */
export interface ExceptionVerdict {
  ready: boolean
  reason: 'Reconciled' | 'Invalid' | 'Conflict'
  message: string
  expired?: { expired: boolean; message: string }
}

/** As Kubernetes allows 32 KiB per condition message, a long list of problems is cut well before. */
const MAX_MESSAGE = 4000

/** The status for a verdict on one generation; each condition's lastTransitionTime moves only when it flips. */
export function exceptionStatusFor(verdict: ExceptionVerdict, generation: number | undefined, previous: unknown, now: Date): ExceptionStatus {
  const conditions = [condition('Ready', verdict.ready, verdict.reason, verdict.message, generation, previous, now)]
  if (verdict.expired) {
    const { expired, message } = verdict.expired
    conditions.push(condition('Expired', expired, expired ? 'Expired' : 'Active', message, generation, previous, now))
  }
  const status: ExceptionStatus = { conditions }
  if (generation !== undefined) status.observedGeneration = generation
  return status
}

export function sameExceptionStatus(previous: unknown, next: ExceptionStatus): boolean {
  return canonicalJson(previous) === canonicalJson(next)
}

function condition(type: ExceptionCondition['type'], holds: boolean, reason: string, text: string, generation: number | undefined, previous: unknown, now: Date): ExceptionCondition {
  const status = holds ? 'True' : 'False'
  const before = conditionOf(previous, type)
  const message = text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text
  const lastTransitionTime = before?.status === status && typeof before.lastTransitionTime === 'string' ? before.lastTransitionTime : `${now.toISOString().slice(0, 19)}Z`
  const result: ExceptionCondition = { type, status, reason, message, lastTransitionTime }
  if (generation !== undefined) result.observedGeneration = generation
  return result
}

function conditionOf(status: unknown, type: string): Partial<ExceptionCondition> | undefined {
  const conditions = (status as { conditions?: unknown } | undefined)?.conditions
  if (!Array.isArray(conditions)) return undefined
  return conditions.find((entry): entry is Partial<ExceptionCondition> => (entry as { type?: unknown } | null)?.type === type)
}
