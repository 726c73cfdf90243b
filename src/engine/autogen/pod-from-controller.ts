import { podTemplateOf } from './pod-controllers.js'

/**
 * Presents a controller's pod template as the Pod it will create: the template's metadata and spec,
 * named and namespaced as the controller, so rules written for Pods read it unchanged.
 */
export function podFromController(controller: Record<string, unknown>): Record<string, unknown> | undefined {
  const template = podTemplateOf(controller)
  if (!template) return undefined
  const controllerMetadata = (controller.metadata ?? {}) as Record<string, unknown>
  const templateMetadata = (template.metadata ?? {}) as Record<string, unknown>
  const metadata: Record<string, unknown> = { ...templateMetadata }
  if (controllerMetadata.name !== undefined) metadata.name = controllerMetadata.name
  if (controllerMetadata.namespace !== undefined) metadata.namespace = controllerMetadata.namespace
  const pod: Record<string, unknown> = { apiVersion: 'v1', kind: 'Pod', metadata }
  if (template.spec !== undefined) pod.spec = template.spec
  return pod
}
