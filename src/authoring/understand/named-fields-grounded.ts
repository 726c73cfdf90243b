import type { Parameters, ParameterValue, RuleTemplate } from '../catalog/rule-template.js'
import { isProseWord } from './english-words.js'

/**
 * The grounding gate for a named (catalog) rule: a generic template takes its field from the text
 * ("field", "fields", "whenField") and must have been given a field written as one, never a word
 * of the prose. "be at least 100m" read by the generic range template would check a key `be`.
 * Platform templates choose among their own fields ("limits" of a container's resources): those
 * are the template's words, not keys taken from the text.
 */
const FIELD_PARAMETERS = ['field', 'fields', 'whenField']

/** The prose words a named rule's parameters use as fields; empty when every field is grounded. */
export function proseFieldsIn(template: Pick<RuleTemplate, 'platform'>, parameters: Parameters): string[] {
  const words: string[] = []
  if (template.platform !== 'generic') return words
  for (const name of FIELD_PARAMETERS) {
    for (const path of strings(parameters[name])) {
      // A dotted path is written as a path; a single prose word ("be", "use") is English, whatever the template made of it.
      if (!path.includes('.') && isProseWord(path)) words.push(path)
    }
  }
  return words
}

function strings(value: ParameterValue | undefined): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string')
  return []
}
