import type { PolicyAction, RuleResult, Severity } from '../engine/index.js'
import type { ObjectRef } from './manifests/manifest-object.js'

/** A rule a policy applies, as reports describe it (SARIF lists them as its rules). */
export interface ScanRule {
  ruleset: string
  rule: string
  severity: Severity
  description?: string
  remediation?: string
}

export interface ScanPolicy {
  name: string
  action: PolicyAction
  /** The rules the policy applies, as far as they are known (a server tells only those it reports). */
  rules: ScanRule[]
}

/** How one policy judged one object: only rules that judged it (pass, fail, error), never skips. */
export interface PolicyJudgement {
  policy: string
  action: PolicyAction
  /** The policy's own verdict: with failurePolicy Ignore an erring rule does not fail it. */
  passed: boolean
  results: RuleResult[]
}

export interface ObjectJudgement extends PolicyJudgement {
  object: ObjectRef
}

export interface ScanSummary {
  /** Kubernetes objects read. */
  objects: number
  /** Objects at least one policy judged. */
  judged: number
  /** Rule results over all judged (object, policy) pairs. */
  passed: number
  failed: number
  errors: number
  /** Fail and error results, by the action of the policy that gave them. */
  failuresByAction: Record<PolicyAction, number>
  /** Whether a Deny policy failed an object: the scan then exits 1. */
  denied: boolean
}

export interface ScanReport {
  objects: ObjectRef[]
  policies: ScanPolicy[]
  /** Every (object, policy) pair the policy judged, in input order, then policy order. */
  judgements: ObjectJudgement[]
  summary: ScanSummary
}
