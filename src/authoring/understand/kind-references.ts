import { kindUseFields } from './kind-uses.js'
import type { Requirement } from './requirement.js'

/** Kinds a pod reaches through several fields: a Secret as a volume, an env var, envFrom, a projected source. */
const REFERENCED_KINDS: Readonly<Record<string, RegExp>> = {
  Secret: /^(?:secret|secretRef|secretKeyRef)$/,
  ConfigMap: /^(?:configMap|configMapRef|configMapKeyRef)$/,
}

/**
 * "Disallow the use of all Secrets in a Pod" read as forbidding `spec.volumes[].secret`: a kind
 * a pod uses through several fields, forbidden through one of them. The other uses
 * (`env[].valueFrom.secretKeyRef`, `envFrom[].secretRef`, projected sources) would pass, so the
 * sentence is refused naming them instead of read as the one the words happened to resolve to.
 */
export function otherUsesOfKind(text: string, requirement: Requirement): string[] {
  if (requirement.subject.platform !== 'kubernetes' || requirement.predicate.op !== 'unset') return []
  const paths = requirement.values.flatMap((ref) => ref.variants.map((variant) => variant.segments.join('.')))
  const leaves = paths.map((path) => path.split('.').at(-1) ?? '')
  for (const [kind, pattern] of Object.entries(REFERENCED_KINDS)) {
    if (!leaves.some((leaf) => pattern.test(leaf)) || !new RegExp(`\\b${kind.replace('Map', ' ?map')}s?\\b`, 'i').test(text)) continue
    const schemaKind = requirement.subject.kinds[0] ?? 'Pod'
    const uses = kindUseFields(schemaKind, kind).map((info) => info.path)
    const bare = (path: string): string => path.replace(/\.?\[\]/g, '')
    const covered = (path: string): boolean => paths.some((used) => bare(used) === bare(path) || bare(used).endsWith(`.${bare(path)}`) || bare(path).endsWith(`.${bare(used)}`))
    const other = uses.filter((path) => !covered(path))
    if (other.length > 0) return other
  }
  return []
}
