import {
  ADMITTED_VOLUME_TYPES,
  APPARMOR_ANNOTATION_PREFIX,
  BASELINE_CAPABILITIES,
  CONFINING_PROFILE_TYPES,
  CONFINING_SECCOMP_ANNOTATION_VALUES,
  RESTRICTED_ADDABLE_CAPABILITY,
  SECCOMP_CONTAINER_ANNOTATION_PREFIX,
  SECCOMP_POD_ANNOTATION,
  WINDOWS_EXEMPTION_VERSION,
  celString,
  celStringList,
  listOf,
  present,
  safeSysctls,
  seLinuxTypes,
  stringOf,
  type PodSecurityVersion,
} from '../index.js'
import type { PodView } from './pod-views.js'

/**
 * The field errors each check of Kubernetes' pod-security-admission library reports for a pod
 * (read from its policy/check_*.go), as CEL building a list of records:
 *
 *   field      the path as the library writes it: spec.containers[0].securityContext.privileged
 *   key        the path as Kyverno compares it when it applies an exclude: every run of digits
 *              made `*` (spec.containers[*].securityContext.privileged)
 *   name       the container's name, '' for a pod-level field
 *   container  whether the field is a container's (Kyverno matches those by key and name)
 *   required   a "Required value" error (no bad value) rather than "Forbidden"
 *   value      the bad value as Kyverno prints it ('' when the library gives none)
 *   bad        the bad values an exclude's `values` globs must all match (Kyverno's
 *              extractBadValues: a non-empty string, a bool, an int, or a list of strings)
 *
 * The pass/fail verdicts come from the shared checks in engine/pod-security; these records are
 * what Kyverno's excludes work on, and what its failure message lists. Fields written as null
 * count as absent, as Go reads them.
 */

/** CEL source text. */
type Cel = string

interface BadValue {
  shown: Cel
  bad: Cel
}

const TRUE: BadValue = { shown: "'true'", bad: "['true']" }
const FALSE: BadValue = { shown: "'false'", bad: "['false']" }
const ZERO: BadValue = { shown: "'0'", bad: "['0']" }
/** allowPrivilegeEscalation unset: the library reports the string "nil". */
const NIL: BadValue = { shown: "'nil'", bad: "['nil']" }

function stringValue(value: Cel): BadValue {
  return { shown: value, bad: `[${value}].filter(v, v != '')` }
}

function intValue(value: Cel): BadValue {
  return { shown: `string(${value})`, bad: `[string(${value})]` }
}

/** A list of strings, printed as Go's %+v does: [A B]. */
function listValue(list: Cel): BadValue {
  return { shown: `'[' + ${list}.join(' ') + ']'`, bad: list }
}

interface FieldError {
  field: Cel
  key: Cel
  /** The container's name, for a container's field. */
  name?: Cel
  /** The bad value of a Forbidden error; none for a Required one. */
  value?: BadValue
  required?: boolean
}

function fieldError(error: FieldError): Cel {
  const value = error.value ?? { shown: "''", bad: '[]' }
  return (
    `{'field': ${error.field}, 'key': ${error.key}, 'name': ${error.name ?? "''"}, 'container': ${error.name === undefined ? 'false' : 'true'}, ` +
    `'required': ${error.required === true ? 'true' : 'false'}, 'value': ${value.shown}, 'bad': ${value.bad}}`
  )
}

/** Where one container's errors go: its path, the path Kyverno compares (digits starred) and its name, all CEL. */
interface ContainerScope {
  path: Cel
  key: Cel
  name: Cel
}

/**
 * The errors of every container of the view (see pod-views.ts for its entries), in the order the
 * library visits them: init, app, ephemeral. The container is bound as `c`.
 */
function eachContainer(view: PodView, errors: (scope: ContainerScope) => Cel): Cel {
  return `${view.containers}.map(entry, [entry.c].map(c, ${errors({ path: 'entry.path', key: 'entry.key', name: 'entry.name' })})[0]).flatten()`
}

/** A container field's error. */
function containerError(scope: ContainerScope, path: string, error: Omit<FieldError, 'field' | 'key' | 'name'>): Cel {
  const suffix = celString(`.${path}`)
  return fieldError({ ...error, field: `${scope.path} + ${suffix}`, key: `${scope.key} + ${suffix}`, name: scope.name })
}

/** A pod-level field's error (no digits in the path). */
function podError(path: string, error: Omit<FieldError, 'field' | 'key' | 'name'>): Cel {
  return fieldError({ ...error, field: celString(path), key: celString(path) })
}

