/**
 * How a check reads a pod, where the two ways give different verdicts.
 *
 * - `as-run`: by what the pod would run with. A container is judged by the securityContext value
 *   it runs with (its own, else the pod's), so a pod-level Unconfined that every container
 *   overrides passes; a volume without a source runs as emptyDir (API defaulting) and passes.
 *   This is what the authoring catalog promises authors ("each container is judged by the value
 *   it runs with").
 * - `as-written`: by the fields as written, the way Kubernetes' pod-security-admission library
 *   (which Kyverno's `validate.podSecurity` runs) reads them. The pod-level value and each
 *   container's own value are judged each; a container without its own value is judged by the
 *   pod's. A pod-level Unconfined fails even when every container overrides it.
 */
export type PodSecurityReading = 'as-run' | 'as-written'
