import type { PolicyException } from '../engine/index.js'
import { recommendation, type Recommendation } from './recommendation.js'

/** An exception as the store keeps it: when it was created and last changed. */
export type ExceptionWithStamp = PolicyException & { createdAt?: string; updatedAt?: string }

const DAY_MS = 86_400_000

/**
 * An active exception that let nothing through in the last `days` days (no admission, REST
 * evaluation or background scan found a rule result it covered), and was neither created nor
 * changed in them: the workload it was for is likely gone or changed, and an exception nobody
 * needs is a door left open for the next workload that matches. `lastApplied` holds when each
 * one last applied (noted at most a minute late); expired exceptions are left to the state filter.
 */
export function unusedExceptions(exceptions: readonly ExceptionWithStamp[], lastApplied: ReadonlyMap<string, string>, now: Date, days: number): Recommendation[] {
  const nowMs = now.getTime()
  return exceptions.flatMap((exception) => {
    if (exception.expiresAt !== undefined && Date.parse(exception.expiresAt) <= nowMs) return []
    const applied = lastApplied.get(exception.name)
    const changed = latest(exception.createdAt, exception.updatedAt)
    const since = latest(applied, changed)
    if (since === undefined || nowMs - Date.parse(since) < days * DAY_MS) return []
    const when = applied === undefined ? `never since it was ${exception.updatedAt === exception.createdAt ? 'created' : 'changed'} at ${changed}` : `last at ${applied}`
    return [
      recommendation(
        'unused-exception',
        { kind: 'exception', name: exception.name },
        `Exception "${exception.name}" let nothing through in the last ${days === 1 ? 'day' : `${days} days`} (${when}): delete it if the workload it was for is gone, or fix its match.`,
        { lastAppliedAt: applied ?? null, changedAt: changed ?? null, days, owner: exception.owner ?? null, ticket: exception.ticket ?? null },
      ),
    ]
  })
}

function latest(...times: (string | undefined)[]): string | undefined {
  let found: string | undefined
  for (const time of times) if (time !== undefined && (found === undefined || Date.parse(time) > Date.parse(found))) found = time
  return found
}
