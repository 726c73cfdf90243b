import type { Queryable } from './db.js'

/** Every replica LISTENs here and refreshes its compiled cache. */
export const DEFINITIONS_CHANNEL = 'verdict_definitions'

export interface DefinitionChangeNotice {
  kind: 'ruleset' | 'policy'
  name: string
  /** The version now stored; 0 after a delete. */
  version: number
}

/**
 * Announces a ruleset or policy change to every replica. Called on a transaction, the notice is
 * sent when it commits and dropped when it rolls back, so nobody refreshes to a state that never
 * existed; called on the Db, it is sent at once.
 */
export async function announceDefinitionChange(q: Queryable, change: DefinitionChangeNotice): Promise<void> {
  const payload = JSON.stringify({ kind: change.kind, name: change.name, version: change.version })
  await q.query('SELECT pg_notify($1, $2)', [DEFINITIONS_CHANNEL, payload])
}
