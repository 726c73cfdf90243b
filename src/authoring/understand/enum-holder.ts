import { kubernetesFields, type FieldInfo } from '../fields/kubernetes-fields.js'
import { tokenize } from '../fields/resolve-kubernetes-field.js'
import { kubernetesRef } from './find-fields.js'
import type { ValueRef } from './requirement.js'

/**
 * "Seccomp must be unset or set to `RuntimeDefault` or `Localhost`": the values belong to the enums
 * of several fields (`seccompProfile.type`, `appArmorProfile.type`), and a word of the subject names
 * part of one of their paths. That field is meant, at every level it exists (pod and container).
 * Undefined unless the subject's words leave exactly one field name (its last two segments): a
 * word that every candidate shares, or none has, decides nothing.
 */
export function enumHolderNamed(subject: string, values: readonly string[], schemaKind: string): ValueRef[] {
  if (values.length === 0) return []
  const holders = kubernetesFields(schemaKind).filter((info) => info.enum && values.every((value) => info.enum?.includes(value)) && !/initContainers|ephemeralContainers/.test(info.path))
  if (placeOf(holders).size < 2) return []
  const pathTokens = new Map(holders.map((info) => [info, new Set(tokenize(info.path))]))
  // Words of the subject that some candidate's path has and another's lacks: they tell the candidates apart.
  const telling = [...new Set(tokenize(subject))].filter((word) => holders.some((info) => pathTokens.get(info)?.has(word)) && holders.some((info) => !pathTokens.get(info)?.has(word)))
  if (telling.length === 0) return []
  const named = holders.filter((info) => telling.every((word) => pathTokens.get(info)?.has(word)))
  if (named.length === 0 || placeOf(named).size !== 1) return []
  return named.map((info) => kubernetesRef(info, subject.trim()))
}

/** Where a field is, by its last two segments (`seccompProfile.type` at pod and container level is one place). */
function placeOf(fields: readonly FieldInfo[]): Set<string> {
  return new Set(fields.map((info) => info.path.split('.').slice(-2).join('.')))
}