/** `base.?a.?b` for the dotted path `a.b`. */
function optional(base: Cel, path: string): Cel {
  return `${base}${path.split('.').map((part) => `.?${part}`).join('')}`
}

/** `errors` when `test` holds, else none. */
function when(test: Cel, errors: Cel): Cel {
  return `(${test} ? ${errors} : [])`
}

/** Kyverno's key for an annotation's path: its digits starred too (regexp \d+), worked out only for a key that has some. */
function annotationKey(key: Cel): Cel {
  const digit = (at: string): string => `'0123456789'.contains(${key}.charAt(${at}))`
  const starred = `lists.range(size(${key})).filter(n, !(${digit('n')} && n > 0 && ${digit('n - 1')})).map(n, ${digit('n')} ? '*' : ${key}.charAt(n)).join('')`
  return `'metadata.annotations[' + (${key}.matches('[0-9]') ? ${starred} : ${key}) + ']'`
}

function annotationError(view: PodView, key: Cel): Cel {
  return fieldError({ field: `'metadata.annotations[' + ${key} + ']'`, key: annotationKey(key), value: stringValue(`(${view.annotations}[${key}] == null ? '' : ${view.annotations}[${key}])`) })
}

/** The restricted checks Kubernetes skips for Windows pods from v1.25. */
function unlessWindows(view: PodView, version: PodSecurityVersion, errors: Cel): Cel {
  return version >= WINDOWS_EXEMPTION_VERSION ? `(${view.spec}.?os.?name.orValue('') == 'windows' ? [] : ${errors})` : errors
}

const CONFINING = celStringList(CONFINING_PROFILE_TYPES)

/** The error of a set profile (optional CEL) whose type does not confine, else none. */
function unconfiningProfile(profile: Cel, error: (type: Cel) => Cel): Cel {
  return `[${profile}.orValue(null)].filter(p, p != null && !(${stringOf('p.?type')} in ${CONFINING})).map(p, ${error(stringOf('p.?type'))})`
}

export function allowPrivilegeEscalationErrors(view: PodView, version: PodSecurityVersion): Cel {
  const errors = eachContainer(view, (scope) => {
    const path = 'securityContext.allowPrivilegeEscalation'
    const value = 'c.?securityContext.?allowPrivilegeEscalation'
    return (
      `!(${present('c.?securityContext')}) ? [${containerError(scope, path, { required: true })}]` +
      ` : !(${present(value)}) ? [${containerError(scope, path, { value: NIL })}]` +
      ` : ${value}.orValue(false) == true ? [${containerError(scope, path, { value: TRUE })}] : []`
    )
  })
  return unlessWindows(view, version, errors)
}

export function appArmorProfileErrors(view: PodView): Cel {
  const path = 'securityContext.appArmorProfile.type'
  const pod = unconfiningProfile(`${view.spec}.?securityContext.?appArmorProfile`, (type) => podError(`spec.${path}`, { value: stringValue(type) }))
  const containers = eachContainer(view, (scope) => unconfiningProfile('c.?securityContext.?appArmorProfile', (type) => containerError(scope, path, { value: stringValue(type) })))
  const value = `${view.annotations}[k]`
  const annotations =
    `${view.annotations}.filter(k, k.startsWith(${celString(APPARMOR_ANNOTATION_PREFIX)}) && !(${value} in ['', 'runtime/default', null] || ${value}.startsWith('localhost/')))` +
    `.map(k, ${annotationError(view, 'k')})`
  return `${pod} + ${containers} + ${annotations}`
}

export function capabilitiesBaselineErrors(view: PodView): Cel {
  return eachContainer(
    view,
    (scope) =>
      `[${listOf('c.?securityContext.?capabilities.?add')}.filter(x, !(x in ${celStringList(BASELINE_CAPABILITIES)})).distinct().sort()]` +
      `.filter(l, size(l) > 0).map(l, ${containerError(scope, 'securityContext.capabilities.add', { value: listValue('l') })})`,
  )
}

export function capabilitiesRestrictedErrors(view: PodView, version: PodSecurityVersion): Cel {
  const errors = eachContainer(view, (scope) => {
    const capabilities = 'c.?securityContext.?capabilities'
    const drop = listOf(`${capabilities}.?drop`)
    const dropPath = 'securityContext.capabilities.drop'
    const dropErrors = `('ALL' in ${drop} ? [] : size(${drop}) > 0 ? [${containerError(scope, dropPath, { value: listValue(`${drop}.distinct().sort()`) })}] : [${containerError(scope, dropPath, { required: true })}])`
    const addErrors =
      `[${listOf(`${capabilities}.?add`)}.filter(x, x != ${celString(RESTRICTED_ADDABLE_CAPABILITY)}).distinct().sort()]` +
      `.filter(l, size(l) > 0).map(l, ${containerError(scope, 'securityContext.capabilities.add', { value: listValue('l') })})`
    // Without a capabilities block the library reports the missing drop alone.
    return `!(${present(capabilities)}) ? [${containerError(scope, dropPath, { required: true })}] : ${dropErrors} + ${addErrors}`
  })
  return unlessWindows(view, version, errors)
}

