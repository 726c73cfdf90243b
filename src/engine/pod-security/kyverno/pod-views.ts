import { celString, listOf, mapOf, stringOf } from '../index.js'
import type { Variable } from '../../model/rule.js'
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
  /**
   * The containers, init then app then ephemeral as the checks visit them, each as an entry:
   * `{'path': 'spec.initContainers[0]', 'key': 'spec.initContainers[*]', 'name': ..., 'c': container}`.
   */
  containers: string
}

const CONTAINER_FIELDS = ['initContainers', 'containers', 'ephemeralContainers'] as const

/** The entries of a pod's containers, those `filter` (CEL over `c`) keeps, indexed among them. */
function containerEntries(filter?: string): string {
  return CONTAINER_FIELDS.map((field) => {
    const list = `${listOf(`object.spec.?${field}`)}${filter === undefined ? '' : `.filter(c, ${filter})`}`
    return `${list}.transformList(i, c, {'path': 'spec.${field}[' + string(i) + ']', 'key': 'spec.${field}[*]', 'name': ${stringOf('c.?name')}, 'c': c})`
  }).join(' + ')
}

/** The entries of the pod's own containers, bound once for every check. */
export const CONTAINER_ENTRIES_VARIABLE: Variable = { name: 'podSecurity_containers', expression: containerEntries() }

export const ACTUAL_POD: PodView = {
  spec: 'object.spec',
  annotations: mapOf('object.metadata.?annotations'),
  containers: `variables.${CONTAINER_ENTRIES_VARIABLE.name}`,
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
  containers: "[{'path': 'spec.containers[0]', 'key': 'spec.containers[*]', 'name': 'fake', 'c': dyn({'name': 'fake'})}]",
}

/**
 * For an exclude with images, Kyverno judges a pod of the containers whose image matches, with
 * no pod-level fields and no annotations: only container-level errors come out, judged without
 * the pod's values (a container without runAsNonRoot errs there even if the pod sets it).
 */
export function matchingContainersPod(variable: string): PodView {
  return { spec: 'dyn({})', annotations: 'dyn({})', containers: `variables.${variable}` }
}

/** The variable holding the entries of an exclude's matching containers, for matchingContainersPod. */
export function matchingContainersVariable(name: string, images: readonly string[]): Variable {
  return { name, expression: containerEntries(`${stringOf('c.?image')}.matches(${celString(wildcardRegex(images))})`) }
}
