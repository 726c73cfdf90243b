/** Who made a request: the API token's id, its owner (written to `updatedBy`) and its scopes. */
export interface Principal {
  readonly tokenId: string
  readonly owner: string
  readonly scopes: readonly string[]
}

/**
 * What a route requires: a scope the token must hold, `any` (any valid token) or `public`
 * (no token at all). Scopes are open strings so a route group can introduce its own.
 */
export type RouteScope = 'any' | 'public' | (string & {})

/** Holding `admin` grants every scope. */
export const ADMIN_SCOPE = 'admin'

/** `request.principal` on public routes, so handlers never deal with a missing principal. */
export const ANONYMOUS: Principal = Object.freeze({ tokenId: '', owner: 'anonymous', scopes: Object.freeze([]) })

export function grants(principal: Principal, scope: RouteScope): boolean {
  if (scope === 'any' || scope === 'public') return true
  return principal.scopes.includes(scope) || principal.scopes.includes(ADMIN_SCOPE)
}
