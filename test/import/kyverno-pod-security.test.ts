import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import fc from 'fast-check'
import * as yaml from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { compileRuleset, evaluateRuleset, PreparedInput, type CompiledRuleset } from '../../src/engine/index.js'
import { matchesWildcard } from '../../src/engine/pattern/wildcard.js'
import { ImportError, Unsupported } from '../../src/import/import-error.js'
import { importedPodSecurity } from '../../src/import/kyverno-pod-security.js'
import { matchingVariable } from '../../src/engine/pod-security/kyverno/exclusions.js'
import { ACTUAL_POD, matchingContainersPod, POD_LEVEL_EXCLUSION } from '../../src/engine/pod-security/kyverno/pod-views.js'
import { PSA_CHECKS } from '../../src/engine/pod-security/kyverno/psa-checks.js'
import { CONFORMANCE_DIR, HAS_CONFORMANCE, WITHOUT_CONFORMANCE } from '../support/shared-conformance.js'

type Json = Record<string, unknown>
type Edit = (spec: Json, metadata: Json) => void

const FIELD = 'spec.rules[0].validate.podSecurity'

const compiled = new Map<string, CompiledRuleset>()

/** The ruleset the importer makes of a podSecurity block, as the Kyverno policy importer will use it. */
function rulesetFor(podSecurity: unknown): CompiledRuleset {
  const key = JSON.stringify(podSecurity)
  let ruleset = compiled.get(key)
  if (!ruleset) {
    const { validate, variables } = importedPodSecurity(podSecurity, FIELD)
    ruleset = compileRuleset({ name: 'pss', rules: [{ name: 'r', match: { kinds: ['Pod'] }, validate, ...(variables ? { variables } : {}) }] })
    compiled.set(key, ruleset)
  }
  return ruleset
}

function judge(podSecurity: unknown, pod: Json): { status: string; message?: string } {
  const [result] = evaluateRuleset(rulesetFor(podSecurity), new PreparedInput({ object: pod }), { verbose: true }).results
  if (!result) throw new Error('no result')
  return result.message === undefined ? { status: result.status } : { status: result.status, message: result.message }
}