export function hostNamespacesErrors(view: PodView): Cel {
  return ['hostNetwork', 'hostPID', 'hostIPC'].map((field) => when(`${view.spec}.?${field}.orValue(false) == true`, `[${podError(`spec.${field}`, { value: TRUE })}]`)).join(' + ')
}

export function hostPathVolumesErrors(view: PodView): Cel {
  return (
    `${listOf(`${view.spec}.?volumes`)}.transformList(i, v, ${present('v.?hostPath')}, ` +
    `${fieldError({ field: "'spec.volumes[' + string(i) + '].hostPath'", key: "'spec.volumes[*].hostPath'", value: stringValue(stringOf('v.hostPath.?path')) })})`
  )
}

export function hostPortsErrors(view: PodView): Cel {
  return eachContainer(
    view,
    (scope) =>
      `${listOf('c.?ports')}.transformList(j, p, !(p.?hostPort.orValue(0) in [0, null]), ` +
      `${fieldError({ field: `${scope.path} + '.ports[' + string(j) + '].hostPort'`, key: `${scope.key} + '.ports[*].hostPort'`, name: scope.name, value: intValue('p.hostPort') })})`,
  )
}

export function privilegedErrors(view: PodView): Cel {
  return eachContainer(view, (scope) => when('c.?securityContext.?privileged.orValue(false) == true', `[${containerError(scope, 'securityContext.privileged', { value: TRUE })}]`))
}

export function procMountErrors(view: PodView): Cel {
  return eachContainer(view, (scope) =>
    when(
      "!(c.?securityContext.?procMount.orValue('Default') in ['Default', null])",
      `[${containerError(scope, 'securityContext.procMount', { value: stringValue('c.securityContext.procMount') })}]`,
    ),
  )
}

/** The sources the library names when a volume uses none it admits, in the order it tests them. */
const RESTRICTED_VOLUME_SOURCES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'fc',
  'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos',
]

export function restrictedVolumesErrors(view: PodView): Cel {
  const set = (list: readonly string[]): string => `${celStringList(list)}.filter(t, ${present('v[?t]')})`
  return (
    `${listOf(`${view.spec}.?volumes`)}.transformList(i, v, size(${set(ADMITTED_VOLUME_TYPES)}) == 0, ` +
    `(${set(RESTRICTED_VOLUME_SOURCES)} + ['unknown']).map(t, ${fieldError({ field: "'spec.volumes[' + string(i) + '].' + t", key: "'spec.volumes[*].' + t" })})[0])`
  )
}

/**
 * In the library's order: the pod's false, the containers' explicit false, then the containers
 * that set nothing while the pod does not set true (which order matters to Kyverno's excludes,
 * see exclusions.ts).
 */
export function runAsNonRootErrors(view: PodView): Cel {
  const path = 'securityContext.runAsNonRoot'
  const pod = `${view.spec}.?securityContext.?runAsNonRoot`
  const own = 'c.?securityContext.?runAsNonRoot'
  return (
    `${when(`${pod}.orValue(null) == false`, `[${podError(`spec.${path}`, { value: FALSE })}]`)}` +
    ` + ${eachContainer(view, (scope) => when(`${own}.orValue(null) == false`, `[${containerError(scope, path, { value: FALSE })}]`))}` +
    ` + ${eachContainer(view, (scope) => when(`${own}.orValue(null) == null && ${pod}.orValue(false) != true`, `[${containerError(scope, path, { required: true })}]`))}`
  )
}

export function runAsUserErrors(view: PodView): Cel {
  const path = 'securityContext.runAsUser'
  return (
    `${when(`${optional(view.spec, path)}.orValue(1) == 0`, `[${podError(`spec.${path}`, { value: ZERO })}]`)}` +
    ` + ${eachContainer(view, (scope) => when(`${optional('c', path)}.orValue(1) == 0`, `[${containerError(scope, path, { value: ZERO })}]`))}`
  )
}

