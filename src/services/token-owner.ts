/**
 * What a token's owner may be. The owner is written to every audit the token causes
 * (`updatedBy`) and shown in token lists, so it must read as one identity: an e-mail address
 * (`ops@example.com`), a user name (`alice`, `kubernetes-admin`), or a colon-separated
 * Kubernetes identity (`system:serviceaccount:ci:deployer`, `oidc:alice@example.com`). Spaces,
 * control characters and anything else that could disguise or split a log line are refused.
 */
export const MAX_OWNER_LENGTH = 256

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?'
const EMAIL = `[A-Za-z0-9.!#$%&'*+/=?^_\`{|}~-]+@${LABEL}(?:\\.${LABEL})*`
const NAME = '[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?'
/** One e-mail address or name, or several joined by colons (a Kubernetes identity such as system:serviceaccount:ns:name). */
const IDENTITY = new RegExp(`^(?:${EMAIL}|${NAME})(?::(?:${EMAIL}|${NAME}))*$`)

/** Why `owner` cannot be a token's owner, naming the field; undefined when it can. */
export function ownerProblem(owner: string): string | undefined {
  if (owner.length === 0 || owner.length > MAX_OWNER_LENGTH) return `owner must be 1-${MAX_OWNER_LENGTH} characters, got ${owner.length}`
  if (IDENTITY.test(owner)) return undefined
  return `owner must be one identity: an e-mail address (ops@example.com), a user name (alice) or a Kubernetes identity (system:serviceaccount:ci:deployer), without spaces or control characters; got ${JSON.stringify(owner)}`
}
