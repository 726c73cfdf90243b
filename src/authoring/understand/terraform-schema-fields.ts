import { knowsTerraformType, terraformAttributes } from '../fields/terraform-attributes.js'
import type { Condition, Requirement, ValueRef } from './requirement.js'

/**
 * The providers' schemas know every attribute of the resource types they cover. A Terraform
 * requirement on such types may only read attributes those schemas have: a name made from the
 * author's words ("separately timeout can" as `separately_timeout_can`) or a value read as a path
 * (`nodejs18.x`) is no attribute, and a rule on it would pass every resource, since the value is
 * never there. Name variants the schema lacks are dropped; a value left with none is refused,
 * naming it. Types the table does not know (a newer provider's) are read as written.
 */
export interface UnknownAttribute {
  message: string
  /** The name was made from the author's words, not written as a name. */
  guessed: boolean
}

export function unknownTerraformAttribute(requirement: Requirement): UnknownAttribute | undefined {
  const { platform, kinds } = requirement.subject
  if (platform !== 'terraform' || kinds.length === 0 || !kinds.every((type) => knowsTerraformType(type))) return undefined
  const conditions: Condition[] = [...requirement.conditions, ...requirement.exemptions]
  const refs: ValueRef[] = [...requirement.values, ...conditions.map((condition) => condition.value)]
  if (requirement.predicate.op === 'compareField') refs.push(requirement.predicate.other)
  for (const ref of refs) {
    if (ref.scope !== 'resource') continue
    const known = ref.variants.filter((variant) => kinds.some((type) => typeHasPath(type, variant.segments)))
    if (known.length === 0) {
      const written = ref.variants[0]?.segments.join('.') ?? ref.label
      const message = `\`${written}\` is not an attribute of ${kinds.join(' or ')} in the providers' schemas; which attribute is meant? write its name, e.g. \`${exampleAttribute(kinds[0] ?? '')}\``
      return { message, guessed: ref.weak === true && ref.explicit !== true }
    }
    ref.variants = known
  }
  return undefined
}

/** The path is an attribute of the type, or a key inside one of its map attributes (`tags.Owner`). */
export function typeHasPath(type: string, segments: readonly string[]): boolean {
  const path = segments.filter((segment) => segment !== '[]')
  return terraformAttributes(type).some((attribute) => {
    const own = attribute.segments
    if (own.length > path.length || !own.every((segment, index) => segment === path[index])) return false
    return own.length === path.length || (attribute.type === 'map' && path.length === own.length + 1)
  })
}

function exampleAttribute(type: string): string {
  return terraformAttributes(type).find((attribute) => attribute.segments.length === 1 && attribute.type !== 'block')?.path ?? 'tags'
}