export function seLinuxOptionsErrors(view: PodView, version: PodSecurityVersion): Cel {
  const allowed = celStringList(['', ...seLinuxTypes(version)])
  const optionErrors = (options: Cel, error: (part: string, value: BadValue) => Cel): Cel =>
    `[${options}.orValue(null)].filter(o, o != null).map(o, ` +
    `${when(`!(${stringOf('o.?type')} in ${allowed})`, `[${error('type', stringValue(stringOf('o.?type')))}]`)}` +
    ` + ${when(`${stringOf('o.?user')} != ''`, `[${error('user', stringValue(stringOf('o.?user')))}]`)}` +
    ` + ${when(`${stringOf('o.?role')} != ''`, `[${error('role', stringValue(stringOf('o.?role')))}]`)}).flatten()`
  const path = 'securityContext.seLinuxOptions'
  return (
    `${optionErrors(optional(view.spec, path), (part, value) => podError(`spec.${path}.${part}`, { value }))}` +
    ` + ${eachContainer(view, (scope) => optionErrors(optional('c', path), (part, value) => containerError(scope, `${path}.${part}`, { value })))}`
  )
}

/** Before v1.19 the library judged the alpha annotations; from v1.19 the securityContext fields. */
export function seccompProfileBaselineErrors(view: PodView, version: PodSecurityVersion): Cel {
  if (version < 19) {
    const confining = (key: Cel): Cel => {
      const value = `${view.annotations}[${key}]`
      return `(${value} in ${celStringList(CONFINING_SECCOMP_ANNOTATION_VALUES)} || (${value} != null && ${value}.startsWith('localhost/')))`
    }
    const forbidden = (key: Cel): Cel => `[${key}].filter(k, k in ${view.annotations} && !${confining('k')}).map(k, ${annotationError(view, 'k')})`
    return `${forbidden(celString(SECCOMP_POD_ANNOTATION))} + ${eachContainer(view, (scope) => forbidden(`${celString(SECCOMP_CONTAINER_ANNOTATION_PREFIX)} + ${scope.name}`))}`
  }
  const path = 'securityContext.seccompProfile.type'
  return (
    `${unconfiningProfile(`${view.spec}.?securityContext.?seccompProfile`, (type) => podError(`spec.${path}`, { value: stringValue(type) }))}` +
    ` + ${eachContainer(view, (scope) => unconfiningProfile('c.?securityContext.?seccompProfile', (type) => containerError(scope, path, { value: stringValue(type) })))}`
  )
}

/**
 * The library reports the explicit errors (the pod's and the containers' unconfining profiles)
 * when there are any, and only otherwise the containers that set none while the pod sets none
 * that confines: with explicit errors, the missing ones go unreported.
 */
export function seccompProfileRestrictedErrors(view: PodView, version: PodSecurityVersion): Cel {
  const path = 'securityContext.seccompProfile.type'
  const pod = `${view.spec}.?securityContext.?seccompProfile`
  const explicit =
    `${unconfiningProfile(pod, (type) => podError(`spec.${path}`, { value: stringValue(type) }))}` +
    ` + ${eachContainer(view, (scope) => unconfiningProfile('c.?securityContext.?seccompProfile', (type) => containerError(scope, path, { value: stringValue(type) })))}`
  const podConfines = `(${present(pod)} && ${stringOf(`${pod}.orValue({}).?type`)} in ${CONFINING})`
  const implicit = eachContainer(view, (scope) => when(`!(${present('c.?securityContext.?seccompProfile')}) && !${podConfines}`, `[${containerError(scope, path, { required: true })}]`))
  return unlessWindows(view, version, `[[${explicit}, ${implicit}]].map(e, size(e[0]) > 0 ? e[0] : e[1])[0]`)
}

export function sysctlsErrors(view: PodView, version: PodSecurityVersion): Cel {
  return (
    `${listOf(`${view.spec}.?securityContext.?sysctls`)}.transformList(i, s, !(${stringOf('s.?name')} in ${celStringList(safeSysctls(version))}), ` +
    `${fieldError({ field: "'spec.securityContext.sysctls[' + string(i) + '].name'", key: "'spec.securityContext.sysctls[*].name'", value: stringValue(stringOf('s.?name')) })})`
  )
}

export function windowsHostProcessErrors(view: PodView): Cel {
  const path = 'securityContext.windowsOptions.hostProcess'
  return (
    `${when(`${optional(view.spec, path)}.orValue(false) == true`, `[${podError(`spec.${path}`, { value: TRUE })}]`)}` +
    ` + ${eachContainer(view, (scope) => when(`${optional('c', path)}.orValue(false) == true`, `[${containerError(scope, path, { value: TRUE })}]`))}`
  )
}
