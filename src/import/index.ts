import { ImportError } from './import-error.js'
import { importKyvernoPolicy } from './kyverno-cluster-policy.js'
import { importKyvernoException, isKyvernoException, type ExceptionImportOptions, type ImportedException } from './kyverno-exception.js'
import { importKyvernoValidatingPolicy } from './kyverno-validating-policy.js'
import { isObject, type JsonObject } from './read.js'
import type { ImportedDocument } from './types.js'
import { importUnjoinedBinding, importValidatingAdmissionPolicy, readBinding, type Binding } from './validating-admission-policy.js'

export { ImportError } from './import-error.js'
export type { ImportedDocument, SkippedRule } from './types.js'
export { isKyvernoException, REASON_ANNOTATION, type ExceptionImportOptions, type ImportedException } from './kyverno-exception.js'

type Format = 'kyverno' | 'kyverno-validating' | 'vap' | 'vap-binding'

const FORMATS: Readonly<Record<string, Readonly<Record<string, Format>>>> = {
  'kyverno.io/v1': { ClusterPolicy: 'kyverno', Policy: 'kyverno' },
  'kyverno.io/v2beta1': { ClusterPolicy: 'kyverno', Policy: 'kyverno' },
  'policies.kyverno.io/v1alpha1': { ValidatingPolicy: 'kyverno-validating' },
  'policies.kyverno.io/v1beta1': { ValidatingPolicy: 'kyverno-validating', NamespacedValidatingPolicy: 'kyverno-validating' },
  'policies.kyverno.io/v1': { ValidatingPolicy: 'kyverno-validating', NamespacedValidatingPolicy: 'kyverno-validating' },
  'admissionregistration.k8s.io/v1': { ValidatingAdmissionPolicy: 'vap', ValidatingAdmissionPolicyBinding: 'vap-binding' },
  'admissionregistration.k8s.io/v1beta1': { ValidatingAdmissionPolicy: 'vap', ValidatingAdmissionPolicyBinding: 'vap-binding' },
}

function formatOf(doc: unknown): Format | undefined {
  if (!isObject(doc) || typeof doc.apiVersion !== 'string' || typeof doc.kind !== 'string') return undefined
  return FORMATS[doc.apiVersion]?.[doc.kind]
}

/**
 * Policy kinds of the same families that are recognised but not translated (mutation,
 * generation, image verification, cleanup). They are reported rather than ignored: a file that
 * holds them does something the imported result will not. PolicyExceptions are translated apart
 * (importExceptionDocuments).
 */
function isUntranslatedPolicy(doc: unknown): doc is JsonObject {
  if (!isObject(doc) || typeof doc.apiVersion !== 'string' || typeof doc.kind !== 'string') return false
  if (isKyvernoException(doc)) return false
  const group = doc.apiVersion.split('/')[0]
  if (group === 'kyverno.io' || group === 'policies.kyverno.io') return true
  return group === 'admissionregistration.k8s.io' && doc.kind.startsWith('MutatingAdmissionPolicy')
}

/** Whether `importDocuments` translates this document (a Kyverno policy or a ValidatingAdmissionPolicy and its binding). */
export function isImportable(doc: unknown): boolean {
  return formatOf(doc) !== undefined
}

/**
 * Translates one file's documents. ValidatingAdmissionPolicyBindings are joined to the
 * ValidatingAdmissionPolicy of the same input named by their spec.policyName and reported with it;
 * other documents (resources, tests, values) are not policies and are passed over.
 * Throws ImportError for the first malformed document.
 */
export function importDocuments(docs: unknown[]): ImportedDocument[] {
  const vapNames = new Set<string>()
  const bindings = new Map<number, Binding>()
  docs.forEach((doc, index) => {
    const format = formatOf(doc)
    if (format === 'vap') vapNames.add(nameOf(doc))
    if (format === 'vap-binding') bindings.set(index, withContext(doc, index, () => readBinding(doc as JsonObject)))
  })

  const out: ImportedDocument[] = []
  const joined = new Set<string>()
  docs.forEach((doc, index) => {
    const format = formatOf(doc)
    if (format === undefined) {
      if (isUntranslatedPolicy(doc)) out.push(untranslated(doc))
      return
    }
    const source = doc as JsonObject
    if (format === 'kyverno') out.push(withContext(doc, index, () => importKyvernoPolicy(source)))
    else if (format === 'kyverno-validating') out.push(withContext(doc, index, () => importKyvernoValidatingPolicy(source)))
    else if (format === 'vap') {
      const name = nameOf(doc)
      // A second VAP of the same name gets no bindings: each binding is turned into one policy only.
      const own = joined.has(name) ? [] : [...bindings.values()].filter((binding) => binding.policyName === name)
      joined.add(name)
      out.push(withContext(doc, index, () => importValidatingAdmissionPolicy(source, own)))
    } else {
      const binding = bindings.get(index) as Binding
      if (!vapNames.has(binding.policyName)) out.push(importUnjoinedBinding(binding))
    }
  })
  return out
}

/**
 * Translates the Kyverno PolicyExceptions among one file's documents (kyverno-exception.ts); other
 * documents are passed over. Throws ImportError for the first that cannot be translated, naming
 * the document and the field.
 */
export function importExceptionDocuments(docs: unknown[], options: ExceptionImportOptions = {}): ImportedException[] {
  const out: ImportedException[] = []
  docs.forEach((doc, index) => {
    if (isKyvernoException(doc)) out.push(withContext(doc, index, () => importKyvernoException(doc as JsonObject, options)))
  })
  return out
}

function untranslated(doc: JsonObject): ImportedDocument {
  const name = nameOf(doc) || '?'
  const kind = String(doc.kind)
  return {
    sourceKind: kind,
    sourceName: name,
    rulesets: [],
    policies: [],
    skipped: [{ policy: name, rule: name, reason: `${doc.apiVersion} ${kind} is not supported` }],
  }
}

function nameOf(doc: unknown): string {
  const metadata = isObject(doc) && isObject(doc.metadata) ? doc.metadata : undefined
  return typeof metadata?.name === 'string' ? metadata.name : ''
}

/** Adds which document failed to an ImportError, whose field path is relative to that document. */
function withContext<T>(doc: unknown, index: number, run: () => T): T {
  try {
    return run()
  } catch (error) {
    if (!(error instanceof ImportError) || error.document !== undefined) throw error
    const kind = isObject(doc) ? String(doc.kind) : 'document'
    throw new ImportError(error.field, error.problem, { document: index, source: `${kind} "${nameOf(doc) || '?'}"` })
  }
}
