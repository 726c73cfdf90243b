import type { Match } from '../engine/model/match.js'
import type { PolicyException } from '../engine/model/policy-exception.js'
import { celMatchConditions } from './cel.js'
import { ImportError, Unsupported } from './import-error.js'
import { translateExceptionConditions } from './kyverno-exception-conditions.js'
import { translateExceptionRules } from './kyverno-exception-rules.js'
import { translateKyvernoMatch } from './kyverno-match.js'
import { importedExceptionPodSecurity } from './kyverno-pod-security.js'
import { readMetadata, type SourceMetadata } from './metadata.js'
import { isObject, list, object, optionalList, optionalObject, optionalText, text, type JsonObject } from './read.js'

/**
 * Kyverno PolicyExceptions -> Verdict PolicyExceptions.
 *
 * - kyverno.io/v2 and v2beta1 (for ClusterPolicy and Policy rules): `exceptions` become rules
 *   (kyverno-exception-rules.ts, autogen names included), `match` the match, `conditions` CEL
 *   conditions (kyverno-exception-conditions.ts), `podSecurity` the same Pod Security controls.
 * - policies.kyverno.io/v1, v1beta1 and v1alpha1 (for ValidatingPolicies): `policyRefs` become
 *   policies, `matchConditions` the CEL conditions, `expiresAt` the end.
 *
 * Both compare their match and conditions with the object as it is (never a controller's pod
 * template), so the result has `matchPodTemplates: false`. Kyverno exceptions say nothing of why:
 * the reason comes from the annotation `verdict.dev/reason` (or, for the CEL kind, Kyverno's own
 * `spec.properties.reason`), else from the caller's `reason` option; without one the document is
 * refused, naming the annotation. `verdict.dev/ticket`, `verdict.dev/owner` and
 * `verdict.dev/expires-at` (or `spec.properties.ticket` / `owner`, `spec.expiresAt`) fill the rest.
 * What Verdict cannot do as Kyverno does (exceptions kept out of background scans, partial CEL
 * exemptions by image or value) is refused, naming the field.
 */

type Family = 'classic' | 'cel'

const FAMILIES: Readonly<Record<string, Family>> = {
  'kyverno.io/v2': 'classic',
  'kyverno.io/v2beta1': 'classic',
  'policies.kyverno.io/v1': 'cel',
  'policies.kyverno.io/v1beta1': 'cel',
  'policies.kyverno.io/v1alpha1': 'cel',
}

/** What the caller supplies for documents that carry no reason. */
export interface ExceptionImportOptions {
  /** The reason of every imported exception that names none of its own. */
  reason?: string
  /** Where else a reason may come from, for the refusal's message (e.g. "or pass --exception-reason"). */
  reasonHint?: string
}

export interface ImportedException {
  sourceKind: 'PolicyException'
  /** `namespace/name` as Kyverno keys it. */
  sourceName: string
  exception: PolicyException
}

export const REASON_ANNOTATION = 'verdict.dev/reason'
export const TICKET_ANNOTATION = 'verdict.dev/ticket'
export const OWNER_ANNOTATION = 'verdict.dev/owner'
export const EXPIRES_AT_ANNOTATION = 'verdict.dev/expires-at'

export function isKyvernoException(doc: unknown): boolean {
  return isObject(doc) && doc.kind === 'PolicyException' && typeof doc.apiVersion === 'string' && FAMILIES[doc.apiVersion] !== undefined
}

/** Throws ImportError naming the field of the first thing that cannot be read or translated. */
export function importKyvernoException(doc: JsonObject, options: ExceptionImportOptions = {}): ImportedException {
  const family = FAMILIES[String(doc.apiVersion)]
  if (family === undefined || doc.kind !== 'PolicyException') throw new ImportError('apiVersion', `${String(doc.apiVersion)} ${String(doc.kind)} is not a Kyverno PolicyException`)
  const metadata = readMetadata(doc)
  const spec = object(doc.spec, 'spec')
  const body = family === 'classic' ? classicSpec(spec) : celSpec(spec)
  const exception: PolicyException = { name: metadata.name, ...body, matchPodTemplates: false, ...accountability(metadata, spec, family, options) }
  if (metadata.description !== undefined) exception.description = metadata.description
  return { sourceKind: 'PolicyException', sourceName: metadata.namespace === undefined ? metadata.name : `${metadata.namespace}/${metadata.name}`, exception }
}

