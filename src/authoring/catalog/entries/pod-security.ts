import {
  ADMITTED_VOLUME_TYPES,
  APPARMOR_ANNOTATION_PREFIX,
  BASELINE_CAPABILITIES,
  HOST_NAMESPACE_FIELDS,
  HOST_NAMESPACES,
  LATEST_POD_SECURITY_VERSION,
  RESTRICTED_VOLUME_TYPES,
  seLinuxTypes,
} from '../../../engine/pod-security/index.js'
import type { BadSample, ClauseTest, NamedRequirement, Words } from '../named-requirement.js'

/** The types baseline allows; '' is the runtime's default, container_t. */
const SELINUX_TYPES = seLinuxTypes(LATEST_POD_SECURITY_VERSION)

/** Whether the clause gives listed values as the allowed ones (else they are the forbidden ones). */
const LISTS_ALLOWED: ClauseTest = { any: [{ mentions: [{ words: 'exception-words' }] }, { negated: false }] }
const LISTS_FORBIDDEN: ClauseTest = { not: LISTS_ALLOWED }

const HOST_NAMESPACE_WORDS: Readonly<Record<string, readonly Words[]>> = {
  network: [{ re: '\\bhost[\\s-]*network(s|ing)?\\b' }, { re: '\\bnetwork namespaces?\\b' }],
  // "host processes" are what hostPID exposes; "hostProcess" (one word) is the Windows control.
  pid: [{ re: '\\bhost[\\s-]*pids?\\b' }, { re: '\\bhost process(es| ids?| namespaces?)\\b' }, { re: '\\bpid namespaces?\\b' }],
  ipc: [{ re: '\\bhost[\\s-]*ipc\\b' }, { re: '\\bipc namespaces?\\b' }],
}

const ALL_HOST_NAMESPACES: readonly Words[] = [{ re: "\\bhost('?s)? namespaces?\\b|\\bhost namespace sharing\\b|\\bnamespaces of the (host|node)\\b" }]

/** How authors write volume types, to the field name. */
const VOLUME_TYPE_WORDS: Readonly<Record<string, readonly Words[]>> = {
  configMap: [{ re: '\\bconfig[\\s-]*maps?\\b' }],
  csi: [{ re: '\\bcsi\\b' }],
  downwardAPI: [{ re: '\\bdownward[\\s-]*api\\b' }],
  emptyDir: [{ re: '\\bempty[\\s-]*dirs?\\b' }],
  ephemeral: [{ re: '\\bephemeral\\b' }],
  persistentVolumeClaim: [{ re: '\\bpersistent[\\s-]*volume[\\s-]*claims?\\b|\\bpvcs?\\b' }],
  projected: [{ re: '\\bprojected\\b' }],
  secret: [{ re: '\\bsecrets?\\b' }],
  nfs: [{ re: '\\bnfs\\b' }],
  gitRepo: [{ re: '\\bgit[\\s-]*repo\\b' }],
  iscsi: [{ re: '\\biscsi\\b' }],
  image: [{ re: '\\bimage volumes?\\b' }],
}

/** "Unconfined", "disabled", with no word asking for a profile to be set: the baseline seccomp control, not the restricted one. */
const UNCONFINED_SECCOMP: ClauseTest = {
  all: [
    { mentions: [{ re: '\\bunconfined\\b' }, { re: '\\bdisabl(e|es|ed|ing)\\b' }, { re: '\\boff\\b' }] },
    { not: { mentions: [{ re: '\\b(runtime[\\s-]*default|localhost|requir(e|es|ed|ing)|mandatory|must (be set|have|use|specify)|must set|set a|enforce[ds]?|enabled?)\\b' }] } },
  ],
}

/** The controls each profile checks, as the vocabulary's pod-security-check names them. */
const BASELINE_CHECKS = [
  'host-process',
  'host-namespaces',
  'privileged',
  'capabilities',
  'host-path',
  // Ephemeral containers cannot have ports, so checking all containers changes nothing.
  'host-ports',
  'apparmor',
  'selinux',
  'proc-mount',
  'seccomp-baseline',
  'sysctls',
]

const RESTRICTED_CHECKS = [...BASELINE_CHECKS, 'volume-types', 'privilege-escalation', 'run-as-non-root', 'run-as-user', 'seccomp-restricted', 'capabilities-restricted']

const BASELINE_BAD: readonly BadSample[] = [
  { description: 'a privileged app container', edit: { at: 'first-container', set: { 'securityContext.privileged': true } } },
  { description: 'a pod with spec.hostNetwork: true', edit: { at: 'pod-spec', set: { hostNetwork: true } } },
  { description: 'a pod with a hostPath volume', edit: { at: 'pod-spec', append: { to: 'volumes', item: { name: 'host', hostPath: { path: '/' } } } } },
  { description: 'an init container adding SYS_ADMIN', edit: { at: 'first-init-container', append: { to: 'securityContext.capabilities.add', item: 'SYS_ADMIN' } } },
  { description: 'a pod-level seccompProfile.type: Unconfined', edit: { at: 'pod-security-context', set: { seccompProfile: { type: 'Unconfined' } } } },
]

