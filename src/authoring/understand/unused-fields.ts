import type { Rule } from '../../engine/index.js'

/**
 * The fields a clause names as fields ("the externalName field", `spec.hostPID`) that a named
 * rule never reads. "audits Services of type ExternalName if the externalName field refers to
 * localhost" read by the Service-type template would judge the type alone; the field the
 * condition is about must be used, or the clause is not what the rule says.
 */
export function fieldsUnusedBy(text: string, rules: readonly Rule[]): string[] {
  const named = new Set<string>()
  for (const match of text.matchAll(/\bthe\s+`?([a-z][A-Za-z0-9]*)`?\s+field\b/g)) if (match[1]) named.add(match[1])
  for (const match of text.matchAll(/`([a-z][A-Za-z0-9]*(?:\.[a-z][A-Za-z0-9]*)*)`/g)) {
    // A code token written as a field: camelCase or a dotted path, not a value such as `true` or `latest`.
    if (match[1] && /[A-Z.]/.test(match[1])) named.add(match[1])
  }
  // Unquoted too: "has to list loadBalancerSourceRanges" names a field as surely as in backticks.
  for (const match of text.matchAll(/(?<![\w./@:-])([a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)(?![\w/@:-])/g)) if (match[1]) named.add(match[1])
  // Case matters: the field `externalName` is not the value 'ExternalName'.
  const used = JSON.stringify(rules.map((rule) => ({ validate: rule.validate, variables: rule.variables, match: rule.match, preconditions: rule.preconditions })))
  return [...named].filter((field) => !used.includes(field.split('.').at(-1) ?? field))
}
