import { describe, expect, it } from 'vitest'
import { POD_SECURITY_TEMPLATES, VOCABULARY } from '../../../src/authoring/catalog/index.js'
import { compileWithCatalog as compileInstruction, understandInstruction } from '../../../src/authoring/compile-instruction.js'
import { baseKubernetesDocument } from '../../../src/authoring/samples/base-documents.js'
import { instructionSamples } from '../../../src/authoring/samples/instruction-samples.js'
import { prepareClause } from '../../../src/authoring/text/clause.js'
import { compileRuleset, evaluateRuleset, PreparedInput } from '../../../src/engine/index.js'

type Json = Record<string, unknown>

interface Container extends Json {
  name: string
  securityContext?: Json
}

interface PodSpec extends Json {
  containers: Container[]
  initContainers?: Container[]
  ephemeralContainers?: Container[]
  securityContext?: Json
  volumes?: Json[]
}

const LABELS = { platform: 'kubernetes' }

function templatesFor(instruction: string): Array<string | undefined> {
  return understandInstruction(instruction, LABELS).clauses.map((entry) => entry.report.template)
}

function parametersFor(instruction: string): unknown {
  return understandInstruction(instruction, LABELS).clauses[0]?.report.parameters
}

/** Compiles the instruction and judges the document with it: whether it passed, and the rules it failed. */
function judge(instruction: string, document: Json): { passed: boolean; failed: string[] } {
  const { spec } = compileInstruction(instruction, LABELS)
  const compiled = compileRuleset({ ...spec, name: 'pss-test' })
  const result = evaluateRuleset(compiled, new PreparedInput({ object: document }))
  // A rule that errors also fails the document: tests must see real verdicts only.
  const errors = result.results.filter((entry) => entry.status === 'error')
  if (errors.length > 0) throw new Error(`"${instruction}" errored: ${errors.map((entry) => entry.message).join('; ')}`)
  return { passed: result.passed, failed: result.results.map((entry) => entry.rule) }
}

const passes = (instruction: string, document: Json): boolean => judge(instruction, document).passed

function document(kind: string): Json {
  const found = baseKubernetesDocument(kind)
  if (!found) throw new Error(`no base ${kind}`)
  return found
}

/** The base Pod (restricted-compliant), edited through its spec. */
function pod(edit: (spec: PodSpec, metadata: Json) => void = () => {}): Json {
  const base = document('Pod')
  edit(base.spec as PodSpec, base.metadata as Json)
  return base
}

function app(spec: PodSpec): Container {
  const [first] = spec.containers
  if (!first) throw new Error('no container')
  return first
}

function init(spec: PodSpec): Container {
  const [first] = spec.initContainers ?? []
  if (!first) throw new Error('no init container')
  return first
}

function sc(holder: { securityContext?: Json }): Json {
  holder.securityContext ??= {}
  return holder.securityContext
}

function withEphemeral(spec: PodSpec, securityContext: Json): void {
  spec.ephemeralContainers = [{ name: 'debug', image: 'registry.example.com/tools/debug:1.0.0', securityContext }]
}

/** The pod spec inside a controller's template. */
function templateSpec(controller: Json): PodSpec {
  const spec = controller.spec as Json
  const template = (controller.kind === 'CronJob' ? ((spec.jobTemplate as Json).spec as Json).template : spec.template) as Json
  return template.spec as PodSpec
}

