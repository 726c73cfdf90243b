import { hostSocketPaths } from '../catalog/host-sockets.js'
import { kubernetesFields } from '../fields/kubernetes-fields.js'
import { kubernetesRef } from './find-fields.js'
import type { Condition, Predicate, ValueRef } from './requirement.js'

/**
 * "for any Pod mounting the Docker socket", "Pods that mount the containerd socket": a pod that
 * declares a hostPath volume at one of the paths the named socket has (catalog/host-sockets.ts).
 * As a condition it holds when at least one volume is such a one; as a ban no volume may be.
 */
const MOUNTING = /^\s*(?:(?:any|every|each|all|a|an|the)\s+)?(?:[A-Za-z]+\s+)?(?:mounting|that mounts?|which mounts?|mounts?|using a volume for|with a volume for)\s+(?:the\s+|a\s+|an\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?(?:['’]s)?)\s+sockets?\s*$/i

const SOCKET_NAME = String.raw`(?:the\s+|a\s+|an\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?(?:['’]s)?)\s+sockets?\b`
/** "disallow mounting the X socket", "block pods that mount the X socket", "no pod may mount ...", "must not mount ...". */
const BANNED = new RegExp(
  String.raw`\b(?:disallow|forbid|prohibit|block|deny|reject|prevent|ban|no)\b(?:\s+[\w-]+){0,4}?\s+(?:mounting|mounts?|mounts? of|use of|access to)\s+${SOCKET_NAME}|\b(?:must not|mustn'?t|may not|can'?t|cannot|should not|shall not|never)\s+mount\s+${SOCKET_NAME}`,
  'i',
)

export function mountsSocketCondition(text: string, schemaKind: string): Condition | undefined {
  const match = MOUNTING.exec(text)
  const paths = match?.[1] ? hostSocketPaths(match[1]) : undefined
  const volumes = volumesRef(schemaKind)
  if (!paths || !volumes) return undefined
  const predicate: Predicate = { op: 'hasElement', noun: 'volume', where: [{ segments: ['hostPath', 'path'], predicate: { op: 'oneOf', values: [...paths] } }] }
  return { value: volumes, predicate, missing: 'fail', text: text.trim() }
}

/** "Disallow mounting the Docker socket", "containers must not mount the CRI-O socket": no volume at its paths. */
export function readSocketBan(text: string, schemaKind: string): { refs: ValueRef[]; predicate: Predicate } | undefined {
  const match = BANNED.exec(text)
  const name = match?.[1] ?? match?.[2]
  const paths = name ? hostSocketPaths(name) : undefined
  const volumes = volumesRef(schemaKind)
  const path = volumes ? kubernetesFields(schemaKind).find((info) => info.path.endsWith('volumes[].hostPath.path') && !info.path.includes('containers[]')) : undefined
  if (!paths || !path) return undefined
  return { refs: [{ ...kubernetesRef(path, `${name ?? ''} socket`), explicit: true }], predicate: { op: 'noneOf', values: [...paths] } }
}

function volumesRef(schemaKind: string): ValueRef | undefined {
  const info = kubernetesFields(schemaKind).find((field) => field.path.endsWith('volumes') && field.type === 'array' && kubernetesFields(schemaKind).some((child) => child.path === `${field.path}[].hostPath.path`))
  return info ? { ...kubernetesRef(info, 'volumes'), explicit: true } : undefined
}
