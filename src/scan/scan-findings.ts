import { isNotedSkip, type PolicyAction, type RuleStatus, type Severity } from '../engine/index.js'
import type { ObjectRef } from './manifests/manifest-object.js'
import type { ScanReport } from './scan-result.js'

/** One rule's result for one object under one policy, flat, as the outputs list them. */
export interface ScanFinding {
  object: ObjectRef
  policy: string
  action: PolicyAction
  ruleset: string
  rule: string
  /** `skip` only for a rule a PolicyException let through (`exception` names it) or one switched off (`disabled`). */
  status: RuleStatus
  severity: Severity
  message: string
  path?: string
  exception?: string
  /** Set for a rule switched off (`enabled: false`): why. */
  disabledReason?: string
}

/**
 * The fail and error results, the rules exceptions let through and those switched off (never silently absent), in
 * report order; `all` adds the passes (JUnit counts them).
 */
export function scanFindings(report: ScanReport, which: 'failures' | 'all' = 'failures'): ScanFinding[] {
  const findings: ScanFinding[] = []
  for (const judgement of report.judgements) {
    for (const result of judgement.results) {
      if ((result.status === 'skip' && !isNotedSkip(result)) || (which === 'failures' && result.status === 'pass')) continue
      findings.push({
        object: judgement.object,
        policy: judgement.policy,
        action: judgement.action,
        ruleset: result.ruleset,
        rule: result.rule,
        status: result.status,
        severity: result.severity,
        message: result.message ?? defaultMessage(result.ruleset, result.rule, result.status),
        ...(result.path === undefined ? {} : { path: result.path }),
        ...(result.exception === undefined ? {} : { exception: result.exception }),
        ...(result.disabled === true ? { disabledReason: result.disabledReason ?? '' } : {}),
      })
    }
  }
  return findings
}

/** Rules need not carry a message; every output still says something a reader can act on. */
function defaultMessage(ruleset: string, rule: string, status: RuleStatus): string {
  if (status === 'pass' || status === 'skip') return ''
  return `rule ${ruleset}/${rule} ${status === 'error' ? 'could not be evaluated' : 'failed'}`
}