describe('Pod Security templates: recognition', () => {
  const cases: Array<[string, string]> = [
    // privileged
    ['no privileged containers', 'pss-privileged'],
    ['privileged containers not allowed', 'pss-privileged'],
    ['disallow privileged pods', 'pss-privileged'],
    ['containers must not be privileged', 'pss-privileged'],
    ['never run privileged containers', 'pss-privileged'],
    ['forbid privileged mode', 'pss-privileged'],
    // host namespaces
    ['no hostNetwork', 'pss-host-namespaces'],
    ['host networking not allowed', 'pss-host-namespaces'],
    ['disallow host PID', 'pss-host-namespaces'],
    ['pods must not use the host IPC', 'pss-host-namespaces'],
    ['never share the host network', 'pss-host-namespaces'],
    ['pods: forbid host namespaces', 'pss-host-namespaces'],
    // hostPath
    ['no hostPath', 'pss-host-path'],
    ['hostPath volumes not allowed', 'pss-host-path'],
    ['disallow host path mounts', 'pss-host-path'],
    ['pods must not mount the host filesystem', 'pss-host-path'],
    ['never use hostPath', 'pss-host-path'],
    ['forbid hostPath volumes', 'pss-host-path'],
    // host ports
    ['no hostPorts', 'pss-host-ports'],
    ['host ports not allowed', 'pss-host-ports'],
    ['disallow host port', 'pss-host-ports'],
    ['containers must not bind host ports', 'pss-host-ports'],
    ['never use hostPort', 'pss-host-ports'],
    ['forbid host ports', 'pss-host-ports'],
    // added capabilities
    ['no added capabilities', 'pss-capabilities'],
    ['extra capabilities not allowed', 'pss-capabilities'],
    ['disallow SYS_ADMIN', 'pss-capabilities'],
    ['containers must not add capabilities', 'pss-capabilities'],
    ['never add the NET_RAW capability', 'pss-capabilities'],
    ['forbid dangerous capabilities', 'pss-capabilities'],
    // AppArmor
    ['no unconfined AppArmor', 'pss-apparmor'],
    ['unconfined apparmor profiles not allowed', 'pss-apparmor'],
    ['disallow AppArmor overrides', 'pss-apparmor'],
    ['containers must not disable apparmor', 'pss-apparmor'],
    ['never run without AppArmor', 'pss-apparmor'],
    ['forbid AppArmor unconfined', 'pss-apparmor'],
    // SELinux
    ['no custom SELinux options', 'pss-selinux'],
    ['selinux user not allowed', 'pss-selinux'],
    ['disallow seLinuxOptions', 'pss-selinux'],
    ['pods must not set an SELinux role', 'pss-selinux'],
    ['never use the spc_t SELinux type', 'pss-selinux'],
    ['forbid selinux changes', 'pss-selinux'],
    // /proc mount
    ['no Unmasked procMount', 'pss-proc-mount'],
    ['unmasked proc mount not allowed', 'pss-proc-mount'],
    ['disallow procMount Unmasked', 'pss-proc-mount'],
    ['containers must not unmask /proc', 'pss-proc-mount'],
    ['never use an unmasked /proc', 'pss-proc-mount'],
    ['forbid proc mount changes', 'pss-proc-mount'],
    // seccomp, baseline
    ['no unconfined seccomp', 'pss-seccomp'],
    ['seccomp Unconfined not allowed', 'pss-seccomp'],
    ['disallow unconfined seccomp profiles', 'pss-seccomp'],
    ['containers must not disable seccomp', 'pss-seccomp'],
    ['never run seccomp unconfined', 'pss-seccomp'],
    ['forbid seccomp Unconfined', 'pss-seccomp'],
    // seccomp, restricted
    ['require seccomp', 'pss-seccomp-restricted'],
    ['seccomp profile must be RuntimeDefault', 'pss-seccomp-restricted'],
    ['pods must set a seccomp profile', 'pss-seccomp-restricted'],
    ['no pods without a seccomp profile', 'pss-seccomp-restricted'],
    ['seccomp must be RuntimeDefault, never Unconfined', 'pss-seccomp-restricted'],
    // sysctls
    ['no unsafe sysctls', 'pss-sysctls'],
    ['unsafe sysctls not allowed', 'pss-sysctls'],
    ['disallow sysctls outside the safe set', 'pss-sysctls'],
    ['pods must not set unsafe sysctls', 'pss-sysctls'],
    ['never set unsafe kernel parameters', 'pss-sysctls'],
    ['forbid unsafe sysctls', 'pss-sysctls'],
    // Windows HostProcess
    ['no hostProcess', 'pss-host-process'],
    ['HostProcess containers not allowed', 'pss-host-process'],
    ['disallow Windows host process containers', 'pss-host-process'],
    ['pods must not run as HostProcess', 'pss-host-process'],
    ['never use hostProcess', 'pss-host-process'],
    ['forbid hostProcess', 'pss-host-process'],
    // volume types
    ['no non-core volume types', 'pss-volume-types'],
    ['other volume types not allowed', 'pss-volume-types'],
    ['disallow unsafe volume types', 'pss-volume-types'],
    ['pods must not use other volume types', 'pss-volume-types'],
    ['never use nfs or other volume types', 'pss-volume-types'],
    ['forbid non-standard volume types', 'pss-volume-types'],
    // privilege escalation
    ['no privilege escalation', 'pss-privilege-escalation'],
    ['privilege escalation not allowed', 'pss-privilege-escalation'],
    ['disallow privilege escalation', 'pss-privilege-escalation'],
    ['containers must not escalate privileges', 'pss-privilege-escalation'],
    ['never allow privilege escalation', 'pss-privilege-escalation'],
    ['forbid privilege escalation', 'pss-privilege-escalation'],
    ['allowPrivilegeEscalation must be false', 'pss-privilege-escalation'],
    // runAsNonRoot
    ['no root containers', 'pss-run-as-non-root'],
    ['running as root not allowed', 'pss-run-as-non-root'],
    ['disallow running as root', 'pss-run-as-non-root'],
    ['containers must not run as root', 'pss-run-as-non-root'],
    ['never run as root', 'pss-run-as-non-root'],
    ['forbid running as root', 'pss-run-as-non-root'],
    ['containers must run as non-root', 'pss-run-as-non-root'],
    ['require runAsNonRoot', 'pss-run-as-non-root'],
    ['runAsNonRoot must be true', 'pss-run-as-non-root'],
    ['pods must run as a non-root user', 'pss-run-as-non-root'],
    // runAsUser
    ['no root user', 'pss-run-as-user'],
    ['UID 0 not allowed', 'pss-run-as-user'],
    ['disallow runAsUser 0', 'pss-run-as-user'],
    ['containers must not run as UID 0', 'pss-run-as-user'],
    ['never use user id 0', 'pss-run-as-user'],
    ['forbid the root user', 'pss-run-as-user'],
    // drop ALL
    ['drop all capabilities', 'pss-capabilities-restricted'],
    ['containers must drop ALL', 'pss-capabilities-restricted'],
    ['capabilities must be dropped', 'pss-capabilities-restricted'],
    ['no containers that do not drop ALL capabilities', 'pss-capabilities-restricted'],
    // profiles
    ['enforce the Pod Security baseline profile', 'pss-baseline-profile'],
    ['pods must follow the restricted Pod Security Standard', 'pss-restricted-profile'],
    ['PSS restricted', 'pss-restricted-profile'],
  ]

  it.each(cases)('"%s" maps to %s', (instruction, template) => {
    expect(templatesFor(instruction)).toEqual([template])
  })

  it('tells similar controls apart', () => {
    expect(templatesFor('no privilege escalation; no privileged containers')).toEqual(['pss-privilege-escalation', 'pss-privileged'])
    expect(templatesFor('no host ports; no host network')).toEqual(['pss-host-ports', 'pss-host-namespaces'])
    expect(templatesFor('no hostPath volumes; restrict volume types')).toEqual(['pss-host-path', 'pss-volume-types'])
    expect(templatesFor('containers must not run as root; runAsUser must not be 0')).toEqual(['pss-run-as-non-root', 'pss-run-as-user'])
    expect(templatesFor('no NET_ADMIN capability; drop ALL capabilities')).toEqual(['pss-capabilities', 'pss-capabilities-restricted'])
    expect(templatesFor('seccomp must not be Unconfined; require a seccomp profile')).toEqual(['pss-seccomp', 'pss-seccomp-restricted'])
    expect(templatesFor('no hostProcess; no host PID')).toEqual(['pss-host-process', 'pss-host-namespaces'])
    expect(templatesFor('seccomp must follow the restricted profile')).toEqual(['pss-seccomp-restricted'])
    expect(templatesFor('containers must not run as root user')).toEqual(['pss-run-as-user'])
  })

  it('splits a list of controls joined by commas and "and"', () => {
    expect(templatesFor('no privileged pods, no host network and containers must drop ALL capabilities')).toEqual([
      'pss-privileged',
      'pss-host-namespaces',
      'pss-capabilities-restricted',
    ])
  })

  it('reads the host namespaces the author names', () => {
    expect(parametersFor('no host network')).toEqual({ namespaces: ['network'] })
    expect(parametersFor('hostPID and hostIPC must be false')).toEqual({ namespaces: ['pid', 'ipc'] })
    expect(parametersFor('pods must not share host namespaces')).toEqual({ namespaces: ['network', 'pid', 'ipc'] })
  })

  it('reads allowed and forbidden host ports', () => {
    expect(parametersFor('no host ports except 80 and 443')).toEqual({ allowed: ['80', '443'] })
    expect(parametersFor('host ports only in 30000-32767')).toEqual({ allowed: ['30000-32767'] })
    expect(parametersFor('disallow hostPort 22')).toEqual({ forbidden: ['22'] })
    expect(parametersFor('no host ports below 1024')).toEqual({ forbidden: ['1-1023'] })
    expect(parametersFor('host ports 30000 and above only')).toEqual({ allowed: ['30000-65535'] })
    expect(parametersFor('no host ports')).toEqual({})
  })

  it('reads allowed and forbidden capabilities', () => {
    expect(parametersFor('no NET_ADMIN or SYS_ADMIN capabilities')).toEqual({ forbidden: ['NET_ADMIN', 'SYS_ADMIN'] })
    expect(parametersFor('never add CAP_SYS_PTRACE')).toEqual({ forbidden: ['SYS_PTRACE'] })
    expect(parametersFor('containers may add only CHOWN and SETUID capabilities')).toEqual({ allowed: ['CHOWN', 'SETUID'] })
    expect(parametersFor('no capabilities other than sys_chroot')).toEqual({ allowed: ['SYS_CHROOT'] })
    expect(parametersFor('containers must not add capabilities')).toEqual({})
  })

  it('reads an allow-list of volume types', () => {
    expect(parametersFor('pod volumes must be emptyDir or configMap only')).toEqual({ allowed: ['configMap', 'emptyDir'] })
    expect(parametersFor('restrict volume types')).toEqual({})
  })

  it('takes nothing that is about another topic', () => {
    const foreign = [
      'containers must use a read-only root filesystem',
      'readOnlyRootFilesystem must be true',
      'root filesystem must be read only',
      'runAsGroup must not be 0',
      'no root group',
      'images must come from registry.example.com',
      'every container needs cpu and memory limits',
      'no latest tags',
      'pods must have liveness probes',
      'services must not be of type NodePort',
      'every namespace needs a network policy',
      'deployments need at least 2 replicas',
      'pods must have the label team',
    ]
    for (const text of foreign) {
      const clause = prepareClause(text, { platform: 'kubernetes', inheritedKinds: [], vocabulary: VOCABULARY })
      for (const template of POD_SECURITY_TEMPLATES) expect(template.recognize(clause).score, `${template.id} on "${text}"`).toBe(0)
    }
  })
})