type Body = Pick<PolicyException, 'policies' | 'rules' | 'match' | 'conditions' | 'podSecurity'>

const CLASSIC_FIELDS = new Set(['background', 'match', 'conditions', 'exceptions', 'podSecurity'])

function classicSpec(spec: JsonObject): Body {
  refuseUnknownFields(spec, CLASSIC_FIELDS)
  const match = exceptionMatch(spec.match, 'spec.match')
  // Background scans judge no request, so an exception matching only requesters never applies there anyway.
  if (spec.background === false && !needsRequester(match)) {
    throw new ImportError(
      'spec.background',
      'is false (Kyverno does not apply the exception in background scans) and its match does not name the requesting subjects in every filter; Verdict applies an exception in every path alike, so this cannot be translated',
    )
  }
  const body: Body = { rules: translateExceptionRules(spec.exceptions, 'spec.exceptions'), match }
  // Kyverno then lets through only these controls of the podSecurity rules named, and nothing of other rules.
  const podSecurity = optionalList(spec.podSecurity, 'spec.podSecurity')
  if (podSecurity && podSecurity.length > 0) body.podSecurity = importedExceptionPodSecurity(podSecurity, 'spec.podSecurity')
  const conditions = translateExceptionConditions(spec.conditions, 'spec.conditions')
  if (conditions) body.conditions = conditions
  return body
}

const CEL_FIELDS = new Set(['policyRefs', 'matchConditions', 'expiresAt', 'properties', 'reportResult', 'images', 'allowedValues', 'evaluationMode'])
const CEL_POLICY_KINDS = new Set(['ValidatingPolicy', 'NamespacedValidatingPolicy'])

function celSpec(spec: JsonObject): Body {
  refuseUnknownFields(spec, CEL_FIELDS)
  for (const partial of ['images', 'allowedValues'] as const) {
    const values = optionalList(spec[partial], `spec.${partial}`)
    if (values && values.length > 0) {
      throw new ImportError(`spec.${partial}`, `does not exempt by itself: Kyverno hands it to the policy's CEL as exceptions.${partial === 'images' ? 'allowedImages' : 'allowedValues'}, which Verdict policies do not read`)
    }
  }
  const reportResult = optionalText(spec.reportResult, 'spec.reportResult')
  if (reportResult !== undefined && reportResult !== 'skip') {
    throw new ImportError('spec.reportResult', `is "${reportResult}"; Verdict reports every exempted rule as a skip naming the exception`)
  }
  const mode = optionalText(spec.evaluationMode, 'spec.evaluationMode')
  if (mode !== undefined && mode !== 'Kubernetes') throw new ImportError('spec.evaluationMode', `is "${mode}"; only Kubernetes (admission requests) is imported`)
  const refs = list(spec.policyRefs, 'spec.policyRefs')
  if (refs.length === 0) throw new ImportError('spec.policyRefs', 'must name at least one policy')
  const policies = refs.map((raw, index) => {
    const at = `spec.policyRefs[${index}]`
    const ref = object(raw, at)
    const kind = text(ref.kind, `${at}.kind`)
    if (!CEL_POLICY_KINDS.has(kind)) throw new ImportError(`${at}.kind`, `is ${kind}; Verdict imports ValidatingPolicy and NamespacedValidatingPolicy only`)
    return text(ref.name, `${at}.name`)
  })
  const body: Body = { policies: [...new Set(policies)], match: {} }
  const conditions = celMatchConditions(spec.matchConditions, 'spec.matchConditions')
  if (conditions) body.conditions = conditions
  return body
}

const FILTER_FIELDS = new Set(['resources', 'subjects', 'roles', 'clusterRoles'])

/**
 * Kyverno matches an exception with `any` or `all` only (neither matches nothing), never with an
 * empty filter, and reads no `operations` there (pkg/engine/utils/exceptions.go): they are left out.
 */