/** A Pod that meets the restricted profile, edited. */
function pod(edit: Edit = () => {}): Json {
  const metadata: Json = { name: 'web', namespace: 'shop' }
  const spec: Json = {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [{ name: 'app', image: 'registry.example.com/shop/app:1.0', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
  }
  edit(spec, metadata)
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec }
}

function containers(spec: Json): Json[] {
  return spec.containers as Json[]
}

function app(spec: Json): Json {
  const [first] = containers(spec)
  if (!first) throw new Error('no container')
  return first
}

function sc(holder: Json): Json {
  holder.securityContext ??= {}
  return holder.securityContext as Json
}

/** A second app container, compliant, with its own image. */
function sidecar(spec: Json, image = 'docker.io/library/busybox:1.36'): Json {
  const container: Json = { name: 'sidecar', image, securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }
  containers(spec).push(container)
  return container
}

function violation(label: string, control: string, reason: string, errors: string): string {
  return `It violates PodSecurity "${label}": ${control} (Forbidden reason: ${reason}, field error list: [${errors}])`
}

const PASS = { status: 'pass' }

function failing(label: string, control: string, reason: string, errors: string): { status: string; message: string } {
  return { status: 'fail', message: violation(label, control, reason, errors) }
}

interface ControlCase {
  control: string
  bad: Edit
  reason: string
  errors: string
  /** A pod close to the bad one that the control lets through. */
  good: Edit
}

const BASELINE_CASES: ControlCase[] = [
  {
    control: 'HostProcess',
    bad: (spec) => void (sc(app(spec)).windowsOptions = { hostProcess: true }),
    reason: 'hostProcess',
    errors: 'spec.containers[0].securityContext.windowsOptions.hostProcess is forbidden, forbidden values found: true',
    good: (spec) => void (sc(app(spec)).windowsOptions = { hostProcess: false }),
  },
  {
    control: 'Host Namespaces',
    bad: (spec) => void (spec.hostNetwork = true),
    reason: 'host namespaces',
    errors: 'spec.hostNetwork is forbidden, forbidden values found: true',
    good: (spec) => void (spec.hostNetwork = false),
  },
  {
    control: 'Privileged Containers',
    bad: (spec) => void (sc(app(spec)).privileged = true),
    reason: 'privileged',
    errors: 'spec.containers[0].securityContext.privileged is forbidden, forbidden values found: true',
    good: (spec) => void (sc(app(spec)).privileged = false),
  },
  {
    control: 'Capabilities',
    bad: (spec) => void (sc(app(spec)).capabilities = { drop: ['ALL'], add: ['SYS_ADMIN', 'NET_ADMIN'] }),
    reason: 'non-default capabilities',
    errors: 'spec.containers[0].securityContext.capabilities.add is forbidden, forbidden values found: [NET_ADMIN SYS_ADMIN]',
    good: (spec) => void (sc(app(spec)).capabilities = { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }),
  },
  {
    control: 'HostPath Volumes',
    bad: (spec) => void (spec.volumes = [{ name: 'docker', hostPath: { path: '/var/run/docker.sock' } }]),
    reason: 'hostPath volumes',
    errors: 'spec.volumes[0].hostPath is forbidden, forbidden values found: /var/run/docker.sock',
    good: (spec) => void (spec.volumes = [{ name: 'cache', emptyDir: {} }]),
  },
  {
    control: 'Host Ports',
    bad: (spec) => void (app(spec).ports = [{ containerPort: 8080 }, { containerPort: 8443, hostPort: 8443 }]),
    reason: 'hostPort',
    errors: 'spec.containers[0].ports[1].hostPort is forbidden, forbidden values found: 8443',
    good: (spec) => void (app(spec).ports = [{ containerPort: 8080, hostPort: 0 }]),
  },
  {
    control: 'AppArmor',
    bad: (spec) => void (sc(spec).appArmorProfile = { type: 'Unconfined' }),
    reason: 'forbidden AppArmor profile',
    errors: 'spec.securityContext.appArmorProfile.type is forbidden, forbidden values found: Unconfined',
    good: (spec) => void (sc(spec).appArmorProfile = { type: 'Localhost', localhostProfile: 'k8s-web' }),
  },
  {
    control: 'SELinux',
    bad: (spec) => void (sc(app(spec)).seLinuxOptions = { type: 'spc_t', role: 'sysadm_r' }),
    reason: 'seLinuxOptions',
    errors:
      'spec.containers[0].securityContext.seLinuxOptions.type is forbidden, forbidden values found: spc_t, ' +
      'spec.containers[0].securityContext.seLinuxOptions.role is forbidden, forbidden values found: sysadm_r',
    good: (spec) => void (sc(app(spec)).seLinuxOptions = { type: 'container_t', level: 's0:c123,c456' }),
  },
  {
    control: '/proc Mount Type',
    bad: (spec) => void (sc(app(spec)).procMount = 'Unmasked'),
    reason: 'procMount',
    errors: 'spec.containers[0].securityContext.procMount is forbidden, forbidden values found: Unmasked',
    good: (spec) => void (sc(app(spec)).procMount = 'Default'),
  },
  {
    control: 'Seccomp',
    bad: (spec) => void (sc(spec).seccompProfile = { type: 'Unconfined' }),
    reason: 'seccompProfile',
    errors: 'spec.securityContext.seccompProfile.type is forbidden, forbidden values found: Unconfined',
    good: (spec) => void (sc(spec).seccompProfile = { type: 'Localhost', localhostProfile: 'profiles/web.json' }),
  },
  {
    control: 'Sysctls',
    bad: (spec) => void (sc(spec).sysctls = [{ name: 'net.ipv4.tcp_syncookies', value: '1' }, { name: 'kernel.msgmax', value: '65536' }]),
    reason: 'forbidden sysctls',
    errors: 'spec.securityContext.sysctls[1].name is forbidden, forbidden values found: kernel.msgmax',
    good: (spec) => void (sc(spec).sysctls = [{ name: 'net.ipv4.tcp_keepalive_time', value: '600' }]),
  },
]

const RESTRICTED_CASES: ControlCase[] = [
  {
    control: 'Volume Types',
    bad: (spec) => void (spec.volumes = [{ name: 'config', configMap: { name: 'web' } }, { name: 'shared', nfs: { server: 'nfs.example.com', path: '/' } }]),
    reason: 'restricted volume types',
    errors: 'spec.volumes[1].nfs: Forbidden',
    good: (spec) => void (spec.volumes = [{ name: 'config', configMap: { name: 'web' } }, { name: 'data', persistentVolumeClaim: { claimName: 'data' } }]),
  },
  {
    control: 'Privilege Escalation',
    bad: (spec) => void delete sc(app(spec)).allowPrivilegeEscalation,
    reason: 'allowPrivilegeEscalation != false',
    errors: 'spec.containers[0].securityContext.allowPrivilegeEscalation is forbidden, forbidden values found: nil',
    good: (spec) => void (sc(app(spec)).allowPrivilegeEscalation = false),
  },
  {
    control: 'Running as Non-root',
    bad: (spec) => void (sc(spec).runAsNonRoot = false),
    reason: 'runAsNonRoot != true',
    errors: 'spec.securityContext.runAsNonRoot is forbidden, forbidden values found: false, spec.containers[0].securityContext.runAsNonRoot: Required value',
    good: (spec) => (delete sc(spec).runAsNonRoot, void (sc(app(spec)).runAsNonRoot = true)),
  },
  {
    control: 'Running as Non-root user',
    bad: (spec) => void (sc(app(spec)).runAsUser = 0),
    reason: 'runAsUser=0',
    errors: 'spec.containers[0].securityContext.runAsUser is forbidden, forbidden values found: 0',
    good: (spec) => void (sc(app(spec)).runAsUser = 10001),
  },
  {
    control: 'Seccomp',
    bad: (spec) => void delete sc(spec).seccompProfile,
    reason: 'seccompProfile',
    errors: 'spec.containers[0].securityContext.seccompProfile.type: Required value',
    good: (spec) => (delete sc(spec).seccompProfile, void (sc(app(spec)).seccompProfile = { type: 'RuntimeDefault' })),
  },
  {
    control: 'Capabilities',
    bad: (spec) => void (sc(app(spec)).capabilities = { drop: ['NET_RAW'], add: ['CHOWN'] }),
    reason: 'unrestricted capabilities',
    errors:
      'spec.containers[0].securityContext.capabilities.drop is forbidden, forbidden values found: [NET_RAW], ' +
      'spec.containers[0].securityContext.capabilities.add is forbidden, forbidden values found: [CHOWN]',
    good: (spec) => void (sc(app(spec)).capabilities = { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }),
  },
]

const BASELINE = { level: 'baseline', version: 'latest' }
const RESTRICTED = { level: 'restricted', version: 'latest' }

describe('Kyverno validate.podSecurity: the controls', () => {
  it('passes a restricted pod at both levels', () => {
    expect(judge(BASELINE, pod())).toEqual(PASS)
    expect(judge(RESTRICTED, pod())).toEqual(PASS)
  })

  for (const { control, bad, reason, errors, good } of BASELINE_CASES) {
    it(`${control}: fails the baseline control at both levels, naming it, and passes its allowed values`, () => {
      expect(judge(BASELINE, pod(bad))).toEqual(failing('baseline:latest', control, reason, errors))
      expect(judge(RESTRICTED, pod(bad))).toEqual(failing('restricted:latest', control, reason, errors))
      expect(judge(BASELINE, pod(good))).toEqual(PASS)
      expect(judge(RESTRICTED, pod(good))).toEqual(PASS)
    })
  }

  for (const { control, bad, reason, errors, good } of RESTRICTED_CASES) {
    it(`${control}: fails the restricted control only at restricted, and passes its allowed values`, () => {
      expect(judge(RESTRICTED, pod(bad))).toEqual(failing('restricted:latest', control, reason, errors))
      expect(judge(BASELINE, pod(bad))).toEqual(PASS)
      expect(judge(RESTRICTED, pod(good))).toEqual(PASS)
      expect(judge(BASELINE, pod(good))).toEqual(PASS)
    })
  }

  it('Host Probes / Lifecycle Hooks: fails a probe or handler host, which the library reports without fields', () => {
    const probed = pod((spec) => void (app(spec).livenessProbe = { httpGet: { host: 'metadata.internal', path: '/', port: 80 } }))
    expect(judge(BASELINE, probed)).toEqual({
      status: 'fail',
      message: 'It violates PodSecurity "baseline:latest": Host Probes / Lifecycle Hooks (Forbidden reason: probe or lifecycle host, field error list: [])',
    })
    expect(judge(RESTRICTED, pod((spec) => void (app(spec).lifecycle = { preStop: { tcpSocket: { host: 'db', port: 5432 } } })))).toMatchObject({ status: 'fail' })
    expect(judge(BASELINE, pod((spec) => void (app(spec).livenessProbe = { httpGet: { host: '', path: '/', port: 80 } })))).toEqual(PASS)
  })

  it('judges init and ephemeral containers too, by their own paths', () => {
    const init = pod((spec) => void (spec.initContainers = [{ name: 'setup', image: 'busybox', securityContext: { privileged: true } }]))
    expect(judge(BASELINE, init)).toEqual(failing('baseline:latest', 'Privileged Containers', 'privileged', 'spec.initContainers[0].securityContext.privileged is forbidden, forbidden values found: true'))
    const ephemeral = pod((spec) => void (spec.ephemeralContainers = [{ name: 'debug', image: 'busybox', securityContext: { procMount: 'Unmasked' } }]))
    expect(judge(BASELINE, ephemeral)).toEqual(
      failing('baseline:latest', '/proc Mount Type', 'procMount', 'spec.ephemeralContainers[0].securityContext.procMount is forbidden, forbidden values found: Unmasked'),
    )
  })

  it('judges the pod-level and the container-level values each, as Kubernetes does', () => {
    // Every container runs with RuntimeDefault, yet the pod-level Unconfined is forbidden.
    const overridden = pod((spec) => {
      sc(spec).seccompProfile = { type: 'Unconfined' }
      sc(app(spec)).seccompProfile = { type: 'RuntimeDefault' }
    })
    expect(judge(BASELINE, overridden)).toEqual(failing('baseline:latest', 'Seccomp', 'seccompProfile', 'spec.securityContext.seccompProfile.type is forbidden, forbidden values found: Unconfined'))
    // A container without its own runAsNonRoot runs with the pod's true.
    expect(judge(RESTRICTED, pod())).toEqual(PASS)
    expect(judge(RESTRICTED, pod((spec) => void (sc(app(spec)).runAsNonRoot = false)))).toEqual(
      failing('restricted:latest', 'Running as Non-root', 'runAsNonRoot != true', 'spec.containers[0].securityContext.runAsNonRoot is forbidden, forbidden values found: false'),
    )
  })

  it('reads a field written as null as absent, as Go does', () => {
    expect(judge(RESTRICTED, pod((spec) => void (sc(app(spec)).seLinuxOptions = { type: null, user: null })))).toEqual(PASS)
    expect(judge(BASELINE, pod((spec) => void (app(spec).ports = [{ containerPort: 80, hostPort: null }])))).toEqual(PASS)
    expect(judge(RESTRICTED, pod((spec) => void (sc(app(spec)).allowPrivilegeEscalation = null)))).toEqual(
      failing('restricted:latest', 'Privilege Escalation', 'allowPrivilegeEscalation != false', 'spec.containers[0].securityContext.allowPrivilegeEscalation is forbidden, forbidden values found: nil'),
    )
  })

  it('says "profiles" when AppArmor is disabled more than one way, and judges the annotations', () => {
    const annotated = pod((spec, metadata) => {
      metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/app': 'unconfined' }
      sc(app(spec)).appArmorProfile = { type: 'Unconfined' }
    })
    expect(judge(BASELINE, annotated)).toEqual(
      failing(
        'baseline:latest',
        'AppArmor',
        'forbidden AppArmor profiles',
        'spec.containers[0].securityContext.appArmorProfile.type is forbidden, forbidden values found: Unconfined, ' +
          'metadata.annotations[container.apparmor.security.beta.kubernetes.io/app] is forbidden, forbidden values found: unconfined',
      ),
    )
    expect(judge(BASELINE, pod((_spec, metadata) => void (metadata.annotations = { 'container.apparmor.security.beta.kubernetes.io/app': 'localhost/k8s-web' })))).toEqual(PASS)
  })
})

describe('Kyverno validate.podSecurity: versions', () => {
  const at = (level: string, version: string): Json => ({ level, version })

  it('takes the safe sysctls of the version: tcp_rmem from v1.32', () => {
    const tuned = pod((spec) => void (sc(spec).sysctls = [{ name: 'net.ipv4.tcp_rmem', value: '4096 87380 6291456' }]))
    expect(judge(at('baseline', 'v1.32'), tuned)).toEqual(PASS)
    expect(judge(at('baseline', 'latest'), tuned)).toEqual(PASS)
    expect(judge(at('baseline', 'v1.31'), tuned)).toEqual(
      failing('baseline:v1.31', 'Sysctls', 'forbidden sysctls', 'spec.securityContext.sysctls[0].name is forbidden, forbidden values found: net.ipv4.tcp_rmem'),
    )
  })

  it('takes the SELinux types of the version: container_engine_t from v1.31', () => {
    const engine = pod((spec) => void (sc(app(spec)).seLinuxOptions = { type: 'container_engine_t' }))
    expect(judge(at('baseline', 'v1.31'), engine)).toEqual(PASS)
    expect(judge(at('baseline', 'v1.30'), engine)).toEqual(
      failing('baseline:v1.30', 'SELinux', 'seLinuxOptions', 'spec.containers[0].securityContext.seLinuxOptions.type is forbidden, forbidden values found: container_engine_t'),
    )
  })

  it('exempts Windows pods from the Linux-only restricted checks from v1.25', () => {
    const windows = pod((spec) => {
      spec.os = { name: 'windows' }
      delete sc(spec).seccompProfile
      spec.containers = [{ name: 'app', image: 'mcr.microsoft.com/windows/servercore:ltsc2022' }]
    })
    expect(judge(at('restricted', 'v1.25'), windows)).toEqual(PASS)
    expect(judge(at('restricted', 'v1.24'), windows)).toEqual(
      failing('restricted:v1.24', 'Privilege Escalation', 'allowPrivilegeEscalation != false', 'spec.containers[0].securityContext.allowPrivilegeEscalation: Required value'),
    )
  })

  it('judges the alpha seccomp annotations before v1.19 and the seccompProfile fields from v1.19', () => {
    const annotated = pod((_spec, metadata) => void (metadata.annotations = { 'seccomp.security.alpha.kubernetes.io/pod': 'unconfined' }))
    expect(judge(at('baseline', 'v1.18'), annotated)).toEqual(
      failing('baseline:v1.18', 'Seccomp', 'seccompProfile', 'metadata.annotations[seccomp.security.alpha.kubernetes.io/pod] is forbidden, forbidden values found: unconfined'),
    )
    expect(judge(at('baseline', 'v1.19'), annotated)).toEqual(PASS)
    const unconfined = pod((spec) => void (sc(spec).seccompProfile = { type: 'Unconfined' }))
    expect(judge(at('baseline', 'v1.18'), unconfined)).toEqual(PASS)
    expect(judge(at('baseline', 'v1.19'), unconfined)).toMatchObject({ status: 'fail' })
  })

  it('applies a check in its first version to older versions too, as Kyverno does', () => {
    // runAsUser appeared in v1.23; Kyverno runs every check's first version whatever the version asked for.
    expect(judge(at('restricted', 'v1.19'), pod((spec) => void (sc(app(spec)).runAsUser = 0)))).toEqual(
      failing('restricted:v1.19', 'Running as Non-root user', 'runAsUser=0', 'spec.containers[0].securityContext.runAsUser is forbidden, forbidden values found: 0'),
    )
  })

  it('takes a missing version as latest', () => {
    expect(judge({ level: 'baseline' }, pod((spec) => void (spec.hostPID = true)))).toEqual(
      failing('baseline:latest', 'Host Namespaces', 'host namespaces', 'spec.hostPID is forbidden, forbidden values found: true'),
    )
  })
})

describe('Kyverno validate.podSecurity: excludes', () => {
  it('exempts a pod-level control without images', () => {
    const policy = { ...BASELINE, exclude: [{ controlName: 'Host Namespaces' }] }
    expect(judge(policy, pod((spec) => void (spec.hostNetwork = true)))).toEqual(PASS)
    expect(judge(policy, pod((spec) => void (sc(app(spec)).privileged = true)))).toMatchObject({ status: 'fail' })
  })

  it('exempts a container-level control only for the containers whose image matches, by Kyverno wildcards', () => {
    const policy = { ...RESTRICTED, exclude: [{ controlName: 'Capabilities', images: ['registry.example.com/shop/*', 'docker.io/library/busybox:1.3?'] }] }
    const adding = (spec: Json): void => void (sc(app(spec)).capabilities = { drop: ['ALL'], add: ['SYS_ADMIN'] })
    expect(judge(policy, pod(adding))).toEqual(PASS)
    expect(judge(policy, pod((spec) => (adding(spec), void (sc(sidecar(spec)).capabilities = { drop: ['ALL'], add: ['NET_RAW'] }))))).toEqual(PASS)
    expect(judge(policy, pod((spec) => (adding(spec), void (sc(sidecar(spec, 'docker.io/library/busybox:1.4')).capabilities = { add: ['NET_RAW'] }))))).toEqual(
      failing('restricted:latest', 'Capabilities', 'non-default capabilities', 'spec.containers[1].securityContext.capabilities.add is forbidden, forbidden values found: [NET_RAW]'),
    )
  })

  it('exempts only the values of the restricted field an exclude names', () => {
    const policy = {
      ...RESTRICTED,
      exclude: [{ controlName: 'Capabilities', images: ['*'], restrictedField: 'spec.containers[*].securityContext.capabilities.add', values: ['NET_RAW', 'SYS_*'] }],
    }
    expect(judge(policy, pod((spec) => void (sc(app(spec)).capabilities = { drop: ['ALL'], add: ['NET_RAW', 'SYS_TIME'] })))).toEqual(PASS)
    expect(judge(policy, pod((spec) => void (sc(app(spec)).capabilities = { drop: ['ALL'], add: ['NET_RAW', 'CHOWN'] })))).toEqual(
      failing('restricted:latest', 'Capabilities', 'unrestricted capabilities', 'spec.containers[0].securityContext.capabilities.add is forbidden, forbidden values found: [CHOWN NET_RAW]'),
    )
    // The drop field is not the one named: a missing drop ALL stays forbidden.
    expect(judge(policy, pod((spec) => void (sc(app(spec)).capabilities = { add: ['NET_RAW'] })))).toEqual(
      failing('restricted:latest', 'Capabilities', 'unrestricted capabilities', 'spec.containers[0].securityContext.capabilities.drop: Required value'),
    )
  })

  it('exempts the hostPath volumes whose path the values match', () => {
    const policy = { ...BASELINE, exclude: [{ controlName: 'HostPath Volumes', restrictedField: 'spec.volumes[*].hostPath', values: ['/var/log/*'] }] }
    const volumes = (...paths: string[]): Json => pod((spec) => void (spec.volumes = paths.map((path, index) => ({ name: `v${index}`, hostPath: { path } }))))
    expect(judge(policy, volumes('/var/log/pods', '/var/log/containers'))).toEqual(PASS)
    expect(judge(policy, volumes('/var/log/pods', '/etc'))).toEqual(
      failing('baseline:latest', 'HostPath Volumes', 'hostPath volumes', 'spec.volumes[0].hostPath is forbidden, forbidden values found: /var/log/pods, spec.volumes[1].hostPath is forbidden, forbidden values found: /etc'),
    )
  })

  it('exempts Seccomp at pod level and for every image, as the library policy does', () => {
    const policy = { ...RESTRICTED, exclude: [{ controlName: 'Seccomp' }, { controlName: 'Seccomp', images: ['*'] }] }
    const unconfined = pod((spec) => {
      sc(spec).seccompProfile = { type: 'Unconfined' }
      sc(app(spec)).seccompProfile = { type: 'Unconfined' }
    })
    expect(judge(policy, unconfined)).toEqual(PASS)
    expect(judge(policy, pod((spec) => (delete sc(spec).seccompProfile, sidecar(spec))))).toEqual(PASS)
  })

  it('exempts Seccomp for the matching images only', () => {
    const policy = { ...RESTRICTED, exclude: [{ controlName: 'Seccomp', images: ['docker.io/library/*'] }] }
    const sidecarUnconfined = pod((spec) => void (sc(sidecar(spec)).seccompProfile = { type: 'Unconfined' }))
    expect(judge(policy, sidecarUnconfined)).toEqual(PASS)
    const appUnconfined = pod((spec) => void (sc(app(spec)).seccompProfile = { type: 'Unconfined' }))
    expect(judge(policy, appUnconfined)).toEqual(
      failing('restricted:latest', 'Seccomp', 'seccompProfile', 'spec.containers[0].securityContext.seccompProfile.type is forbidden, forbidden values found: Unconfined'),
    )
  })

  it('exempts, without images, the pod-level value and one app container, as Kyverno\'s stand-in pod does', () => {
    // Kyverno judges the pod with a single bare container in place of the real ones: its one
    // missing runAsNonRoot exempts one container's, so one container passes and two do not.
    const policy = { ...RESTRICTED, exclude: [{ controlName: 'Running as Non-root' }] }
    const unset = (spec: Json): void => void delete sc(spec).runAsNonRoot
    expect(judge(policy, pod(unset))).toEqual(PASS)
    expect(judge(policy, pod((spec) => (unset(spec), void (sc(spec).runAsNonRoot = false))))).toEqual(PASS)
    expect(judge(policy, pod((spec) => (unset(spec), sidecar(spec))))).toEqual(
      failing(
        'restricted:latest',
        'Running as Non-root',
        'runAsNonRoot != true',
        'spec.containers[0].securityContext.runAsNonRoot: Required value, spec.containers[1].securityContext.runAsNonRoot: Required value',
      ),
    )
  })

  it('takes, with an exclude without images first, the error Kyverno\'s removal order takes', () => {
    const policy = { ...RESTRICTED, exclude: [{ controlName: 'Running as Non-root' }, { controlName: 'Running as Non-root', images: ['docker.io/library/busybox*'] }] }
    // The pod's errors: the pod's false, app's false, sidecar's missing value. Removing the pod's
    // moves the last (sidecar's) to the front, so the fake container's removal takes sidecar's,
    // which the busybox exclude then finds gone: app's remains.
    const podFalse = pod((spec) => {
      sc(spec).runAsNonRoot = false
      sc(app(spec)).runAsNonRoot = false
      sidecar(spec)
    })
    expect(judge(policy, podFalse)).toEqual(
      failing('restricted:latest', 'Running as Non-root', 'runAsNonRoot != true', 'spec.containers[0].securityContext.runAsNonRoot is forbidden, forbidden values found: false'),
    )
    // With nothing at pod level nothing moves: the fake container's removal takes app's, the exclude sidecar's.
    expect(judge(policy, pod((spec) => (delete sc(spec).runAsNonRoot, sidecar(spec))))).toEqual(PASS)
  })

  it('refuses excludes whose order decides what they exempt', () => {
    const exclude = [
      { controlName: 'Running as Non-root', images: ['*'] },
      { controlName: 'Running as Non-root' },
      { controlName: 'Running as Non-root', images: ['nginx*'] },
    ]
    expect(() => importedPodSecurity({ ...RESTRICTED, exclude }, FIELD)).toThrow(Unsupported)
    expect(() => importedPodSecurity({ ...RESTRICTED, exclude }, FIELD)).toThrow(
      `${FIELD}.exclude[0], ${FIELD}.exclude[1], ${FIELD}.exclude[2]: excludes of Running as Non-root with and without images in this order exempt errors that depend on the order Kyverno removes them in; put the excludes without images last, or a single one first`,
    )
    // Without images last, counting is exact.
    expect(() => importedPodSecurity({ ...RESTRICTED, exclude: [exclude[0], exclude[2], exclude[1]] }, FIELD)).not.toThrow()
  })
})

describe('Kyverno validate.podSecurity: what cannot be imported', () => {
  function importError(podSecurity: unknown): ImportError {
    try {
      importedPodSecurity(podSecurity, FIELD)
    } catch (error) {
      if (error instanceof ImportError) return error
      throw error
    }
    throw new Error('no ImportError')
  }

  it('refuses a version that is not latest or a published v1.x, naming the field', () => {
    for (const version of ['v1.37', 'v2.0', '1.29', 'v1.029', 'v1.29.1', 'latest ', 29]) {
      const error = importError({ level: 'restricted', version })
      expect(error.field).toBe(`${FIELD}.version`)
      expect(error.problem).toBe(`must be "latest" or a Kubernetes release from v1.0 to v1.36 such as "v1.29", not ${JSON.stringify(version)}`)
    }
    expect(() => importedPodSecurity({ level: 'restricted', version: 'v1.0' }, FIELD)).not.toThrow()
  })

  it('refuses an unknown or missing level, naming the field', () => {
    expect(importError({ level: 'strict', version: 'latest' })).toMatchObject({ field: `${FIELD}.level`, problem: 'must be baseline or restricted, not "strict"' })
    expect(importError({ version: 'latest' })).toMatchObject({ field: `${FIELD}.level`, problem: 'must be baseline or restricted, not null' })
    expect(importError('restricted')).toMatchObject({ field: FIELD })
  })

  it('does not import level privileged, which Kyverno judges with every restricted check', () => {
    expect(() => importedPodSecurity({ level: 'privileged' }, FIELD)).toThrow(Unsupported)
  })

  it('refuses excludes Kyverno refuses', () => {
    expect(importError({ ...RESTRICTED, exclude: [{ controlName: 'Capabilities' }] })).toMatchObject({
      field: `${FIELD}.exclude[0].controlName`,
      problem: 'Capabilities is a container-level control: exclude.images must be specified',
    })
    expect(importError({ ...RESTRICTED, exclude: [{ controlName: 'Sysctls', images: ['*'] }] })).toMatchObject({ field: `${FIELD}.exclude[0].controlName` })
    expect(importError({ ...RESTRICTED, exclude: [{ controlName: 'Seccomp', restrictedField: 'spec.securityContext.seccompProfile.type' }] })).toMatchObject({
      field: `${FIELD}.exclude[0].values`,
    })
    expect(importError({ ...RESTRICTED, exclude: [{ controlName: 'Seccomp', values: ['Unconfined'] }] })).toMatchObject({ field: `${FIELD}.exclude[0].restrictedField` })
    expect(importError({ ...BASELINE, exclude: [{ controlName: 'Privilege Escalation', images: ['*'] }] })).toMatchObject({
      field: `${FIELD}.exclude[0].controlName`,
      problem: 'Privilege Escalation is not a control of the baseline level',
    })
    expect(importError({ ...BASELINE, exclude: [{ controlName: 'Host Network' }] })).toMatchObject({ field: `${FIELD}.exclude[0].controlName` })
    expect(importError({ ...BASELINE, exclude: [{ controlName: 'Seccomp', images: 'nginx' }] })).toMatchObject({ field: `${FIELD}.exclude[0].images` })
  })
})

describe(`Kyverno validate.podSecurity: the library's podSecurity subrule tests${WITHOUT_CONFORMANCE}`, () => {
  const tests = ['podsecurity-subrule-baseline', 'restricted/restricted-exclude-capabilities', 'restricted/restricted-exclude-seccomp', 'restricted/restricted-latest']
  for (const test of tests) {
    it.skipIf(!HAS_CONFORMANCE)(`${test}: every result as the Kyverno CLI test expects`, () => {
      const testFile = join(CONFORMANCE_DIR, 'policies/pod-security/subrule', test, '.kyverno-test/kyverno-test.yaml')
      const read = (file: string): Json[] => yaml.loadAll(readFileSync(join(dirname(testFile), file), 'utf8')) as Json[]
      const [spec] = read('kyverno-test.yaml') as [{ policies: string[]; resources: string[]; results: { rule: string; resources: string[]; result: string }[] }]
      const [policy] = read(spec.policies[0] ?? '') as [{ spec: { rules: { name: string; validate: { podSecurity: unknown } }[] } }]
      const resources = spec.resources.flatMap(read)
      for (const expected of spec.results) {
        const rule = policy.spec.rules.find((candidate) => candidate.name === expected.rule)
        for (const name of expected.resources) {
          const resource = resources.find((candidate) => (candidate.metadata as Json).name === name)
          if (!rule || !resource) throw new Error(`${test}: no rule ${expected.rule} or resource ${name}`)
          expect({ name, status: judge(rule.validate.podSecurity, resource).status }).toEqual({ name, status: expected.result })
        }
      }
    })
  }
})

/**
 * Each check is written twice: as the shared Pod Security check (the verdict when no exclude
 * applies) and as the field errors Kyverno's excludes work on. Random pods, nulls included, must
 * get the same verdict from both; and the excludes must leave what Kyverno's removal of errors,
 * modelled here one error at a time, leaves.
 */
describe('Kyverno validate.podSecurity: the two forms of each check agree', () => {
  const maybe = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | null | undefined> => fc.oneof(fc.constant(undefined), fc.constant(null), value)
  const oneOf = (...values: string[]): fc.Arbitrary<string> => fc.constantFrom(...values)
  const partial = <T extends Record<string, fc.Arbitrary<unknown>>>(fields: T) => fc.record(fields, { requiredKeys: [] })
  const profile = maybe(partial({ type: maybe(oneOf('RuntimeDefault', 'Localhost', 'Unconfined', '')) }))
  const securityContext = maybe(
    partial({
      privileged: maybe(fc.boolean()),
      allowPrivilegeEscalation: maybe(fc.boolean()),
      runAsNonRoot: maybe(fc.boolean()),
      runAsUser: maybe(fc.constantFrom(0, 1000)),
      procMount: maybe(oneOf('Default', 'Unmasked')),
      seccompProfile: profile,
      appArmorProfile: profile,
      seLinuxOptions: maybe(partial({ type: maybe(oneOf('', 'container_t', 'container_engine_t', 'spc_t')), user: maybe(oneOf('', 'system_u')) })),
      windowsOptions: maybe(partial({ hostProcess: maybe(fc.boolean()) })),
      capabilities: maybe(partial({ add: maybe(fc.array(oneOf('NET_BIND_SERVICE', 'CHOWN', 'SYS_ADMIN', 'NET_RAW'), { maxLength: 2 })), drop: maybe(fc.array(oneOf('ALL', 'NET_RAW'), { maxLength: 2 })) })),
    }),
  )
  const container = fc.record(
    {
      name: oneOf('a', 'b', 'c'),
      image: oneOf('nginx:1.27', 'busybox', 'redis:7'),
      securityContext,
      ports: maybe(fc.array(fc.record({ containerPort: fc.constant(80), hostPort: maybe(fc.constantFrom(0, 8080, 9090)) }), { maxLength: 2 })),
      livenessProbe: maybe(fc.record({ httpGet: fc.record({ host: oneOf('', 'metadata.internal') }) })),
    },
    { requiredKeys: ['name', 'image'] },
  )
  const volume = fc.constantFrom<Json>({ name: 'e', emptyDir: {} }, { name: 'h', hostPath: { path: '/var/log' } }, { name: 'n', nfs: { server: 'nfs', path: '/' } }, { name: 'bare' }, { name: 'i', image: { reference: 'x' } })
  const podSpec = fc.record(
    {
      containers: fc.array(container, { minLength: 1, maxLength: 3 }),
      initContainers: maybe(fc.array(container, { maxLength: 2 })),
      ephemeralContainers: maybe(fc.array(container, { maxLength: 1 })),
      hostNetwork: maybe(fc.boolean()),
      os: maybe(fc.record({ name: oneOf('linux', 'windows') })),
      volumes: maybe(fc.array(volume, { maxLength: 2 })),
      securityContext: maybe(
        partial({
          runAsNonRoot: maybe(fc.boolean()),
          runAsUser: maybe(fc.constantFrom(0, 1000)),
          seccompProfile: profile,
          appArmorProfile: profile,
          seLinuxOptions: maybe(partial({ type: maybe(oneOf('', 'spc_t')), role: maybe(oneOf('', 'sysadm_r')) })),
          sysctls: maybe(fc.array(fc.record({ name: oneOf('kernel.shm_rmid_forced', 'net.ipv4.tcp_rmem', 'kernel.msgmax') }), { maxLength: 2 })),
          windowsOptions: maybe(partial({ hostProcess: maybe(fc.boolean()) })),
        }),
      ),
    },
    { requiredKeys: ['containers'] },
  )
  const annotations = maybe(
    fc.dictionary(
      oneOf('container.apparmor.security.beta.kubernetes.io/a', 'container.apparmor.security.beta.kubernetes.io/b2', 'seccomp.security.alpha.kubernetes.io/pod', 'container.seccomp.security.alpha.kubernetes.io/c'),
      oneOf('runtime/default', 'unconfined', 'localhost/web', ''),
      { maxKeys: 2 },
    ),
  )
  const randomPod = fc.tuple(podSpec, annotations).map(([spec, annotations]) => withoutUndefined({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', annotations }, spec }) as Json)

  function withoutUndefined(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(withoutUndefined)
    if (typeof value !== 'object' || value === null) return value
    return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined).map(([key, field]) => [key, withoutUndefined(field)]))
  }

  it('gives the same verdict from the shared check and from the field errors, at every version', () => {
    for (const version of ['latest', 'v1.30', 'v1.24', 'v1.18']) {
      const { validate, variables } = importedPodSecurity({ level: 'restricted', version }, FIELD)
      // The first validation of each check is its shared check; its field errors are in the variable its message lists.
      const agree = (validate.cel ?? []).flatMap(({ expression, messageExpression }) => {
        const errors = /variables\.(podSecurity_\w+)\.map/.exec(messageExpression ?? '')?.[1]
        return errors ? [{ expression: `(${expression}) == (size(variables.${errors}) == 0)`, message: `${expression} disagrees with ${errors}` }] : []
      })
      expect(agree).toHaveLength(17)
      const ruleset = compileRuleset({ name: 'agree', rules: [{ name: 'r', match: { kinds: ['Pod'] }, validate: { cel: agree }, ...(variables ? { variables } : {}) }] })
      fc.assert(
        fc.property(randomPod, (object) => {
          expect(evaluateRuleset(ruleset, new PreparedInput({ object }), { verbose: true }).results[0]).toMatchObject({ status: 'pass' })
        }),
        { numRuns: 250, seed: 20240917 },
      )
    }
  })

  /** The controls whose excludes are drawn, with fields and values their errors have. */
  const EXCLUDABLE: Record<string, { scope: 'pod' | 'container' | 'either'; fields: string[] }> = {
    'Running as Non-root': { scope: 'either', fields: ['spec.containers[*].securityContext.runAsNonRoot', 'spec.securityContext.runAsNonRoot'] },
    Seccomp: { scope: 'either', fields: ['spec.containers[*].securityContext.seccompProfile.type', 'spec.securityContext.seccompProfile.type'] },
    Capabilities: { scope: 'container', fields: ['spec.containers[*].securityContext.capabilities.add', 'spec.initContainers[*].securityContext.capabilities.drop'] },
    'HostPath Volumes': { scope: 'pod', fields: ['spec.volumes[*].hostPath'] },
    SELinux: { scope: 'either', fields: ['spec.containers[*].securityContext.seLinuxOptions.type', 'spec.securityContext.seLinuxOptions.role'] },
    AppArmor: { scope: 'either', fields: ['spec.securityContext.appArmorProfile.type', 'metadata.annotations[container.apparmor.security.beta.kubernetes.io/b*]'] },
    'Host Ports': { scope: 'container', fields: ['spec.containers[*].ports[*].hostPort'] },
  }
  // Running as Non-root and Seccomp, where the order of removals matters, come up more often.
  const excludes = fc.constantFrom('Running as Non-root', 'Running as Non-root', 'Seccomp', ...Object.keys(EXCLUDABLE)).chain((controlName) => {
    const { scope, fields } = EXCLUDABLE[controlName] ?? { scope: 'pod', fields: [] }
    const images = fc.array(oneOf('nginx*', '*', 'busy?ox'), { minLength: 1, maxLength: 2 })
    const exclude = fc.record({
      images: scope === 'pod' ? fc.constant(undefined) : scope === 'container' ? images : fc.option(images, { nil: undefined }),
      narrowed: fc.option(fc.record({ restrictedField: oneOf(...fields), values: fc.array(oneOf('*', 'false', 'SYS_*', '8080', 'Unconfined', 'spc_t', 'unconfined'), { minLength: 1, maxLength: 2 }) }), { nil: undefined }),
    })
    return fc.array(exclude.map(({ images, narrowed }): ExcludeEntry => ({ controlName, ...(images ? { images } : {}), ...(narrowed ?? {}) })), { minLength: 1, maxLength: 3 })
  })

  interface ExcludeEntry {
    controlName: string
    images?: string[]
    restrictedField?: string
    values?: string[]
  }

  interface FieldError {
    key: string
    name: string
    container: boolean
    bad: string[]
  }

  const SEPARATORS = { field: '\u0001', value: '\u0002', error: '\u0003' }
  const listed = (variable: string): string =>
    `'[' + variables.${variable}.map(r, r.key + '${SEPARATORS.field}' + r.name + '${SEPARATORS.field}' + (r.container ? 'c' : 'p') + '${SEPARATORS.field}' + r.bad.join('${SEPARATORS.value}')).join('${SEPARATORS.error}')`
  function parsed(message: string): FieldError[] {
    const text = message.slice(1)
    if (text === '') return []
    return text.split(SEPARATORS.error).map((entry) => {
      const [key = '', name = '', kind, bad = ''] = entry.split(SEPARATORS.field)
      return { key, name, container: kind === 'c', bad: bad === '' ? [] : bad.split(SEPARATORS.value) }
    })
  }

  it('leaves after the excludes what Kyverno leaves removing the stand-ins\' errors one at a time', () => {
    let unsupported = 0
    fc.assert(
      fc.property(randomPod, excludes, (object, exclude) => {
        let imported: ReturnType<typeof importedPodSecurity>
        try {
          imported = importedPodSecurity({ level: 'restricted', exclude }, FIELD)
        } catch (error) {
          if (!(error instanceof Unsupported)) throw error
          unsupported++
          return
        }
        for (const check of PSA_CHECKS.filter((candidate) => candidate.control === exclude[0]?.controlName)) {
          const fieldErrors = check.fieldErrors
          if (!fieldErrors) continue
          // The pod's errors and each stand-in's, before restrictedField and values filter them.
          const probes = [
            { name: 'pod', expression: fieldErrors(ACTUAL_POD, Number.POSITIVE_INFINITY) },
            ...exclude.map((entry, index) => ({
              name: `standIn${index}`,
              expression: fieldErrors(entry.images ? matchingContainersPod(matchingVariable({ index } as never)) : POD_LEVEL_EXCLUSION, Number.POSITIVE_INFINITY),
            })),
          ]
          const validations = [{ expression: `size(variables.podSecurity_${check.id}_remaining) == 0` }, ...probes.map(({ name }) => ({ expression: 'false', messageExpression: listed(name) }))]
          const variables = [...(imported.variables ?? []), ...probes]
          const ruleset = compileRuleset({ name: 'model', rules: validations.map((validation, index) => ({ name: `r${index}`, match: { kinds: ['Pod'] }, validate: { cel: [validation] }, variables })) })
          const [verdict, pod, ...standIns] = evaluateRuleset(ruleset, new PreparedInput({ object }), { verbose: true }).results
          const left = parsed(pod?.message ?? '')
          exclude.forEach((entry, index) => {
            for (const error of parsed(standIns[index]?.message ?? '')) {
              if (entry.restrictedField !== undefined && (error.key !== entry.restrictedField || !error.bad.every((bad) => (entry.values ?? []).some((value) => matchesWildcard(value, bad))))) continue
              const at = left.findIndex((candidate) => candidate.key === error.key && (!entry.images || !error.container || candidate.name === error.name))
              if (at < 0) continue
              // Go's removal: the last error takes the removed one's place.
              left[at] = left[left.length - 1] as FieldError
              left.pop()
            }
          })
          expect({ check: check.id, passed: verdict?.status === 'pass' }).toEqual({ check: check.id, passed: left.length === 0 })
        }
      }),
      { numRuns: 150, seed: 20240918 },
    )
    expect(unsupported).toBeLessThan(20)
    // 150 pods, each judged by a ruleset compiled for it: 8 s on a core of its own, past 30 s on a shared busy one.
  }, 120_000)
})
