import type { Match, MatchFilter } from '../model/match.js'
import { compileMatchFilter, type TargetPredicate } from './matches-filter.js'
import type { MatchTarget } from './match-target.js'

const compiled = new WeakMap<Match, TargetPredicate>()

/** The structural part of a match (CEL conditions are evaluated by the rule). */
export function compileMatch(match: Match | undefined): TargetPredicate {
  if (!match) return () => true
  const positive = compileMatchFilter(match)
  if (!match.exclude || isEmptyFilter(match.exclude)) return positive
  const excluded = compileMatchFilter(match.exclude)
  return (target) => positive(target) && !excluded(target)
}

/** `compileMatch` for one-off checks; the predicate is kept with the match object. */
export function matchesMatch(match: Match | undefined, target: MatchTarget): boolean {
  if (!match) return true
  let predicate = compiled.get(match)
  if (!predicate) {
    predicate = compileMatch(match)
    compiled.set(match, predicate)
  }
  return predicate(target)
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
