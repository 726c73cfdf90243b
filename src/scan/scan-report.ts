import type { ObjectRef } from './manifests/manifest-object.js'
import type { ObjectJudgement, ScanPolicy, ScanReport } from './scan-result.js'
import { summarizeScan } from './summarize-scan.js'

/** The report of a scan once every object is judged, whichever way the objects were read. */
export function scanReport(objects: ObjectRef[], policies: readonly ScanPolicy[], judgements: ObjectJudgement[]): ScanReport {
  return { objects, policies: withRulesSeen(policies, judgements), judgements, summary: summarizeScan(objects.length, judgements) }
}

/** A server lists policies without their rules; the rules that reported on an object are known all the same. */
function withRulesSeen(policies: readonly ScanPolicy[], judgements: readonly ObjectJudgement[]): ScanPolicy[] {
  return policies.map((policy) => {
    const rules = [...policy.rules]
    const known = new Set(rules.map((rule) => `${rule.ruleset}/${rule.rule}`))
    for (const judgement of judgements) {
      if (judgement.policy !== policy.name) continue
      for (const result of judgement.results) {
        const key = `${result.ruleset}/${result.rule}`
        if (known.has(key)) continue
        known.add(key)
        rules.push({ ruleset: result.ruleset, rule: result.rule, severity: result.severity, ...(result.remediation === undefined ? {} : { remediation: result.remediation }) })
      }
    }
    return { ...policy, rules }
  })
}
