import type { CompiledClassic } from '../compile/compiled-classic.js'
import type { CompiledRule } from '../compile/compiled-ruleset.js'
import type { PreparedInput, Subject } from '../evaluate/prepared-input.js'
import { metered } from '../jmespath/budget.js'
import { withContextEntries, type ConfigMapLookup, type JsonObject, type KyvernoContext, type KyvernoContextEntry } from '../jmespath/index.js'
import type { PathMapping } from '../pattern/index.js'
import type { ClassicOutcome } from './classic-outcome.js'
import { judgeClassicRule, type ClassicScope } from './judge-classic-rule.js'
import { requestContextOf } from './request-context.js'

/**
 * A classic rule judging one subject: the request's context, with the values the caller gives
 * for this rule (a test's values file), then the rule's context entries, reading ConfigMaps from
 * the cluster data of the input. A controller's pod template (autogen) is judged as Kyverno
 * judges it: variables read the controller, with the rule's text rewritten (classic-autogen.ts).
 */
export function judgeClassicSubject(
  rule: CompiledRule,
  input: PreparedInput,
  subject: Subject,
  autogenKind: string | undefined,
  mapPath: PathMapping | undefined,
): ClassicOutcome | 'cel' | undefined {
  const variant = autogenKind === undefined || !rule.classicAutogen ? undefined : autogenKind === 'CronJob' ? rule.classicAutogen.cronjob : rule.classicAutogen.controllers
  const classic = variant?.classic ?? (rule.classic as CompiledClassic)
  const patterns = variant ? variant.patterns : rule.patterns
  const message = variant ? variant.message : rule.message
  const values = input.options.ruleValues?.(rule.name)
  const base = requestContextOf(input, variant ? input.subject : subject)
  const configMaps = configMapsOf(input)
  const withEntries = (context: KyvernoContext, entries: readonly KyvernoContextEntry[]): KyvernoContext =>
    entries.length === 0 ? context : withContextEntries(context, entries, configMaps ? { configMaps } : {})
  const context = withEntries(values ? base.withVariables(values) : base, classic.context)
  // Patterns read the JSON resource with whole numbers as int64, as Kyverno decodes it (see MatchOptions.wholeNumbers).
  const resource = subject.target.operation === 'DELETE' ? undefined : subject.json.object
  // One shape for every rule (absent parts undefined), built without spreads: this runs per rule and request.
  const scope: ClassicScope = { rule, classic, context, resource, withEntries, patterns, message, mapPath }
  // One budget for the rule's whole JMESPath work, rather than one per query and substitution.
  return metered(() => judgeClassicRule(scope), input.options.now)
}

function configMapsOf(input: PreparedInput): ConfigMapLookup | undefined {
  const cluster = input.input.cluster
  if (!cluster) return undefined
  return (namespace, name) => cluster.configMap(namespace, name) as JsonObject | undefined
}