function exceptionMatch(value: unknown, field: string): Match {
  const block = object(value, field)
  refuseUnknownFields(block, new Set(['any', 'all']), field)
  const key = (optionalList(block.any, `${field}.any`)?.length ?? 0) > 0 ? 'any' : (optionalList(block.all, `${field}.all`)?.length ?? 0) > 0 ? 'all' : undefined
  if (key === undefined) throw new ImportError(field, 'has neither any nor all: Kyverno matches nothing with it')
  const filters = list(block[key], `${field}.${key}`).map((raw, index) => {
    const at = `${field}.${key}[${index}]`
    const filter = { ...object(raw, at) }
    refuseUnknownFields(filter, FILTER_FIELDS, at)
    const resources = optionalObject(filter.resources, `${at}.resources`)
    if (resources) {
      const { operations, ...rest } = resources
      filter.resources = rest
      if (!constrains(filter) && operations !== undefined && operations !== null) {
        throw new ImportError(`${at}.resources.operations`, 'is all this filter names, and Kyverno does not read operations in exceptions: it would match every resource')
      }
    }
    if (!constrains(filter)) throw new ImportError(at, 'is empty: Kyverno matches nothing with it')
    return filter
  })
  try {
    return translateKyvernoMatch({ [key]: filters }, field)
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error
    const located = /^(\S+): (.*)$/s.exec(error.message)
    if (located?.[1] !== undefined && located[2] !== undefined && located[1].startsWith(field)) throw new ImportError(located[1], located[2])
    throw new ImportError(field, error.message)
  }
}

/** Whether the match holds only for a request with a user: every `any` filter, or one `all` filter, names subjects. */
function needsRequester(match: Match): boolean {
  if (match.any) return match.any.every((filter) => filter.subjects !== undefined)
  return (match.all ?? []).some((filter) => filter.subjects !== undefined)
}

/** Whether a filter names anything: a resource description field or a requester. */
function constrains(filter: JsonObject): boolean {
  const filled = (value: unknown): boolean =>
    value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0) && !(isObject(value) && Object.keys(value).length === 0)
  const resources = isObject(filter.resources) ? Object.values(filter.resources) : []
  return resources.some(filled) || ['subjects', 'roles', 'clusterRoles'].some((key) => filled(filter[key]))
}

function accountability(metadata: SourceMetadata, spec: JsonObject, family: Family, options: ExceptionImportOptions): Pick<PolicyException, 'reason' | 'ticket' | 'owner' | 'expiresAt'> {
  const properties = family === 'cel' ? (optionalObject(spec.properties, 'spec.properties') ?? {}) : {}
  const property = (key: string): string | undefined => {
    const value = properties[key]
    if (value === undefined || value === null) return undefined
    return text(value, `spec.properties.${key}`)
  }
  const annotation = (key: string): string | undefined => {
    const value = metadata.annotations[key]
    return value === undefined || value.trim() === '' ? undefined : value
  }
  const reason = annotation(REASON_ANNOTATION) ?? property('reason') ?? options.reason
  if (reason === undefined || reason.trim() === '') {
    const where = family === 'cel' ? ` (or in spec.properties.reason)` : ''
    throw new ImportError(
      `metadata.annotations.${REASON_ANNOTATION}`,
      `is required: a Verdict exception says why it exists and a Kyverno PolicyException has no field for it; write the reason in this annotation${where}${options.reasonHint ? ` ${options.reasonHint}` : ''}`,
    )
  }
  const out: Pick<PolicyException, 'reason' | 'ticket' | 'owner' | 'expiresAt'> = { reason }
  const ticket = annotation(TICKET_ANNOTATION) ?? property('ticket')
  if (ticket !== undefined) out.ticket = ticket
  const owner = annotation(OWNER_ANNOTATION) ?? property('owner')
  if (owner !== undefined) out.owner = owner
  const ownEnd = family === 'cel' ? optionalText(spec.expiresAt, 'spec.expiresAt') : undefined
  const annotatedEnd = annotation(EXPIRES_AT_ANNOTATION)
  if (ownEnd !== undefined && annotatedEnd !== undefined && Date.parse(ownEnd) !== Date.parse(annotatedEnd)) {
    throw new ImportError(`metadata.annotations.${EXPIRES_AT_ANNOTATION}`, `says ${annotatedEnd} but spec.expiresAt says ${ownEnd}; keep one`)
  }
  const expiresAt = ownEnd ?? annotatedEnd
  if (expiresAt !== undefined) out.expiresAt = expiresAt
  return out
}

function refuseUnknownFields(value: JsonObject, known: ReadonlySet<string>, field = 'spec'): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key) && value[key] !== undefined && value[key] !== null) throw new ImportError(`${field}.${key}`, `is not a field of this PolicyException; Verdict reads ${[...known].join(', ')}`)
  }
}
