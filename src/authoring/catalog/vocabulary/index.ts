import type { Vocabulary } from '../vocabulary.js'
import { COMMON_VOCABULARY } from './common.js'
import { GENERIC_JSON_VOCABULARY } from './generic-json.js'
import { METADATA_AND_NETWORKING_VOCABULARY } from './metadata-and-networking.js'
import { PLACES } from './places.js'
import { POD_SECURITY_VOCABULARY } from './pod-security.js'
import { WORKLOAD_PRACTICES_VOCABULARY } from './workload-practices.js'
import { TERRAFORM_VOCABULARY } from './terraform.js'

/** Every area's vocabulary joined; a name two areas define is an error, not a silent override. */
export function joinVocabularies(...parts: readonly Vocabulary[]): Vocabulary {
  const joined: Record<string, Record<string, unknown>> = {}
  for (const part of parts) {
    for (const [kind, table] of Object.entries(part) as Array<[string, Record<string, unknown> | undefined]>) {
      const into = (joined[kind] ??= {})
      for (const [name, piece] of Object.entries(table ?? {})) {
        if (name in into) throw new Error(`the catalog vocabulary defines ${kind} "${name}" twice`)
        into[name] = piece
      }
    }
  }
  return joined as Vocabulary
}

/** The vocabulary every catalog entry may name. Each area adds its own part here. */
export const VOCABULARY_OF_ENTRIES: Vocabulary = joinVocabularies(PLACES, COMMON_VOCABULARY, POD_SECURITY_VOCABULARY, WORKLOAD_PRACTICES_VOCABULARY, METADATA_AND_NETWORKING_VOCABULARY, TERRAFORM_VOCABULARY, GENERIC_JSON_VOCABULARY)
