import { readValueList } from './read-values.js'
import type { ValueRef } from './requirement.js'

/**
 * "All containers must have one of livenessProbe, readinessProbe, or startupProbe defined", "needs
 * at least one of `a` or `b`": the list after "one of" names fields, not values, and the clause asks
 * that one of them be set. Every item must be a field written by name (`resolve` finds it in the
 * schema); one item that is not leaves the sentence to the other readings. A negated clause ("must
 * not have any of") is not this reading.
 */
const ONE_OF = /\b(?:must|has to|have to|needs? to|should|shall)\s+(?:also\s+|always\s+)?(?:have|define|set|specify|declare|configure|carry|include|use)\s+(?:at least\s+)?one of\s+(?:the\s+)?|\bneeds?\s+(?:at least\s+)?one of\s+(?:the\s+)?/i

export function readAnyOfFields(text: string, resolve: (name: string) => ValueRef[]): ValueRef[] | undefined {
  const cue = ONE_OF.exec(text)
  if (!cue || /\b(?:not|never|no)\b|n't\b/i.test(text.slice(0, cue.index + cue[0].length))) return undefined
  const after = text.slice(cue.index + cue[0].length)
  const list = readValueList(after)
  // "one of livenessProbe, readinessProbe, or startupProbe defined": what follows the list says they are to be set, or nothing.
  const tail = after.slice(list.end).replace(/^[\s,]+/, '')
  if (!/^(?:(?:be\s+)?(?:set|defined|specified|declared|configured|present)\b|[.;]|$)/i.test(tail)) return undefined
  const names = list.values.filter((value): value is string => typeof value === 'string')
  if (names.length < 2 || names.length !== list.values.length) return undefined
  const refs: ValueRef[] = []
  for (const name of names) {
    // Each item is a field's own name: written as one (camelCase, a path, or code), found in the schema as that field.
    if (!/[A-Z._]|^`/.test(name) && !/[a-z][A-Z]/.test(name)) return undefined
    const [ref, ...others] = resolve(name).filter((found) => !found.weak)
    if (!ref || others.some((other) => other.scope === ref.scope)) return undefined
    refs.push({ ...ref, explicit: true })
  }
  return refs
}
