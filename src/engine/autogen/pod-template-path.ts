/** A step into a JSON document: a map key or a list index. */
export type PathSegment = string | number

/**
 * Where a field of the Pod that autogen presents (see pod-from-controller.ts) lives in the
 * controller that was actually submitted: `spec.x` is `spec.template.spec.x` of a Deployment and
 * `spec.jobTemplate.spec.template.spec.x` of a CronJob. The name and namespace are the
 * controller's own, so they keep their place.
 */
export function controllerPathOf(controllerKind: string, podPath: readonly PathSegment[]): PathSegment[] {
  const [head, field] = podPath
  if (head === 'metadata' && (field === 'name' || field === 'namespace')) return [...podPath]
  if (head !== 'spec' && head !== 'metadata') return [...podPath]
  const template = controllerKind === 'CronJob' ? ['spec', 'jobTemplate', 'spec', 'template'] : ['spec', 'template']
  return [...template, ...podPath]
}
