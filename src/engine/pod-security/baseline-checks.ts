import { celString, celStringList, effectiveField, joinWords, listOf, mapOf, portStrings, portTest, present, type PortRange } from './cel-text.js'
import type { PodSecurityCheck } from './pod-security-check.js'
import type { PodSecurityReading } from './reading.js'
import {
  APPARMOR_ANNOTATION_PREFIX,
  BASELINE_CAPABILITIES,
  CONFINING_PROFILE_TYPES,
  CONFINING_SECCOMP_ANNOTATION_VALUES,
  HOST_NAMESPACE_FIELDS,
  HOST_NAMESPACES,
  SECCOMP_CONTAINER_ANNOTATION_PREFIX,
  SECCOMP_POD_ANNOTATION,
  safeSysctls,
  type HostNamespace,
} from './requirements.js'
import { LATEST_POD_SECURITY_VERSION, type PodSecurityVersion } from './version.js'

/**
 * The baseline controls of the Pod Security Standards as CEL checks. Where the two readings of a
 * pod give different verdicts (see reading.ts) a check takes the reading; where the standard
 * changed between releases it takes the version. The defaults are what the authoring catalog
 * uses: as run, latest. As written, fields written as null count as absent, as Go reads them.
 */

const CONFINING = celStringList(CONFINING_PROFILE_TYPES)

export const privilegedCheck: PodSecurityCheck = {
  expression: 'variables.containers.all(c, c.?securityContext.?privileged.orValue(false) != true)',
  message: 'privileged containers are not allowed',
}

export function hostNamespacesCheck(namespaces: readonly HostNamespace[] = HOST_NAMESPACES): PodSecurityCheck {
  const names = namespaces.map((namespace) => ({ network: 'host network', pid: 'host PID namespace', ipc: 'host IPC namespace' })[namespace])
  return {
    expression: namespaces.map((namespace) => `object.spec.?${HOST_NAMESPACE_FIELDS[namespace]}.orValue(false) != true`).join(' && '),
    message: `pods must not use the ${joinWords(names, 'or')}`,
  }
}

export function hostPathCheck(reading: PodSecurityReading = 'as-run'): PodSecurityCheck {
  return {
    expression: reading === 'as-run' ? 'object.spec.?volumes.orValue([]).all(v, !has(v.hostPath))' : `${listOf('object.spec.?volumes')}.all(v, !(${present('v.?hostPath')}))`,
    message: 'hostPath volumes are not allowed',
  }
}

/** No host ports; an author may allow some ranges or forbid only some. */
export function hostPortsCheck(ports: { allowed?: readonly PortRange[]; forbidden?: readonly PortRange[] } = {}, reading: PodSecurityReading = 'as-run'): PodSecurityCheck {
  const allowed = ports.allowed ?? []
  const forbidden = ports.forbidden ?? []
  const port = 'p.?hostPort.orValue(0)'
  const list = reading === 'as-run' ? 'c.?ports.orValue([])' : listOf('c.?ports')
  if (forbidden.length > 0) {
    return {
      expression: `variables.containers.all(c, ${list}.all(p, !${portTest(port, forbidden)}))`,
      message: `host ports ${portStrings(forbidden).join(', ')} are not allowed`,
    }
  }
  if (allowed.length > 0) {
    return {
      expression: `variables.containers.all(c, ${list}.all(p, ${port} == 0 || ${portTest(port, allowed)}))`,
      message: `only host ports ${portStrings(allowed).join(', ')} are allowed`,
    }
  }
  const unset = reading === 'as-run' ? `${port} == 0` : `${port} in [0, null]`
  return { expression: `variables.containers.all(c, ${list}.all(p, ${unset}))`, message: 'host ports are not allowed' }
}

/** The names a container may write for a capability: container runtimes take "CAP_X" and "X" alike. */
function withCapPrefix(names: readonly string[]): string[] {
  return names.flatMap((name) => [name, `CAP_${name}`])
}

/**
 * Added capabilities within the baseline set (the standard compares names exactly, as written); an
 * author may narrow the set, or forbid only some capabilities and then ALL, which adds them too.
 */
export function capabilitiesCheck(capabilities: { allowed?: readonly string[]; forbidden?: readonly string[] } = {}, reading: PodSecurityReading = 'as-run'): PodSecurityCheck {
  const forbidden = capabilities.forbidden ?? []
  const added = reading === 'as-run' ? 'c.?securityContext.?capabilities.?add.orValue([])' : listOf('c.?securityContext.?capabilities.?add')
  if (forbidden.length > 0) {
    return {
      expression: `variables.containers.all(c, ${added}.all(cap, !(cap in ${celStringList([...withCapPrefix(forbidden), 'ALL'])})))`,
      message: `containers must not add the capabilities ${forbidden.join(', ')}`,
    }
  }
  const allowed = capabilities.allowed ?? []
  const list = allowed.length > 0 ? allowed : BASELINE_CAPABILITIES
  return {
    expression: `variables.containers.all(c, ${added}.all(cap, cap in ${celStringList(list)}))`,
    message: allowed.length > 0 ? `containers may add only the capabilities ${allowed.join(', ')}` : 'containers must not add capabilities beyond the Pod Security baseline set',
  }
}

/** Whether a profile (the optional CEL of a seccompProfile or appArmorProfile) is absent or of a confining type. */
function unsetOrConfining(profile: string): string {
  return `(!(${present(profile)}) || ${profile}.orValue({}).?type.orValue('') in ${CONFINING})`
}

