import type { FastifyRequest } from 'fastify'
import { ApiError, insufficientScope } from './errors.js'
import { ADMIN_SCOPE, ANONYMOUS, grants, type Principal } from './principal.js'

export type Authenticate = (bearer: string) => Promise<Principal | null>

/** RFC 6750 token68: what a bearer token may look like on the wire. */
const BEARER = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i

function unauthorized(details: string, tokenSent: boolean): ApiError {
  return new ApiError(401, 'unauthorized', details, { 'www-authenticate': tokenSent ? 'Bearer error="invalid_token"' : 'Bearer' })
}

/**
 * Identifies the caller on every request before its body is read, so a caller without a valid
 * token learns nothing from validation errors and costs no parsing. Unknown routes need no
 * token (they answer 404); `public` routes neither.
 */
export function authenticationHook(authenticate: Authenticate) {
  return async function identifyCaller(request: FastifyRequest): Promise<void> {
    if (request.is404) {
      request.principal = ANONYMOUS
      return
    }
    // Node keeps only the first of repeated Authorization headers; which credential counts must not depend on that.
    const sent = request.raw.headersDistinct.authorization?.length ?? 0
    if (sent > 1) throw ApiError.badRequest(`headers.authorization: sent ${sent} times; send exactly one Authorization header`)
    if (request.routeOptions.config.scope === 'public') {
      request.principal = ANONYMOUS
      return
    }
    const header = request.headers.authorization
    if (header === undefined || header.trim() === '') {
      throw unauthorized('missing Authorization header; send Authorization: Bearer <token>', false)
    }
    if (!/^Bearer(\s|$)/i.test(header)) throw unauthorized('the Authorization header must use the Bearer scheme', false)
    const token = BEARER.exec(header)?.[1]
    if (token === undefined) throw unauthorized('malformed bearer token', true)
    const principal = await authenticate(token)
    if (principal === null) throw unauthorized('the token is unknown, expired or revoked', true)
    request.principal = principal
  }
}

/**
 * Runs after the rate limit, so a token probing routes it may not use is still limited.
 * A route without a declared scope cannot be registered; should one slip through, only admin passes.
 */
export async function authorize(request: FastifyRequest): Promise<void> {
  if (request.is404) return
  const scope = request.routeOptions.config.scope ?? ADMIN_SCOPE
  if (grants(request.principal, scope)) return
  throw new ApiError(403, 'forbidden', `the token lacks the scope ${scope}`, insufficientScope([scope]))
}
