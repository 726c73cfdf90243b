import { builtInResources } from '../../k8s/kind-resources.js'
import { kubernetesFields } from '../fields/kubernetes-fields.js'
import { canonicalKind } from '../text/kinds.js'
import { kubernetesRef } from './find-fields.js'
import type { Condition } from './requirement.js'

/**
 * "using these verbs in tandem with Secret resources": entries of an RBAC rule's list are banned
 * only in a rule whose `resources` list holds the kind's resource (`secrets`). The condition is on
 * the same element as the list (each rule judged on its own), and the resource is the one the API
 * serves the named kind as. Undefined when the sentence pairs the list with nothing; null when it
 * does but the pairing cannot be read (no built-in kind, no sibling `resources` list): then
 * nothing may be read from the sentence without it.
 */
const PAIRED = /\b(?:in tandem with|together with|paired with|combined with|in combination with|alongside|along with)\s+(?:the\s+|an?\s+)?([A-Za-z]+)\s+resources?\b/i
const PAIRING_WORDS = /\b(?:in tandem with|together with|paired with|combined with|in combination with)\b/i

export function pairedResource(text: string, schemaKind: string, listPath: string): Condition | undefined | null {
  const match = PAIRED.exec(text)
  if (!match?.[1]) return PAIRING_WORDS.test(text) ? null : undefined
  const kind = canonicalKind(match[1])
  const resource = kind ? builtInResources(kind)[0]?.resource : undefined
  const element = /^(.*\[\])\.[^.[\]]+$/.exec(listPath)?.[1]
  const sibling = element ? kubernetesFields(schemaKind).find((info) => info.path === `${element}.resources` && info.type === 'array') : undefined
  if (!resource || !sibling || sibling.path === listPath) return null
  return { value: { ...kubernetesRef(sibling, 'resources'), explicit: true }, predicate: { op: 'contains', values: [resource] }, missing: 'fail', text: match[0] }
}
