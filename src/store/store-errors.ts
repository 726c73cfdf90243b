/** Errors the repositories raise for conditions the caller must answer differently (404, 409). */

export class NotFoundError extends Error {
  constructor(
    readonly kind: string,
    readonly key: string,
  ) {
    super(`${kind} "${key}" not found`)
    this.name = 'NotFoundError'
  }
}

export class AlreadyExistsError extends Error {
  constructor(
    readonly kind: string,
    readonly key: string,
  ) {
    super(`${kind} "${key}" already exists`)
    this.name = 'AlreadyExistsError'
  }
}

export class StillReferencedError extends Error {
  constructor(
    readonly kind: string,
    readonly key: string,
    /** Names of the definitions that still point at it, sorted. */
    readonly referencedBy: string[],
  ) {
    super(`${kind} "${key}" is still referenced by ${referencedBy.join(', ')}`)
    this.name = 'StillReferencedError'
  }
}
