/**
 * Errors of Kyverno-flavoured JMESPath. Messages follow Kyverno's wording where callers match on
 * it: Kyverno's foreach skips a list whose error says "Unknown key", and its rule messages embed
 * these texts.
 */

/** Any failure to compile or evaluate an expression. */
export class JmespathError extends Error {
  override name = 'JmespathError'
}

/** The expression is not valid JMESPath as Kyverno's parser reads it. */
export class JmespathSyntaxError extends JmespathError {
  override name = 'JmespathSyntaxError'
}

/**
 * A field named along the expression's main path is absent from an object. Kyverno's JMESPath
 * (its fork of go-jmespath) raises this where standard JMESPath returns null, so
 * `request.object.metadata.labels.app` fails on a Pod without that label while
 * `request.object.metadata.labels.app || ''` does not.
 */
export class JmespathNotFoundError extends JmespathError {
  override name = 'JmespathNotFoundError'
  readonly key: string

  constructor(key: string) {
    super(`Unknown key ${JSON.stringify(key)} in path`)
    this.key = key
  }
}

/** A Kyverno function failed; the message starts with `JMESPath function '<name>': ` as Kyverno's do. */
export function functionError(name: string, reason: string): JmespathError {
  return new JmespathError(`JMESPath function '${name}': ${reason}`)
}

/** A Kyverno function Verdict does not implement; names the function and why. */
export function unsupportedFunction(name: string, why: string): JmespathError {
  return functionError(name, `not supported by Verdict: ${why}`)
}

/** True when the error, or one it wraps, is a not-found error. */
export function isNotFound(error: unknown): boolean {
  for (let current = error, hops = 0; current instanceof Error && hops < 16; current = current.cause, hops++) {
    if (current instanceof JmespathNotFoundError) return true
  }
  return false
}
