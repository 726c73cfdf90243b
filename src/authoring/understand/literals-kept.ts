import type { Rule } from '../../engine/index.js'
import { requirementStrings, ruleStrings, unusedLiterals } from './coverage.js'
import type { Requirement } from './requirement.js'

/**
 * "Every container must drop the CAP_NET_RAW capability": the structural reading uses every
 * constant and literal the clause writes, and the named requirement matched on its words
 * ("drop capabilities") leaves one unused. A named requirement only wins over a field found from
 * words when it loses nothing the author wrote; otherwise the reading that keeps it all stands.
 */
export function readingKeepsMore(clause: string, requirements: readonly Requirement[], named: readonly Rule[]): boolean {
  if (requirements.length === 0 || named.length === 0) return false
  const byReading = unusedLiterals(clause, requirements.flatMap(requirementStrings))
  if (byReading.length > 0) return false
  return unusedLiterals(clause, named.flatMap(ruleStrings)).length > 0
}
