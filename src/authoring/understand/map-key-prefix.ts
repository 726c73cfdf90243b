import type { Predicate, ValueRef } from './requirement.js'

/**
 * "prevents the use of an annotation beginning with `fluxcd.io/`", "no label key may start with
 * `internal.acme.io/`": no key of the map may start with the prefix written. Read only when the
 * sentence forbids, names the map (label, annotation or tag) and writes each prefix as a literal;
 * the map is the object's own (`metadata.labels`, `metadata.annotations`, Terraform `tags`).
 */
export interface KeyPrefixBan {
  refs: ValueRef[]
  predicate: Predicate
}

const BAN = /\b(?:no|never|must not|mustn'?t|may not|cannot|can'?t|disallow(?:s|ed)?|prevents?|blocks?|forbids?|bans?|prohibits?|denies|deny|rejects?)\b/i

const PREFIXED = /\b(labels?|annotations?|tags?)(?:\s+(?:keys?|names?))?\s+(?:that\s+|which\s+)?(?:begin(?:s|ning)?|start(?:s|ing)?|(?:is|are)\s+prefixed|prefixed)\s+with\s+((?:[`"'][^`"']+[`"'](?:\s*,\s*|\s*,?\s*(?:or|and)\s+)?)+)/i

export function readKeyPrefixBan(text: string, platform: string): KeyPrefixBan | undefined {
  if (!BAN.test(text)) return undefined
  const match = PREFIXED.exec(text)
  if (!match?.[1] || !match[2]) return undefined
  // The ban must come before what it bans: "no annotation beginning with", not "annotations beginning with x are fine, no ...".
  if (!BAN.test(text.slice(0, match.index))) return undefined
  const prefixes = [...match[2].matchAll(/[`"']([^`"']+)[`"']/g)].map((found) => found[1] ?? '').filter((prefix) => prefix !== '')
  if (prefixes.length === 0) return undefined
  const word = match[1].toLowerCase().replace(/s$/, '')
  const segments = platform === 'terraform' ? ['tags'] : ['metadata', word === 'label' ? 'labels' : 'annotations']
  if (platform === 'terraform' ? word !== 'tag' : word === 'tag') return undefined
  const ref: ValueRef = { scope: platform === 'terraform' ? 'resource' : 'object', variants: [{ segments }], label: `${word} keys`, type: 'map', explicit: true }
  return { refs: [ref], predicate: { op: 'keysNoneStartWith', values: prefixes } }
}
