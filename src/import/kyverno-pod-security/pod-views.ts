import { celString, listOf, mapOf, stringOf } from '../../engine/pod-security/index.js'
import type { Variable } from '../../engine/model/rule.js'
import { wildcardRegex } from './wildcard-regex.js'

/**
 * The pods Kyverno runs the Pod Security checks on (pkg/pss/evaluate.go), as the CEL its field
 * errors are built from (field-errors.ts): the pod itself, and the stand-ins it builds for each
 * exclude, whose errors decide which of the pod's errors the exclude exempts.
 */
export interface PodView {
  /** The spec whose pod-level fields (securityContext, volumes, host namespaces, os) are read. */
  spec: string
  annotations: string
  /** The container lists in the order the checks visit them. */
  lists: readonly ContainerList[]
}

export interface ContainerList {
  field: ContainerField
  list: string
}

export const CONTAINER_FIELDS = ['initContainers', 'containers', 'ephemeralContainers'] as const
export type ContainerField = (typeof CONTAINER_FIELDS)[number]

export const ACTUAL_POD: PodView = {
  spec: 'object.spec',
  annotations: mapOf('object.metadata.?annotations'),
  lists: CONTAINER_FIELDS.map((field) => ({ field, list: listOf(`object.spec.?${field}`) })),
}

/**
 * For an exclude without images, Kyverno judges a copy of the pod whose containers are one bare
 * container named "fake": its errors are the pod-level ones, plus whatever the bare container
 * fails (a missing runAsNonRoot or seccompProfile when the pod sets none), which then exempts one
 * error of the same field among the real app containers.
 */
export const POD_LEVEL_EXCLUSION: PodView = {
  spec: ACTUAL_POD.spec,
  annotations: ACTUAL_POD.annotations,
  lists: [{ field: 'containers', list: "[dyn({'name': 'fake'})]" }],
}

/**
 * For an exclude with images, Kyverno judges a pod of the containers whose image matches, with
 * no pod-level fields and no annotations: only container-level errors come out, judged without
 * the pod's values (a container without runAsNonRoot errs there even if the pod sets it).
 */
export function matchingContainersPod(variable: string): PodView {
  return { spec: 'dyn({})', annotations: 'dyn({})', lists: CONTAINER_FIELDS.map((field) => ({ field, list: `variables.${variable}.${field}` })) }
}

/** The variable holding an exclude's matching containers, for matchingContainersPod. */
export function matchingContainersVariable(name: string, images: readonly string[]): Variable {
  const matches = `${stringOf('c.?image')}.matches(${celString(wildcardRegex(images))})`
  const lists = CONTAINER_FIELDS.map((field) => `${celString(field)}: ${listOf(`object.spec.?${field}`)}.filter(c, ${matches})`)
  return { name, expression: `{${lists.join(', ')}}` }
}
