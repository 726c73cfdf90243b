import type { ObjectJudgement, ScanSummary } from './scan-result.js'

export function summarizeScan(objectCount: number, judgements: readonly ObjectJudgement[]): ScanSummary {
  const summary: ScanSummary = {
    objects: objectCount,
    judged: new Set(judgements.map((judgement) => judgement.object)).size,
    passed: 0,
    failed: 0,
    errors: 0,
    failuresByAction: { Deny: 0, Warn: 0, Audit: 0 },
    denied: judgements.some((judgement) => judgement.action === 'Deny' && !judgement.passed),
  }
  for (const judgement of judgements) {
    for (const result of judgement.results) {
      if (result.status === 'pass') summary.passed += 1
      else if (result.status === 'fail') summary.failed += 1
      else if (result.status === 'error') summary.errors += 1
      if (result.status === 'fail' || result.status === 'error') summary.failuresByAction[judgement.action] += 1
    }
  }
  return summary
}
