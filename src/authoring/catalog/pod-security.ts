import type { Rule, Severity } from '../../engine/index.js'
import {
  APPARMOR_ANNOTATION_PREFIX,
  BASELINE_CAPABILITIES,
  HOST_NAMESPACE_FIELDS,
  HOST_NAMESPACES,
  LATEST_POD_SECURITY_VERSION,
  RESTRICTED_VOLUME_TYPES,
  appArmorCheck,
  capabilitiesCheck as baselineCapabilitiesCheck,
  capabilitiesRestrictedCheck,
  effectiveField,
  hostNamespacesCheck,
  hostPathCheck,
  hostPortsCheck as restrictedHostPortsCheck,
  hostProcessCheck,
  joinWords,
  portStrings,
  privilegeEscalationCheck,
  privilegedCheck,
  procMountCheck,
  runAsNonRootCheck,
  runAsUserCheck,
  safeSysctls,
  seccompBaselineCheck,
  seccompRestrictedCheck,
  seLinuxCheck,
  seLinuxTypes,
  sysctlsCheck,
  volumeTypesCheck,
  type HostNamespace,
  type PodSecurityCheck,
} from '../../engine/pod-security/index.js'
import { mentions, type Clause } from '../text/clause.js'
import { portRanges } from '../text/extract.js'
import { containersOf, firstContainerOf, mapIn, metadataOf, podSpecsOf } from '../samples/document-parts.js'
import { ALL_CONTAINERS, APP_AND_INIT_CONTAINERS, podRule } from './pod-rule.js'
import type { Parameters, Recognition, RuleTemplate, TemplateSamples } from './rule-template.js'
import { POD_SECURITY_ENTRIES } from './entries/pod-security.js'
import { templateOf } from './entry-template.js'
import { VOCABULARY_OF_ENTRIES } from './vocabulary/index.js'

/**
 * The Pod Security Standards controls (https://kubernetes.io/docs/concepts/security/pod-security-standards/),
 * baseline and restricted, each as a template, plus one template per profile that checks all of
 * its controls at once.
 *
 * Field semantics follow the standard. Where Kubernetes lets a container inherit a pod-level
 * securityContext field (runAsNonRoot, runAsUser, seccompProfile, seLinuxOptions,
 * appArmorProfile), each container is judged by the value it runs with: its own, else the pod's.
 * "Must be X" controls fail when that value is missing; "must not be X" controls pass.
 *
 * Scores: 3 for a clause that names the control's field or concept, 2 for the profile templates,
 * so "seccomp must follow the restricted profile" is the seccomp control, not the whole profile.
 *
 * The controls' CEL checks come from engine/pod-security, which the Kyverno importer shares; the
 * templates take them as run (see reading.ts there), at the latest version of the standard.
 */

type Json = Record<string, unknown>

const NOT_RECOGNIZED: Recognition = { score: 0, parameters: {}, missing: [] }

function recognized(score: number, parameters: Parameters = {}): Recognition {
  return { score, parameters, missing: [] }
}

/** One check of a control: profiles combine several in one rule. */
type Check = PodSecurityCheck

// ---------------------------------------------------------------------------------------------
// Sample edit helpers: they reach the pod spec of a Pod or of a controller's template alike.

function podSpecOf(document: Json): Json {
  const [spec] = podSpecsOf(document)
  if (!spec) throw new Error(`a ${String(document.kind)} sample has no pod spec`)
  return spec
}

function podSecurityContextOf(document: Json): Json {
  return mapIn(podSpecOf(document), 'securityContext')
}

function securityContextOf(container: Json): Json {
  return mapIn(container, 'securityContext')
}

function firstInitContainerOf(document: Json): Json {
  const [init] = containersOf(document, ['initContainers'])
  if (init) return init
  const created: Json = { name: 'init', image: 'registry.example.com/payments/init:1.0.0', securityContext: {} }
  podSpecOf(document).initContainers = [created]
  return created
}

/**
 * The metadata of the pod itself: a Pod's own, a controller's pod template's. Annotations that
 * configure containers (AppArmor) only count there; the engine's autogen reads the template's.
 */
function podMetadataOf(document: Json): Json {
  if (document.kind === 'Pod') return metadataOf(document)
  const spec = mapIn(document, 'spec')
  const template = document.kind === 'CronJob' ? mapIn(mapIn(mapIn(spec, 'jobTemplate'), 'spec'), 'template') : mapIn(spec, 'template')
  return mapIn(template, 'metadata')
}

function appendTo(parent: Json, key: string, item: unknown): void {
  const existing = parent[key]
  parent[key] = Array.isArray(existing) ? [...(existing as unknown[]), item] : [item]
}

function addCapability(container: Json, capability: string): void {
  appendTo(mapIn(securityContextOf(container), 'capabilities'), 'add', capability)
}

// ---------------------------------------------------------------------------------------------
// Phrases shared by several recognizers

/** Words that say a listed value is the exception a rule allows rather than the thing it forbids. */
const EXCEPTION_WORDS = /\b(except|excluding|other than|besides|apart from|unless|only|allow ?list(ed)?|white ?list(ed)?)\b/

/** "Read-only root filesystem", "root group": other controls that say "root". */
const OTHER_ROOT_TOPICS = /\broot[\s-]*(file[\s-]*systems?|fs)\b|\brootfs\b|\bread[\s-]*only\b|\breadonlyrootfilesystem\b|\broot groups?\b|\bgid\b|\bgroup id\b|\brunasgroup\b|\bfsgroup\b|\bsupplemental groups?\b/

/** Whether the clause gives listed values as the allowed ones (else they are the forbidden ones). */
function listsAllowedValues(clause: Clause): boolean {
  return mentions(clause, EXCEPTION_WORDS) || !clause.negated
}

// ---------------------------------------------------------------------------------------------
// Baseline: host namespaces

const HOST_NAMESPACE_PATTERNS: Record<HostNamespace, RegExp[]> = {
  network: [/\bhost[\s-]*network(s|ing)?\b/, /\bnetwork namespaces?\b/],
  // "host processes" are what hostPID exposes; "hostProcess" (one word) is the Windows control.
  pid: [/\bhost[\s-]*pids?\b/, /\bhost process(es| ids?| namespaces?)\b/, /\bpid namespaces?\b/],
  ipc: [/\bhost[\s-]*ipc\b/, /\bipc namespaces?\b/],
}

