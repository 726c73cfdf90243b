import type { AdmissionRequest } from './admission-review.js'

export interface SkipSettings {
  /**
   * Namespaces the webhook leaves alone: Verdict's own (its Lease, its pods), so a broken policy
   * can never stop Verdict itself from being repaired or scaled. The chart's namespaceSelector
   * leaves them out too; this holds when a hand-written webhook configuration does not.
   */
  exemptNamespaces: ReadonlySet<string>
}

/**
 * Why a request is allowed without judging it, or undefined when it is to be judged.
 *
 * - `status` subresource: written by controllers and kubelets about objects that were admitted
 *   already, carrying the whole object with its spec unchanged. Judging it again would deny status
 *   updates of any object that a newer policy dislikes and wedge its controller.
 *   Every other subresource is judged on the object it carries, which has a kind of its own
 *   (Scale, Eviction, PodExecOptions, Binding) so only policies naming that kind select it,
 *   except `ephemeralcontainers` and `resize`, which carry the Pod: Pod policies judge those, as
 *   they add containers or change resources.
 * - CONNECT without an object: nothing to judge (only the options object of exec/attach/portforward is ever sent).
 * - A request in an exempt namespace.
 */
export function shouldSkipRequest(request: AdmissionRequest, settings: SkipSettings): string | undefined {
  if (request.subResource === 'status') return 'status subresource'
  if (request.operation === 'CONNECT' && !request.object) return 'CONNECT without an object'
  if (request.namespace && settings.exemptNamespaces.has(request.namespace)) return `namespace ${request.namespace} is exempt`
  return undefined
}
