import type { Judge } from './judge/judge.js'
import { objectRef, type ObjectRef, type ScanObject } from './manifests/manifest-object.js'
import type { ObjectJudgement, ScanReport } from './scan-result.js'
import { scanReport } from './scan-report.js'

export interface RunScanOptions {
  /** Objects judged at once: a server judge waits on the network, the engine does not. */
  concurrency?: number
  /** Called after each object with how many are done. */
  onProgress?: (done: number) => void
}

/** Judges every object and gathers the report; results keep input order whatever the concurrency. */
export async function runScan(objects: readonly ScanObject[], judge: Judge, options: RunScanOptions = {}): Promise<ScanReport> {
  const { refs, judgements } = await judgeObjects(objects, judge, options)
  return scanReport(refs, judge.policies, judgements)
}

/** Each object's judgements, in input order whatever order concurrent judgements finish in. */
export async function judgeObjects(objects: readonly ScanObject[], judge: Judge, options: RunScanOptions = {}): Promise<{ refs: ObjectRef[]; judgements: ObjectJudgement[] }> {
  const refs = objects.map(objectRef)
  const perObject: ObjectJudgement[][] = new Array<ObjectJudgement[]>(objects.length)
  let next = 0
  let done = 0
  const worker = async (): Promise<void> => {
    while (next < objects.length) {
      const index = next
      next += 1
      const object = objects[index] as ScanObject
      const ref = refs[index] as ObjectRef
      perObject[index] = (await judge.judge(object)).map((judgement) => ({ object: ref, ...judgement }))
      done += 1
      options.onProgress?.(done)
    }
  }
  const workers = Math.max(1, Math.min(options.concurrency ?? 1, objects.length))
  await Promise.all(Array.from({ length: workers }, worker))
  return { refs, judgements: perObject.flat() }
}
