import { readExcludes } from '../pod-security/kyverno/pod-security-spec.js'
import { PodSecurityInvalid } from '../pod-security/kyverno/refusal.js'
import { schemaChecker } from './check-schema.js'
import type { DefinitionProblem } from './definition-problem.js'
import { PolicyExceptionManifestSchema } from './manifest.js'
import { PolicyExceptionSpecSchema, type PolicyExceptionSpec } from './policy-exception.js'

const checkExceptionSpecSchema = schemaChecker(PolicyExceptionSpecSchema)
export const checkExceptionManifestSchema = schemaChecker(PolicyExceptionManifestSchema)

/** Text fields people read in audits, logs and terminals: a control character there can only hide or forge text. */
const READABLE_TEXT_FIELDS = ['reason', 'ticket', 'owner', 'description'] as const

/**
 * Schema plus what a JSON Schema cannot say: the exception names the policies or rules it lets
 * through (never everything by omission), CEL conditions sit in `conditions` (not also in
 * `match.conditions`), its `podSecurity` entries are excludes Kyverno accepts (images for a
 * container-level control, none for a pod-level one, values with restrictedField), and its
 * human-readable texts hold no control characters.
 * CEL syntax and `expiresAt` are checked when it compiles (compile-exception.ts).
 */
export function checkExceptionSpec(value: unknown, basePath: string): DefinitionProblem[] {
  const problems = checkExceptionSpecSchema(value, basePath)
  if (problems.length > 0) return problems
  const spec = value as PolicyExceptionSpec
  if (spec.policies === undefined && spec.rules === undefined) {
    problems.push({
      path: child(basePath, 'policies'),
      message: 'is required unless rules is given: an exception names the policies or the rules it lets through, never all of them by leaving both out',
    })
  }
  if (spec.match.conditions !== undefined) {
    problems.push({ path: child(basePath, 'match.conditions'), message: 'is not used by exceptions; write the CEL conditions in conditions' })
  }
  if (spec.podSecurity !== undefined) {
    try {
      // Restricted takes every control; whether the rule's own level does is known only when it is judged.
      readExcludes(spec.podSecurity, child(basePath, 'podSecurity'), 'restricted')
    } catch (error) {
      if (!(error instanceof PodSecurityInvalid)) throw error
      problems.push({ path: error.field, message: error.problem })
    }
  }
  for (const field of READABLE_TEXT_FIELDS) {
    const text = spec[field]
    if (text === undefined) continue
    const at = controlCharacterIn(text)
    if (at !== undefined) {
      const code = text.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')
      problems.push({ path: child(basePath, field), message: `contains the control character U+${code} at offset ${at}; only tabs and line breaks are allowed` })
    }
  }
  return problems
}

/** C0 controls other than tab, line feed and carriage return, DEL and the C1 controls. */
function controlCharacterIn(text: string): number | undefined {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index)
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || (code >= 0x7f && code <= 0x9f)) return index
  }
  return undefined
}

function child(basePath: string, field: string): string {
  return basePath === '' ? field : `${basePath}.${field}`
}
