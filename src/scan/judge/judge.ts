import type { ScanObject } from '../manifests/manifest-object.js'
import type { PolicyJudgement, ScanPolicy } from '../scan-result.js'

/**
 * What judges objects for a scan: the engine on local definitions, or a running Verdict.
 * `judge` answers only for the policies that judged the object (matched it and ran a rule).
 */
export interface Judge {
  readonly policies: readonly ScanPolicy[]
  judge(object: ScanObject): PolicyJudgement[] | Promise<PolicyJudgement[]>
}
