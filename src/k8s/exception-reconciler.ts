import { API_VERSION } from '../engine/index.js'
import type { CrdExceptions } from '../services/crd-exceptions.js'
import { parseExceptionBody } from '../services/exception-body.js'
import { InvalidRequestError } from '../services/service-errors.js'
import { describeCodeUnit, unstorableTextPath } from '../store/storable-text.js'
import { exceptionStatusFor, sameExceptionStatus, type ExceptionStatus, type ExceptionVerdict } from './exception-status.js'
import type { DefinitionObject } from './resources.js'

export interface ExceptionReconcilerDeps {
  store: CrdExceptions
  /** Writes `.status` of `object` through the status subresource. */
  writeStatus(object: DefinitionObject, status: ExceptionStatus): Promise<void>
  now(): Date
}

export interface ExceptionReconcileResult {
  stored?: 'created' | 'updated' | 'deleted'
  verdict?: ExceptionVerdict
  statusWritten?: boolean
  /** For a stored exception that has not expired yet: how long until it does, so its status turns Expired then. */
  expiresInMs?: number
}

/**
 * Brings the store and the status in line with one PolicyException resource: absent (or being
 * deleted) means removed from the store; present means checked exactly as the REST API checks a
 * body (schema, CEL conditions, expiresAt), then stored. A spec that fails leaves the version
 * stored before in effect and says so. The Expired condition is judged at the controller's clock.
 */
export async function reconcileException(name: string, object: DefinitionObject | undefined, deps: ExceptionReconcilerDeps): Promise<ExceptionReconcileResult> {
  if (!object || object.metadata?.deletionTimestamp) {
    const deleted = await deps.store.delete(name)
    return deleted.result === 'deleted' ? { stored: 'deleted' } : {}
  }
  const problems = problemsOf(name, object)
  if (typeof problems === 'string') {
    const previousInEffect = (await deps.store.get(name))?.source === 'crd'
    const verdict: ExceptionVerdict = { ready: false, reason: 'Invalid', message: `${problems}${previousInEffect ? '; the version stored before stays in effect' : ''}` }
    return { verdict, statusWritten: await writeIfChanged(object, verdict, deps) }
  }
  const written = await deps.store.apply({ name, ...problems })
  if (written.result === 'conflict') {
    const verdict: ExceptionVerdict = {
      ready: false,
      reason: 'Conflict',
      message: `an exception named "${name}" was made through the REST API (source ${written.owner}) and is left alone; delete it there or rename this resource`,
    }
    return { verdict, statusWritten: await writeIfChanged(object, verdict, deps) }
  }
  const nowMs = deps.now().getTime()
  const expiresAt = written.stored.expiresAt
  const expiresAtMs = expiresAt === undefined ? undefined : Date.parse(expiresAt)
  const expired = expiresAtMs !== undefined && nowMs >= expiresAtMs
  const verdict: ExceptionVerdict = {
    ready: true,
    reason: 'Reconciled',
    message: `stored as version ${written.stored.version}`,
    expired: {
      expired,
      message: expiresAt === undefined ? 'no expiresAt: it applies until it is deleted' : expired ? `stopped applying at ${expiresAt}` : `applies until ${expiresAt}`,
    },
  }
  const result: ExceptionReconcileResult = { verdict, statusWritten: await writeIfChanged(object, verdict, deps) }
  if (written.result !== 'unchanged') result.stored = written.result
  if (expiresAtMs !== undefined && !expired) result.expiresInMs = expiresAtMs - nowMs
  return result
}

/** The spec the store takes, or what is wrong with it (as the REST API words it, paths from `spec.`). */
function problemsOf(name: string, object: DefinitionObject): ReturnType<typeof parseExceptionBody>['spec'] | string {
  const unstorable = unstorableTextPath(object.spec, 'spec')
  if (unstorable) return `${unstorable.path}: contains ${describeCodeUnit(unstorable.codeUnit)}, which cannot be stored; remove it`
  const metadata: Record<string, unknown> = { name }
  const labels = object.metadata?.labels
  if (labels && Object.keys(labels).length > 0) metadata.labels = labels
  try {
    return parseExceptionBody(name, { apiVersion: API_VERSION, kind: 'PolicyException', metadata, spec: object.spec }, '').spec
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.details
    throw error
  }
}

async function writeIfChanged(object: DefinitionObject, verdict: ExceptionVerdict, deps: ExceptionReconcilerDeps): Promise<boolean> {
  const status = exceptionStatusFor(verdict, object.metadata?.generation, object.status, deps.now())
  if (sameExceptionStatus(object.status, status)) return false
  await deps.writeStatus(object, status)
  return true
}
