import type { NamespaceSource } from '../../admission/namespace-source.js'
import {
  appliedTo,
  CompiledRulesetCache,
  compileExceptions,
  evaluatePolicy,
  PreparedInput,
  resolvePolicyRulesets,
  type ClusterData,
  type CompiledException,
  type CompiledRuleset,
  type Definitions,
  type Policy,
  type PolicyException,
  type Ruleset,
} from '../../engine/index.js'
import type { ScanObject } from '../manifests/manifest-object.js'
import { ScanInputError } from '../scan-error.js'
import type { PolicyJudgement, ScanPolicy, ScanRule } from '../scan-result.js'
import type { Judge } from './judge.js'

interface PreparedPolicy {
  policy: Policy
  rulesets: CompiledRuleset[]
}

export interface LocalJudgeOptions {
  /**
   * The Namespace objects of a cluster, for namespaceSelector and CEL `namespaceObject`, as
   * admission and background scans have them. Manifests come with none: their objects are
   * judged as in a namespace without labels.
   */
  namespaces?: NamespaceSource
  /** A cluster's context ConfigMaps, for Kyverno `configMap` context entries; manifests come with none. */
  cluster?: ClusterData
  /** PolicyExceptions to honour, as the service does (an expired one no longer applies). */
  exceptions?: readonly PolicyException[]
  /** The clock expiry is judged by; the real time by default. */
  now?: () => Date
}

/**
 * Judges with the engine, as `verdict eval --policy` does: each policy applies the rulesets it
 * names or selects, to the object as if it were being created.
 */
export class LocalJudge implements Judge {
  readonly policies: ScanPolicy[]
  readonly #prepared: PreparedPolicy[]
  readonly #namespaces: NamespaceSource | undefined
  readonly #cluster: ClusterData | undefined
  readonly #exceptions: CompiledException[]
  readonly #now: () => Date

  constructor(definitions: Definitions, options: LocalJudgeOptions = {}) {
    this.#namespaces = options.namespaces
    this.#cluster = options.cluster
    this.#exceptions = compileExceptions(options.exceptions ?? [])
    this.#now = options.now ?? (() => new Date())
    if (definitions.policies.length === 0) {
      throw new ScanInputError('the --policies files hold no policy (a Verdict Ruleset judges only through a Policy that names it)')
    }
    const cache = new CompiledRulesetCache()
    const compiled = definitions.rulesets.map((ruleset) => ({ name: ruleset.name, labels: ruleset.labels, ruleset, compiled: cache.get(ruleset) }))
    this.#prepared = []
    this.policies = []
    for (const policy of definitions.policies) {
      const { found, missing } = resolvePolicyRulesets(policy, compiled)
      if (missing.length > 0) throw new ScanInputError(`policy "${policy.name}" names unknown rulesets: ${missing.join(', ')}`)
      this.#prepared.push({ policy, rulesets: found.map((entry) => entry.compiled) })
      this.policies.push({ name: policy.name, action: policy.action ?? 'Audit', rules: found.flatMap((entry) => rulesOf(entry.ruleset)) })
    }
  }

  judge(object: ScanObject): PolicyJudgement[] {
    const namespaceObject = object.namespace === null ? undefined : this.#namespaces?.get(object.namespace)
    const input = new PreparedInput({
      object: object.value,
      request: { operation: 'CREATE' },
      ...(namespaceObject === undefined ? {} : { namespaceObject }),
      ...(this.#cluster === undefined ? {} : { cluster: this.#cluster }),
    })
    const judgements: PolicyJudgement[] = []
    const exemptions = this.#exceptions.length === 0 ? undefined : { exceptions: this.#exceptions, now: this.#now() }
    for (const { policy, rulesets } of this.#prepared) {
      const evaluation = evaluatePolicy(policy, rulesets, input, exemptions ? { verbose: true, exemptions } : { verbose: true })
      if (!evaluation.applied) continue
      // A rule an exception let through, or one switched off, is listed (a skip saying so); other skips judged nothing.
      const results = evaluation.output.results.filter(appliedTo)
      if (results.length > 0) judgements.push({ policy: policy.name, action: evaluation.action, passed: evaluation.output.passed, results })
    }
    return judgements
  }
}

function rulesOf(ruleset: Ruleset): ScanRule[] {
  return ruleset.rules.map((rule) => ({
    ruleset: ruleset.name,
    rule: rule.name,
    severity: rule.severity ?? 'medium',
    ...(rule.description === undefined ? {} : { description: rule.description }),
    ...(rule.remediation === undefined ? {} : { remediation: rule.remediation }),
  }))
}
