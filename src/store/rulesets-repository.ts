import type { Ruleset, RulesetSource } from '../engine/model/ruleset.js'
import type { Queryable } from './db.js'
import { DefinitionsTable, type DefinitionInput, type DefinitionStamp } from './definitions-table.js'
import { NotFoundError, StillReferencedError } from './store-errors.js'

export type StoredRuleset = Ruleset & DefinitionStamp & { source: RulesetSource }
/** A ruleset to write: a StoredRuleset, or one without version and times (the store sets them). */
export type RulesetInput = DefinitionInput<Ruleset>

const rulesets = new DefinitionsTable<Ruleset>('rulesets', 'ruleset')

/** Version 1; throws AlreadyExistsError when the name is taken. */
export function insertRuleset(q: Queryable, record: RulesetInput): Promise<StoredRuleset> {
  return rulesets.insert(q, record)
}

/** version + 1, createdAt/By kept; throws NotFoundError. */
export function replaceRuleset(q: Queryable, record: RulesetInput): Promise<StoredRuleset> {
  return rulesets.replace(q, record)
}

export function getRuleset(q: Queryable, name: string): Promise<StoredRuleset | undefined> {
  return rulesets.get(q, name)
}

export function listRulesets(q: Queryable, filter: { labels?: Readonly<Record<string, string>> } = {}): Promise<StoredRuleset[]> {
  return rulesets.list(q, filter)
}

/** Everything, for loading the compiled cache. */
export function listAllRulesets(q: Queryable): Promise<StoredRuleset[]> {
  return rulesets.list(q)
}

interface DeleteOutcome {
  existed: boolean
  deleted: number
  referenced_by: string[]
}

/**
 * Refuses while a policy names the ruleset in spec.rulesets (StillReferencedError listing them);
 * throws NotFoundError when there is no such ruleset. The check and the delete are one statement,
 * so they see one snapshot even when `q` is not a transaction. Policies that reach the ruleset
 * only through a rulesetSelector do not hold it: a selector matches whatever exists.
 */
export async function deleteRuleset(q: Queryable, name: string): Promise<void> {
  const result = await q.query<DeleteOutcome>(
    `WITH refs AS (
       SELECT name FROM policies WHERE spec -> 'rulesets' ? $1
     ), gone AS (
       DELETE FROM rulesets WHERE name = $1 AND NOT EXISTS (SELECT 1 FROM refs) RETURNING name
     )
     SELECT EXISTS (SELECT 1 FROM rulesets WHERE name = $1) AS existed,
            (SELECT count(*) FROM gone)::int AS deleted,
            coalesce((SELECT array_agg(name ORDER BY name) FROM refs), '{}') AS referenced_by`,
    [name],
  )
  const outcome = result.rows[0]
  if (!outcome?.existed) throw new NotFoundError('ruleset', name)
  if (outcome.deleted === 0) throw new StillReferencedError('ruleset', name, outcome.referenced_by)
}
