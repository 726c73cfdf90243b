import type { Platform } from '../catalog/rule-template.js'
import { kubernetesFields } from '../fields/kubernetes-fields.js'

/**
 * The values a field of the judged kinds can only take ("Exists", "NoSchedule", "RuntimeDefault",
 * "ReadWriteOncePod"). Written unquoted in a requirement sentence, such a word is as much a value
 * as a quoted one: "a toleration with operator Exists and no key" read without "Exists" is another
 * requirement, so coverage counts these words among a sentence's literals.
 */
export function enumWordsOf(context: { platform: Platform; kinds: readonly string[] }): ReadonlySet<string> {
  if (context.platform !== 'kubernetes') return EMPTY
  const kinds = context.kinds.length > 0 ? context.kinds : ['Pod']
  const key = kinds.join(',')
  const cached = byKinds.get(key)
  if (cached) return cached
  const words = new Set<string>()
  for (const kind of kinds) {
    for (const info of kubernetesFields(kind)) {
      // The kind and apiVersion of a document are its type, named as the subject rather than a value.
      if (!info.enum || info.path === 'kind' || info.path === 'apiVersion') continue
      // Only a word no English sentence capitalises mid-sentence on its own: an initial capital followed by lower case and more.
      for (const value of info.enum) if (/^[A-Z][A-Za-z]{2,}$/.test(value)) words.add(value)
    }
  }
  byKinds.set(key, words)
  return words
}

const EMPTY: ReadonlySet<string> = new Set()
const byKinds = new Map<string, ReadonlySet<string>>()
