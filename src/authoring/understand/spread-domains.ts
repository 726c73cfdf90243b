import { topologyKeyOf } from '../catalog/topology-domains.js'
import type { Predicate, ValueRef } from './requirement.js'

/**
 * "topologySpreadConstraints must be defined, to spread pods over nodes and zones": the
 * constraints a clause names are there to spread over each domain it lists, so for each one
 * the list must hold a constraint whose `topologyKey` is the domain's well-known label
 * (catalog/topology-domains.ts). Read only when the clause names the constraints' field itself
 * (spreading by anti-affinity would do as well otherwise), and every domain it lists is known;
 * "nodes or zones" says neither is required, and is left unread.
 */
const SPREAD = /\bspread(?:s|ing)?\s+(?:the\s+|its\s+|their\s+)?(?:pods?|replicas?|workloads?|them|it)?\s*(?:evenly\s+)?(?:over|across|among|between)\s+(?:the\s+|all\s+|multiple\s+|different\s+)?((?:[a-z]+\s+){0,1}[a-z]+(?:\s*,\s*(?:and\s+)?(?:[a-z]+\s+){0,1}[a-z]+)*(?:\s+and\s+(?:[a-z]+\s+){0,1}[a-z]+)?)\s*(?=[.;,]|$)/i

export function readSpreadDomains(text: string, constraints: ValueRef | undefined): Array<{ ref: ValueRef; predicate: Predicate }> | undefined {
  if (!constraints || constraints.type !== 'array' || constraints.variants[0]?.segments.at(-1) !== 'topologySpreadConstraints') return undefined
  const match = SPREAD.exec(text)
  if (!match?.[1] || /\bor\b/i.test(match[1])) return undefined
  const keys: string[] = []
  for (const name of match[1].split(/\s*,\s*(?:and\s+)?|\s+and\s+/)) {
    const key = topologyKeyOf(name)
    if (!key) return undefined
    keys.push(key)
  }
  return keys.map((key) => ({ ref: { ...constraints, explicit: true }, predicate: { op: 'hasElement', noun: 'topologySpreadConstraint', where: [{ segments: ['topologyKey'], predicate: { op: 'equals', value: key } }] } }))
}