export function appArmorCheck(reading: PodSecurityReading = 'as-run'): PodSecurityCheck {
  const message = 'AppArmor must not be disabled: the profile must be RuntimeDefault or Localhost'
  const allowedAnnotation = (value: string): string => `${value} in ['', 'runtime/default', null] || ${value}.startsWith('localhost/')`
  if (reading === 'as-run') {
    return {
      expression:
        `object.metadata.?annotations.orValue({}).all(k, !k.startsWith('${APPARMOR_ANNOTATION_PREFIX}') || ${allowedAnnotation('object.metadata.annotations[k]')})` +
        ` && variables.containers.all(c, ${effectiveField(['appArmorProfile', 'type'], "'RuntimeDefault'")} in ${CONFINING})`,
      message,
    }
  }
  const annotations = mapOf('object.metadata.?annotations')
  return {
    expression:
      `${annotations}.all(k, !k.startsWith('${APPARMOR_ANNOTATION_PREFIX}') || ${allowedAnnotation(`${annotations}[k]`)})` +
      ` && ${unsetOrConfining('object.spec.?securityContext.?appArmorProfile')} && variables.containers.all(c, ${unsetOrConfining('c.?securityContext.?appArmorProfile')})`,
    message,
  }
}

/** SELinux: the type within `types` ('' is the default), no user, no role. */
export function seLinuxCheck(types: readonly string[], reading: PodSecurityReading = 'as-run'): PodSecurityCheck {
  const message = `the SELinux type must be ${joinWords(types, 'or')}, and the SELinux user and role must not be set`
  const pod = 'object.spec.?securityContext.?seLinuxOptions'
  const container = 'c.?securityContext.?seLinuxOptions'
  if (reading === 'as-run') {
    const unset = (path: string): string => `${path}.?user.orValue('') == '' && ${path}.?role.orValue('') == ''`
    return {
      expression: `variables.containers.all(c, ${effectiveField(['seLinuxOptions', 'type'], "''")} in ${celStringList(['', ...types])} && ${unset(container)}) && ${unset(pod)}`,
      message,
    }
  }
  const allowed = (options: string): string =>
    `${options}.?type.orValue('') in [${['', ...types].map(celString).join(', ')}, null] && ${options}.?user.orValue('') in ['', null] && ${options}.?role.orValue('') in ['', null]`
  return { expression: `${allowed(pod)} && variables.containers.all(c, ${allowed(container)})`, message }
}

export function procMountCheck(reading: PodSecurityReading = 'as-run'): PodSecurityCheck {
  const value = "c.?securityContext.?procMount.orValue('Default')"
  return {
    expression: `variables.containers.all(c, ${reading === 'as-run' ? `${value} == 'Default'` : `${value} in ['Default', null]`})`,
    message: 'the /proc mount type must be Default',
  }
}

/**
 * Baseline seccomp: no profile that lifts confinement. Before v1.19 profiles were set by alpha
 * annotations, and the standard judged those (read as written: that is the only way the
 * importer, which alone asks for old versions, reads them).
 */
export function seccompBaselineCheck(reading: PodSecurityReading = 'as-run', version: PodSecurityVersion = LATEST_POD_SECURITY_VERSION): PodSecurityCheck {
  const message = 'the seccomp profile must not be Unconfined'
  if (version < 19) {
    const annotations = mapOf('object.metadata.?annotations')
    const confining = (key: string): string =>
      `(!(${key} in ${annotations}) || ${annotations}[${key}] in ${celStringList(CONFINING_SECCOMP_ANNOTATION_VALUES)} || (${annotations}[${key}] != null && ${annotations}[${key}].startsWith('localhost/')))`
    return {
      expression: `${confining(celString(SECCOMP_POD_ANNOTATION))} && variables.containers.all(c, ${confining(`(${celString(SECCOMP_CONTAINER_ANNOTATION_PREFIX)} + c.?name.orValue(''))`)})`,
      message,
    }
  }
  if (reading === 'as-run') return { expression: `variables.containers.all(c, ${effectiveField(['seccompProfile', 'type'], "''")} != 'Unconfined')`, message }
  return { expression: `${unsetOrConfining('object.spec.?securityContext.?seccompProfile')} && variables.containers.all(c, ${unsetOrConfining('c.?securityContext.?seccompProfile')})`, message }
}

export function sysctlsCheck(version: PodSecurityVersion = LATEST_POD_SECURITY_VERSION, reading: PodSecurityReading = 'as-run'): PodSecurityCheck {
  const sysctls = reading === 'as-run' ? 'object.spec.?securityContext.?sysctls.orValue([])' : listOf('object.spec.?securityContext.?sysctls')
  return { expression: `${sysctls}.all(s, s.?name.orValue('') in ${celStringList(safeSysctls(version))})`, message: 'only safe sysctls may be set' }
}

export const hostProcessCheck: PodSecurityCheck = {
  expression:
    'object.spec.?securityContext.?windowsOptions.?hostProcess.orValue(false) != true && variables.containers.all(c, c.?securityContext.?windowsOptions.?hostProcess.orValue(false) != true)',
  message: 'Windows HostProcess containers are not allowed',
}

/** The probe and lifecycle handlers whose `host` the standard restricts (v1.34): a host other than the pod's own reaches past it. */
export const HOST_HANDLERS: readonly (readonly string[])[] = [['livenessProbe'], ['readinessProbe'], ['startupProbe'], ['lifecycle', 'postStart'], ['lifecycle', 'preStop']]

export const hostProbesCheck: PodSecurityCheck = {
  expression: `variables.containers.all(c, ${HOST_HANDLERS.flatMap((handler) =>
    ['httpGet', 'tcpSocket'].map((action) => `c${[...handler, action, 'host'].map((part) => `.?${part}`).join('')}.orValue('') in ['', null]`),
  ).join(' && ')})`,
  message: 'probes and lifecycle handlers must not set a host',
}
