import type { Environment } from '@marcbachmann/cel-js'

/**
 * Functions Kyverno adds to its CEL policies that the conformance policies use and that need no
 * cluster access. `parseServiceAccount(username)` splits `system:serviceaccount:<ns>:<name>` into
 * `{Namespace, Name}` (Go field names, as Kyverno exposes them); other usernames give empty strings.
 */
export function registerKyvernoLibrary(env: Environment): void {
  env.registerFunction('parseServiceAccount(string): map<string, string>', parseServiceAccount, { async: false })
}

const PREFIX = 'system:serviceaccount:'

export function parseServiceAccount(username: string): Record<string, string> {
  const account = { Namespace: '', Name: '' }
  if (!username.startsWith(PREFIX)) return account
  const rest = username.slice(PREFIX.length)
  const colon = rest.indexOf(':')
  if (colon >= 0) {
    account.Namespace = rest.slice(0, colon)
    account.Name = rest.slice(colon + 1)
  }
  return account
}
