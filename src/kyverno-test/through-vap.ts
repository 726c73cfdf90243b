import { parseDocuments, type CompiledException } from '../engine/index.js'
import { generateValidatingAdmissionPolicies, vapYaml, type GeneratedForm } from '../export/vap/index.js'
import { importDocuments } from '../import/index.js'
import type { TestPolicy } from './load-test.js'

/** Where a rule of a policy run through VAPs came from: the test's rule, and the form it judges. */
export interface VapOrigin {
  rule: string
  form: GeneratedForm
}

/**
 * A test's policy as the API server would enforce it: exported as ValidatingAdmissionPolicies
 * (export/vap), written as YAML and imported back through the VAP importer. The rules read back
 * (one per generated policy) make the policy's ruleset, each remembering the rule and autogen form
 * it stands for, so the test's rows (`X`, `autogen-X`, `autogen-cronjob-X`) find them. A policy
 * the generator refuses has no ruleset: its rows are unsupported, with the refusal as the reason.
 */
export function throughVap(policy: TestPolicy, exceptions: readonly CompiledException[], now: Date): TestPolicy {
  if (!policy.policy || !policy.ruleset) return policy
  const scopes = exceptions.map((exception) => ({
    name: exception.name,
    policies: exception.policies ? [...exception.policies] : undefined,
    rules: exception.rules ? [...exception.rules] : undefined,
    expiresAt: exception.expiresAtMs === undefined ? undefined : new Date(exception.expiresAtMs).toISOString(),
  }))
  const generated = generateValidatingAdmissionPolicies(policy.policy, [policy.ruleset], { exceptions: scopes, now })
  if (!generated.ok) {
    const skipped = generated.refusals.map((refusal) => ({
      policy: policy.name,
      rule: refusal.rule ?? policy.name,
      reason: `not generated as a ValidatingAdmissionPolicy: ${refusal.field}: ${refusal.reason}`,
    }))
    // A row names a rule; a refusal of the whole policy (or of another rule) answers for every row.
    const rules = policy.ruleset.rules.map((rule) => skipped.find((skip) => skip.rule === rule.name) ?? { ...(skipped[0] as (typeof skipped)[number]), rule: rule.name })
    const { ruleset: _ruleset, ...rest } = policy
    return { ...rest, skipped: [...policy.skipped, ...rules] }
  }
  const origins = new Map<string, VapOrigin>()
  for (const entry of generated.policies) origins.set(entry.policy.metadata.name, { rule: entry.source.rule, form: entry.source.form })
  const documents = parseDocuments(vapYaml(generated.policies), 'generated', 'yaml').map((document) => document.value)
  const rules = importDocuments(documents).flatMap((imported) => {
    if (imported.skipped.length > 0) throw new Error(`the VAP importer skipped a generated policy: ${imported.skipped.map((skip) => skip.reason).join('; ')}`)
    return imported.rulesets.flatMap((ruleset) => ruleset.rules)
  })
  return { ...policy, ruleset: { name: policy.ruleset.name, rules }, vapOrigins: origins }
}
