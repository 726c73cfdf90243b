import type { PolicyException } from '../engine/index.js'
import { recommendation, type Recommendation } from './recommendation.js'

/** How far ahead an end is announced: a week leaves time to fix the workload or renew the exception. */
export const EXPIRING_WITHIN_DAYS = 7

const DAY_MS = 86_400_000

/**
 * An exception that stops applying within the next week: from then on the workloads it lets
 * through are judged again (and denied, under a Deny policy). Its owner and ticket are the
 * evidence, so whoever reads it knows whom to ask. Expired ones are left to the state filter of
 * `GET /api/exceptions`.
 */
export function expiringExceptions(exceptions: readonly PolicyException[], now: Date): Recommendation[] {
  const nowMs = now.getTime()
  return exceptions.flatMap((exception) => {
    if (exception.expiresAt === undefined) return []
    const left = Date.parse(exception.expiresAt) - nowMs
    if (left <= 0 || left > EXPIRING_WITHIN_DAYS * DAY_MS) return []
    const days = Math.ceil(left / DAY_MS)
    return [
      recommendation(
        'expiring-exception',
        { kind: 'exception', name: exception.name },
        `Exception "${exception.name}" stops applying at ${exception.expiresAt} (within ${days === 1 ? 'a day' : `${days} days`}): fix the workloads it lets through, or renew it with a new expiresAt.`,
        { expiresAt: exception.expiresAt, daysLeft: days, owner: exception.owner ?? null, ticket: exception.ticket ?? null },
      ),
    ]
  })
}
