import { isNotFound, JmespathError } from '../errors.js'

/**
 * Variable or reference substitution failed. The message is Kyverno's ("failed to resolve
 * request.object.spec.x at path /key: JMESPath query failed: Unknown key \"x\" in path"); callers
 * prefix it as Kyverno does ("variable substitution failed: ..." for patterns, "failed to
 * substitute variables in condition key: ..." for conditions).
 */
export class SubstitutionError extends JmespathError {
  override name = 'SubstitutionError'
  /** The expression that failed, when a variable failed. */
  readonly variable: string | undefined
  /** Where in the substituted document, in Kyverno's path form ('' for the document itself). */
  readonly path: string
  /** True when the failure is a missing field (Kyverno's "Unknown key"). */
  readonly notFound: boolean

  constructor(message: string, details: { path: string; variable?: string; cause?: unknown }) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.path = details.path
    this.variable = details.variable
    this.notFound = isNotFound(details.cause)
  }
}
