/** The shapes of the REST API answers the console reads (docs/api.md). */

export interface PolicyDefinition {
  name: string
  version?: number
  action?: 'Deny' | 'Warn' | 'Audit'
  rulesets?: string[]
  description?: string
  labels?: Record<string, string>
  background?: boolean
  admission?: boolean
  match?: { kinds?: string[] } & Record<string, unknown>
  updatedAt?: string
  /** false: switched off, judging nothing, with `disabledReason`. */
  enabled?: boolean
  disabledReason?: string
}

export interface RulesetDefinition {
  name: string
  version?: number
  labels?: Record<string, string>
  description?: string
  rules: { name: string; severity?: string; description?: string; enabled?: boolean; disabledReason?: string }[]
  updatedAt?: string
}

export interface RuleResult {
  ruleset: string
  rule: string
  status: 'pass' | 'fail' | 'error' | 'skip'
  severity: string
  message?: string
  /** On a skip: the PolicyException that let the rule through. */
  exception?: string
  /** On a skip: the rule is switched off, with why. */
  disabled?: true
  disabledReason?: string
}

export interface Evaluation {
  requestId: string
  policy?: string
  ruleset?: string
  passed: boolean
  results: RuleResult[]
  /** On a policy evaluation: the policy is switched off and judged nothing. */
  disabled?: true
  disabledReason?: string
}

export interface PolicyAudit {
  policyName: string
  requestId: string
  input: string
  inputFormat: string
  output: { policy: string; passed: boolean; results: RuleResult[]; disabled?: true; disabledReason?: string }
  passed?: boolean
  updatedBy: string
  updatedAt: string
}

export interface Remediation {
  ruleset: string
  rule: string
  status: string
  severity: string
  message?: string
  remediation: string
  derived: boolean
  fields: { path: string; actual?: unknown; expected?: unknown; requirement: string }[]
}

export interface AuditRemediations {
  requestId: string
  policies: { policy: string; passed: boolean; auditedAt: string }[]
  remediations: Remediation[]
}

export interface TimeseriesAnswer {
  startTimestamp: string
  endTimestamp: string
  interval: string
  buckets: { start: string; total: number; passed: number; failed: number }[]
  topFailingRules: { ruleset: string; rule: string; failures: number }[]
}

export interface Recommendation {
  id: string
  type: string
  target: { kind: string; name: string; ruleset?: string }
  message: string
}

/** A PolicyException as GET /api/exceptions answers it (docs/exceptions.md), with its state at the time of the answer. */
export interface PolicyExceptionView {
  name: string
  description?: string
  labels?: Record<string, string>
  policies?: string[]
  rules?: { ruleset: string; rule: string }[]
  match?: Record<string, unknown>
  conditions?: { name?: string; expression: string }[]
  reason: string
  ticket?: string
  owner?: string
  expiresAt?: string
  state: 'active' | 'expired'
  source?: 'api' | 'crd'
  version?: number
  createdAt?: string
  createdBy?: string
  updatedAt?: string
  updatedBy?: string
}
