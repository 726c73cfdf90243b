import type { Match, MatchFilter } from '../model/match.js'
import { matchesFilter } from './matches-filter.js'
import type { MatchTarget } from './match-target.js'

/** The structural part of a match (CEL conditions are evaluated by the rule). */
export function matchesMatch(match: Match | undefined, target: MatchTarget): boolean {
  if (!match) return true
  if (!matchesFilter(match, target)) return false
  return !(match.exclude && !isEmptyFilter(match.exclude) && matchesFilter(match.exclude, target))
}

/** An empty exclude block would exclude everything; authors mean "exclude nothing". */
function isEmptyFilter(filter: MatchFilter): boolean {
  return Object.values(filter).every((value) => value === undefined)
}

/** Every kind entry named anywhere in the positive part of a match. */
export function kindsNamedBy(match: Match | undefined): string[] | undefined {
  if (!match) return undefined
  const lists = [match.kinds, ...(match.any ?? []).map((f) => f.kinds), ...(match.all ?? []).map((f) => f.kinds)]
  const named = lists.filter((list): list is string[] => list !== undefined)
  return named.length === 0 ? undefined : named.flat()
}
