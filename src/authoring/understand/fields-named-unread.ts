import type { Platform } from '../catalog/rule-template.js'
import { resolveKubernetesField } from '../fields/resolve-kubernetes-field.js'
import { resolveTerraformName } from '../fields/resolve-terraform-attribute.js'
import { knowsTerraformType } from '../fields/terraform-attributes.js'
import { insideAside } from './coverage.js'
import { codeTokens, pathSegments } from './find-fields.js'
import { typeHasPath } from './terraform-schema-fields.js'

/**
 * The fields of the judged kinds or resource types a sentence writes by name (`multi_az`,
 * `spec.preemptionPolicy`) that nothing in `used` reads. A sentence that names them is about
 * them; read as saying nothing ("Also multi_az and deletion_protection both on.", "Remember
 * spec.preemptionPolicy as well."), it would drop what it asks. Only names the schema knows
 * count: a word in backticks that is no field is left to the other checks.
 */
export function fieldsNamedUnread(text: string, context: { platform: Platform; kinds: string[] }, used: readonly string[]): string[] {
  const isField = fieldTest(context)
  // "a startupProbe on its own doesn't count": what does not satisfy the rules needs no rule of its own, as long as none reads it.
  if (!isField || NOT_ENOUGH.test(text)) return []
  const haystack = used.map((item) => item.toLowerCase())
  // "cloud disks attached directly like awsElasticBlockStore": an example is not a field asked about.
  const names = codeTokens(text).filter((token) => !insideAside(text, token.index)).map((token) => token.token)
  return [...new Set(names)].filter((name) => {
    const segments = pathSegments(name).filter((segment) => segment !== '[]')
    const leaf = (segments.at(-1) ?? name).toLowerCase()
    return isField(name, segments) && !haystack.some((item) => item.includes(leaf))
  })
}

const NOT_ENOUGH = /\b(?:on (?:its|their) own|alone|by (?:itself|themselves))\b[^.;]*\b(?:doesn'?t|does not|don'?t|do not|isn'?t|is not|aren'?t|are not)\s+(?:count|enough|suffice|satisfy)/i

function fieldTest(context: { platform: Platform; kinds: string[] }): ((name: string, segments: string[]) => boolean) | undefined {
  const { platform, kinds } = context
  if (platform === 'terraform' && kinds.length > 0 && kinds.every((type) => knowsTerraformType(type))) {
    return (name, segments) => (segments.length === 1 ? kinds.some((type) => resolveTerraformName(type, name).length > 0) : kinds.some((type) => typeHasPath(type, segments)))
  }
  if (platform === 'kubernetes') {
    const schemaKinds = kinds.length > 0 ? kinds : ['Pod']
    // Written as a field: a dotted path or an inner capital, and the schema's own name for its last segment.
    return (name, segments) => /[.A-Z]/.test(name) && schemaKinds.some((kind) => resolveKubernetesField(kind, name).some((info) => info.path.split(/[.[\]]+/).filter(Boolean).at(-1) === segments.at(-1)))
  }
  return undefined
}
