import type { LabelSelector } from '../../engine/model/label-selector.js'
import { celString, celStringList } from '../../engine/pod-security/cel-text.js'

/**
 * CEL for the parts of a Verdict match that a ValidatingAdmissionPolicy's matchConstraints cannot
 * say exactly; they become matchConditions. Each reads the same fields Verdict's matcher reads
 * (engine/match/), null-safe where the matcher treats a missing map as empty.
 */

/** `labels` (a CEL expression for a map, possibly missing) satisfies the selector, as metav1.LabelSelector does. */
export function labelSelectorCel(labels: string, selector: LabelSelector): string {
  const parts: string[] = []
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    parts.push(`(${celString(key)} in ${labels} && ${labels}[${celString(key)}] == ${celString(value)})`)
  }
  for (const requirement of selector.matchExpressions ?? []) {
    const key = celString(requirement.key)
    const values = celStringList(requirement.values ?? [])
    switch (requirement.operator) {
      case 'In':
        parts.push(`(${key} in ${labels} && ${labels}[${key}] in ${values})`)
        break
      case 'NotIn':
        parts.push(`!(${key} in ${labels} && ${labels}[${key}] in ${values})`)
        break
      case 'Exists':
        parts.push(`${key} in ${labels}`)
        break
      case 'DoesNotExist':
        parts.push(`!(${key} in ${labels})`)
        break
    }
  }
  return parts.length === 0 ? 'true' : parts.join(' && ')
}

/** The labels of `metadata` (a CEL expression for an object's metadata map), `{}` when it has none. */
export function labelsOf(subject: string): string {
  return `(has(${subject}.metadata) && has(${subject}.metadata.labels) ? ${subject}.metadata.labels : {})`
}

/** Whether `value` (a CEL string) matches one of the globs: `*` any run, `?` one character. */
export function globsCel(value: string, globs: readonly string[]): string {
  const exact = globs.filter((glob) => !glob.includes('*') && !glob.includes('?'))
  const patterns = globs.filter((glob) => glob.includes('*') || glob.includes('?'))
  const parts: string[] = []
  if (exact.length === 1) parts.push(`(${value} == ${celString(exact[0] as string)})`)
  else if (exact.length > 1) parts.push(`(${value} in ${celStringList(exact)})`)
  for (const pattern of patterns) parts.push(`${value}.matches(${celString(globRegex(pattern))})`)
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(' || ')})`
}

/** A whole-string RE2 expression for a glob. */
export function globRegex(glob: string): string {
  let out = '^'
  for (const char of glob) {
    if (char === '*') out += '.*'
    else if (char === '?') out += '.'
    else out += char.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`)
  }
  return `${out}$`
}
