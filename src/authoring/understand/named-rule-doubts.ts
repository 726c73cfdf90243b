import type { Rule } from '../../engine/index.js'
import type { TemplatedRule } from '../compile-instruction.js'
import { absencePasses } from './absence-judged.js'
import { qualifiesAbsence } from './absence-qualifier.js'
import { dropsComparison } from './named-comparison.js'
import { proseParametersIn } from './named-parameters-grounded.js'
import { unwrittenConstants } from './unwritten-constants.js'
import { fieldsUnusedBy } from './unused-fields.js'
import { judgesKind } from '../text/kinds.js'

const ONE_CONTAINER_LIST = /^\W*(?:(?:the|all|every|each|any|no)\s+)?(init|ephemeral)[ -]?containers?\b/i
import { droppedRelativeQualifier } from './subject-qualifier.js'

/**
 * Why the named (catalog) rules a clause became may not be what it says, or undefined when
 * nothing stands against them. `clause` is what the rules were read from; `instruction` the whole
 * text the author wrote, where a constant or the standard that implies it may be written. One list of doubts for every place a named rule is taken, so the
 * catalog-first reading of a whole instruction and a single sentence offered to the catalog are
 * held to the same grounding.
 */
export function namedRuleDoubt(text: { clause: string; instruction: string; labelledKinds?: readonly string[] }, rules: readonly Rule[], templated: readonly TemplatedRule[]): string | undefined {
  const { clause } = text
  // A named rule decides for itself what an absent field means: the author's "if present" / "unset or" holds only if it agrees.
  if (qualifiesAbsence(clause) && !absencePasses(rules)) return 'it says what an absent field means, and the named requirement judges absence otherwise'
  if (dropsComparison(clause, rules)) return 'it asks for a comparison, and the named requirement compares nothing'
  const prose = templated.flatMap((rule) => proseParametersIn(rule.template, rule.parameters, clause))
  if (prose.length > 0) return `the named requirement would take the English word${prose.length > 1 ? 's' : ''} ${prose.map((word) => `"${word}"`).join(', ')} as a key or value; which key or value is meant (quote it)?`
  const unused = fieldsUnusedBy(clause, rules)
  if (unused.length > 0) return `it names ${unused.map((field) => `\`${field}\``).join(', ')}, which the named requirement does not read`
  // "init containers must not run as root": a named rule over every container would judge the app containers too.
  const only = ONE_CONTAINER_LIST.exec(clause)?.[1]
  if (only && !/\b(?:app|main|regular|all|other)\s+containers\b|\bcontainers\s+(?:and|or)\b|\b(?:and|or)\s+containers\b/i.test(clause) && rules.some((rule) => JSON.stringify(rule.validate ?? {}).includes('variables.containers'))) {
    return `it is about ${only.toLowerCase()} containers only, and the named requirement judges every container; which containers are meant?`
  }
  // An S3 template for a `google_storage_bucket` (the labels say what is judged): it judges none of those documents, so it would pass them all.
  const judged = text.labelledKinds ?? []
  const elsewhere = templated.filter((rule) => !rule.template.kinds.includes('*') && judged.length > 0 && !judged.some((kind) => judgesKind(rule.template.kinds, kind)))
  if (elsewhere.length > 0) return `the named requirement judges ${[...new Set(elsewhere.flatMap((rule) => rule.template.kinds))].join(', ')}, not ${[...new Set(judged)].join(', ')}; which field of ${[...new Set(judged)].join(' or ')} must be checked?`
  // "Any Ingress that serves the public site must ...": a named rule with no condition of its own judges every one.
  const relative = droppedRelativeQualifier(clause, rules.some((rule) => (rule.match?.conditions?.length ?? 0) > 0), true)
  if (relative) return `it is about what is "${relative}" only, and the named requirement has no such condition`
  const unwritten = unwrittenConstants(text.instruction, rules, templated)
  if (unwritten.length > 0) return `the named requirement also checks ${unwritten.join(', ')}, which the sentence does not write`
  return undefined
}
