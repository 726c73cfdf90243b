/**
 * Why a policy, or one rule of it, cannot become a ValidatingAdmissionPolicy that judges as Verdict
 * judges. `field` is the path inside the rule (or the policy, when `rule` is absent) that says it.
 */
export interface Refusal {
  /** Absent when the refusal is about the policy as a whole. */
  ruleset?: string
  rule?: string
  /** What cannot be generated and why, in a sentence. */
  reason: string
  /** e.g. `validate.pattern`, `match.annotations`, `validate.cel[0].expression`. */
  field: string
}

/**
 * Thrown inside the generator where a construct has no Kubernetes equivalent; the generator turns
 * it into a Refusal naming the ruleset and rule it was found in. It never leaves the generator.
 */
export class CannotGenerate extends Error {
  readonly field: string

  constructor(field: string, reason: string) {
    super(reason)
    this.name = 'CannotGenerate'
    this.field = field
  }
}
