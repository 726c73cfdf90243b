import type { Queryable } from './db.js'

/**
 * Every replica LISTENs here and refreshes its exceptions. A channel of its own rather than the
 * definitions' one: what listens to rulesets and policies (admission plans, the controller,
 * background scans) has nothing to redo when an exception changes.
 */
export const EXCEPTIONS_CHANNEL = 'verdict_exceptions'

/** As announceDefinitionChange: sent at commit when called on a transaction, at once on the Db. */
export async function announceExceptionChange(q: Queryable, change: { name: string; version: number }): Promise<void> {
  await q.query('SELECT pg_notify($1, $2)', [EXCEPTIONS_CHANNEL, JSON.stringify({ name: change.name, version: change.version })])
}
