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
