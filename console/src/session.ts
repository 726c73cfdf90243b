import { whoAmI, type WhoAmI } from './api/api-client.js'

/** sessionStorage: the token lives as long as the tab, never in a URL or a cookie. */
const TOKEN_KEY = 'verdict.token'

export interface Session {
  token: string
  identity: WhoAmI
}

export function storedToken(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined
}

export async function signIn(token: string): Promise<Session> {
  const identity = await whoAmI(token)
  sessionStorage.setItem(TOKEN_KEY, token)
  return { token, identity }
}

export function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY)
}

/** `admin` holds every scope, as the API grants them. */
export function holds(session: Session, scope: string): boolean {
  return session.identity.scopes.includes('admin') || session.identity.scopes.includes(scope)
}
