import type { ExceptionRule, RuleResultForm } from '../engine/model/policy-exception.js'
import { ImportError } from './import-error.js'
import { list, object, optionalList, text } from './read.js'

/**
 * A kyverno.io/v2 PolicyException's `spec.exceptions` (`{policyName, ruleNames}`) as the rules of
 * a Verdict exception.
 *
 * Kyverno compares `policyName` literally (`name` for a ClusterPolicy, `namespace/name` for a
 * Policy) and each of `ruleNames` as a wildcard (`*`, `?`) against the names of the rules it runs:
 * a rule `R`, and the rules autogen makes of it, `autogen-R` for pod controllers and
 * `autogen-cronjob-R` for CronJobs. The ClusterPolicy importer turns policy `P` into ruleset `P`
 * (`P-enforce` and `P-audit` when its rules differ in failure action) and keeps rule names; autogen
 * results are results of `R` judged on a controller's template. So each rule name pattern becomes
 * patterns over `R` for each form: itself for the object, and what is left of it once `autogen-`
 * or `autogen-cronjob-` is read off (the pattern's derivative by that prefix).
 */
export function translateExceptionRules(value: unknown, field: string): ExceptionRule[] {
  const entries = list(value, field)
  if (entries.length === 0) throw new ImportError(field, 'must name at least one policy')
  const byRule = new Map<string, ExceptionRule>()
  entries.forEach((raw, index) => {
    const at = `${field}[${index}]`
    const entry = object(raw, at)
    const policyName = text(entry.policyName, `${at}.policyName`)
    const ruleset = rulesetOf(policyName, `${at}.policyName`)
    const names = (optionalList(entry.ruleNames, `${at}.ruleNames`) ?? []).map((name, i) => text(name, `${at}.ruleNames[${i}]`))
    if (names.length === 0) throw new ImportError(`${at}.ruleNames`, 'is empty: Kyverno lets no rule through for this policy; name the rules (or * for all)')
    names.forEach((pattern, i) => {
      if (pattern.startsWith(AUTOGEN) && pattern.length >= KYVERNO_RULE_NAME_LIMIT) {
        throw new ImportError(
          `${at}.ruleNames[${i}]`,
          `"${pattern}" may be a name Kyverno cut to ${KYVERNO_RULE_NAME_LIMIT} characters, so the rule it stands for is unknown; name the rule with a wildcard (autogen-<start of the name>*)`,
        )
      }
      for (const [form, patterns] of formsOf(pattern)) {
        for (const rule of patterns) {
          for (const name of [ruleset, `${ruleset}-enforce`, `${ruleset}-audit`]) add(byRule, name, rule, form)
        }
      }
    })
  })
  const rules = [...byRule.values()].map((entry) => (entry.appliesTo?.length === FORMS.length ? { ruleset: entry.ruleset, rule: entry.rule } : entry))
  if (rules.length === 0) throw new ImportError(field, 'names only rules Kyverno never runs (autogen- names no rule can have)')
  if (rules.length > MAX_RULES) {
    throw new ImportError(field, `names ${rules.length} rule entries once translated (each policy P as rulesets P, P-enforce and P-audit); a Verdict exception holds ${MAX_RULES}: split it`)
  }
  return rules
}

/** The model's limit on `rules`. */
const MAX_RULES = 100

const AUTOGEN = 'autogen-'
const AUTOGEN_CRONJOB = 'autogen-cronjob-'
/** Kyverno cuts autogen rule names to this length (pkg/autogen getAutogenRuleName). */
const KYVERNO_RULE_NAME_LIMIT = 63
const FORMS: readonly RuleResultForm[] = ['object', 'controllers', 'cronJobs']
const POLICY_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/

/** `name` or `namespace/name`: the imported ruleset is named after the policy's own name. */
function rulesetOf(policyName: string, field: string): string {
  const slash = policyName.indexOf('/')
  const name = slash < 0 ? policyName : policyName.slice(slash + 1)
  if (!POLICY_NAME.test(name) || name.length > 253) {
    throw new ImportError(field, `"${policyName}" names no policy: Kyverno compares it literally with "name" or "namespace/name" (no wildcards)`)
  }
  return name
}

/**
 * The rule name patterns each form of a rule must match for Kyverno's pattern to match its name.
 * A pattern naming `autogen-...` literally is read as naming autogen rules only: Kyverno makes no
 * autogen rules of a rule whose own name starts so.
 */
function formsOf(pattern: string): [RuleResultForm, string[]][] {
  const object = pattern.startsWith(AUTOGEN) ? [] : [pattern]
  return [
    ['object', object],
    ['controllers', derivative(pattern, AUTOGEN)],
    ['cronJobs', derivative(pattern, AUTOGEN_CRONJOB)],
  ]
}

/**
 * The glob patterns `q` such that `pattern` matches `prefix + r` exactly when some `q` matches `r`
 * (`*` any run, `?` one character, as Kyverno's wildcard package reads them). Empty patterns are
 * dropped: rule names are never empty.
 */
export function derivative(pattern: string, prefix: string): string[] {
  let patterns = new Set([pattern])
  for (const char of prefix) {
    const next = new Set<string>()
    for (const current of patterns) {
      const head = current[0]
      if (head === undefined) continue
      if (head === '*') {
        next.add(current)
        for (const rest of derivative(current.slice(1), char)) next.add(rest)
      } else if (head === '?' || head === char) {
        next.add(current.slice(1))
      }
    }
    patterns = next
  }
  const out = [...patterns].filter((rest) => rest !== '')
  return out.some((rest) => /^\*+$/.test(rest)) ? ['*'] : out
}

function add(byRule: Map<string, ExceptionRule>, ruleset: string, rule: string, form: RuleResultForm): void {
  const key = `${ruleset}\u0000${rule}`
  const entry = byRule.get(key) ?? { ruleset, rule, appliesTo: [] }
  const forms = entry.appliesTo ?? []
  if (!forms.includes(form)) entry.appliesTo = FORMS.filter((known) => known === form || forms.includes(known))
  byRule.set(key, entry)
}
