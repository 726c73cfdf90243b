import { createHash, randomUUIDv7 } from 'node:crypto'
import type { AuditRows } from '../../store/audits-repository.js'
import type { NotedVerdict } from '../../store/background-verdicts-repository.js'
import type { ScannedVerdicts } from './scan-cluster.js'

/** Who background audits are written by: no user asked for them. */
export const BACKGROUND_AUDITOR = 'system:verdict:background-scan'

/** `<apiVersion>/<kind>/<namespace>/<name>`: an object as background_verdicts keys it. */
export function objectKey(judged: ScannedVerdicts): string {
  const { apiVersion, kind, namespace, name } = judged.object
  return `${apiVersion}/${kind}/${namespace}/${name}`
}

/** Each policy's verdict on the object, digested: the audit output (passed and violations) is the verdict. */
export function notedVerdicts(judged: ScannedVerdicts): NotedVerdict[] {
  const object = objectKey(judged)
  return judged.verdicts.map((verdict) => ({
    policy: verdict.policy,
    object,
    digest: digestOf(verdict.output),
    passed: verdict.output.passed,
    failures: verdict.output.results.length,
  }))
}

/**
 * The audits of the verdicts that changed, as admission writes them: one policy audit per policy
 * and one ruleset audit per ruleset that judged, sharing one request id per object, with the object
 * as it stood as input and `source: background`.
 */
export function changedVerdictAudits(pages: readonly ScannedVerdicts[], changed: readonly NotedVerdict[], at: Date): AuditRows {
  const wanted = new Set(changed.map((verdict) => `${verdict.policy}\u0000${verdict.object}`))
  const rows: AuditRows = { policyAudits: [], rulesetAudits: [] }
  for (const judged of pages) {
    const object = objectKey(judged)
    const verdicts = judged.verdicts.filter((verdict) => wanted.has(`${verdict.policy}\u0000${object}`))
    if (verdicts.length === 0) continue
    const stamp = { requestId: `background-${randomUUIDv7()}`, input: judged.input, inputFormat: 'json' as const, updatedBy: BACKGROUND_AUDITOR, updatedAt: at, source: 'background' as const }
    for (const verdict of verdicts) {
      rows.policyAudits.push({ ...stamp, policyName: verdict.policy, output: verdict.output, passed: verdict.output.passed })
      for (const output of verdict.rulesets) rows.rulesetAudits.push({ ...stamp, rulesetName: output.ruleset, output, passed: output.passed })
    }
  }
  return rows
}

function digestOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('base64url')
}
