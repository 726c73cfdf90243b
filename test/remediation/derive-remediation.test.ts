import { describe, expect, it } from 'vitest'
import { deriveRemediation } from '../../src/remediation/derive-remediation.js'

describe('deriveRemediation', () => {
  it.each([
    // Kyverno Pod Security messages: the sentence that names the fields wins over the one stating the problem.
    [
      'Privileged mode is disallowed. All containers must set the securityContext.privileged field to `false` or unset the field.',
      'On all containers, set securityContext.privileged to `false`, or unset it.',
    ],
    [
      'Sharing the host namespaces is disallowed. The fields spec.hostNetwork, spec.hostIPC, and spec.hostPID must be unset or set to `false`.',
      'Unset spec.hostNetwork, spec.hostIPC, and spec.hostPID, or set them to `false`.',
    ],
    [
      'Running as root is not allowed. The field spec.securityContext.runAsUser must be unset or set to a number greater than zero.',
      'Unset spec.securityContext.runAsUser, or set it to a number greater than zero.',
    ],
    [
      'HostProcess containers are disallowed. The field spec.containers[*].securityContext.windowsOptions.hostProcess must either be undefined or set to `false`.',
      'Unset spec.containers[*].securityContext.windowsOptions.hostProcess, or set it to `false`.',
    ],
    ['Setting the SELinux user or role is forbidden. The fields seLinuxOptions.user and seLinuxOptions.role must be unset.', 'Remove seLinuxOptions.user and seLinuxOptions.role.'],
    [
      'Use of custom Seccomp profiles is disallowed. The field spec.containers[*].securityContext.seccompProfile.type must be set to `RuntimeDefault` or `Localhost`.',
      'Set spec.containers[*].securityContext.seccompProfile.type to `RuntimeDefault` or `Localhost`.',
    ],
    ["seccompProfile.type must be either 'RuntimeDefault' or 'Localhost'.", "Set seccompProfile.type to 'RuntimeDefault' or 'Localhost'."],
    [
      'Setting additional sysctls above the allowed type is disallowed. The field spec.securityContext.sysctls must be unset or not use any other names than kernel.shm_rmid_forced.',
      'Unset spec.securityContext.sysctls, or make it not use any other names than kernel.shm_rmid_forced.',
    ],
    // A sentence with a second requirement inside is not rewritten; the plain statement before it is.
    [
      'Running as root is not allowed. Either spec.securityContext.runAsNonRoot must be set to true, or all containers must have securityContext.runAsNonRoot set to true.',
      'Avoid running as root.',
    ],
    // The common phrasings of other policies.
    ['Use of host ports is disallowed.', 'Do not use host ports.'],
    ["Using a mutable image tag e.g. 'latest' is not allowed.", "Avoid using a mutable image tag e.g. 'latest'."],
    ["characters '+' or '=' are not allowed in sysctls values", "Avoid characters '+' or '=' in sysctls values."],
    ['Helm Tiller is not allowed', 'Avoid Helm Tiller.'],
    ['Node affinity cannot be used.', 'Avoid node affinity.'],
    ['The label `app.kubernetes.io/name` is required.', 'Add the label `app.kubernetes.io/name`.'],
    ['The label `corp.org/version` is required and must match the specified regex: ^v[0-9].[0-9].[0-9]$', 'Add the label `corp.org/version`; it must match the specified regex: ^v[0-9].[0-9].[0-9]$.'],
    ['Every Deployment in production is required to use the same image(s) as in staging.', 'Make every Deployment in production use the same image(s) as in staging.'],
    ['TLS must be defined.', 'Define TLS.'],
    ['DISABLE_OPA must not be set to true.', 'Do not set DISABLE_OPA to true.'],
    ['User ID should be 1000.', 'Set User ID to 1000.'],
    ['The accessMode must be set to ReadWriteOncePod.', 'Set the accessMode to ReadWriteOncePod.'],
    ['ServiceAccounts must set automountServiceAccountToken to false.', 'On ServiceAccounts, set automountServiceAccountToken to false.'],
    ['Containers must drop `ALL` capabilities.', 'Make containers drop `ALL` capabilities.'],
    ['Root filesystem must be read-only.', 'Make root filesystem read-only.'],
    ['All hostPath volumes must be mounted as readOnly.', 'Make all hostPath volumes be mounted as readOnly.'],
    ['Containers may not define CPU limits.', 'Do not let containers define CPU limits.'],
    ['The serviceAccountName field may not be changed once created.', 'Do not let the serviceAccountName field be changed once created.'],
    ['Cannot use `kubectl cp` on pods', 'Do not use `kubectl cp` on pods.'],
    ['Only the following types of volumes may be used: configMap, secret.', 'Use only the following types of volumes: configMap, secret.'],
    ['Only Secrets beginning with `safe-` may be consumed in env statements.', 'Allow only Secrets beginning with `safe-` to be consumed in env statements.'],
    ['The only permitted hostPorts are in the range 5000-6000.', 'Keep hostPorts in the range 5000-6000.'],
    ['The only approved FluxCD annotations are `fluxcd.io/cow` and `fluxcd.io/dog`.', 'Use only `fluxcd.io/cow` and `fluxcd.io/dog` as FluxCD annotations.'],
    ['hostPath volumes are confined to /data.', 'Keep hostPath volumes within /data.'],
    [
      'If a hostPath volume exists and is set to `/var/run/docker.sock`, the label `allow-docker` must equal `true`.',
      'If a hostPath volume exists and is set to `/var/run/docker.sock`, make the label `allow-docker` equal `true`.',
    ],
    ['at most 5 replicas', 'Use at most 5 replicas.'],
    ['"Wildcards are not permitted as hosts."', 'Avoid wildcards as hosts.'],
    // Nothing to rewrite: the message is kept, behind an instruction.
    ['Unknown image registry.', 'Change the resource to comply: Unknown image registry.'],
  ])('%s', (message, remediation) => {
    expect(deriveRemediation({ message })).toBe(remediation)
  })

  it('reads the validations\' messages when the rule has none, one instruction per distinct message', () => {
    expect(deriveRemediation({ celMessages: ['team must be set', undefined, 'team must be set', 'at most 5 replicas'] })).toBe('Set team. Use at most 5 replicas.')
  })

  it('prefers the rule message to the validations\' messages', () => {
    expect(deriveRemediation({ message: 'The team label is required.', celMessages: ['team must be set'] })).toBe('Add the team label.')
  })

  it('falls back to the description, reading "This policy ensures ..." as the instruction', () => {
    const description = 'Privileged mode disables most security mechanisms and must not be allowed. This policy ensures Pods do not call for privileged mode.'
    expect(deriveRemediation({ description })).toBe('Make sure pods do not call for privileged mode.')
    expect(deriveRemediation({ description: 'Containers need probes.' })).toBe('Change the resource to comply: Containers need probes.')
  })

  it('names the expressions when nothing is written down, and says something even without them', () => {
    expect(deriveRemediation({ expressions: ["has(object.metadata.labels.team)"] })).toBe('Change the resource so that `has(object.metadata.labels.team)` holds.')
    expect(deriveRemediation({ expressions: ['a', 'b'] })).toBe('Change the resource so that `a` and `b` hold.')
    expect(deriveRemediation({})).toBe('Change the resource so that it passes this rule.')
  })
})
