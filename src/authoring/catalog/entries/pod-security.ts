import type { NamedRequirement } from '../named-requirement.js'

/**
 * The Pod Security Standards controls (https://kubernetes.io/docs/concepts/security/pod-security-standards/)
 * as named requirements. Scores: 3 for a clause that names the control's field or concept, 2 for
 * the profiles, so "seccomp must follow the restricted profile" is the seccomp control.
 */
export const POD_SECURITY_ENTRIES: readonly NamedRequirement[] = [
  {
    id: 'pss-privileged',
    title: 'No privileged containers',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: ['no privileged pods', 'containers must not run in privileged mode', 'disallow privileged containers', 'privileged containers are not allowed'],
    parameters: [],
    recognize: {
      // "privilege escalation" is its own control; "privileged ports" (below 1024) are not about privileged mode.
      when: { all: [{ mentions: ['privileged', 'privileged mode', { re: '\\bpriv(ileged)? containers?\\b' }] }, { not: { mentions: [{ re: 'escalat' }, { re: '\\bprivileged ports?\\b' }] } }] },
      score: 2,
    },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'privileged',
        containers: 'all',
        name: 'no-privileged-containers',
        description: "Privileged containers have all the host's capabilities and devices: Pod Security baseline forbids them.",
        severity: 'high',
        remediation: 'Remove securityContext.privileged or set it to false on every container, init container and ephemeral container.',
      },
    },
    samples: {
      bad: [
        { description: 'an app container with securityContext.privileged: true', edit: { at: 'first-container', set: { 'securityContext.privileged': true } } },
        { description: 'an init container with securityContext.privileged: true', edit: { at: 'first-init-container', set: { 'securityContext.privileged': true } } },
      ],
    },
  },
  {
    id: 'pss-host-path',
    title: 'No hostPath volumes',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: ['no hostPath volumes', 'pods must not mount host paths', 'forbid hostPath mounts', 'host path volumes not allowed'],
    parameters: [],
    recognize: {
      // A clause about the allowed volume types as a whole belongs to that control.
      when: {
        all: [
          { mentions: [{ re: '\\bhost[\\s-]*paths?\\b' }, { re: "\\bmount(s|ing)? (the )?(host|node)('?s)? (file[\\s-]*systems?|directories|directory|dirs?|paths?)\\b" }] },
          { not: { mentions: [{ re: '\\bvolume (types?|kinds?)\\b' }] } },
        ],
      },
      score: 3,
    },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'host-path',
        name: 'disallow-host-path',
        description: "A hostPath volume gives the pod the node's filesystem: Pod Security baseline forbids it.",
        severity: 'high',
        remediation: 'Replace every spec.volumes[*].hostPath volume with an emptyDir, configMap, secret or persistentVolumeClaim volume.',
      },
    },
    samples: {
      bad: [
        {
          description: 'a pod with a hostPath volume',
          edit: { at: 'pod-spec', append: { to: 'volumes', item: { name: 'docker-socket', hostPath: { path: '/var/run/docker.sock', type: 'Socket' } } } },
        },
      ],
    },
  },
]