/**
 * The Pod Security Standards controls (https://kubernetes.io/docs/concepts/security/pod-security-standards/),
 * baseline and restricted, each as a named requirement, plus one per profile that checks all of
 * its controls at once.
 *
 * Field semantics follow the standard. Where Kubernetes lets a container inherit a pod-level
 * securityContext field (runAsNonRoot, runAsUser, seccompProfile, seLinuxOptions,
 * appArmorProfile), each container is judged by the value it runs with: its own, else the pod's.
 * "Must be X" controls fail when that value is missing; "must not be X" controls pass.
 *
 * Scores: 3 for a clause that names the control's field or concept, 2 for the profiles, so
 * "seccomp must follow the restricted profile" is the seccomp control, not the whole profile.
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
    id: 'pss-host-namespaces',
    title: 'No host namespaces (hostNetwork, hostPID, hostIPC)',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: [
      'pods must not share host namespaces',
      'no host network',
      'hostNetwork, hostPID and hostIPC must be false',
      'disallow hostPID',
      'never use the host IPC namespace in pods',
    ],
    parameters: [
      {
        name: 'namespaces',
        question: 'which host namespaces are forbidden (network, pid, ipc)?',
        required: false,
        example: ['network', 'pid', 'ipc'],
      },
    ],
    recognize: {
      when: { mentions: [...Object.values(HOST_NAMESPACE_WORDS).flat(), ...ALL_HOST_NAMESPACES] },
      score: 3,
      parameters: { namespaces: { use: 'named-values', with: { values: HOST_NAMESPACE_WORDS, all: ALL_HOST_NAMESPACES } } },
    },
    rule: [
      {
        when: { given: 'some' },
        use: 'pod-security-check',
        with: {
          check: 'host-namespaces',
          name: 'disallow-host-{{some}}',
          description: "Sharing the node's network, PID or IPC namespace lets a pod see and reach the node's processes and traffic: Pod Security baseline forbids it.",
          severity: 'high',
          remediation: 'Remove {{fields}} from the pod spec or set {{them}} to false.',
        },
      },
      {
        use: 'pod-security-check',
        with: {
          check: 'host-namespaces',
          name: 'disallow-host-namespaces',
          description: "Sharing the node's network, PID or IPC namespace lets a pod see and reach the node's processes and traffic: Pod Security baseline forbids it.",
          severity: 'high',
          remediation: 'Remove {{fields}} from the pod spec or set {{them}} to false.',
        },
      },
    ],
    values: [{ use: 'pod-security-texts', with: { check: 'host-namespaces' } }, { use: 'rejected-values', with: { listed: 'namespaces', candidates: HOST_NAMESPACES.map((namespace) => ({ value: namespace, field: HOST_NAMESPACE_FIELDS[namespace] })) } }],
    samples: {
      bad: [{ description: 'a pod with spec.{{item.field}}: true', edit: { at: 'pod-spec', set: { '{{item.field}}': true } }, each: 'rejected' }],
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
  {
    id: 'pss-host-ports',
    title: 'No host ports (or only allowed ones)',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: ['no host ports', 'containers must not use hostPort', 'host ports not allowed except 80 and 443', 'disallow hostPort 22'],
    parameters: [
      { name: 'allowed', question: 'which host ports or port ranges are allowed?', required: false, example: ['80', '443'] },
      { name: 'forbidden', question: 'which host ports or port ranges are forbidden?', required: false, example: ['22'] },
    ],
    recognize: {
      when: { mentions: [{ re: '\\bhost[\\s-]*ports?\\b' }] },
      score: 3,
      parameters: { allowed: { use: 'port-ranges', when: LISTS_ALLOWED }, forbidden: { use: 'port-ranges', when: LISTS_FORBIDDEN } },
    },
    rule: [
      {
        when: { given: 'forbidden-text' },
        use: 'pod-security-check',
        with: {
          check: 'host-ports',
          // Kubernetes forbids ports on ephemeral containers.
          containers: 'app-and-init',
          description: "A host port binds the node's own network interface, bypassing network policies and limiting scheduling: Pod Security baseline forbids it or limits it to a known list.",
          severity: 'high',
          name: 'restrict-host-ports',
          remediation: 'Change or remove every ports[*].hostPort in {{forbidden-text}} on the containers and init containers; expose the pod through a Service instead.',
        },
      },
      {
        when: { given: 'allowed-text' },
        use: 'pod-security-check',
        with: {
          check: 'host-ports',
          // Kubernetes forbids ports on ephemeral containers.
          containers: 'app-and-init',
          description: "A host port binds the node's own network interface, bypassing network policies and limiting scheduling: Pod Security baseline forbids it or limits it to a known list.",
          severity: 'high',
          name: 'restrict-host-ports',
          remediation: 'Remove ports[*].hostPort (or set it to 0) on every container and init container unless it is {{allowed-text}}; expose the pod through a Service instead.',
        },
      },
      {
        use: 'pod-security-check',
        with: {
          check: 'host-ports',
          // Kubernetes forbids ports on ephemeral containers.
          containers: 'app-and-init',
          name: 'disallow-host-ports',
          description: "A host port binds the node's own network interface, bypassing network policies and limiting scheduling: Pod Security baseline forbids it or limits it to a known list.",
          severity: 'high',
          remediation: 'Remove ports[*].hostPort (or set it to 0) on every container and init container; expose the pod through a Service instead.',
        },
      },
    ],
    // A port outside the allowed ranges, or a forbidden one.
    values: [{ use: 'pod-security-texts', with: { check: 'host-ports' } }, { use: 'rejected-values', with: { forbidden: 'forbidden', allowed: 'allowed', ports: true, candidates: [8080, 9090, 2222, 31000, 1, 65535], fallback: 8080, atLeast: 2 } }],
    samples: {
      bad: [
        {
          description: 'an app container with ports[*].hostPort: {{rejected.0}}',
          edit: { at: 'first-container', append: { to: 'ports', item: { name: 'host', containerPort: 9443, hostPort: '{{rejected.0}}', protocol: 'TCP' } } },
        },
        {
          description: 'an init container with ports[*].hostPort: {{rejected.1}}',
          edit: { at: 'first-init-container', append: { to: 'ports', item: { containerPort: 9444, hostPort: '{{rejected.1}}', protocol: 'TCP' } } },
        },
      ],
    },
  },
  {
    id: 'pss-capabilities',
    title: 'No added capabilities beyond the baseline set',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: [
      'containers must not add capabilities beyond the default set',
      'no NET_ADMIN or SYS_ADMIN capabilities',
      'forbid adding dangerous Linux capabilities',
      'containers may add only CHOWN and SETUID capabilities',
    ],
    parameters: [
      { name: 'forbidden', question: 'which capabilities must not be added?', required: false, example: ['NET_ADMIN', 'SYS_ADMIN'] },
      { name: 'allowed', question: 'which capabilities may be added?', required: false, example: ['NET_BIND_SERVICE'] },
    ],
    constantsNamedBy: { re: '\\b(?:default|baseline|dangerous)\\b', flags: 'i' },
    recognize: {
      // "drop ALL capabilities" is the restricted control.
      when: { all: [{ any: [{ test: 'names-capabilities' }, { mentions: [{ words: 'capability-words' }] }] }, { not: { mentions: [{ words: 'drop' }] } }] },
      score: 3,
      parameters: {
        // "must not add any capabilities": nothing may be added, not even the baseline set.
        none: {
          value: true,
          when: { all: [{ negated: true }, { mentions: [{ re: '\\b(?:any|no)\\s+(?:\\w+\\s+)?(?:capabilit(?:y|ies)|caps)\\b' }] }, { not: { test: 'names-capabilities' } }] },
        },
        allowed: { use: 'capability-names', when: LISTS_ALLOWED },
        forbidden: { use: 'capability-names', when: LISTS_FORBIDDEN },
      },
    },
    rule: [
      {
        when: { is: { none: true } },
        use: 'pod-security-check',
        with: {
          check: 'capabilities',
          containers: 'all',
          severity: 'high',
          name: 'disallow-adding-capabilities',
          description: 'Added capabilities give a container kernel powers beyond what its runtime grants by default; none may be added.',
          expression: 'variables.containers.all(c, c.?securityContext.?capabilities.?add.orValue([]).size() == 0)',
          message: 'containers must not add capabilities',
          remediation: 'Remove securityContext.capabilities.add from every container, init container and ephemeral container.',
        },
      },
      {
        when: { given: 'forbidden-text' },
        use: 'pod-security-check',
        with: {
          check: 'capabilities',
          containers: 'all',
          description:
            "Capabilities beyond the container runtime's default set (SYS_ADMIN, NET_ADMIN...) give a container kernel powers close to root on the node: Pod Security baseline forbids adding them.",
          severity: 'high',
          name: 'disallow-capabilities',
          remediation: 'Remove {{forbidden-text}} (and ALL) from securityContext.capabilities.add on every container, init container and ephemeral container.',
        },
      },
      {
        when: { given: 'allowed-text' },
        use: 'pod-security-check',
        with: {
          check: 'capabilities',
          containers: 'all',
          name: 'restrict-capabilities',
          description:
            "Capabilities beyond the container runtime's default set (SYS_ADMIN, NET_ADMIN...) give a container kernel powers close to root on the node: Pod Security baseline forbids adding them.",
          severity: 'high',
          remediation: 'Remove from securityContext.capabilities.add, on every container, init container and ephemeral container, every capability not in {{allowed-text}}.',
        },
      },
      {
        use: 'pod-security-check',
        with: {
          check: 'capabilities',
          containers: 'all',
          name: 'restrict-capabilities',
          description:
            "Capabilities beyond the container runtime's default set (SYS_ADMIN, NET_ADMIN...) give a container kernel powers close to root on the node: Pod Security baseline forbids adding them.",
          severity: 'high',
          remediation:
            'Remove from securityContext.capabilities.add, on every container, init container and ephemeral container, every capability not in the baseline set (AUDIT_WRITE, CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, MKNOD, NET_BIND_SERVICE, SETFCAP, SETGID, SETPCAP, SETUID, SYS_CHROOT).',
        },
      },
    ],
    // A capability the rule rejects.
    values: [
      { use: 'pod-security-texts', with: { check: 'capabilities' } },
      {
        use: 'rejected-values',
        with: { forbidden: 'forbidden', allowed: 'allowed', allowedByDefault: BASELINE_CAPABILITIES, candidates: ['SYS_ADMIN', 'NET_ADMIN', 'SYS_PTRACE', 'NET_RAW'], fallback: 'SYS_ADMIN', atLeast: 2 },
      },
    ],
    samples: {
      bad: [
        { description: 'an app container adding {{rejected.0}}', edit: { at: 'first-container', append: { to: 'securityContext.capabilities.add', item: '{{rejected.0}}' } } },
        { description: 'an init container adding {{rejected.1}}', edit: { at: 'first-init-container', append: { to: 'securityContext.capabilities.add', item: '{{rejected.1}}' } } },
      ],
    },
  },
  {
    id: 'pss-apparmor',
    title: 'No unconfined AppArmor profile',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: ['AppArmor must not be unconfined', 'disallow unconfined AppArmor profiles', 'containers must not override the default apparmor profile', 'forbid disabling AppArmor'],
    parameters: [],
    recognize: { when: { mentions: [{ re: '\\bapp[\\s-]*armou?r\\b' }, { re: '\\bapparmorprofile\\b' }] }, score: 3 },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'apparmor',
        containers: 'all',
        name: 'restrict-apparmor',
        description: 'An Unconfined AppArmor profile switches off the mandatory access control that confines the container: Pod Security baseline forbids it.',
        severity: 'high',
        remediation: `Set securityContext.appArmorProfile.type to RuntimeDefault or Localhost (or leave it unset) on the pod and every container, and set every ${APPARMOR_ANNOTATION_PREFIX}<container> annotation to runtime/default or localhost/<profile>.`,
      },
    },
    samples: {
      bad: [
        { description: 'an app container with appArmorProfile.type: Unconfined', edit: { at: 'first-container', set: { 'securityContext.appArmorProfile': { type: 'Unconfined' } } } },
        { description: 'a pod-level appArmorProfile.type: Unconfined that containers inherit', edit: { at: 'pod-security-context', set: { appArmorProfile: { type: 'Unconfined' } } } },
        {
          description: `an ${APPARMOR_ANNOTATION_PREFIX}<container>: unconfined annotation`,
          edit: { use: 'first-container-annotation', with: { prefix: APPARMOR_ANNOTATION_PREFIX, value: 'unconfined' } },
        },
      ],
    },
  },
  {
    id: 'pss-selinux',
    title: 'No custom SELinux options',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: ['restrict SELinux options', 'no custom SELinux user or role', 'seLinuxOptions type must be container_t', 'disallow custom SELinux types'],
    parameters: [{ name: 'types', question: 'which SELinux types are allowed?', required: false, example: SELINUX_TYPES }],
    recognize: {
      when: { mentions: [{ re: '\\bse[\\s-]*linux\\b' }, { re: '\\bselinuxoptions\\b' }] },
      score: 3,
      parameters: {
        // Types named as allowed narrow the list ("must be container_t"); named as forbidden ("no spc_t"), the baseline list already excludes them.
        types: { use: 'matches', with: { re: '\\b([a-z][a-z0-9]*(?:_[a-z0-9]+)*_t)\\b' }, when: LISTS_ALLOWED },
      },
    },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'selinux',
        containers: 'all',
        name: 'restrict-selinux',
        description: 'A custom SELinux type (spc_t...), user or role can lift the confinement SELinux puts on containers: Pod Security baseline forbids them.',
        severity: 'high',
        remediation: 'Remove securityContext.seLinuxOptions.user and .role, and set seLinuxOptions.type to {{types-text}} (or leave it unset), on the pod and every container.',
      },
    },
    values: [{ use: 'pod-security-texts', with: { check: 'selinux' } }, { use: 'rejected-values', with: { allowed: 'types', allowedByDefault: SELINUX_TYPES, candidates: ['spc_t', 'unconfined_t', 'container_engine_t'], fallback: 'spc_t' } }],
    samples: {
      bad: [
        { description: 'an app container with seLinuxOptions.type: {{rejected.0}}', edit: { at: 'first-container', set: { 'securityContext.seLinuxOptions': { type: '{{rejected.0}}' } } } },
        { description: 'a pod-level seLinuxOptions.user', edit: { at: 'pod-security-context', set: { seLinuxOptions: { user: 'system_u' } } } },
        { description: 'an init container with seLinuxOptions.role', edit: { at: 'first-init-container', set: { 'securityContext.seLinuxOptions': { role: 'sysadm_r' } } } },
      ],
    },
  },
  {
    id: 'pss-proc-mount',
    title: 'Default /proc mount only',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: ['procMount must be Default', 'no unmasked /proc mounts', 'containers must not use an Unmasked proc mount type'],
    parameters: [],
    recognize: { when: { mentions: [{ re: '\\bproc[\\s-]*mounts?\\b' }, { re: '\\bprocmount\\b' }, { re: '\\bunmasked\\b' }, { re: '\\/proc\\b' }] }, score: 3 },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'proc-mount',
        containers: 'all',
        name: 'require-default-proc-mount',
        description: 'An Unmasked /proc exposes kernel information and controls the default mount hides: Pod Security baseline requires the Default mount.',
        severity: 'high',
        remediation: 'Remove securityContext.procMount or set it to Default on every container, init container and ephemeral container.',
      },
    },
    samples: {
      bad: [
        { description: 'an app container with procMount: Unmasked', edit: { at: 'first-container', set: { 'securityContext.procMount': 'Unmasked' } } },
        { description: 'an init container with procMount: Unmasked', edit: { at: 'first-init-container', set: { 'securityContext.procMount': 'Unmasked' } } },
      ],
    },
  },
  // Seccomp: baseline forbids Unconfined, restricted requires RuntimeDefault or Localhost.
  {
    id: 'pss-seccomp',
    title: 'No Unconfined seccomp profile',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: ['seccomp must not be Unconfined', 'disallow unconfined seccomp profiles', 'containers must never disable seccomp'],
    parameters: [],
    recognize: { when: { all: [{ mentions: [{ words: 'seccomp' }] }, UNCONFINED_SECCOMP] }, score: 3 },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'seccomp-baseline',
        containers: 'all',
        name: 'disallow-unconfined-seccomp',
        description: 'An Unconfined seccomp profile lets the container make any system call: Pod Security baseline forbids it.',
        severity: 'high',
        remediation: 'Set securityContext.seccompProfile.type to RuntimeDefault or Localhost (or leave it unset) on the pod and on every container that sets it.',
      },
    },
    samples: {
      bad: [
        { description: 'an app container with seccompProfile.type: Unconfined', edit: { at: 'first-container', set: { 'securityContext.seccompProfile': { type: 'Unconfined' } } } },
        { description: 'a pod-level seccompProfile.type: Unconfined that containers inherit', edit: { at: 'pod-security-context', set: { seccompProfile: { type: 'Unconfined' } } } },
      ],
    },
  },
  {
    id: 'pss-sysctls',
    title: 'Only safe sysctls',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: ['only safe sysctls are allowed', 'no unsafe sysctls', 'pods must not set unsafe kernel parameters'],
    parameters: [],
    constantsNamedBy: { re: '\\b(?:safe|unsafe)\\b', flags: 'i' },
    recognize: { when: { mentions: [{ re: '\\bsysctls?\\b' }, { re: '\\bkernel (parameters?|params?|settings?|tunables?)\\b' }] }, score: 3 },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'sysctls',
        name: 'restrict-sysctls',
        description: "Sysctls outside the namespaced safe set change the node's kernel for every pod on it: Pod Security baseline allows only the safe set.",
        severity: 'high',
        remediation: 'Remove from spec.securityContext.sysctls every sysctl that is not one of {{safe}}.',
      },
    },
    values: [{ use: 'pod-security-texts', with: { check: 'sysctls' } }],
    samples: {
      bad: [
        { description: 'a pod setting the unsafe sysctl kernel.msgmax', edit: { at: 'pod-security-context', append: { to: 'sysctls', item: { name: 'kernel.msgmax', value: '65536' } } } },
        { description: 'a pod setting the unsafe sysctl net.core.somaxconn', edit: { at: 'pod-security-context', append: { to: 'sysctls', item: { name: 'net.core.somaxconn', value: '1024' } } } },
      ],
    },
  },
  {
    id: 'pss-host-process',
    title: 'No Windows HostProcess containers',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: ['no Windows HostProcess containers', 'disallow hostProcess pods', 'windowsOptions hostProcess must not be true'],
    parameters: [],
    recognize: {
      when: { mentions: [{ re: '\\bhostprocess\\b' }, { re: '\\bhost[\\s-]process (containers?|pods?)\\b' }, { re: '\\bwindows\\b.*\\bhost[\\s-]*process\\b' }, { re: '\\bwindowsoptions\\b' }] },
      score: 3,
    },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'host-process',
        containers: 'all',
        name: 'disallow-host-process',
        description: "A Windows HostProcess container runs directly on the node with the node's privileges: Pod Security baseline forbids it.",
        severity: 'high',
        remediation: 'Remove securityContext.windowsOptions.hostProcess or set it to false on the pod and on every container.',
      },
    },
    samples: {
      bad: [
        { description: 'an app container with windowsOptions.hostProcess: true', edit: { at: 'first-container', set: { 'securityContext.windowsOptions': { hostProcess: true } } } },
        { description: 'a pod-level windowsOptions.hostProcess: true', edit: { at: 'pod-security-context', set: { windowsOptions: { hostProcess: true } } } },
      ],
    },
  },
  {
    id: 'pss-volume-types',
    title: 'Only restricted volume types',
    platform: 'kubernetes',
    category: 'pod-security-restricted',
    kinds: ['Pod'],
    phrasings: ['restrict volume types', 'pods may only use the allowed volume types', 'no nfs or other non-core volume types', 'pod volumes must be emptyDir or configMap only'],
    parameters: [{ name: 'allowed', question: 'which volume types are allowed?', required: false, example: [...RESTRICTED_VOLUME_TYPES] }],
    recognize: {
      when: {
        any: [
          { mentions: [{ re: '\\bvolume (types?|kinds?|sources?)\\b' }, { re: '\\b(types?|kinds?) of volumes?\\b' }] },
          {
            all: [
              { mentions: Object.values(VOLUME_TYPE_WORDS).flat() },
              { mentions: [{ re: '\\bvolumes?\\b' }] },
              { mentions: [{ words: 'exception-words' }, { re: '\\b(must be|allowed|permitted|may)\\b' }] },
            ],
          },
        ],
      },
      score: 3,
      parameters: {
        // Only an allow-list in the author's words narrows the standard's; "no nfs volume types" does not.
        allowed: { use: 'named-values', with: { values: VOLUME_TYPE_WORDS, within: ADMITTED_VOLUME_TYPES }, when: LISTS_ALLOWED },
      },
    },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'volume-types',
        name: 'restrict-volume-types',
        description:
          "Volume types outside the core set (hostPath, nfs, gitRepo, cloud disks...) reach storage outside the pod's control: Pod Security restricted allows only configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected and secret.",
        severity: 'medium',
        remediation: 'Replace every volume in spec.volumes that is not {{allowed-text}} with one of those types (a persistentVolumeClaim for other storage).',
      },
    },
    values: [
      { use: 'pod-security-texts', with: { check: 'volume-types' } },
      {
        use: 'rejected-values',
        with: {
          allowed: 'allowed',
          allowedByDefault: RESTRICTED_VOLUME_TYPES,
          candidates: [
            { value: 'nfs', volume: { name: 'sample-nfs', nfs: { server: 'nfs.example.com', path: '/exports' } } },
            { value: 'gitRepo', volume: { name: 'sample-gitrepo', gitRepo: { repository: 'https://git.example.com/repo.git' } } },
            { value: 'emptyDir', volume: { name: 'sample-emptydir', emptyDir: {} } },
            { value: 'secret', volume: { name: 'sample-secret', secret: { secretName: 'web-secret' } } },
          ],
          limit: 2,
        },
      },
    ],
    samples: {
      bad: [{ description: 'a pod with a {{item.value}} volume', edit: { at: 'pod-spec', append: { to: 'volumes', item: '{{item.volume}}' } }, each: 'rejected' }],
    },
  },
  {
    id: 'pss-privilege-escalation',
    title: 'No privilege escalation',
    platform: 'kubernetes',
    category: 'pod-security-restricted',
    kinds: ['Pod'],
    phrasings: ['no privilege escalation', 'allowPrivilegeEscalation must be false', 'containers must not allow privilege escalation', 'forbid privilege escalation'],
    parameters: [],
    recognize: { when: { mentions: [{ re: '\\bescalat(e|es|ed|ing|ion|ions)\\b' }, { re: '\\ballowprivilegeescalation\\b' }] }, score: 3 },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'privilege-escalation',
        containers: 'all',
        name: 'disallow-privilege-escalation',
        description: 'Unless allowPrivilegeEscalation is false, a process can gain more privileges than its parent (setuid binaries): Pod Security restricted requires it false.',
        severity: 'medium',
        remediation: 'Set securityContext.allowPrivilegeEscalation: false on every container, init container and ephemeral container (missing counts as true).',
      },
    },
    samples: {
      bad: [
        { description: 'an app container with allowPrivilegeEscalation: true', edit: { at: 'first-container', set: { 'securityContext.allowPrivilegeEscalation': true } } },
        { description: 'an init container without allowPrivilegeEscalation', edit: { at: 'first-init-container', remove: ['securityContext.allowPrivilegeEscalation'] } },
      ],
    },
  },
  {
    id: 'pss-run-as-non-root',
    title: 'Containers must run as non-root',
    platform: 'kubernetes',
    category: 'pod-security-restricted',
    kinds: ['Pod'],
    phrasings: ['containers must run as non-root', 'require runAsNonRoot', 'containers must not run as root', 'never run containers as root', 'root containers are not allowed'],
    parameters: [],
    recognize: {
      when: {
        all: [
          { not: { mentions: [{ words: 'other-root-topics' }] } },
          { mentions: [{ re: '\\bnon[\\s-]*root\\b' }, { re: '\\brunasnonroot\\b' }, { re: '\\bas root\\b' }, { re: '\\broot (containers?|pods?|process(es)?)\\b' }, { re: '\\bas the root\\b' }] },
        ],
      },
      score: [{ when: { mentions: [{ re: '\\bnon[\\s-]*root\\b' }, { re: '\\brunasnonroot\\b' }] }, score: 3 }, { score: 2 }],
    },
    rule: {
      use: 'pod-security-check',
      with: {
        containers: 'all',
        name: 'require-run-as-non-root',
        description: 'A container that runs as root is root on the node once it escapes: Pod Security restricted requires runAsNonRoot.',
        severity: 'medium',
        // "Must not run as root" also means not as UID 0: the kubelet refuses to start a container whose
        // runAsUser is 0 under runAsNonRoot, so such a pod does not run as non-root either.
        expression:
          'variables.containers.all(c, c.?securityContext.?runAsNonRoot.orValue(object.spec.?securityContext.?runAsNonRoot.orValue(false)) == true && c.?securityContext.?runAsUser.orValue(object.spec.?securityContext.?runAsUser.orValue(1)) != 0)',
        message: 'containers must run as non-root (runAsNonRoot: true, runAsUser not 0)',
        remediation:
          'Set spec.securityContext.runAsNonRoot: true (or securityContext.runAsNonRoot: true on every container, init container and ephemeral container), do not set it to false on any container, and do not set runAsUser: 0.',
      },
    },
    samples: {
      bad: [
        { description: 'an app container with runAsNonRoot: false', edit: { at: 'first-container', set: { 'securityContext.runAsNonRoot': false } } },
        { description: 'an app container with runAsUser: 0', edit: { at: 'first-container', set: { 'securityContext.runAsUser': 0 } } },
        {
          description: 'runAsNonRoot missing from the pod and from the init container',
          edit: [
            { at: 'pod-security-context', remove: ['runAsNonRoot'] },
            { at: 'first-init-container', remove: ['securityContext.runAsNonRoot'] },
          ],
        },
      ],
    },
  },
  {
    id: 'pss-run-as-user',
    title: 'No runAsUser 0 (root user)',
    platform: 'kubernetes',
    category: 'pod-security-restricted',
    kinds: ['Pod'],
    phrasings: ['no root user', 'containers must not run as UID 0', 'runAsUser must not be 0', 'disallow user id 0'],
    parameters: [],
    recognize: {
      when: {
        all: [
          { not: { mentions: [{ words: 'other-root-topics' }] } },
          {
            mentions: [
              // "non-root user" is runAsNonRoot's.
              { re: '(?<!non[\\s-]?)\\broot users?\\b' },
              { re: '\\buid[\\s:=]*(0|zero)\\b' },
              { re: '\\buser[\\s-]*id[\\s:=]*(0|zero)\\b' },
              { re: '\\buser (0|zero)\\b' },
              { re: '\\brunasuser\\b' },
            ],
          },
        ],
      },
      score: 3,
    },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'run-as-user',
        containers: 'all',
        name: 'disallow-run-as-root-user',
        description: "runAsUser: 0 runs the container's processes as root: Pod Security restricted forbids it.",
        severity: 'medium',
        remediation: "Set spec.securityContext.runAsUser and every container's securityContext.runAsUser to a non-zero UID (for example 10001), or remove them and let the image's non-root USER apply.",
      },
    },
    samples: {
      bad: [
        { description: 'an app container with runAsUser: 0', edit: { at: 'first-container', set: { 'securityContext.runAsUser': 0 } } },
        { description: 'a pod-level runAsUser: 0 that containers inherit', edit: { at: 'pod-security-context', set: { runAsUser: 0 } } },
      ],
    },
  },
  {
    id: 'pss-seccomp-restricted',
    title: 'Seccomp profile RuntimeDefault or Localhost required',
    platform: 'kubernetes',
    category: 'pod-security-restricted',
    kinds: ['Pod'],
    phrasings: ['require a seccomp profile', 'seccompProfile type must be RuntimeDefault or Localhost', 'pods must set the RuntimeDefault seccomp profile', 'enforce seccomp'],
    parameters: [],
    recognize: { when: { all: [{ mentions: [{ words: 'seccomp' }] }, { not: UNCONFINED_SECCOMP }] }, score: 3 },
    rule: {
      use: 'pod-security-check',
      with: {
        check: 'seccomp-restricted',
        containers: 'all',
        name: 'require-seccomp-profile',
        description: 'Without a seccomp profile a container can make any system call: Pod Security restricted requires RuntimeDefault or Localhost.',
        severity: 'medium',
        remediation: 'Set spec.securityContext.seccompProfile.type to RuntimeDefault (or Localhost with a localhostProfile), and remove any container-level seccompProfile of another type.',
      },
    },
    samples: {
      bad: [
        {
          description: 'no seccomp profile at pod or container level',
          edit: [
            { at: 'pod-security-context', remove: ['seccompProfile'] },
            { at: 'every-container', remove: ['securityContext.seccompProfile'] },
          ],
        },
        { description: 'an app container with seccompProfile.type: Unconfined', edit: { at: 'first-container', set: { 'securityContext.seccompProfile': { type: 'Unconfined' } } } },
      ],
    },
  },
  {
    id: 'pss-capabilities-restricted',
    title: 'Drop ALL capabilities (add only NET_BIND_SERVICE)',
    platform: 'kubernetes',
    category: 'pod-security-restricted',
    kinds: ['Pod'],
    phrasings: ['drop all capabilities', 'containers must drop ALL capabilities', 'capabilities drop must include ALL', 'require dropping all Linux capabilities'],
    parameters: [],
    recognize: {
      when: { all: [{ mentions: [{ words: 'drop' }] }, { any: [{ mentions: [{ words: 'capability-words' }, { re: '\\ball\\b' }] }, { test: 'names-capabilities' }] }] },
      score: 3,
      parameters: {
        // What may be added back is the restricted control's second half: read only when the clause speaks of adding.
        dropOnly: { value: true, when: { not: { mentions: [{ re: '\\badd(?:s|ed|ing)?\\b' }, { re: '\\bnet_bind_service\\b' }, { re: '\\brestricted\\b' }] } } },
      },
    },
    rule: [
      {
        when: { is: { dropOnly: true } },
        use: 'pod-security-check',
        with: {
          check: 'capabilities-restricted',
          containers: 'all',
          name: 'require-drop-all-capabilities',
          severity: 'medium',
          description: 'Dropping ALL capabilities leaves a container only what it adds back explicitly.',
          // Linux capabilities do not exist on Windows nodes: a Windows pod has none to drop.
          expression: "object.spec.?os.?name.orValue('') == 'windows' || variables.containers.all(c, 'ALL' in c.?securityContext.?capabilities.?drop.orValue([]))",
          message: 'containers must drop ALL capabilities',
          remediation: 'Set securityContext.capabilities.drop: ["ALL"] on every container, init container and ephemeral container.',
        },
      },
      {
        use: 'pod-security-check',
        with: {
          check: 'capabilities-restricted',
          containers: 'all',
          name: 'require-drop-all-capabilities',
          description: 'Dropping ALL capabilities leaves a container only what it needs: Pod Security restricted requires drop ALL and allows adding back only NET_BIND_SERVICE.',
          severity: 'medium',
          remediation:
            'Set securityContext.capabilities.drop: ["ALL"] on every container, init container and ephemeral container, and remove every capability but NET_BIND_SERVICE from capabilities.add.',
        },
      },
    ],
    samples: {
      bad: [
        { description: 'an app container that does not drop ALL', edit: { at: 'first-container', set: { 'securityContext.capabilities.drop': ['NET_RAW'] } } },
        {
          description: 'an init container adding CHOWN (baseline allows it, restricted does not)',
          edit: { at: 'first-init-container', append: { to: 'securityContext.capabilities.add', item: 'CHOWN' } },
          when: { is: { dropOnly: false } },
        },
        { description: 'an init container without capabilities', edit: { at: 'first-init-container', remove: ['securityContext.capabilities'] } },
      ],
    },
  },
  // Whole profiles in one rule
  {
    id: 'pss-baseline-profile',
    title: 'Pod Security Standards: baseline profile',
    platform: 'kubernetes',
    category: 'pod-security-baseline',
    kinds: ['Pod'],
    phrasings: ['pods must meet the baseline pod security standard', 'enforce the PSS baseline profile', 'pod security level baseline'],
    parameters: [],
    recognize: { when: { all: [{ mentions: ['baseline'] }, { not: { mentions: ['restricted'] } }, { mentions: [{ words: 'profile-framing' }] }] }, score: 2 },
    rule: {
      use: 'pod-security-profile',
      with: {
        checks: BASELINE_CHECKS,
        name: 'pod-security-baseline',
        description: 'Every control of the Pod Security Standards baseline profile, which prevents known privilege escalations.',
        severity: 'high',
        message: 'the pod does not meet the Pod Security baseline profile',
        remediation:
          'Remove privileged, hostNetwork/hostPID/hostIPC, hostPath volumes, hostPort, added capabilities beyond the default set, Unconfined seccomp/AppArmor profiles, custom SELinux types/users/roles, Unmasked procMount, unsafe sysctls and Windows hostProcess from the pod and its containers.',
      },
    },
    samples: { bad: BASELINE_BAD },
  },
  {
    id: 'pss-restricted-profile',
    title: 'Pod Security Standards: restricted profile',
    platform: 'kubernetes',
    category: 'pod-security-restricted',
    kinds: ['Pod'],
    phrasings: ['pods must meet the restricted pod security standard', 'enforce the PSS restricted profile', 'pod security level restricted'],
    parameters: [],
    recognize: { when: { all: [{ mentions: ['restricted'] }, { not: { mentions: ['baseline'] } }, { mentions: [{ words: 'profile-framing' }] }] }, score: 2 },
    rule: {
      use: 'pod-security-profile',
      with: {
        checks: RESTRICTED_CHECKS,
        name: 'pod-security-restricted',
        description: 'Every control of the Pod Security Standards restricted profile: baseline plus current pod hardening practice.',
        severity: 'medium',
        message: 'the pod does not meet the Pod Security restricted profile',
        remediation:
          'Meet the baseline profile, then use only core volume types, and on every container set allowPrivilegeEscalation: false, runAsNonRoot: true, a non-zero runAsUser, seccompProfile RuntimeDefault or Localhost, and capabilities.drop: ["ALL"] (adding back only NET_BIND_SERVICE).',
      },
    },
    samples: {
      bad: [
        ...BASELINE_BAD,
        { description: 'an app container with runAsNonRoot: false', edit: { at: 'first-container', set: { 'securityContext.runAsNonRoot': false } } },
        { description: 'an init container with allowPrivilegeEscalation: true', edit: { at: 'first-init-container', set: { 'securityContext.allowPrivilegeEscalation': true } } },
        { description: 'a pod with an nfs volume', edit: { at: 'pod-spec', append: { to: 'volumes', item: { name: 'shared', nfs: { server: 'nfs.example.com', path: '/' } } } } },
        { description: 'an app container adding CHOWN', edit: { at: 'first-container', append: { to: 'securityContext.capabilities.add', item: 'CHOWN' } } },
      ],
    },
  },
]