const ALL_HOST_NAMESPACES = /\bhost('?s)? namespaces?\b|\bhost namespace sharing\b|\bnamespaces of the (host|node)\b/

function hostNamespacesOf(parameters: Parameters): HostNamespace[] {
  const given = parameters.namespaces
  const chosen = Array.isArray(given) ? HOST_NAMESPACES.filter((namespace) => (given as unknown[]).includes(namespace)) : []
  return chosen.length > 0 ? chosen : [...HOST_NAMESPACES]
}

const hostNamespaces: RuleTemplate = {
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
  recognize(clause) {
    const named = HOST_NAMESPACES.filter((namespace) => mentions(clause, ...HOST_NAMESPACE_PATTERNS[namespace]))
    if (named.length === 0 && !mentions(clause, ALL_HOST_NAMESPACES)) return NOT_RECOGNIZED
    return recognized(3, { namespaces: named.length > 0 && !mentions(clause, ALL_HOST_NAMESPACES) ? named : [...HOST_NAMESPACES] })
  },
  rule(parameters) {
    const namespaces = hostNamespacesOf(parameters)
    const fields = namespaces.map((namespace) => `spec.${HOST_NAMESPACE_FIELDS[namespace]}`)
    return podRule({
      name: namespaces.length === HOST_NAMESPACES.length ? 'disallow-host-namespaces' : `disallow-host-${namespaces.join('-')}`,
      description: 'Sharing the node\'s network, PID or IPC namespace lets a pod see and reach the node\'s processes and traffic: Pod Security baseline forbids it.',
      severity: 'high',
      ...hostNamespacesCheck(namespaces),
      remediation: `Remove ${joinWords(fields, 'and')} from the pod spec or set ${fields.length === 1 ? 'it' : 'them'} to false.`,
    })
  },
  samples: (parameters) => ({
    good: [],
    bad: hostNamespacesOf(parameters).map((namespace) => ({
      description: `a pod with spec.${HOST_NAMESPACE_FIELDS[namespace]}: true`,
      edit: (document: Json) => void (podSpecOf(document)[HOST_NAMESPACE_FIELDS[namespace]] = true),
    })),
  }),
}

// ---------------------------------------------------------------------------------------------
// Baseline: host ports

/** Port ranges from parameter strings ("80", "30000-32767"). */
function portRangesOf(value: unknown): Array<[number, number]> {
  if (!Array.isArray(value)) return []
  return (value as unknown[]).flatMap((entry) => portRanges(String(entry)))
}

/**
 * Port ranges a clause gives, comparisons included: "below 1024" is 1-1023, "30000 and above"
 * is 30000-65535; other numbers are single ports or ranges ("80", "30000-32767").
 */
function hostPortRangesIn(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = []
  const comparisons: Array<[RegExp, (port: number) => [number, number]]> = [
    [/\b(?:below|under|(?:less|lower) than)\s+(\d{1,5})\b|<\s*(\d{1,5})\b/gi, (port) => [1, port - 1]],
    [/\b(?:above|over|(?:greater|higher|more) than)\s+(\d{1,5})\b|>\s*(\d{1,5})\b/gi, (port) => [port + 1, 65535]],
    [/\b(\d{1,5})\s+(?:and|or)\s+(?:above|higher|more|up)\b/gi, (port) => [port, 65535]],
    [/\b(\d{1,5})\s+(?:and|or)\s+(?:below|lower|less|under)\b/gi, (port) => [1, port]],
  ]
  let rest = text
  for (const [pattern, range] of comparisons) {
    rest = rest.replace(pattern, (...match: unknown[]) => {
      const port = match.slice(1).find((group) => typeof group === 'string')
      const [from, to] = range(Number(port))
      if (from >= 1 && to <= 65535 && from <= to) found.push([from, to])
      return ' '
    })
  }
  return [...found, ...portRanges(rest)]
}

/** A port for a bad sample: outside the allowed ranges, or the first forbidden one. */
function offendingPort(parameters: Parameters, index: number): number {
  const forbidden = portRangesOf(parameters.forbidden)
  if (forbidden.length > 0) return (forbidden[Math.min(index, forbidden.length - 1)] ?? [8080])[0]
  const allowed = portRangesOf(parameters.allowed)
  const candidates = [8080, 9090, 2222, 31000, 1, 65535]
  const outside = candidates.filter((port) => !allowed.some(([from, to]) => port >= from && port <= to))
  return outside[Math.min(index, outside.length - 1)] ?? 8080
}

function hostPortsCheck(parameters: Parameters): Check {
  return restrictedHostPortsCheck({ allowed: portRangesOf(parameters.allowed), forbidden: portRangesOf(parameters.forbidden) })
}

const hostPorts: RuleTemplate = {
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
  recognize(clause) {
    if (!mentions(clause, /\bhost[\s-]*ports?\b/)) return NOT_RECOGNIZED
    const ranges = portStrings(hostPortRangesIn(clause.text))
    if (ranges.length === 0) return recognized(3)
    return recognized(3, listsAllowedValues(clause) ? { allowed: ranges } : { forbidden: ranges })
  },
  rule(parameters) {
    const allowed = portStrings(portRangesOf(parameters.allowed))
    const forbidden = portStrings(portRangesOf(parameters.forbidden))
    const remediation =
      forbidden.length > 0
        ? `Change or remove every ports[*].hostPort in ${forbidden.join(', ')} on the containers and init containers; expose the pod through a Service instead.`
        : allowed.length > 0
          ? `Remove ports[*].hostPort (or set it to 0) on every container and init container unless it is ${allowed.join(', ')}; expose the pod through a Service instead.`
          : 'Remove ports[*].hostPort (or set it to 0) on every container and init container; expose the pod through a Service instead.'
    return podRule({
      name: allowed.length > 0 || forbidden.length > 0 ? 'restrict-host-ports' : 'disallow-host-ports',
      description: 'A host port binds the node\'s own network interface, bypassing network policies and limiting scheduling: Pod Security baseline forbids it or limits it to a known list.',
      severity: 'high',
      // Kubernetes forbids ports on ephemeral containers.
      containers: APP_AND_INIT_CONTAINERS,
      ...hostPortsCheck(parameters),
      remediation,
    })
  },
  samples: (parameters) => ({
    good: [],
    bad: [
      {
        description: `an app container with ports[*].hostPort: ${offendingPort(parameters, 0)}`,
        edit: (document) => appendTo(firstContainerOf(document), 'ports', { name: 'host', containerPort: 9443, hostPort: offendingPort(parameters, 0), protocol: 'TCP' }),
      },
      {
        description: `an init container with ports[*].hostPort: ${offendingPort(parameters, 1)}`,
        edit: (document) => appendTo(firstInitContainerOf(document), 'ports', { containerPort: 9444, hostPort: offendingPort(parameters, 1), protocol: 'TCP' }),
      },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Baseline: added capabilities

const LINUX_CAPABILITIES = [
  ...BASELINE_CAPABILITIES,
  'AUDIT_CONTROL', 'AUDIT_READ', 'BLOCK_SUSPEND', 'BPF', 'CHECKPOINT_RESTORE', 'DAC_READ_SEARCH', 'IPC_LOCK', 'IPC_OWNER', 'LEASE', 'LINUX_IMMUTABLE',
  'MAC_ADMIN', 'MAC_OVERRIDE', 'NET_ADMIN', 'NET_BROADCAST', 'NET_RAW', 'PERFMON', 'SYS_ADMIN', 'SYS_BOOT', 'SYS_MODULE', 'SYS_NICE', 'SYS_PACCT',
  'SYS_PTRACE', 'SYS_RAWIO', 'SYS_RESOURCE', 'SYS_TIME', 'SYS_TTY_CONFIG', 'SYSLOG', 'WAKE_ALARM',
]

/**
 * Capability names the clause gives, upper-case and without CAP_. Names with an underscore are
 * read in any case; one-word ones (KILL, LEASE, SYSLOG...) only in capitals, as they are also
 * English words.
 */
function capabilityNames(text: string): string[] {
  const found: string[] = []
  for (const match of text.matchAll(/\b(?:cap_)?([a-z]+(?:_[a-z]+)*)\b/gi)) {
    const word = match[1] ?? ''
    const name = word.toUpperCase()
    if (!LINUX_CAPABILITIES.includes(name)) continue
    if (!name.includes('_') && word !== name) continue
    found.push(name)
  }
  return [...new Set(found)]
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? (value as unknown[]).map(String) : []
}

function capabilitiesCheck(parameters: Parameters): Check {
  return baselineCapabilitiesCheck({ allowed: stringsOf(parameters.allowed), forbidden: stringsOf(parameters.forbidden) })
}

/** A capability the rule rejects, for bad samples. */
function offendingCapability(parameters: Parameters, index: number): string {
  const forbidden = stringsOf(parameters.forbidden)
  if (forbidden.length > 0) return forbidden[Math.min(index, forbidden.length - 1)] ?? 'SYS_ADMIN'
  const allowed = stringsOf(parameters.allowed)
  const list = allowed.length > 0 ? allowed : BASELINE_CAPABILITIES
  const outside = ['SYS_ADMIN', 'NET_ADMIN', 'SYS_PTRACE', 'NET_RAW'].filter((name) => !list.includes(name))
  return outside[Math.min(index, outside.length - 1)] ?? 'SYS_ADMIN'
}

const DROP = /\bdrop(s|ped|ping)?\b/

const capabilities: RuleTemplate = {
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
  constantsNamedBy: /\b(?:default|baseline|dangerous)\b/i,
  recognize(clause) {
    const names = capabilityNames(clause.text)
    if (names.length === 0 && !mentions(clause, /\bcapabilit(y|ies)\b/, /\bcaps\b/)) return NOT_RECOGNIZED
    // "drop ALL capabilities" is the restricted control.
    if (mentions(clause, DROP)) return NOT_RECOGNIZED
    // "must not add any capabilities": nothing may be added, not even the baseline set.
    if (names.length === 0 && clause.negated && mentions(clause, /\b(?:any|no)\s+(?:\w+\s+)?(?:capabilit(?:y|ies)|caps)\b/)) return recognized(3, { none: true })
    if (names.length === 0) return recognized(3)
    return recognized(3, listsAllowedValues(clause) ? { allowed: names } : { forbidden: names })
  },
  rule(parameters) {
    const forbidden = stringsOf(parameters.forbidden)
    if (parameters.none === true) {
      return podRule({
        name: 'disallow-adding-capabilities',
        description: 'Added capabilities give a container kernel powers beyond what its runtime grants by default; none may be added.',
        severity: 'high',
        containers: ALL_CONTAINERS,
        expression: "variables.containers.all(c, c.?securityContext.?capabilities.?add.orValue([]).size() == 0)",
        message: 'containers must not add capabilities',
        remediation: 'Remove securityContext.capabilities.add from every container, init container and ephemeral container.',
      })
    }
    return podRule({
      name: forbidden.length > 0 ? 'disallow-capabilities' : 'restrict-capabilities',
      description: 'Capabilities beyond the container runtime\'s default set (SYS_ADMIN, NET_ADMIN...) give a container kernel powers close to root on the node: Pod Security baseline forbids adding them.',
      severity: 'high',
      containers: ALL_CONTAINERS,
      ...capabilitiesCheck(parameters),
      remediation:
        forbidden.length > 0
          ? `Remove ${forbidden.join(', ')} (and ALL) from securityContext.capabilities.add on every container, init container and ephemeral container.`
          : `Remove from securityContext.capabilities.add, on every container, init container and ephemeral container, every capability not in ${stringsOf(parameters.allowed).length > 0 ? stringsOf(parameters.allowed).join(', ') : 'the baseline set (AUDIT_WRITE, CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, MKNOD, NET_BIND_SERVICE, SETFCAP, SETGID, SETPCAP, SETUID, SYS_CHROOT)'}.`,
    })
  },
  samples: (parameters) => ({
    good: [],
    bad: [
      {
        description: `an app container adding ${offendingCapability(parameters, 0)}`,
        edit: (document) => addCapability(firstContainerOf(document), offendingCapability(parameters, 0)),
      },
      {
        description: `an init container adding ${offendingCapability(parameters, 1)}`,
        edit: (document) => addCapability(firstInitContainerOf(document), offendingCapability(parameters, 1)),
      },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Baseline: AppArmor

const appArmor: RuleTemplate = {
  id: 'pss-apparmor',
  title: 'No unconfined AppArmor profile',
  platform: 'kubernetes',
  category: 'pod-security-baseline',
  kinds: ['Pod'],
  phrasings: ['AppArmor must not be unconfined', 'disallow unconfined AppArmor profiles', 'containers must not override the default apparmor profile', 'forbid disabling AppArmor'],
  parameters: [],
  recognize: (clause) => (mentions(clause, /\bapp[\s-]*armou?r\b/, /\bapparmorprofile\b/) ? recognized(3) : NOT_RECOGNIZED),
  rule: () =>
    podRule({
      name: 'restrict-apparmor',
      description: 'An Unconfined AppArmor profile switches off the mandatory access control that confines the container: Pod Security baseline forbids it.',
      severity: 'high',
      containers: ALL_CONTAINERS,
      ...appArmorCheck(),
      remediation: `Set securityContext.appArmorProfile.type to RuntimeDefault or Localhost (or leave it unset) on the pod and every container, and set every ${APPARMOR_ANNOTATION_PREFIX}<container> annotation to runtime/default or localhost/<profile>.`,
    }),
  samples: () => ({
    good: [],
    bad: [
      { description: 'an app container with appArmorProfile.type: Unconfined', edit: (document) => void (securityContextOf(firstContainerOf(document)).appArmorProfile = { type: 'Unconfined' }) },
      { description: 'a pod-level appArmorProfile.type: Unconfined that containers inherit', edit: (document) => void (podSecurityContextOf(document).appArmorProfile = { type: 'Unconfined' }) },
      {
        description: `an ${APPARMOR_ANNOTATION_PREFIX}<container>: unconfined annotation`,
        edit: (document) => void (mapIn(podMetadataOf(document), 'annotations')[`${APPARMOR_ANNOTATION_PREFIX}${String(firstContainerOf(document).name)}`] = 'unconfined'),
      },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Baseline: SELinux

/** The types baseline allows; '' is the runtime's default, container_t. */
const SELINUX_TYPES = seLinuxTypes(LATEST_POD_SECURITY_VERSION)

/** SELinux types the clause names (container_t, spc_t...). */
function seLinuxTypesIn(text: string): string[] {
  return [...new Set([...text.toLowerCase().matchAll(/\b([a-z][a-z0-9]*(?:_[a-z0-9]+)*_t)\b/g)].map((match) => match[1] ?? ''))]
}

function seLinuxTypesOf(parameters: Parameters): string[] {
  const given = stringsOf(parameters.types)
  return given.length > 0 ? given : SELINUX_TYPES
}

const seLinux: RuleTemplate = {
  id: 'pss-selinux',
  title: 'No custom SELinux options',
  platform: 'kubernetes',
  category: 'pod-security-baseline',
  kinds: ['Pod'],
  phrasings: ['restrict SELinux options', 'no custom SELinux user or role', 'seLinuxOptions type must be container_t', 'disallow custom SELinux types'],
  parameters: [{ name: 'types', question: 'which SELinux types are allowed?', required: false, example: SELINUX_TYPES }],
  recognize(clause) {
    if (!mentions(clause, /\bse[\s-]*linux\b/, /\bselinuxoptions\b/)) return NOT_RECOGNIZED
    // Types named as allowed narrow the list ("must be container_t"); named as forbidden ("no spc_t"), the baseline list already excludes them.
    const types = seLinuxTypesIn(clause.text)
    return recognized(3, types.length > 0 && listsAllowedValues(clause) ? { types } : {})
  },
  rule(parameters) {
    const types = seLinuxTypesOf(parameters)
    return podRule({
      name: 'restrict-selinux',
      description: 'A custom SELinux type (spc_t...), user or role can lift the confinement SELinux puts on containers: Pod Security baseline forbids them.',
      severity: 'high',
      containers: ALL_CONTAINERS,
      ...seLinuxCheck(types),
      remediation: `Remove securityContext.seLinuxOptions.user and .role, and set seLinuxOptions.type to ${joinWords(types, 'or')} (or leave it unset), on the pod and every container.`,
    })
  },
  samples: (parameters) => {
    const forbiddenType = ['spc_t', 'unconfined_t', 'container_engine_t'].find((type) => !seLinuxTypesOf(parameters).includes(type)) ?? 'spc_t'
    return {
      good: [],
      bad: [
        { description: `an app container with seLinuxOptions.type: ${forbiddenType}`, edit: (document) => void (securityContextOf(firstContainerOf(document)).seLinuxOptions = { type: forbiddenType }) },
        { description: 'a pod-level seLinuxOptions.user', edit: (document) => void (podSecurityContextOf(document).seLinuxOptions = { user: 'system_u' }) },
        { description: 'an init container with seLinuxOptions.role', edit: (document) => void (securityContextOf(firstInitContainerOf(document)).seLinuxOptions = { role: 'sysadm_r' }) },
      ],
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Baseline: /proc mount

const procMount: RuleTemplate = {
  id: 'pss-proc-mount',
  title: 'Default /proc mount only',
  platform: 'kubernetes',
  category: 'pod-security-baseline',
  kinds: ['Pod'],
  phrasings: ['procMount must be Default', 'no unmasked /proc mounts', 'containers must not use an Unmasked proc mount type'],
  parameters: [],
  recognize: (clause) => (mentions(clause, /\bproc[\s-]*mounts?\b/, /\bprocmount\b/, /\bunmasked\b/, /\/proc\b/) ? recognized(3) : NOT_RECOGNIZED),
  rule: () =>
    podRule({
      name: 'require-default-proc-mount',
      description: 'An Unmasked /proc exposes kernel information and controls the default mount hides: Pod Security baseline requires the Default mount.',
      severity: 'high',
      containers: ALL_CONTAINERS,
      ...procMountCheck(),
      remediation: 'Remove securityContext.procMount or set it to Default on every container, init container and ephemeral container.',
    }),
  samples: () => ({
    good: [],
    bad: [
      { description: 'an app container with procMount: Unmasked', edit: (document) => void (securityContextOf(firstContainerOf(document)).procMount = 'Unmasked') },
      { description: 'an init container with procMount: Unmasked', edit: (document) => void (securityContextOf(firstInitContainerOf(document)).procMount = 'Unmasked') },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Seccomp: baseline forbids Unconfined, restricted requires RuntimeDefault or Localhost.

const SECCOMP = /\bsec[\s-]*comp\b|\bseccompprofile\b/
/** Words that ask for a profile to be set, which only the restricted control does. */
const SECCOMP_REQUIRED = /\b(runtime[\s-]*default|localhost|requir(e|es|ed|ing)|mandatory|must (be set|have|use|specify)|must set|set a|enforce[ds]?|enabled?)\b/

const seccompBaseline: RuleTemplate = {
  id: 'pss-seccomp',
  title: 'No Unconfined seccomp profile',
  platform: 'kubernetes',
  category: 'pod-security-baseline',
  kinds: ['Pod'],
  phrasings: ['seccomp must not be Unconfined', 'disallow unconfined seccomp profiles', 'containers must never disable seccomp'],
  parameters: [],
  recognize(clause) {
    if (!mentions(clause, SECCOMP)) return NOT_RECOGNIZED
    if (!mentions(clause, /\bunconfined\b/, /\bdisabl(e|es|ed|ing)\b/, /\boff\b/)) return NOT_RECOGNIZED
    return mentions(clause, SECCOMP_REQUIRED) ? NOT_RECOGNIZED : recognized(3)
  },
  rule: () =>
    podRule({
      name: 'disallow-unconfined-seccomp',
      description: 'An Unconfined seccomp profile lets the container make any system call: Pod Security baseline forbids it.',
      severity: 'high',
      containers: ALL_CONTAINERS,
      ...seccompBaselineCheck(),
      remediation: 'Set securityContext.seccompProfile.type to RuntimeDefault or Localhost (or leave it unset) on the pod and on every container that sets it.',
    }),
  samples: () => ({
    good: [],
    bad: [
      { description: 'an app container with seccompProfile.type: Unconfined', edit: (document) => void (securityContextOf(firstContainerOf(document)).seccompProfile = { type: 'Unconfined' }) },
      { description: 'a pod-level seccompProfile.type: Unconfined that containers inherit', edit: (document) => void (podSecurityContextOf(document).seccompProfile = { type: 'Unconfined' }) },
    ],
  }),
}

const seccompRestricted: RuleTemplate = {
  id: 'pss-seccomp-restricted',
  title: 'Seccomp profile RuntimeDefault or Localhost required',
  platform: 'kubernetes',
  category: 'pod-security-restricted',
  kinds: ['Pod'],
  phrasings: ['require a seccomp profile', 'seccompProfile type must be RuntimeDefault or Localhost', 'pods must set the RuntimeDefault seccomp profile', 'enforce seccomp'],
  parameters: [],
  recognize(clause) {
    if (!mentions(clause, SECCOMP)) return NOT_RECOGNIZED
    return seccompBaseline.recognize(clause).score > 0 ? NOT_RECOGNIZED : recognized(3)
  },
  rule: () =>
    podRule({
      name: 'require-seccomp-profile',
      description: 'Without a seccomp profile a container can make any system call: Pod Security restricted requires RuntimeDefault or Localhost.',
      severity: 'medium',
      containers: ALL_CONTAINERS,
      ...seccompRestrictedCheck(),
      remediation: 'Set spec.securityContext.seccompProfile.type to RuntimeDefault (or Localhost with a localhostProfile), and remove any container-level seccompProfile of another type.',
    }),
  samples: () => ({
    good: [],
    bad: [
      {
        description: 'no seccomp profile at pod or container level',
        edit: (document) => {
          delete podSecurityContextOf(document).seccompProfile
          for (const container of containersOf(document)) delete securityContextOf(container).seccompProfile
        },
      },
      { description: 'an app container with seccompProfile.type: Unconfined', edit: (document) => void (securityContextOf(firstContainerOf(document)).seccompProfile = { type: 'Unconfined' }) },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Baseline: sysctls

const SAFE_SYSCTLS = safeSysctls(LATEST_POD_SECURITY_VERSION)

const sysctls: RuleTemplate = {
  id: 'pss-sysctls',
  title: 'Only safe sysctls',
  platform: 'kubernetes',
  category: 'pod-security-baseline',
  kinds: ['Pod'],
  phrasings: ['only safe sysctls are allowed', 'no unsafe sysctls', 'pods must not set unsafe kernel parameters'],
  parameters: [],
  constantsNamedBy: /\b(?:safe|unsafe)\b/i,
  recognize: (clause) => (mentions(clause, /\bsysctls?\b/, /\bkernel (parameters?|params?|settings?|tunables?)\b/) ? recognized(3) : NOT_RECOGNIZED),
  rule: () =>
    podRule({
      name: 'restrict-sysctls',
      description: 'Sysctls outside the namespaced safe set change the node\'s kernel for every pod on it: Pod Security baseline allows only the safe set.',
      severity: 'high',
      ...sysctlsCheck(),
      remediation: `Remove from spec.securityContext.sysctls every sysctl that is not one of ${SAFE_SYSCTLS.join(', ')}.`,
    }),
  samples: () => ({
    good: [],
    bad: [
      { description: 'a pod setting the unsafe sysctl kernel.msgmax', edit: (document) => appendTo(podSecurityContextOf(document), 'sysctls', { name: 'kernel.msgmax', value: '65536' }) },
      { description: 'a pod setting the unsafe sysctl net.core.somaxconn', edit: (document) => appendTo(podSecurityContextOf(document), 'sysctls', { name: 'net.core.somaxconn', value: '1024' }) },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Baseline: Windows HostProcess

const hostProcess: RuleTemplate = {
  id: 'pss-host-process',
  title: 'No Windows HostProcess containers',
  platform: 'kubernetes',
  category: 'pod-security-baseline',
  kinds: ['Pod'],
  phrasings: ['no Windows HostProcess containers', 'disallow hostProcess pods', 'windowsOptions hostProcess must not be true'],
  parameters: [],
  recognize: (clause) =>
    mentions(clause, /\bhostprocess\b/, /\bhost[\s-]process (containers?|pods?)\b/, /\bwindows\b.*\bhost[\s-]*process\b/, /\bwindowsoptions\b/) ? recognized(3) : NOT_RECOGNIZED,
  rule: () =>
    podRule({
      name: 'disallow-host-process',
      description: 'A Windows HostProcess container runs directly on the node with the node\'s privileges: Pod Security baseline forbids it.',
      severity: 'high',
      containers: ALL_CONTAINERS,
      ...hostProcessCheck,
      remediation: 'Remove securityContext.windowsOptions.hostProcess or set it to false on the pod and on every container.',
    }),
  samples: () => ({
    good: [],
    bad: [
      { description: 'an app container with windowsOptions.hostProcess: true', edit: (document) => void (securityContextOf(firstContainerOf(document)).windowsOptions = { hostProcess: true }) },
      { description: 'a pod-level windowsOptions.hostProcess: true', edit: (document) => void (podSecurityContextOf(document).windowsOptions = { hostProcess: true }) },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Restricted: volume types

/** How authors write volume types, to the field name. */
const VOLUME_TYPE_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/\bconfig[\s-]*maps?\b/, 'configMap'],
  [/\bcsi\b/, 'csi'],
  [/\bdownward[\s-]*api\b/, 'downwardAPI'],
  [/\bempty[\s-]*dirs?\b/, 'emptyDir'],
  [/\bephemeral\b/, 'ephemeral'],
  [/\bpersistent[\s-]*volume[\s-]*claims?\b|\bpvcs?\b/, 'persistentVolumeClaim'],
  [/\bprojected\b/, 'projected'],
  [/\bsecrets?\b/, 'secret'],
  [/\bnfs\b/, 'nfs'],
  [/\bgit[\s-]*repo\b/, 'gitRepo'],
  [/\biscsi\b/, 'iscsi'],
  [/\bimage volumes?\b/, 'image'],
]

function volumeTypesIn(clause: Clause): string[] {
  return VOLUME_TYPE_WORDS.filter(([pattern]) => pattern.test(clause.normalized)).map(([, type]) => type)
}

const volumeTypes: RuleTemplate = {
  id: 'pss-volume-types',
  title: 'Only restricted volume types',
  platform: 'kubernetes',
  category: 'pod-security-restricted',
  kinds: ['Pod'],
  phrasings: ['restrict volume types', 'pods may only use the allowed volume types', 'no nfs or other non-core volume types', 'pod volumes must be emptyDir or configMap only'],
  parameters: [{ name: 'allowed', question: 'which volume types are allowed?', required: false, example: [...RESTRICTED_VOLUME_TYPES] }],
  recognize(clause) {
    const types = volumeTypesIn(clause)
    const aboutTypes = mentions(clause, /\bvolume (types?|kinds?|sources?)\b/, /\b(types?|kinds?) of volumes?\b/)
    if (!aboutTypes && !(types.length > 0 && mentions(clause, /\bvolumes?\b/) && mentions(clause, EXCEPTION_WORDS, /\b(must be|allowed|permitted|may)\b/))) return NOT_RECOGNIZED
    const allowed = types.filter((type) => RESTRICTED_VOLUME_TYPES.includes(type) || type === 'image')
    // Only an allow-list in the author's words narrows the standard's; "no nfs volume types" does not.
    const narrowed = allowed.length > 0 && allowed.length === types.length && listsAllowedValues(clause)
    return recognized(3, narrowed ? { allowed } : {})
  },
  rule(parameters) {
    const given = stringsOf(parameters.allowed)
    const allowed = given.length > 0 ? given : RESTRICTED_VOLUME_TYPES
    return podRule({
      name: 'restrict-volume-types',
      description: 'Volume types outside the core set (hostPath, nfs, gitRepo, cloud disks...) reach storage outside the pod\'s control: Pod Security restricted allows only configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected and secret.',
      severity: 'medium',
      ...volumeTypesCheck(allowed),
      remediation: `Replace every volume in spec.volumes that is not ${allowed.join(', ')} with one of those types (a persistentVolumeClaim for other storage).`,
    })
  },
  samples: (parameters) => {
    const allowed = stringsOf(parameters.allowed)
    const outside = ['nfs', 'gitRepo', 'emptyDir', 'secret'].filter((type) => !(allowed.length > 0 ? allowed : RESTRICTED_VOLUME_TYPES).includes(type))
    const sources: Record<string, unknown> = { nfs: { server: 'nfs.example.com', path: '/exports' }, gitRepo: { repository: 'https://git.example.com/repo.git' }, emptyDir: {}, secret: { secretName: 'web-secret' } }
    return {
      good: [],
      bad: outside.slice(0, 2).map((type) => ({
        description: `a pod with a ${type} volume`,
        edit: (document: Json) => appendTo(podSpecOf(document), 'volumes', { name: `sample-${type.toLowerCase()}`, [type]: sources[type] }),
      })),
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Restricted: privilege escalation

const privilegeEscalation: RuleTemplate = {
  id: 'pss-privilege-escalation',
  title: 'No privilege escalation',
  platform: 'kubernetes',
  category: 'pod-security-restricted',
  kinds: ['Pod'],
  phrasings: ['no privilege escalation', 'allowPrivilegeEscalation must be false', 'containers must not allow privilege escalation', 'forbid privilege escalation'],
  parameters: [],
  recognize: (clause) => (mentions(clause, /\bescalat(e|es|ed|ing|ion|ions)\b/, /\ballowprivilegeescalation\b/) ? recognized(3) : NOT_RECOGNIZED),
  rule: () =>
    podRule({
      name: 'disallow-privilege-escalation',
      description: 'Unless allowPrivilegeEscalation is false, a process can gain more privileges than its parent (setuid binaries): Pod Security restricted requires it false.',
      severity: 'medium',
      containers: ALL_CONTAINERS,
      ...privilegeEscalationCheck(),
      remediation: 'Set securityContext.allowPrivilegeEscalation: false on every container, init container and ephemeral container (missing counts as true).',
    }),
  samples: () => ({
    good: [],
    bad: [
      { description: 'an app container with allowPrivilegeEscalation: true', edit: (document) => void (securityContextOf(firstContainerOf(document)).allowPrivilegeEscalation = true) },
      { description: 'an init container without allowPrivilegeEscalation', edit: (document) => void delete securityContextOf(firstInitContainerOf(document)).allowPrivilegeEscalation },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Restricted: run as non-root, and not as UID 0

/**
 * "Must not run as root" also means not as UID 0: the kubelet refuses to start a container whose
 * runAsUser is 0 under runAsNonRoot, so such a pod does not run as non-root either.
 */
const runsAsNonRootCheck: Check = {
  expression: `variables.containers.all(c, ${effectiveField(['runAsNonRoot'], 'false')} == true && ${effectiveField(['runAsUser'], '1')} != 0)`,
  message: 'containers must run as non-root (runAsNonRoot: true, runAsUser not 0)',
}

const runAsNonRoot: RuleTemplate = {
  id: 'pss-run-as-non-root',
  title: 'Containers must run as non-root',
  platform: 'kubernetes',
  category: 'pod-security-restricted',
  kinds: ['Pod'],
  phrasings: ['containers must run as non-root', 'require runAsNonRoot', 'containers must not run as root', 'never run containers as root', 'root containers are not allowed'],
  parameters: [],
  recognize(clause) {
    if (mentions(clause, OTHER_ROOT_TOPICS)) return NOT_RECOGNIZED
    if (mentions(clause, /\bnon[\s-]*root\b/, /\brunasnonroot\b/)) return recognized(3)
    return mentions(clause, /\bas root\b/, /\broot (containers?|pods?|process(es)?)\b/, /\bas the root\b/) ? recognized(2) : NOT_RECOGNIZED
  },
  rule: () =>
    podRule({
      name: 'require-run-as-non-root',
      description: 'A container that runs as root is root on the node once it escapes: Pod Security restricted requires runAsNonRoot.',
      severity: 'medium',
      containers: ALL_CONTAINERS,
      ...runsAsNonRootCheck,
      remediation:
        'Set spec.securityContext.runAsNonRoot: true (or securityContext.runAsNonRoot: true on every container, init container and ephemeral container), do not set it to false on any container, and do not set runAsUser: 0.',
    }),
  samples: () => ({
    good: [],
    bad: [
      { description: 'an app container with runAsNonRoot: false', edit: (document) => void (securityContextOf(firstContainerOf(document)).runAsNonRoot = false) },
      { description: 'an app container with runAsUser: 0', edit: (document) => void (securityContextOf(firstContainerOf(document)).runAsUser = 0) },
      {
        description: 'runAsNonRoot missing from the pod and from the init container',
        edit: (document) => {
          delete podSecurityContextOf(document).runAsNonRoot
          delete securityContextOf(firstInitContainerOf(document)).runAsNonRoot
        },
      },
    ],
  }),
}

const runAsUser: RuleTemplate = {
  id: 'pss-run-as-user',
  title: 'No runAsUser 0 (root user)',
  platform: 'kubernetes',
  category: 'pod-security-restricted',
  kinds: ['Pod'],
  phrasings: ['no root user', 'containers must not run as UID 0', 'runAsUser must not be 0', 'disallow user id 0'],
  parameters: [],
  recognize(clause) {
    if (mentions(clause, OTHER_ROOT_TOPICS)) return NOT_RECOGNIZED
    // "non-root user" is runAsNonRoot's.
    return mentions(clause, /(?<!non[\s-]?)\broot users?\b/, /\buid[\s:=]*(0|zero)\b/, /\buser[\s-]*id[\s:=]*(0|zero)\b/, /\buser (0|zero)\b/, /\brunasuser\b/)
      ? recognized(3)
      : NOT_RECOGNIZED
  },
  rule: () =>
    podRule({
      name: 'disallow-run-as-root-user',
      description: 'runAsUser: 0 runs the container\'s processes as root: Pod Security restricted forbids it.',
      severity: 'medium',
      containers: ALL_CONTAINERS,
      ...runAsUserCheck(),
      remediation: 'Set spec.securityContext.runAsUser and every container\'s securityContext.runAsUser to a non-zero UID (for example 10001), or remove them and let the image\'s non-root USER apply.',
    }),
  samples: () => ({
    good: [],
    bad: [
      { description: 'an app container with runAsUser: 0', edit: (document) => void (securityContextOf(firstContainerOf(document)).runAsUser = 0) },
      { description: 'a pod-level runAsUser: 0 that containers inherit', edit: (document) => void (podSecurityContextOf(document).runAsUser = 0) },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Restricted: drop ALL capabilities

const capabilitiesRestricted: RuleTemplate = {
  id: 'pss-capabilities-restricted',
  title: 'Drop ALL capabilities (add only NET_BIND_SERVICE)',
  platform: 'kubernetes',
  category: 'pod-security-restricted',
  kinds: ['Pod'],
  phrasings: ['drop all capabilities', 'containers must drop ALL capabilities', 'capabilities drop must include ALL', 'require dropping all Linux capabilities'],
  parameters: [],
  recognize(clause) {
    if (!mentions(clause, DROP)) return NOT_RECOGNIZED
    if (!(mentions(clause, /\bcapabilit(y|ies)\b/, /\bcaps\b/, /\ball\b/) || capabilityNames(clause.text).length > 0)) return NOT_RECOGNIZED
    // What may be added back is the restricted control's second half: read only when the clause speaks of adding.
    return recognized(3, mentions(clause, /\badd(?:s|ed|ing)?\b/, /\bnet_bind_service\b/, /\brestricted\b/) ? {} : { dropOnly: true })
  },
  rule: (parameters) =>
    parameters.dropOnly === true
      ? podRule({
          name: 'require-drop-all-capabilities',
          description: 'Dropping ALL capabilities leaves a container only what it adds back explicitly.',
          severity: 'medium',
          containers: ALL_CONTAINERS,
          // Linux capabilities do not exist on Windows nodes: a Windows pod has none to drop.
          expression: "object.spec.?os.?name.orValue('') == 'windows' || variables.containers.all(c, 'ALL' in c.?securityContext.?capabilities.?drop.orValue([]))",
          message: 'containers must drop ALL capabilities',
          remediation: 'Set securityContext.capabilities.drop: ["ALL"] on every container, init container and ephemeral container.',
        })
      : podRule({
      name: 'require-drop-all-capabilities',
      description: 'Dropping ALL capabilities leaves a container only what it needs: Pod Security restricted requires drop ALL and allows adding back only NET_BIND_SERVICE.',
      severity: 'medium',
      containers: ALL_CONTAINERS,
      ...capabilitiesRestrictedCheck(),
      remediation: 'Set securityContext.capabilities.drop: ["ALL"] on every container, init container and ephemeral container, and remove every capability but NET_BIND_SERVICE from capabilities.add.',
    }),
  samples: (parameters) => ({
    good: [],
    bad: [
      { description: 'an app container that does not drop ALL', edit: (document) => void (mapIn(securityContextOf(firstContainerOf(document)), 'capabilities').drop = ['NET_RAW']) },
      ...(parameters.dropOnly === true ? [] : [{ description: 'an init container adding CHOWN (baseline allows it, restricted does not)', edit: (document: Record<string, unknown>) => addCapability(firstInitContainerOf(document), 'CHOWN') }]),
      { description: 'an init container without capabilities', edit: (document) => void delete securityContextOf(firstInitContainerOf(document)).capabilities },
    ],
  }),
}

// ---------------------------------------------------------------------------------------------
// Whole profiles in one rule

/** A rule of several checks, each with its own message; the first that fails is reported. */
function profileRule(options: { name: string; description: string; severity: Severity; checks: readonly Check[]; message: string; remediation: string }): Rule {
  const rule = podRule({ ...options, containers: ALL_CONTAINERS, expression: options.checks[0]?.expression ?? 'true' })
  rule.validate = { cel: options.checks.map((check) => ({ expression: check.expression, message: check.message })) }
  return rule
}

const BASELINE_CHECKS: readonly Check[] = [
  hostProcessCheck,
  hostNamespacesCheck(HOST_NAMESPACES),
  privilegedCheck,
  capabilitiesCheck({}),
  hostPathCheck(),
  // Ephemeral containers cannot have ports, so checking all containers changes nothing.
  hostPortsCheck({}),
  appArmorCheck(),
  seLinuxCheck(SELINUX_TYPES),
  procMountCheck(),
  seccompBaselineCheck(),
  sysctlsCheck(),
]

const RESTRICTED_CHECKS: readonly Check[] = [
  ...BASELINE_CHECKS,
  volumeTypesCheck(RESTRICTED_VOLUME_TYPES),
  privilegeEscalationCheck(),
  runAsNonRootCheck(),
  runAsUserCheck(),
  seccompRestrictedCheck(),
  capabilitiesRestrictedCheck(),
]

const PROFILE_FRAMING = /\bpod[\s-]*security\b|\bpss\b|\bpsa\b|\bprofiles?\b|\bstandards?\b|\blevel\b|\bpolic(y|ies)\b/

function recognizeProfile(clause: Clause, level: 'baseline' | 'restricted'): Recognition {
  const other = level === 'baseline' ? 'restricted' : 'baseline'
  if (!mentions(clause, level) || mentions(clause, other) || !mentions(clause, PROFILE_FRAMING)) return NOT_RECOGNIZED
  return recognized(2)
}

const BASELINE_BAD: TemplateSamples['bad'] = [
  { description: 'a privileged app container', edit: (document) => void (securityContextOf(firstContainerOf(document)).privileged = true) },
  { description: 'a pod with spec.hostNetwork: true', edit: (document) => void (podSpecOf(document).hostNetwork = true) },
  { description: 'a pod with a hostPath volume', edit: (document) => appendTo(podSpecOf(document), 'volumes', { name: 'host', hostPath: { path: '/' } }) },
  { description: 'an init container adding SYS_ADMIN', edit: (document) => addCapability(firstInitContainerOf(document), 'SYS_ADMIN') },
  { description: 'a pod-level seccompProfile.type: Unconfined', edit: (document) => void (podSecurityContextOf(document).seccompProfile = { type: 'Unconfined' }) },
]

const baselineProfile: RuleTemplate = {
  id: 'pss-baseline-profile',
  title: 'Pod Security Standards: baseline profile',
  platform: 'kubernetes',
  category: 'pod-security-baseline',
  kinds: ['Pod'],
  phrasings: ['pods must meet the baseline pod security standard', 'enforce the PSS baseline profile', 'pod security level baseline'],
  parameters: [],
  recognize: (clause) => recognizeProfile(clause, 'baseline'),
  rule: () =>
    profileRule({
      name: 'pod-security-baseline',
      description: 'Every control of the Pod Security Standards baseline profile, which prevents known privilege escalations.',
      severity: 'high',
      checks: BASELINE_CHECKS,
      message: 'the pod does not meet the Pod Security baseline profile',
      remediation:
        'Remove privileged, hostNetwork/hostPID/hostIPC, hostPath volumes, hostPort, added capabilities beyond the default set, Unconfined seccomp/AppArmor profiles, custom SELinux types/users/roles, Unmasked procMount, unsafe sysctls and Windows hostProcess from the pod and its containers.',
    }),
  samples: () => ({ good: [], bad: BASELINE_BAD }),
}

const restrictedProfile: RuleTemplate = {
  id: 'pss-restricted-profile',
  title: 'Pod Security Standards: restricted profile',
  platform: 'kubernetes',
  category: 'pod-security-restricted',
  kinds: ['Pod'],
  phrasings: ['pods must meet the restricted pod security standard', 'enforce the PSS restricted profile', 'pod security level restricted'],
  parameters: [],
  recognize: (clause) => recognizeProfile(clause, 'restricted'),
  rule: () =>
    profileRule({
      name: 'pod-security-restricted',
      description: 'Every control of the Pod Security Standards restricted profile: baseline plus current pod hardening practice.',
      severity: 'medium',
      checks: RESTRICTED_CHECKS,
      message: 'the pod does not meet the Pod Security restricted profile',
      remediation:
        'Meet the baseline profile, then use only core volume types, and on every container set allowPrivilegeEscalation: false, runAsNonRoot: true, a non-zero runAsUser, seccompProfile RuntimeDefault or Localhost, and capabilities.drop: ["ALL"] (adding back only NET_BIND_SERVICE).',
    }),
  samples: () => ({
    good: [],
    bad: [
      ...BASELINE_BAD,
      { description: 'an app container with runAsNonRoot: false', edit: (document) => void (securityContextOf(firstContainerOf(document)).runAsNonRoot = false) },
      { description: 'an init container with allowPrivilegeEscalation: true', edit: (document) => void (securityContextOf(firstInitContainerOf(document)).allowPrivilegeEscalation = true) },
      { description: 'a pod with an nfs volume', edit: (document) => appendTo(podSpecOf(document), 'volumes', { name: 'shared', nfs: { server: 'nfs.example.com', path: '/' } }) },
      { description: 'an app container adding CHOWN', edit: (document) => addCapability(firstContainerOf(document), 'CHOWN') },
    ],
  }),
}

function fromEntry(id: string): RuleTemplate {
  const entry = POD_SECURITY_ENTRIES.find((each) => each.id === id)
  if (!entry) throw new Error(`no catalog entry ${id}`)
  return templateOf(entry, VOCABULARY_OF_ENTRIES)
}

const privileged = fromEntry('pss-privileged')
const hostPath = fromEntry('pss-host-path')

export const POD_SECURITY_TEMPLATES: readonly RuleTemplate[] = [
  privileged,
  hostNamespaces,
  hostPath,
  hostPorts,
  capabilities,
  appArmor,
  seLinux,
  procMount,
  seccompBaseline,
  sysctls,
  hostProcess,
  volumeTypes,
  privilegeEscalation,
  runAsNonRoot,
  runAsUser,
  seccompRestricted,
  capabilitiesRestricted,
  baselineProfile,
  restrictedProfile,
]
