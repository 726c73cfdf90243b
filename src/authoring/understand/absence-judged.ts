import { compileRuleset, evaluateRuleset, PreparedInput, type Rule } from '../../engine/index.js'

/**
 * Whether named (catalog) rules let a document through when the fields they are about are
 * absent. A clause that says absence passes ("unset or set to `false`", "if present, ...") may be
 * read by a named rule only when the rule agrees: judged on a bare document of each kind it
 * matches (a Pod with one container that sets nothing), it passes. A template that requires the
 * field would drop the author's qualifier and reject what they allowed.
 */
export function absencePasses(rules: readonly Rule[]): boolean {
  return rules.every((rule) => {
    const kinds = rule.match?.kinds
    // Only Kubernetes rules have a bare document to try; elsewhere the qualifier is read structurally or refused.
    if (!kinds || kinds.length === 0) return false
    let compiled
    try {
      compiled = compileRuleset({ name: 'absence-check', rules: [rule] })
    } catch {
      return false
    }
    return kinds.every((kind) => evaluateRuleset(compiled, new PreparedInput({ object: bareDocument(kind) })).passed)
  })
}

function bareDocument(kind: string): Record<string, unknown> {
  const metadata = { name: 'bare', namespace: 'default' }
  const pod = { containers: [{ name: 'app', image: 'registry.example.com/team/app:1.0.0' }] }
  if (kind === 'Pod') return { apiVersion: 'v1', kind, metadata, spec: pod }
  return { apiVersion: 'v1', kind, metadata, spec: {} }
}
