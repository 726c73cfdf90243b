/**
 * What services report to their transports. The REST API maps them to 400/404/409 with
 * `{error, details}`; the CLI prints them.
 */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError'
  /** Names the field, e.g. `body.spec.rules[0].validate.cel[0].expression: ...`. */
  readonly details: string

  constructor(details: string, summary = 'invalid request') {
    super(summary)
    this.details = details
  }
}

export class NotFoundError extends Error {
  override readonly name = 'NotFoundError'
  readonly details: string

  constructor(what: string, name: string) {
    super(`${what} not found`)
    this.details = `${what} "${name}" does not exist`
  }
}

export class ConflictError extends Error {
  override readonly name = 'ConflictError'
  readonly details: string

  constructor(summary: string, details: string) {
    super(summary)
    this.details = details
  }
}

/** The caller may use the route but not do this with it: a token granting a scope it does not hold. */
export class ForbiddenError extends Error {
  override readonly name = 'ForbiddenError'
  readonly details: string
  /** The scopes the caller would need, for the WWW-Authenticate header. */
  readonly scopes: readonly string[]

  constructor(details: string, scopes: readonly string[]) {
    super('forbidden')
    this.details = details
    this.scopes = scopes
  }
}
