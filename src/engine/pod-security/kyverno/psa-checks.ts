import {
  ADMITTED_VOLUME_TYPES,
  appArmorCheck,
  capabilitiesCheck,
  capabilitiesRestrictedCheck,
  hostNamespacesCheck,
  hostPathCheck,
  hostPortsCheck,
  hostProbesCheck,
  hostProcessCheck,
  privilegeEscalationCheck,
  privilegedCheck,
  procMountCheck,
  runAsNonRootCheck,
  runAsUserCheck,
  seccompBaselineCheck,
  seccompRestrictedCheck,
  seLinuxCheck,
  seLinuxTypes,
  sysctlsCheck,
  volumeTypesCheck,
  type PodSecurityCheck,
  type PodSecurityVersion,
} from '../index.js'
import * as errors from './field-errors.js'
import type { PodView } from './pod-views.js'

export type PodSecurityLevel = 'baseline' | 'restricted'

/**
 * One check of Kubernetes' pod-security-admission library as Kyverno runs it: every check of the
 * level (restricted runs the baseline ones too, even those a restricted check supersedes, such as
 * capabilities_baseline beside capabilities_restricted), each in the version that applies.
 */
export interface PsaCheck {
  /** The library's check id. */
  id: string
  level: PodSecurityLevel
  /** The control Kyverno names it by (pkg/pss/utils), in `exclude[].controlName` and in messages. */
  control: string
  /** The library's forbidden reason, which Kyverno's message quotes. */
  reason: string
  /** The verdict, from the controls the authoring catalog uses too, read as written. */
  check(version: PodSecurityVersion): PodSecurityCheck
  /** The field errors the library reports (field-errors.ts); undefined when it reports none. */
  fieldErrors?(view: PodView, version: PodSecurityVersion): string
}

/**
 * In the library's registration order, which is the order Kyverno lists failures in. Kyverno
 * takes each check's first version whatever the requested version, then any later version not
 * newer than it: a check that appeared in v1.23 (runAsUser) or v1.34 (host probes) applies to a
 * policy of v1.19 too, and so it does here.
 */
export const PSA_CHECKS: readonly PsaCheck[] = [
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    control: 'Privilege Escalation',
    reason: 'allowPrivilegeEscalation != false',
    check: (version) => privilegeEscalationCheck(version),
    fieldErrors: errors.allowPrivilegeEscalationErrors,
  },
  {
    id: 'appArmorProfile',
    level: 'baseline',
    control: 'AppArmor',
    reason: 'forbidden AppArmor profiles',
    check: () => appArmorCheck('as-written'),
    fieldErrors: errors.appArmorProfileErrors,
  },
  {
    id: 'capabilities_baseline',
    level: 'baseline',
    control: 'Capabilities',
    reason: 'non-default capabilities',
    check: () => capabilitiesCheck({}, 'as-written'),
    fieldErrors: errors.capabilitiesBaselineErrors,
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    control: 'Capabilities',
    reason: 'unrestricted capabilities',
    check: (version) => capabilitiesRestrictedCheck('as-written', version),
    fieldErrors: errors.capabilitiesRestrictedErrors,
  },
  { id: 'hostNamespaces', level: 'baseline', control: 'Host Namespaces', reason: 'host namespaces', check: () => hostNamespacesCheck(), fieldErrors: errors.hostNamespacesErrors },
  { id: 'hostPathVolumes', level: 'baseline', control: 'HostPath Volumes', reason: 'hostPath volumes', check: () => hostPathCheck('as-written'), fieldErrors: errors.hostPathVolumesErrors },
  { id: 'hostPorts', level: 'baseline', control: 'Host Ports', reason: 'hostPort', check: () => hostPortsCheck({}, 'as-written'), fieldErrors: errors.hostPortsErrors },
  // The library reports no field errors for it, and Kyverno names no control for it: no exclude reaches it.
  { id: 'hostProbesAndHostLifecycle', level: 'baseline', control: 'Host Probes / Lifecycle Hooks', reason: 'probe or lifecycle host', check: () => hostProbesCheck },
  { id: 'privileged', level: 'baseline', control: 'Privileged Containers', reason: 'privileged', check: () => privilegedCheck, fieldErrors: errors.privilegedErrors },
  { id: 'procMount', level: 'baseline', control: '/proc Mount Type', reason: 'procMount', check: () => procMountCheck('as-written'), fieldErrors: errors.procMountErrors },
  {
    id: 'restrictedVolumes',
    level: 'restricted',
    control: 'Volume Types',
    reason: 'restricted volume types',
    check: () => volumeTypesCheck(ADMITTED_VOLUME_TYPES, 'as-written'),
    fieldErrors: errors.restrictedVolumesErrors,
  },
  { id: 'runAsNonRoot', level: 'restricted', control: 'Running as Non-root', reason: 'runAsNonRoot != true', check: () => runAsNonRootCheck('as-written'), fieldErrors: errors.runAsNonRootErrors },
  { id: 'runAsUser', level: 'restricted', control: 'Running as Non-root user', reason: 'runAsUser=0', check: () => runAsUserCheck('as-written'), fieldErrors: errors.runAsUserErrors },
  {
    id: 'seLinuxOptions',
    level: 'baseline',
    control: 'SELinux',
    reason: 'seLinuxOptions',
    check: (version) => seLinuxCheck(seLinuxTypes(version), 'as-written'),
    fieldErrors: errors.seLinuxOptionsErrors,
  },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    control: 'Seccomp',
    reason: 'seccompProfile',
    check: (version) => seccompBaselineCheck('as-written', version),
    fieldErrors: errors.seccompProfileBaselineErrors,
  },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    control: 'Seccomp',
    reason: 'seccompProfile',
    check: (version) => seccompRestrictedCheck('as-written', version),
    fieldErrors: errors.seccompProfileRestrictedErrors,
  },
  { id: 'sysctls', level: 'baseline', control: 'Sysctls', reason: 'forbidden sysctls', check: (version) => sysctlsCheck(version, 'as-written'), fieldErrors: errors.sysctlsErrors },
  { id: 'windowsHostProcess', level: 'baseline', control: 'HostProcess', reason: 'hostProcess', check: () => hostProcessCheck, fieldErrors: errors.windowsHostProcessErrors },
]

/** The checks Kyverno runs for a level. */
export function checksOfLevel(level: PodSecurityLevel): PsaCheck[] {
  return PSA_CHECKS.filter((check) => level === 'restricted' || check.level === 'baseline')
}
