import { celStringList, effectiveField, listOf, present, UNLESS_WINDOWS } from './cel-text.js'
import type { PodSecurityCheck } from './pod-security-check.js'
import type { PodSecurityReading } from './reading.js'
import { CONFINING_PROFILE_TYPES, RESTRICTED_ADDABLE_CAPABILITY } from './requirements.js'
import { LATEST_POD_SECURITY_VERSION, WINDOWS_EXEMPTION_VERSION, type PodSecurityVersion } from './version.js'

/**
 * The restricted controls of the Pod Security Standards as CEL checks (restricted also includes
 * every baseline control). Readings, versions and nulls as in baseline-checks.ts.
 */

const CONFINING = celStringList(CONFINING_PROFILE_TYPES)

function unlessWindows(version: PodSecurityVersion): string {
  return version >= WINDOWS_EXEMPTION_VERSION ? UNLESS_WINDOWS : ''
}

/**
 * Volumes of the `allowed` sources only. As run, every field of a volume but its name must be an
 * allowed source (a volume without one runs as emptyDir); as written, a volume must set one of
 * the allowed sources, whatever else it sets.
 */
export function volumeTypesCheck(allowed: readonly string[], reading: PodSecurityReading = 'as-run'): PodSecurityCheck {
  const expression =
    reading === 'as-run'
      ? `object.spec.?volumes.orValue([]).all(v, v.all(k, k == 'name' || k in ${celStringList(allowed)}))`
      : `${listOf('object.spec.?volumes')}.all(v, ${celStringList(allowed)}.exists(t, ${present('v[?t]')}))`
  return { expression, message: `volumes must be of an allowed type (${allowed.join(', ')})` }
}

export function privilegeEscalationCheck(version: PodSecurityVersion = LATEST_POD_SECURITY_VERSION): PodSecurityCheck {
  return {
    expression: `${unlessWindows(version)}variables.containers.all(c, c.?securityContext.?allowPrivilegeEscalation.orValue(true) == false)`,
    message: 'containers must set allowPrivilegeEscalation to false',
  }
}

/** As written, a pod-level runAsNonRoot: false fails even when every container sets true. */
export function runAsNonRootCheck(reading: PodSecurityReading = 'as-run'): PodSecurityCheck {
  const message = 'containers must run as non-root (runAsNonRoot: true)'
  if (reading === 'as-run') return { expression: `variables.containers.all(c, ${effectiveField(['runAsNonRoot'], 'false')} == true)`, message }
  const own = 'c.?securityContext.?runAsNonRoot'
  const pod = 'object.spec.?securityContext.?runAsNonRoot'
  return { expression: `${pod}.orValue(null) in [true, null] && variables.containers.all(c, ${own}.orValue(null) == null ? ${pod}.orValue(false) == true : ${own}.orValue(false) == true)`, message }
}

export function runAsUserCheck(reading: PodSecurityReading = 'as-run'): PodSecurityCheck {
  return {
    expression:
      reading === 'as-run'
        ? `variables.containers.all(c, ${effectiveField(['runAsUser'], '1')} != 0)`
        : 'object.spec.?securityContext.?runAsUser.orValue(1) != 0 && variables.containers.all(c, c.?securityContext.?runAsUser.orValue(1) != 0)',
    message: 'containers must not run as the root user (runAsUser: 0)',
  }
}

export function seccompRestrictedCheck(reading: PodSecurityReading = 'as-run', version: PodSecurityVersion = LATEST_POD_SECURITY_VERSION): PodSecurityCheck {
  const message = 'a seccomp profile of type RuntimeDefault or Localhost is required'
  if (reading === 'as-run') {
    return { expression: `${unlessWindows(version)}variables.containers.all(c, ${effectiveField(['seccompProfile', 'type'], "''")} in ${CONFINING})`, message }
  }
  const pod = 'object.spec.?securityContext.?seccompProfile'
  const own = 'c.?securityContext.?seccompProfile'
  const confining = (profile: string): string => `${profile}.orValue({}).?type.orValue('') in ${CONFINING}`
  // A pod-level profile, when set, must confine; a container without its own runs with the pod's, which must then be set.
  return {
    expression: `${unlessWindows(version)}(!(${present(pod)}) || ${confining(pod)}) && variables.containers.all(c, ${present(own)} ? ${confining(own)} : ${present(pod)} && ${confining(pod)})`,
    message,
  }
}

/** Drop ALL, add back NET_BIND_SERVICE at most; as run, under either of the names runtimes take for it. */
export function capabilitiesRestrictedCheck(reading: PodSecurityReading = 'as-run', version: PodSecurityVersion = LATEST_POD_SECURITY_VERSION): PodSecurityCheck {
  const capabilities = 'c.?securityContext.?capabilities'
  const [drop, add] = reading === 'as-run' ? [`${capabilities}.?drop.orValue([])`, `${capabilities}.?add.orValue([])`] : [listOf(`${capabilities}.?drop`), listOf(`${capabilities}.?add`)]
  const addable = reading === 'as-run' ? [RESTRICTED_ADDABLE_CAPABILITY, `CAP_${RESTRICTED_ADDABLE_CAPABILITY}`] : [RESTRICTED_ADDABLE_CAPABILITY]
  return {
    expression: `${unlessWindows(version)}variables.containers.all(c, 'ALL' in ${drop} && ${add}.all(cap, cap in ${celStringList(addable)}))`,
    message: 'containers must drop ALL capabilities and may add only NET_BIND_SERVICE',
  }
}
