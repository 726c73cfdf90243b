import type { Parameters, ParameterValue, RuleTemplate } from '../catalog/rule-template.js'
import { isProseWord } from './english-words.js'

/**
 * The grounding gate for a named (catalog) rule's parameters. A generic template takes its field
 * from the text ("field", "fields", "whenField") and must have been given a field written as one,
 * never a word of the prose: "be at least 100m" read by the generic range template would check a
 * key `be`. Any template's written values (label keys, allowed values, classes, registries) are
 * grounded the same way: "defines the priorityClassName field with some value" must not allow the
 * class `defines`. Platform templates' choices among their own fields ("limits" of a container's
 * resources) are the template's words, not values taken from the text, so they are not checked.
 */
const FIELD_PARAMETERS = ['field', 'fields', 'whenField']
const WRITTEN_VALUE_PARAMETERS = ['allowed', 'forbidden', 'value', 'values', 'whenValue', 'tags', 'registries', 'classes', 'domains', 'instanceTypes', 'environment', 'keys', 'patterns']

/** The prose words a named rule's parameters use as fields or written values; empty when every one is grounded. */
export function proseParametersIn(template: Pick<RuleTemplate, 'platform'>, parameters: Parameters, text: string): string[] {
  const words: string[] = []
  const checked = template.platform === 'generic' ? [...FIELD_PARAMETERS, ...WRITTEN_VALUE_PARAMETERS] : WRITTEN_VALUE_PARAMETERS
  for (const name of checked) {
    for (const written of strings(parameters[name])) {
      // A dotted path is written as a path; a single prose word ("be", "use") is English, whatever the template made of it,
      // unless the author quoted it (`protected-mode must not be "no"`).
      if (!written.includes('.') && isProseWord(written) && !isQuotedIn(written, text)) words.push(written)
    }
  }
  return words
}

function isQuotedIn(word: string, text: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`[\`"'“‘]${escaped}[\`"'”’]`, 'i').test(text)
}

function strings(value: ParameterValue | undefined): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string')
  return []
}
