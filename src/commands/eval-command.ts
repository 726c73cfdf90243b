import { parseArgs } from 'node:util'
import {
  CompiledRulesetCache,
  compileExceptions,
  evaluatePolicy,
  evaluateRuleset,
  PreparedInput,
  resolvePolicyRulesets,
  type Exemptions,
  type Operation,
  type PolicyResult,
  type RuleResult,
  type RulesetResult,
} from '../engine/index.js'
import type { CliContext } from './cli-context.js'
import { readDefinitionFiles, readDocuments } from './read-definitions.js'
import { EXIT_OK, EXIT_VIOLATIONS, UsageError } from './usage-error.js'

const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT']

export const evalUsage = `verdict eval -f <resource.yaml> --ruleset <file> [--ruleset <file>...] [--policy <file>...]
             [--operation CREATE|UPDATE|DELETE|CONNECT] [--verbose] [-o text|json]

Evaluates every document of the resource file offline (-f - reads standard input). Without --policy every ruleset judges every
resource; with --policy each policy applies the rulesets it names. Ruleset files may hold Verdict
Rulesets/Policies, Kyverno (Cluster)Policies, ValidatingPolicies or ValidatingAdmissionPolicies.
Exit status: 0 all passed, 1 violations, 2 bad input.`

interface Judgement {
  resource: string
  result: RulesetResult | PolicyResult
}

export function runEval(argv: string[], print: (line: string) => void, _warn: (line: string) => void, context: CliContext): number {
  const { values } = parseArgs({
    args: argv,
    options: {
      file: { type: 'string', short: 'f', multiple: true },
      ruleset: { type: 'string', short: 'r', multiple: true },
      policy: { type: 'string', short: 'p', multiple: true },
      operation: { type: 'string' },
      verbose: { type: 'boolean', short: 'v' },
      output: { type: 'string', short: 'o', default: 'text' },
    },
    strict: true,
  })
  if (!values.file?.length) throw new UsageError('eval: -f <resource file> is required')
  if (!values.ruleset?.length && !values.policy?.length) throw new UsageError('eval: --ruleset <file> is required')
  if (values.output !== 'text' && values.output !== 'json') throw new UsageError('eval: -o must be text or json')
  const operation = (values.operation ?? 'CREATE').toUpperCase() as Operation
  if (!OPERATIONS.includes(operation)) throw new UsageError(`eval: --operation must be one of ${OPERATIONS.join(', ')}`)

  const definitions = readDefinitionFiles([...(values.ruleset ?? []), ...(values.policy ?? [])], context)
  // Policies judge only when asked for: a Kyverno file given as --ruleset also yields a policy.
  const policies = values.policy?.length ? definitions.policies : []
  if (values.policy?.length && policies.length === 0) throw new UsageError('eval: the --policy files hold no policy')
  if (definitions.rulesets.length === 0) throw new UsageError('eval: the ruleset files hold no ruleset')
  const cache = new CompiledRulesetCache()
  const compiled = definitions.rulesets.map((ruleset) => ({ name: ruleset.name, labels: ruleset.labels, compiled: cache.get(ruleset) }))
  for (const policy of policies) {
    const { missing } = resolvePolicyRulesets(policy, compiled)
    if (missing.length > 0) throw new UsageError(`eval: policy "${policy.name}" names unknown rulesets: ${missing.join(', ')}`)
  }

  // PolicyExceptions in the --policy files apply as the service applies them, at the time of the run.
  const exemptions: Exemptions | undefined =
    definitions.exceptions.length === 0 ? undefined : { exceptions: compileExceptions(definitions.exceptions), now: new Date() }
  const judgements: Judgement[] = []
  for (const path of values.file) {
    for (const document of readDocuments(path, context)) {
      const input = new PreparedInput({ object: document.value, request: { operation } })
      const resource = describeResource(document.value, `${path}#${document.index}`)
      if (policies.length > 0) {
        for (const policy of policies) {
          const rulesets = resolvePolicyRulesets(policy, compiled).found.map((entry) => entry.compiled)
          const evaluation = evaluatePolicy(policy, rulesets, input, { verbose: values.verbose ?? false, ...(exemptions ? { exemptions } : {}) })
          if (evaluation.applied) judgements.push({ resource, result: evaluation.output })
        }
      } else {
        for (const entry of compiled) {
          judgements.push({ resource, result: evaluateRuleset(entry.compiled, input, { verbose: values.verbose ?? false }) })
        }
      }
    }
  }
  if (values.output === 'json') print(JSON.stringify(judgements, null, 2))
  else for (const line of textReport(judgements, definitions.skipped)) print(line)
  return judgements.every((judgement) => judgement.result.passed) ? EXIT_OK : EXIT_VIOLATIONS
}

function textReport(judgements: Judgement[], skipped: { policy: string; rule: string; reason: string }[]): string[] {
  const lines: string[] = []
  for (const skip of skipped) lines.push(`skipped rule ${skip.policy}/${skip.rule}: ${skip.reason}`)
  for (const { resource, result } of judgements) {
    const name = 'policy' in result ? `policy ${result.policy}` : `ruleset ${result.ruleset}`
    lines.push(`${result.passed ? 'PASS' : 'FAIL'} ${resource} (${name})`)
    for (const rule of result.results) lines.push(`  ${describeRule(rule)}`)
  }
  const failed = judgements.filter((judgement) => !judgement.result.passed).length
  lines.push(`${judgements.length - failed} passed, ${failed} failed`)
  return lines
}

function describeRule(rule: RuleResult): string {
  const autogen = rule.autogen ? ` [${rule.autogen} pod template]` : ''
  const message = rule.message ? `: ${rule.message}` : ''
  return `${rule.status.toUpperCase()} ${rule.ruleset}/${rule.rule} (${rule.severity})${autogen}${message}`
}

function describeResource(value: unknown, fallback: string): string {
  if (typeof value !== 'object' || value === null) return fallback
  const resource = value as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } }
  if (typeof resource.kind !== 'string' || typeof resource.metadata?.name !== 'string') return fallback
  const namespace = typeof resource.metadata.namespace === 'string' ? `${resource.metadata.namespace}/` : ''
  return `${resource.kind} ${namespace}${resource.metadata.name}`
}
