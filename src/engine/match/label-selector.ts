import type { LabelSelector } from '../model/label-selector.js'

export type Labels = Readonly<Record<string, string>>

/** metav1.LabelSelector semantics; an empty selector selects everything. */
export function matchesLabelSelector(labels: Labels, selector: LabelSelector): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[key] !== value) return false
  }
  for (const requirement of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, requirement.key)
    const values = requirement.values ?? []
    switch (requirement.operator) {
      case 'In':
        if (!has || !values.includes(labels[requirement.key] as string)) return false
        break
      case 'NotIn':
        if (has && values.includes(labels[requirement.key] as string)) return false
        break
      case 'Exists':
        if (!has) return false
        break
      case 'DoesNotExist':
        if (has) return false
        break
    }
  }
  return true
}