describe('Pod Security templates: rules', () => {
  it('passes the restricted base Pod with every control', () => {
    for (const template of POD_SECURITY_TEMPLATES) {
      for (const phrasing of template.phrasings) expect(passes(phrasing, pod()), `${template.id}: "${phrasing}"`).toBe(true)
    }
  })

  describe('privileged', () => {
    const rule = 'no privileged containers'
    it('passes when privileged is missing and fails when any container type sets it', () => {
      expect(passes(rule, pod((spec) => delete sc(app(spec)).privileged))).toBe(true)
      expect(passes(rule, pod((spec) => void (sc(app(spec)).privileged = true)))).toBe(false)
      expect(passes(rule, pod((spec) => void (sc(init(spec)).privileged = true)))).toBe(false)
      expect(passes(rule, pod((spec) => withEphemeral(spec, { privileged: true })))).toBe(false)
    })
  })

  describe('host namespaces', () => {
    it('passes when the fields are missing or false and fails when one is true', () => {
      const rule = 'pods must not share host namespaces'
      expect(passes(rule, pod((spec) => Object.assign(spec, { hostNetwork: false, hostPID: false })))).toBe(true)
      expect(passes(rule, pod((spec) => void (spec.hostNetwork = true)))).toBe(false)
      expect(passes(rule, pod((spec) => void (spec.hostPID = true)))).toBe(false)
      expect(passes(rule, pod((spec) => void (spec.hostIPC = true)))).toBe(false)
    })

    it('checks only the namespace the author names', () => {
      expect(passes('no host network', pod((spec) => void (spec.hostPID = true)))).toBe(true)
      expect(passes('no host network', pod((spec) => void (spec.hostNetwork = true)))).toBe(false)
      expect(compileInstruction('no host network', LABELS).spec.rules[0]?.name).toBe('disallow-host-network')
    })
  })

  describe('hostPath volumes', () => {
    it('fails a hostPath volume and passes other volumes', () => {
      expect(passes('no hostPath volumes', pod((spec) => void (spec.volumes = [{ name: 'cache', emptyDir: {} }])))).toBe(true)
      expect(passes('no hostPath volumes', pod((spec) => void (spec.volumes = [{ name: 'root', hostPath: { path: '/' } }])))).toBe(false)
    })
  })

  describe('host ports', () => {
    const withHostPort = (port: number, onInit = false): Json =>
      pod((spec) => {
        const container = onInit ? init(spec) : app(spec)
        container.ports = [{ containerPort: 8080, hostPort: port }]
      })

    it('passes hostPort 0 or missing and fails any other', () => {
      expect(passes('no host ports', withHostPort(0))).toBe(true)
      expect(passes('no host ports', withHostPort(8080))).toBe(false)
      expect(passes('no host ports', withHostPort(8080, true))).toBe(false)
    })

    it('allows the ports the author allows', () => {
      const rule = 'no host ports except 80 and 30000-32767'
      expect(passes(rule, withHostPort(80))).toBe(true)
      expect(passes(rule, withHostPort(31000))).toBe(true)
      expect(passes(rule, withHostPort(443))).toBe(false)
      expect(passes('disallow hostPort 22', withHostPort(2222))).toBe(true)
      expect(passes('disallow hostPort 22', withHostPort(22))).toBe(false)
      expect(passes('no host ports below 1024', withHostPort(8080))).toBe(true)
      expect(passes('no host ports below 1024', withHostPort(443))).toBe(false)
    })
  })

  describe('added capabilities (baseline)', () => {
    const adding = (...capabilities: string[]): Json => pod((spec) => void (sc(init(spec)).capabilities = { drop: ['ALL'], add: capabilities }))

    it('allows the baseline set and nothing else', () => {
      const rule = 'containers must not add capabilities beyond the default set'
      expect(passes(rule, adding('CHOWN', 'NET_BIND_SERVICE'))).toBe(true)
      expect(passes(rule, adding('SYS_ADMIN'))).toBe(false)
      expect(passes(rule, pod((spec) => withEphemeral(spec, { capabilities: { add: ['NET_RAW'] } })))).toBe(false)
    })

    it('forbids exactly the capabilities the author names, and ALL', () => {
      const rule = 'no NET_ADMIN or SYS_ADMIN capabilities'
      expect(passes(rule, adding('SYS_PTRACE'))).toBe(true)
      expect(passes(rule, adding('NET_ADMIN'))).toBe(false)
      expect(passes(rule, adding('CAP_SYS_ADMIN'))).toBe(false)
      expect(passes(rule, adding('ALL'))).toBe(false)
    })
  })

  describe('drop ALL capabilities (restricted)', () => {
    it('"drop ALL" alone requires drop ALL on every container and says nothing of what is added', () => {
      const rule = 'containers must drop ALL capabilities'
      expect(passes(rule, pod((spec) => void (sc(app(spec)).capabilities = { drop: ['ALL'], add: ['CHOWN'] })))).toBe(true)
      expect(passes(rule, pod((spec) => delete sc(init(spec)).capabilities))).toBe(false)
      expect(passes(rule, pod((spec) => withEphemeral(spec, {})))).toBe(false)
    })

    it('requires drop ALL on every container and allows adding only NET_BIND_SERVICE when the text speaks of adding', () => {
      const rule = 'containers must drop ALL capabilities and may add back only NET_BIND_SERVICE'
      expect(passes(rule, pod((spec) => void (sc(app(spec)).capabilities = { drop: ['ALL'], add: ['NET_BIND_SERVICE'] })))).toBe(true)
      expect(passes(rule, pod((spec) => void (sc(app(spec)).capabilities = { drop: ['ALL'], add: ['CHOWN'] })))).toBe(false)
      expect(passes(rule, pod((spec) => delete sc(init(spec)).capabilities))).toBe(false)
      expect(passes(rule, pod((spec) => withEphemeral(spec, {})))).toBe(false)
    })

    it('does not apply to Windows pods, as the standard says', () => {
      expect(passes('drop all capabilities', pod((spec) => Object.assign(spec, { os: { name: 'windows' }, containers: [{ name: 'win', image: 'x' }], initContainers: [] })))).toBe(true)
      expect(passes('drop all capabilities, as Pod Security restricted requires', pod((spec) => Object.assign(spec, { os: { name: 'windows' }, containers: [{ name: 'win', image: 'x' }], initContainers: [] })))).toBe(true)
    })
  })

  describe('AppArmor', () => {
    const rule = 'AppArmor must not be unconfined'
    it('judges the annotations and the appArmorProfile fields', () => {
      const annotated = (value: string): Json => pod((_spec, metadata) => void (metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/web': value }))
      expect(passes(rule, annotated('runtime/default'))).toBe(true)
      expect(passes(rule, annotated('localhost/k8s-web'))).toBe(true)
      expect(passes(rule, annotated('unconfined'))).toBe(false)
      expect(passes(rule, pod((spec) => void (sc(app(spec)).appArmorProfile = { type: 'Unconfined' })))).toBe(false)
      expect(passes(rule, pod((spec) => void (sc(app(spec)).appArmorProfile = { type: 'Localhost', localhostProfile: 'k8s-web' })))).toBe(true)
    })

    it('lets containers inherit and override the pod-level profile', () => {
      expect(passes(rule, pod((spec) => void (sc(spec).appArmorProfile = { type: 'Unconfined' })))).toBe(false)
      const overridden = pod((spec) => {
        sc(spec).appArmorProfile = { type: 'Unconfined' }
        for (const container of [...spec.containers, ...(spec.initContainers ?? [])]) sc(container).appArmorProfile = { type: 'RuntimeDefault' }
      })
      expect(passes(rule, overridden)).toBe(true)
    })
  })

  describe('SELinux', () => {
    const rule = 'restrict SELinux options'
    it('allows the container types and forbids other types, users and roles', () => {
      expect(passes(rule, pod((spec) => void (sc(app(spec)).seLinuxOptions = { type: 'container_init_t', level: 's0:c123,c456' })))).toBe(true)
      expect(passes(rule, pod((spec) => void (sc(app(spec)).seLinuxOptions = { type: 'spc_t' })))).toBe(false)
      expect(passes(rule, pod((spec) => void (sc(spec).seLinuxOptions = { type: 'spc_t' })))).toBe(false)
      expect(passes(rule, pod((spec) => void (sc(spec).seLinuxOptions = { user: 'system_u' })))).toBe(false)
      expect(passes(rule, pod((spec) => void (sc(init(spec)).seLinuxOptions = { role: 'sysadm_r' })))).toBe(false)
    })
  })

  describe('SELinux types named by the author', () => {
    it('narrows the allowed types to those named', () => {
      const rule = 'the SELinux type, if set, must be container_t, container_init_t or container_kvm_t'
      expect(parametersFor(rule)).toEqual({ types: ['container_t', 'container_init_t', 'container_kvm_t'] })
      expect(passes(rule, pod((spec) => void (sc(app(spec)).seLinuxOptions = { type: 'container_kvm_t' })))).toBe(true)
      expect(passes(rule, pod((spec) => void (sc(app(spec)).seLinuxOptions = { type: 'container_engine_t' })))).toBe(false)
      expect(parametersFor('never use the spc_t SELinux type')).toEqual({})
      expect(passes('never use the spc_t SELinux type', pod((spec) => void (sc(spec).seLinuxOptions = { type: 'spc_t' })))).toBe(false)
    })
  })

  describe('/proc mount', () => {
    it('allows Default or missing and forbids Unmasked', () => {
      expect(passes('procMount must be Default', pod((spec) => void (sc(app(spec)).procMount = 'Default')))).toBe(true)
      expect(passes('procMount must be Default', pod((spec) => withEphemeral(spec, { procMount: 'Unmasked' })))).toBe(false)
    })
  })

  describe('seccomp', () => {
    const withoutSeccomp = (spec: PodSpec): void => void delete sc(spec).seccompProfile

    it('baseline passes a missing profile and fails Unconfined', () => {
      const rule = 'seccomp must not be Unconfined'
      expect(passes(rule, pod(withoutSeccomp))).toBe(true)
      expect(passes(rule, pod((spec) => void (sc(spec).seccompProfile = { type: 'Unconfined' })))).toBe(false)
      expect(passes(rule, pod((spec) => void (sc(init(spec)).seccompProfile = { type: 'Unconfined' })))).toBe(false)
    })

    it('restricted fails a missing profile and accepts the pod level for every container', () => {
      const rule = 'require a seccomp profile'
      expect(passes(rule, pod(withoutSeccomp))).toBe(false)
      expect(passes(rule, pod())).toBe(true)
      const perContainer = pod((spec) => {
        withoutSeccomp(spec)
        sc(app(spec)).seccompProfile = { type: 'Localhost', localhostProfile: 'profiles/web.json' }
        sc(init(spec)).seccompProfile = { type: 'RuntimeDefault' }
      })
      expect(passes(rule, perContainer)).toBe(true)
      expect(passes(rule, pod((spec) => (withoutSeccomp(spec), void (sc(app(spec)).seccompProfile = { type: 'RuntimeDefault' }))))).toBe(false)
      expect(passes(rule, pod((spec) => void (sc(app(spec)).seccompProfile = { type: 'Unconfined' })))).toBe(false)
    })
  })

  describe('sysctls', () => {
    it('allows the safe set only', () => {
      const rule = 'no unsafe sysctls'
      expect(passes(rule, pod((spec) => void (sc(spec).sysctls = [{ name: 'net.ipv4.tcp_keepalive_time', value: '600' }])))).toBe(true)
      expect(passes(rule, pod((spec) => void (sc(spec).sysctls = [{ name: 'kernel.shm_rmid_forced', value: '1' }, { name: 'vm.swappiness', value: '0' }])))).toBe(false)
    })
  })

  describe('Windows HostProcess', () => {
    it('fails hostProcess true at pod or container level', () => {
      expect(passes('no hostProcess', pod((spec) => void (sc(spec).windowsOptions = { hostProcess: false })))).toBe(true)
      expect(passes('no hostProcess', pod((spec) => void (sc(spec).windowsOptions = { hostProcess: true })))).toBe(false)
      expect(passes('no hostProcess', pod((spec) => void (sc(init(spec)).windowsOptions = { hostProcess: true })))).toBe(false)
    })
  })

  describe('volume types', () => {
    it('allows the restricted set, or the author\'s list', () => {
      const volumes = (...list: Json[]): Json => pod((spec) => void (spec.volumes = list))
      const core = volumes({ name: 'a', configMap: { name: 'c' } }, { name: 'b', projected: { sources: [] } }, { name: 'c', persistentVolumeClaim: { claimName: 'data' } })
      expect(passes('restrict volume types', core)).toBe(true)
      expect(passes('restrict volume types', volumes({ name: 'n', nfs: { server: 'nfs', path: '/' } }))).toBe(false)
      expect(passes('restrict volume types', volumes({ name: 'h', hostPath: { path: '/' } }))).toBe(false)
      expect(passes('pod volumes must be emptyDir or configMap only', core)).toBe(false)
      expect(passes('pod volumes must be emptyDir or configMap only', volumes({ name: 'e', emptyDir: {} }))).toBe(true)
    })
  })

  describe('privilege escalation', () => {
    it('requires allowPrivilegeEscalation false on every container: missing fails', () => {
      const rule = 'no privilege escalation'
      expect(passes(rule, pod((spec) => delete sc(app(spec)).allowPrivilegeEscalation))).toBe(false)
      expect(passes(rule, pod((spec) => void (sc(init(spec)).allowPrivilegeEscalation = true)))).toBe(false)
      expect(passes(rule, pod((spec) => withEphemeral(spec, { allowPrivilegeEscalation: false })))).toBe(true)
      expect(passes(rule, pod((spec) => withEphemeral(spec, {})))).toBe(false)
    })
  })

  describe('runAsNonRoot', () => {
    const rule = 'containers must run as non-root'
    const clearContainers = (spec: PodSpec): void => {
      for (const container of [...spec.containers, ...(spec.initContainers ?? [])]) delete sc(container).runAsNonRoot
    }

    it('passes when the pod says true and no container says false', () => {
      expect(passes(rule, pod(clearContainers))).toBe(true)
      expect(passes(rule, pod((spec) => (clearContainers(spec), void (sc(init(spec)).runAsNonRoot = false))))).toBe(false)
    })

    it('passes when every container says true, whatever the pod says', () => {
      expect(passes(rule, pod((spec) => void delete sc(spec).runAsNonRoot))).toBe(true)
    })

    it('fails a container that runs as UID 0 anyway, which the kubelet would refuse', () => {
      expect(passes('pods must never run as root', pod((spec) => void (sc(app(spec)).runAsUser = 0)))).toBe(false)
      expect(passes(rule, pod((spec) => void (sc(spec).runAsUser = 0)))).toBe(false)
    })

    it('fails when it is missing everywhere, or missing on one container without a pod-level value', () => {
      expect(passes(rule, pod((spec) => (clearContainers(spec), void delete sc(spec).runAsNonRoot)))).toBe(false)
      expect(passes(rule, pod((spec) => (delete sc(spec).runAsNonRoot, void delete sc(init(spec)).runAsNonRoot)))).toBe(false)
      expect(passes(rule, pod((spec) => (delete sc(spec).runAsNonRoot, withEphemeral(spec, {}))))).toBe(false)
    })
  })

  describe('runAsUser', () => {
    const rule = 'no root user'
    it('fails UID 0 on a container or inherited from the pod, and passes when it is missing', () => {
      expect(passes(rule, pod((spec) => void delete sc(spec).runAsUser))).toBe(true)
      expect(passes(rule, pod((spec) => void (sc(app(spec)).runAsUser = 0)))).toBe(false)
      expect(passes(rule, pod((spec) => void (sc(spec).runAsUser = 0)))).toBe(false)
    })

    it('lets every container override a pod-level 0', () => {
      const overridden = pod((spec) => {
        sc(spec).runAsUser = 0
        for (const container of [...spec.containers, ...(spec.initContainers ?? [])]) sc(container).runAsUser = 1000
      })
      expect(passes(rule, overridden)).toBe(true)
    })
  })

  describe('profiles', () => {
    it('baseline allows what only restricted forbids', () => {
      const chown = pod((spec) => void (sc(app(spec)).capabilities = { add: ['CHOWN'] }))
      expect(passes('enforce the Pod Security baseline profile', chown)).toBe(true)
      expect(passes('enforce the Pod Security restricted profile', chown)).toBe(false)
    })

    it('fails a baseline violation with that control\'s message', () => {
      const { spec } = compileInstruction('enforce the Pod Security baseline profile', LABELS)
      const compiled = compileRuleset({ ...spec, name: 'pss-test' })
      const result = evaluateRuleset(compiled, new PreparedInput({ object: pod((podSpec) => void (podSpec.hostNetwork = true)) }))
      expect(result.passed).toBe(false)
      expect(result.results[0]?.message).toBe('pods must not use the host network, host PID namespace or host IPC namespace')
    })
  })
})

describe('Pod Security templates: controllers (autogen)', () => {
  it('judges a Deployment, a StatefulSet and a CronJob by their pod template', () => {
    for (const kind of ['Deployment', 'StatefulSet', 'CronJob']) {
      const controller = document(kind)
      expect(passes('no privileged containers', controller), kind).toBe(true)
      sc(templateSpec(controller).containers[0] ?? { name: 'none' }).privileged = true
      expect(passes('no privileged containers', controller), kind).toBe(false)
    }
  })

  it('reads AppArmor annotations from the pod template', () => {
    const deployment = document('Deployment')
    const template = (deployment.spec as Json).template as Json
    ;(template.metadata as Json).annotations = { 'container.apparmor.security.beta.kubernetes.io/web': 'unconfined' }
    expect(passes('no unconfined AppArmor profiles in deployments', deployment)).toBe(false)
  })

  it('judges runAsNonRoot inheritance in a Deployment', () => {
    const deployment = document('Deployment')
    delete sc(templateSpec(deployment)).runAsNonRoot
    expect(passes('deployments must run as non-root', deployment)).toBe(true)
    const init = templateSpec(deployment).initContainers?.[0]
    if (init) delete sc(init).runAsNonRoot
    expect(passes('deployments must run as non-root', deployment)).toBe(false)
  })
})

describe('Pod Security templates: samples', () => {
  it('makes verified samples for an instruction of several controls, on a Deployment', () => {
    const instruction = [
      'deployments: no privileged containers',
      'no host network',
      'no hostPath volumes',
      'no host ports except 443',
      'no NET_ADMIN or SYS_ADMIN capabilities',
      'no unconfined AppArmor',
      'restrict SELinux options',
      'procMount must be Default',
      'no unsafe sysctls',
      'no hostProcess',
      'restrict volume types',
      'no privilege escalation',
      'containers must run as non-root',
      'no root user',
      'require a seccomp profile',
      'drop all capabilities',
    ].join('\n')
    const compiled = compileInstruction(instruction, LABELS)
    expect(compiled.rules.map((rule) => rule.template.id)).toHaveLength(16)
    const { samples, unverified } = instructionSamples('pss-samples', compiled.spec, compiled.rules)
    expect(unverified).toEqual([])
    expect(samples.filter((sample) => sample.label === 'compliant').map((sample) => sample.kind)).toEqual(['Deployment'])
    expect(samples.filter((sample) => sample.label === 'non-compliant').length).toBeGreaterThanOrEqual(16)
  })

  it('gives every template a message, a remediation naming a field, a severity and bad samples', () => {
    for (const template of POD_SECURITY_TEMPLATES) {
      expect(template.phrasings.length, template.id).toBeGreaterThanOrEqual(3)
      const parameters = Object.fromEntries(template.parameters.filter((parameter) => parameter.required).map((parameter) => [parameter.name, parameter.example]))
      const rule = template.rule(parameters)
      expect(rule.name, template.id).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/)
      expect(rule.message, template.id).toBeTruthy()
      expect(rule.remediation, template.id).toMatch(/securityContext|spec\.|volumes|hostPort|annotation|allowPrivilegeEscalation|capabilities|privileged/)
      expect(rule.severity, template.id).toMatch(template.category === 'pod-security-baseline' ? /^high$/ : /^(medium|high)$/)
      expect(template.samples(parameters).bad.length, template.id).toBeGreaterThanOrEqual(1)
    }
  })
})
