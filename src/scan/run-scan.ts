import type { Judge } from './judge/judge.js'
import { objectRef, type ManifestObject } from './manifests/manifest-object.js'
import type { ObjectJudgement, ScanPolicy, ScanReport } from './scan-result.js'
import { summarizeScan } from './summarize-scan.js'

export interface RunScanOptions {
  /** Objects judged at once: a server judge waits on the network, the engine does not. */
  concurrency?: number
  /** Called after each object with how many are done. */
  onProgress?: (done: number) => void
}

/** Judges every object and gathers the report; results keep input order whatever the concurrency. */
export async function runScan(objects: readonly ManifestObject[], judge: Judge, options: RunScanOptions = {}): Promise<ScanReport> {
  const refs = objects.map(objectRef)
  const perObject: ObjectJudgement[][] = new Array<ObjectJudgement[]>(objects.length)
  let next = 0
  let done = 0
  const worker = async (): Promise<void> => {
    while (next < objects.length) {
      const index = next
      next += 1
      const object = objects[index] as ManifestObject
      const ref = refs[index] as (typeof refs)[number]
      perObject[index] = (await judge.judge(object)).map((judgement) => ({ object: ref, ...judgement }))
      done += 1
      options.onProgress?.(done)
    }
  }
  const workers = Math.max(1, Math.min(options.concurrency ?? 1, objects.length))
  await Promise.all(Array.from({ length: workers }, worker))
  const judgements = perObject.flat()
  return { objects: refs, policies: withRulesSeen(judge.policies, judgements), judgements, summary: summarizeScan(refs.length, judgements) }
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
