import type { ImageOptions } from '../image-reference.js'
import { isJsonObject, setOwn, type JsonObject, type JsonValue } from '../json.js'
import { extractImages } from './images.js'
import { KyvernoContext } from './kyverno-context.js'
import { serviceAccountOf } from './service-account.js'

/**
 * The variables Kyverno gives a rule for one resource (pkg/engine/policycontext), in the two
 * shapes Kyverno builds:
 *
 * - `admission` (the webhook, NewPolicyContextFromAdmissionRequest): the admission request under
 *   `request`: `operation`, `object` and `oldObject` (null when the operation has none),
 *   `userInfo` ({} when unknown), `name` and `namespace` (left out when empty, as the
 *   AdmissionRequest's JSON does), plus any other request fields given in `admission` (uid,
 *   kind, resource, subResource, dryRun, options, ...);
 * - `cli` (`kyverno test`/`apply`, NewPolicyContext): `request.object` or `request.oldObject` as
 *   given, `request.namespace` always (the object's, '' without one), `request.operation`,
 *   `request.userInfo` only when a user is given, no `request.name`.
 *
 * In both: `request.roles` and `request.clusterRoles` (empty lists when unknown, where Kyverno
 * would leave them out), `serviceAccountName` and `serviceAccountNamespace` derived from the user
 * name (cli: only with a user), and `images` from the object's containers (see images.ts),
 * computed when a query first names it. `variables` are applied last, as a values file's are.
 */

export interface KyvernoUserInfo {
  readonly username?: string
  readonly uid?: string
  readonly groups?: readonly string[]
  readonly extra?: Readonly<Record<string, readonly string[]>>
}

export interface KyvernoRequestInput {
  /** The resource as admitted (the new object); absent or null for DELETE. */
  readonly object?: JsonObject | null
  /** The previous object (UPDATE, DELETE). */
  readonly oldObject?: JsonObject | null
  /** CREATE (the default), UPDATE, DELETE or CONNECT. */
  readonly operation?: string
  /** Defaults to the object's (or, in admission, the old object's) metadata.namespace. */
  readonly namespace?: string
  /** Admission only; defaults to the object's (or old object's) metadata.name. */
  readonly name?: string
  readonly userInfo?: KyvernoUserInfo
  readonly roles?: readonly string[]
  readonly clusterRoles?: readonly string[]
  /** Further AdmissionRequest fields (uid, kind, resource, ...), copied under `request` in admission mode. */
  readonly admission?: JsonObject
}

export interface BuildContextOptions {
  /** Which of Kyverno's two context shapes to build; `admission` by default. */
  readonly mode?: 'admission' | 'cli'
  /** Image reference defaults for `images` (registry docker.io, registry mutation on). */
  readonly images?: ImageOptions
  /** Dotted-key values applied last, as a Kyverno values file gives them (`request.operation`, ...). */
  readonly variables?: Readonly<Record<string, JsonValue>>
  /** The clock time_now() reads in this context; the real time when absent. */
  readonly now?: Date
}

function metadataField(object: JsonObject | null | undefined, field: string): string | undefined {
  const metadata = object ? object.metadata : undefined
  const value = isJsonObject(metadata) && Object.hasOwn(metadata, field) ? metadata[field] : undefined
  return typeof value === 'string' ? value : undefined
}

// Objects are built with literal keys: none is `__proto__`, and this runs once per request.
function userInfoJson(user: KyvernoUserInfo | undefined): JsonObject {
  const out: JsonObject = {}
  if (user?.username) out.username = user.username
  if (user?.uid) out.uid = user.uid
  if (user?.groups && user.groups.length > 0) out.groups = [...user.groups]
  if (user?.extra && Object.keys(user.extra).length > 0) {
    const extra: JsonObject = {}
    for (const key of Object.keys(user.extra)) setOwn(extra, key, [...(user.extra[key] ?? [])])
    out.extra = extra
  }
  return out
}

export function buildKyvernoContext(input: KyvernoRequestInput, options: BuildContextOptions = {}): KyvernoContext {
  const mode = options.mode ?? 'admission'
  const operation = input.operation ?? 'CREATE'
  const request: JsonObject = {}
  if (mode === 'admission') {
    for (const key of Object.keys(input.admission ?? {})) setOwn(request, key, (input.admission as JsonObject)[key] as JsonValue)
    const namespace = input.namespace ?? metadataField(input.object, 'namespace') ?? metadataField(input.oldObject, 'namespace') ?? ''
    const name = input.name ?? metadataField(input.object, 'name') ?? metadataField(input.oldObject, 'name') ?? ''
    if (name !== '') request.name = name
    if (namespace !== '') request.namespace = namespace
    request.operation = operation
    request.userInfo = userInfoJson(input.userInfo)
    request.object = input.object ?? null
    request.oldObject = input.oldObject ?? null
  } else {
    if (input.object !== undefined) request.object = input.object
    if (input.oldObject !== undefined) request.oldObject = input.oldObject
    request.namespace = input.namespace ?? metadataField(input.object, 'namespace') ?? ''
    if (input.userInfo !== undefined) request.userInfo = userInfoJson(input.userInfo)
    request.operation = operation
  }
  request.roles = [...(input.roles ?? [])]
  request.clusterRoles = [...(input.clusterRoles ?? [])]
  const root: JsonObject = { request }
  if (mode === 'admission' || input.userInfo !== undefined) {
    const account = serviceAccountOf(input.userInfo?.username ?? '')
    root.serviceAccountName = account.name
    root.serviceAccountNamespace = account.namespace
  }
  const resource = input.object ?? null
  let context = KyvernoContext.fromData(root, options.now).withDeferredEntries([
    { name: 'images', merge: true, load: () => extractImages(resource, options.images) },
  ])
  if (options.variables !== undefined) context = context.withVariables(options.variables)
  return context
}
