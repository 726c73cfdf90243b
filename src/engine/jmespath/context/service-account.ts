/**
 * Kyverno's serviceAccountName and serviceAccountNamespace, from the requesting user's name
 * (context AddServiceAccount): the part after "system:serviceaccount:" split at ':' into
 * namespace and name. Like Kyverno, it cuts the prefix's length without checking the prefix, so
 * a long non-service-account name can yield values too; a short one yields ''.
 */
export function serviceAccountOf(username: string): { name: string; namespace: string } {
  const prefix = 'system:serviceaccount:'
  const rest = username.length <= prefix.length ? '' : username.slice(prefix.length)
  const groups = rest.split(':')
  if (groups.length >= 2) return { name: groups[1] as string, namespace: groups[0] as string }
  return { name: '', namespace: '' }
}
