import { buildKyvernoContext, type JsonObject, type KyvernoContext, type KyvernoRequestInput } from '../jmespath/index.js'
import { isJsonObject } from '../jmespath/json.js'
import type { PreparedInput, Subject } from '../evaluate/prepared-input.js'

/**
 * Kyverno's request context for one subject (the object, or a controller's pod template under
 * autogen, which Kyverno reaches by rewriting `request.object.spec` to the template's): built the
 * first time a classic rule judges it, then shared by every rule judging the same input. Rules
 * layer their own values and entries over it without changing it.
 */
export function requestContextOf(input: PreparedInput, subject: Subject): KyvernoContext {
  // Kept on the subject rather than in a WeakMap: a subject lives for one input, and this runs per rule.
  let context = subject.classicContext as KyvernoContext | undefined
  if (context === undefined) {
    // Rules without context entries or values of their own query this very context, often with the same preconditions.
    context = build(input, subject).rememberQueries()
    subject.classicContext = context
  }
  return context
}

function build(input: PreparedInput, subject: Subject): KyvernoContext {
  const request = input.input.request ?? {}
  const operation = subject.target.operation
  // A DELETE request has no object, only the old one (the engine judges that as `object` for CEL).
  const object = operation === 'DELETE' ? null : jsonObject(subject.json.object)
  const oldObject = jsonObject(subject.json.oldObject)
  const requestInput: { -readonly [K in keyof KyvernoRequestInput]: KyvernoRequestInput[K] } = { object, oldObject, operation }
  const namespace = request.namespace ?? subject.target.namespace
  requestInput.namespace = namespace
  if (request.name !== undefined) requestInput.name = request.name
  if (request.userInfo !== undefined) requestInput.userInfo = request.userInfo
  const admission: JsonObject = {}
  if (request.uid !== undefined) admission.uid = request.uid
  const gvk = subject.target.gvk
  admission.kind = { group: gvk.group, version: gvk.version, kind: gvk.kind }
  if (request.dryRun !== undefined) admission.dryRun = request.dryRun
  if (request.subResource !== undefined) admission.subResource = request.subResource
  requestInput.admission = admission
  const options = input.options
  return buildKyvernoContext(requestInput, {
    mode: options.mode ?? 'admission',
    ...(options.values === undefined ? {} : { variables: options.values }),
    ...(options.now === undefined ? {} : { now: options.now }),
  })
}

function jsonObject(value: unknown): JsonObject | null {
  return isJsonObject(value) ? value : null
}
