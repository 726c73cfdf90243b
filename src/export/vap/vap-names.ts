import type { GeneratedForm } from './generate-vap.js'

const SUFFIX: Readonly<Record<GeneratedForm, string>> = { object: '', controllers: '-autogen', cronjobs: '-autogen-cronjob' }
const MAX = 253

/**
 * The Kubernetes names of the generated policies, in order: the policy's name when it has one rule,
 * else `<policy>-<rule>` (`<policy>-<ruleset>-<rule>` when two rulesets share a rule name), with
 * `-autogen` / `-autogen-cronjob` for the autogen forms. Verdict's rule names may hold any
 * character, so each is lowered to a DNS subdomain; a clash after that gets a number.
 */
export function vapNames(policy: string, sources: readonly { ruleset: string; rule: string; form: GeneratedForm }[]): string[] {
  const rules = new Map<string, Set<string>>()
  for (const source of sources) rules.set(source.rule, (rules.get(source.rule) ?? new Set()).add(source.ruleset))
  const single = new Set(sources.map((source) => `${source.ruleset}\u0000${source.rule}`)).size === 1
  const used = new Set<string>()
  return sources.map((source) => {
    const shared = (rules.get(source.rule)?.size ?? 0) > 1
    const base = single ? policy : shared ? `${policy}-${source.ruleset}-${source.rule}` : `${policy}-${source.rule}`
    const suffix = SUFFIX[source.form]
    const stem = dnsName(base).slice(0, MAX - suffix.length - 4).replace(/[-.]+$/, '')
    let name = `${stem}${suffix}`
    for (let n = 2; used.has(name); n++) name = `${stem}-${n}${suffix}`
    used.add(name)
    return name
  })
}

function dnsName(text: string): string {
  const lowered = text.toLowerCase().replace(/[^a-z0-9.-]+/g, '-').replace(/-{2,}/g, '-')
  const trimmed = lowered.replace(/^[-.]+/, '').replace(/[-.]+$/, '')
  return trimmed === '' ? 'rule' : trimmed
}
