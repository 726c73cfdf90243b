import {
  API_VERSION,
  checkExceptionManifestSchema,
  checkExceptionSpec,
  compileException,
  ExceptionCompileError,
  type DefinitionProblem,
  type PolicyExceptionManifest,
  type PolicyExceptionSpec,
} from '../engine/index.js'
// The exception importer alone, not src/import/index.ts: the service should not load the policy importers at start.
import { ImportError } from '../import/import-error.js'
import { importKyvernoException, isKyvernoException } from '../import/kyverno-exception.js'
import type { ParsedBody } from './definition-body.js'
import { parseTimestamp } from './rfc3339-timestamp.js'
import { InvalidRequestError } from './service-errors.js'

/**
 * A PolicyException body in the plain form (`{policies, rules, match, conditions, reason, ...}`)
 * or the manifest form (`apiVersion: verdict.dev/v1alpha1, kind: PolicyException, metadata.name,
 * spec`), checked whole: schema, the rules a schema cannot say, `expiresAt` as RFC 3339 (kept as
 * the UTC instant with milliseconds), and every CEL condition compiled. A Kyverno PolicyException
 * (kyverno.io/v2, v2beta1, policies.kyverno.io) is translated first (src/import), its reason taken
 * from its `verdict.dev/reason` annotation; what the translation leaves is checked the same way,
 * its problems named as fields of the translation. Field paths start at
 * `root`: `body` for the REST API, '' for a resource or a file (`spec.reason`). Pure: a refusal is
 * an InvalidRequestError whose details name each field, and nothing reaches the store. The REST
 * API, the controller and the CLI all check exceptions here.
 */
export function parseExceptionBody(name: string, body: unknown, root = 'body', options: { requireExpiry?: boolean } = {}): ParsedBody<PolicyExceptionSpec> {
  const top = root === '' ? '' : `${root}.`
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidRequestError(`${root || '(root)'}: must be an object`)
  const record = body as Record<string, unknown>
  const kyverno = isKyvernoException(record)
  const manifest = 'apiVersion' in record || 'kind' in record
  const fieldPrefix = kyverno ? `${top}spec (as translated from Kyverno) ` : manifest ? `${top}spec.` : top
  const spec = kyverno ? specOfKyverno(name, record, top) : manifest ? specOfManifest(name, record, top) : specOfPlain(name, record, top)
  const problems = checkExceptionSpec(spec, '')
  if (problems.length > 0) throw new InvalidRequestError(describe(fieldPrefix, problems))
  const checked = spec as PolicyExceptionSpec
  if (options.requireExpiry && checked.expiresAt === undefined) {
    throw new InvalidRequestError(`${fieldPrefix}expiresAt: is required here (VERDICT_EXCEPTION_REQUIRE_EXPIRY): every exception must end`)
  }
  if (checked.expiresAt !== undefined) checked.expiresAt = parseTimestamp(`${fieldPrefix}expiresAt`, checked.expiresAt).toISOString()
  try {
    compileException({ name, ...checked })
  } catch (error) {
    if (!(error instanceof ExceptionCompileError)) throw error
    throw new InvalidRequestError(describe(fieldPrefix, error.problems), 'exception does not compile')
  }
  return { spec: checked, fieldPrefix }
}

function specOfManifest(name: string, record: Record<string, unknown>, top: string): Record<string, unknown> {
  if (record.apiVersion !== API_VERSION) throw new InvalidRequestError(`${top}apiVersion: must be ${API_VERSION} (got ${JSON.stringify(record.apiVersion)})`)
  if (record.kind !== 'PolicyException') throw new InvalidRequestError(`${top}kind: must be PolicyException here (got ${JSON.stringify(record.kind)})`)
  const problems = checkExceptionManifestSchema(record, '')
  if (problems.length > 0) throw new InvalidRequestError(describe(top, problems))
  const manifest = record as unknown as PolicyExceptionManifest
  if (manifest.metadata.name !== name) throw new InvalidRequestError(`${top}metadata.name: ${JSON.stringify(manifest.metadata.name)} differs from the name in the path, "${name}"`)
  const labels = manifest.metadata.labels
  // Labels may be written on the metadata (kubectl style) or in the spec; the spec wins.
  return labels && Object.keys(labels).length > 0 ? { ...manifest.spec, labels: { ...labels, ...manifest.spec.labels } } : { ...manifest.spec }
}

/** The Verdict spec a Kyverno PolicyException stands for; the importer's refusals name the source field. */
function specOfKyverno(name: string, record: Record<string, unknown>, top: string): Record<string, unknown> {
  const named = (record.metadata as { name?: unknown } | undefined)?.name
  if (named !== name) throw new InvalidRequestError(`${top}metadata.name: ${JSON.stringify(named ?? null)} differs from the name in the path, "${name}"`)
  try {
    const { name: _name, ...spec } = importKyvernoException(record).exception
    return spec
  } catch (error) {
    if (error instanceof ImportError) throw new InvalidRequestError(`${top}${error.field}: ${error.problem}`)
    throw error
  }
}

function specOfPlain(name: string, record: Record<string, unknown>, top: string): Record<string, unknown> {
  const { name: named, ...spec } = record
  if (named !== undefined && named !== name) throw new InvalidRequestError(`${top}name: ${JSON.stringify(named)} differs from the name in the path, "${name}"`)
  return spec
}

function describe(prefix: string, problems: readonly DefinitionProblem[]): string {
  return problems.map((problem) => `${problem.path === '' || problem.path === '(root)' ? prefix.slice(0, -1) || '(root)' : `${prefix}${problem.path}`}: ${problem.message}`).join('; ')
}
