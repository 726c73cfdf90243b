/**
 * A Kyverno `podSecurity` block (or exclude) Kyverno itself would refuse: an unknown level or
 * control, a version that is not published, an exclude its validation rejects. `field` names
 * where, e.g. `rules[0].validate.podSecurity.exclude[1].controlName`.
 */
export class PodSecurityInvalid extends Error {
  readonly field: string
  readonly problem: string

  constructor(field: string, problem: string) {
    super(`${field}: ${problem}`)
    this.name = 'PodSecurityInvalid'
    this.field = field
    this.problem = problem
  }
}

/**
 * A well-formed block that cannot be judged exactly as Kyverno judges it (level privileged, some
 * orders of excludes): Verdict refuses it rather than judge some pods differently.
 */
export class PodSecurityUnsupported extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'PodSecurityUnsupported'
  }
}
