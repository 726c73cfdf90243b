import { terraformAttributes, type TerraformAttribute } from './terraform-attributes.js'

/**
 * Resolves how an author names a Terraform attribute to the attributes of a resource type: a
 * name as written (`minimum_tls_version`, found inside `site_config` if that is where the
 * provider puts it) or words ("backup retention" is `backup_retention_period`, "deletion
 * protection" is `deletion_protection`). Words resolve only when every word is part of the
 * attribute's path and the attribute's own name is said, give or take one word that only states
 * a unit or a switch ("period", "enabled"); words naming the type itself ("bucket" on
 * aws_s3_bucket) select nothing.
 */
export function resolveTerraformName(type: string, name: string): TerraformAttribute[] {
  const attributes = terraformAttributes(type)
  const top = attributes.find((attribute) => attribute.path === name)
  if (top) return [top]
  const nested = attributes.filter((attribute) => attribute.segments.at(-1) === name && attribute.segments.length > 1)
  // The same name in several blocks (ingress[].from_port and egress[].from_port) says nothing about which.
  return nested.length === 1 ? nested : []
}

export function resolveTerraformWords(type: string, mention: string): TerraformAttribute[] {
  const typeWords = new Set(tokens(type))
  const words = [...new Set(tokens(mention))].filter((word) => !STOP.has(word) && !typeWords.has(word))
  if (words.length === 0 || words.length > 5) return []
  let best: Array<{ attribute: TerraformAttribute; score: number[] }> = []
  for (const attribute of terraformAttributes(type)) {
    const leaf = tokens(attribute.segments.at(-1) ?? '')
    const all = new Set(attribute.segments.flatMap(tokens))
    if (!words.every((word) => all.has(word))) continue
    // "uniform bucket level access" on google_storage_bucket: the type's own words are said by the type.
    const unsaid = leaf.filter((word) => !words.includes(word) && !typeWords.has(word))
    if (unsaid.length > 1 || (unsaid.length === 1 && !IMPLIED.has(unsaid[0] ?? ''))) continue
    if (!leaf.some((word) => words.includes(word))) continue
    const score = [unsaid.length, attribute.segments.length, all.size - words.length]
    const order = best[0] ? compare(score, best[0].score) : -1
    if (order < 0) best = [{ attribute, score }]
    else if (order === 0) best.push({ attribute, score })
  }
  // Two attributes equally named by the words: the words do not say which.
  return best.length === 1 && best[0] ? [best[0].attribute] : []
}

/** Words that only state a unit, a switch or a container of the value the author named. */
const IMPLIED = new Set(['period', 'enabled', 'enable', 'days', 'day', 'seconds', 'second', 'minutes', 'hours', 'count', 'mode', 'config', 'configuration', 'setting', 'settings', 'in'])

const STOP = new Set(['the', 'a', 'an', 'of', 'for', 'to', 'on', 'at', 'by', 'with', 'and', 'or', 'is', 'are', 'be', 'its', 'their', 'each', 'every', 'all', 'any', 'must', 'should', 'resource', 'resources', 'aws', 'google', 'azurerm', 'azure', 'gcp', 'value', 'field', 'attribute', 'setting', 'option', 'flag'])

/** Canonical spellings, the same for attribute names and mentions ("minimum" is min, "encrypted" is encrypt). */
const CANONICAL: Readonly<Record<string, string>> = {
  minimum: 'min',
  maximum: 'max',
  encrypted: 'encrypt',
  encryption: 'encrypt',
  enable: 'enabled',
  protected: 'protection',
  retained: 'retention',
}

function tokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => {
      const singular = word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word) ? word.slice(0, -1) : word
      return CANONICAL[word] ?? CANONICAL[singular] ?? singular
    })
}

function compare(a: number[], b: number[]): number {
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0)
    if (difference !== 0) return difference
  }
  return 0
}
