/** The fields the store stamps on a ruleset or policy; a definition written back leaves them out. */
const STAMPS = ['name', 'version', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy', 'source'] as const

/** A stored ruleset's or policy's own fields, as a PUT takes them back. */
export function withoutStamps(definition: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(definition).filter(([key]) => !(STAMPS as readonly string[]).includes(key)))
}
