import type { Policy } from '../engine/model/policy.js'
import type { Ruleset } from '../engine/model/ruleset.js'

/** A rule (or a whole policy, for single-rule formats) that was not imported, and why. */
export interface SkippedRule {
  /** The source policy's name (`namespace/name` for a namespaced Kyverno Policy). */
  policy: string
  rule: string
  /** e.g. "validate.pattern rules are not supported yet" */
  reason: string
}

/** What one source document became. */
export interface ImportedDocument {
  /** ClusterPolicy, Policy, ValidatingPolicy, ValidatingAdmissionPolicy, ... */
  sourceKind: string
  sourceName: string
  rulesets: Ruleset[]
  policies: Policy[]
  skipped: SkippedRule[]
}
