import type { AuditRows } from '../store/audits-repository.js'
import type { PolicyJudgement } from './judge-request.js'

export interface AdmissionAuditStamp {
  /** The AdmissionReview's uid, so an audit is found from the API server's own audit log. */
  requestId: string
  /** The judged object as JSON text. */
  input: string
  /** The requesting user (request.userInfo.username). */
  updatedBy: string
}

/** One policy audit per judging policy and one ruleset audit per ruleset that judged, as the REST evaluation writes them. */
export function admissionAuditRows(judgements: readonly PolicyJudgement[], stamp: AdmissionAuditStamp): AuditRows {
  const audit = { ...stamp, inputFormat: 'json' as const, source: 'admission' as const }
  return {
    policyAudits: judgements.map((judgement) => ({ ...audit, policyName: judgement.policy, output: judgement.output, passed: judgement.output.passed })),
    rulesetAudits: judgements.flatMap((judgement) =>
      judgement.rulesets.map((output) => ({ ...audit, rulesetName: output.ruleset, output, passed: output.passed })),
    ),
  }
}
