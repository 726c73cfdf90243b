export const SCOPES = [
  'eval',
  'audits:read',
  'rulesets:read',
  'rulesets:write',
  'policies:read',
  'policies:write',
  'exceptions:read',
  'exceptions:write',
  'tokens:manage',
  'admin',
] as const

export type Scope = (typeof SCOPES)[number]

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}

/** `admin` holds every scope. */
export function grants(scopes: readonly string[], needed: Scope): boolean {
  return scopes.includes('admin') || scopes.includes(needed)
}
