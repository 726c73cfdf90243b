import type { PodSecurity, PodSecurityControlName, PodSecurityExcludeEntry } from '../engine/model/pod-security.js'
import type { CelValidation, Validate, Variable } from '../engine/model/rule.js'
import { readExcludes } from '../engine/pod-security/kyverno/pod-security-spec.js'
import { PodSecurityInvalid, PodSecurityUnsupported } from '../engine/pod-security/kyverno/refusal.js'
import { podSecurityAsCel } from '../engine/pod-security/kyverno/translate.js'
import { ImportError, Unsupported } from './import-error.js'

/**
 * A Kyverno `validate.podSecurity` block (`field` is where it is, for errors) as the engine
 * judges it (engine/pod-security/kyverno): the Pod Security checks as CEL, with the variables they
 * read. Throws ImportError for a block Kyverno would refuse and Unsupported for one that cannot be
 * judged exactly as Kyverno does.
 */
export function importedPodSecurity(podSecurity: unknown, field: string): { validate: Validate; variables?: Variable[] } {
  try {
    return podSecurityAsCel(podSecurity, field)
  } catch (error) {
    if (error instanceof PodSecurityInvalid) throw new ImportError(error.field, error.problem)
    if (error instanceof PodSecurityUnsupported) throw new Unsupported(error.message)
    throw error
  }
}

/**
 * The rule's validation as imported: `validate.podSecurity` itself (the engine judges it with the
 * checks above, and can add a PolicyException's excludes to it), checked here as Kyverno checks
 * it, plus the checks' CEL for the remediation the importer derives from their messages.
 */
export function importedPodSecurityValidation(podSecurity: unknown, field: string): { validate: Validate; validations: CelValidation[] } {
  const { validate } = importedPodSecurity(podSecurity, field)
  return { validate: { podSecurity: writtenPodSecurity(podSecurity as Record<string, unknown>) }, validations: validate.cel ?? [] }
}

/** A block importedPodSecurity accepted, as Verdict's model writes it: empty fields left out. */
function writtenPodSecurity(block: Record<string, unknown>): PodSecurity {
  const written: PodSecurity = { level: block.level as PodSecurity['level'] }
  if (typeof block.version === 'string' && block.version !== '') written.version = block.version
  const excludes = Array.isArray(block.exclude) ? (block.exclude as Record<string, unknown>[]) : []
  if (excludes.length > 0) written.exclude = excludes.map(writtenExclude)
  return written
}

function writtenExclude(entry: Record<string, unknown>): PodSecurityExcludeEntry {
  const written: PodSecurityExcludeEntry = { controlName: entry.controlName as PodSecurityControlName }
  if (Array.isArray(entry.images) && entry.images.length > 0) written.images = entry.images as string[]
  if (typeof entry.restrictedField === 'string' && entry.restrictedField !== '') written.restrictedField = entry.restrictedField
  if (Array.isArray(entry.values) && entry.values.length > 0) written.values = entry.values as string[]
  return written
}

/**
 * A Kyverno PolicyException's `spec.podSecurity` as Verdict's exception field of the same name:
 * the same entries, checked as Kyverno checks a policy's excludes (at restricted, which takes every
 * control; a rule of level baseline refuses some of them when the exception is applied).
 */
export function importedExceptionPodSecurity(entries: readonly unknown[], field: string): PodSecurityExcludeEntry[] {
  try {
    readExcludes(entries, field, 'restricted')
  } catch (error) {
    if (error instanceof PodSecurityInvalid) throw new ImportError(error.field, error.problem)
    throw error
  }
  return entries.map((entry) => writtenExclude(entry as Record<string, unknown>))
}
