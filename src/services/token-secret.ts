import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** Every secret starts with this, so a leaked one is recognisable in logs and by secret scanners. */
export const TOKEN_PREFIX = 'vdt_'

/** Generated secrets have 43 characters after the prefix; operator-chosen bootstrap secrets at least 32. */
const SECRET_SHAPE = /^vdt_[A-Za-z0-9_-]{32,200}$/

/** 256 random bits; only its hash is ever stored. */
export function newTokenSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`
}

export function newTokenId(): string {
  return `tok_${randomBytes(9).toString('base64url')}`
}

export function looksLikeTokenSecret(value: string): boolean {
  return SECRET_SHAPE.test(value)
}

/**
 * A fast hash is right here: the secrets carry 256 bits of entropy, so there is nothing to
 * brute-force, and the hash is the lookup key of every authenticated request.
 */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex')
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}
