import type { PodSecurityVersion } from './version.js'

/**
 * The values the Pod Security Standards allow, as Kubernetes' pod-security-admission library
 * lists them (https://kubernetes.io/docs/concepts/security/pod-security-standards/). Where the
 * standard widened a list in a later release, the list is a function of the version.
 */

/** Baseline: what a container may add, the container runtimes' default set. */
export const BASELINE_CAPABILITIES: readonly string[] = [
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]

/** Restricted: the one capability a container may add back after dropping ALL. */
export const RESTRICTED_ADDABLE_CAPABILITY = 'NET_BIND_SERVICE'

/** Baseline: the namespaced sysctls that are safe, as the list grew release by release. */
export function safeSysctls(version: PodSecurityVersion): string[] {
  const safe = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range']
  if (version >= 27) safe.push('net.ipv4.ip_local_reserved_ports')
  if (version >= 29) safe.push('net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes')
  if (version >= 32) safe.push('net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem')
  return safe
}

/** Baseline: the SELinux types a pod or container may set ('' is the runtime's default, container_t). */
export function seLinuxTypes(version: PodSecurityVersion): string[] {
  const types = ['container_t', 'container_init_t', 'container_kvm_t']
  if (version >= 31) types.push('container_engine_t')
  return types
}

/** Seccomp and AppArmor profile types that keep the container confined. */
export const CONFINING_PROFILE_TYPES: readonly string[] = ['RuntimeDefault', 'Localhost']

/** The beta AppArmor annotation, one per container: `<prefix><container name>`. */
export const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/'

/** The alpha seccomp annotations, which the standard judged before securityContext.seccompProfile (before v1.19). */
export const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod'
export const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/'

/** Before v1.19, seccomp took its profile from annotations: these stood for RuntimeDefault (and `localhost/<file>` for Localhost). */
export const CONFINING_SECCOMP_ANNOTATION_VALUES: readonly string[] = ['runtime/default', 'docker/default']

/** Restricted: the volume sources a pod may use. */
export const RESTRICTED_VOLUME_TYPES: readonly string[] = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']

/** The pod-security-admission library also admits image volumes (read-only OCI artifacts) in every version. */
export const ADMITTED_VOLUME_TYPES: readonly string[] = [...RESTRICTED_VOLUME_TYPES, 'image']

export const HOST_NAMESPACES = ['network', 'pid', 'ipc'] as const
export type HostNamespace = (typeof HOST_NAMESPACES)[number]
export const HOST_NAMESPACE_FIELDS: Readonly<Record<HostNamespace, string>> = { network: 'hostNetwork', pid: 'hostPID', ipc: 'hostIPC' }
