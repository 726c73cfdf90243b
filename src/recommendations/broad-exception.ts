import type { Match, PolicyException, ResourceFilter } from '../engine/index.js'
import { recommendation, type Recommendation } from './recommendation.js'

/**
 * An exception whose match names no namespace, no object name and no label or namespace selector
 * lets every object of its kinds through, in every namespace: usually meant for one workload,
 * it quietly covers every future one too. CEL conditions do not count as narrowing: a reader
 * cannot tell from the manifest what they leave out.
 */
export function broadExceptions(exceptions: readonly PolicyException[]): Recommendation[] {
  return exceptions
    .filter((exception) => !narrows(exception.match))
    .map((exception) =>
      recommendation(
        'broad-exception',
        { kind: 'exception', name: exception.name },
        `Exception "${exception.name}" names no namespace, object name or label: it lets every ${kindsText(exception.match)} through. Narrow its match to the workloads it is for.`,
        { kinds: exception.match.kinds ?? ['*'], policies: exception.policies ?? [], rules: (exception.rules ?? []).map((entry) => `${entry.ruleset}/${entry.rule}`) },
      ),
    )
}

/** Narrowed when the match, or every one of its `any` alternatives, or one of its `all` parts, narrows. */
function narrows(match: Match): boolean {
  if (narrowsFilter(match)) return true
  if (match.any && match.any.length > 0 && match.any.every(narrowsFilter)) return true
  return (match.all ?? []).some(narrowsFilter)
}

function narrowsFilter(filter: ResourceFilter): boolean {
  return Boolean(filter.namespaces?.length || filter.names?.length || filter.labelSelector || filter.namespaceSelector)
}

function kindsText(match: Match): string {
  const kinds = match.kinds ?? []
  return kinds.length === 0 || kinds.includes('*') ? 'object' : kinds.join(', ')
}
