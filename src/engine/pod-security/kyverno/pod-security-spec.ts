import { LATEST_POD_SECURITY_VERSION, type PodSecurityVersion } from '../index.js'
import { PodSecurityInvalid, PodSecurityUnsupported } from './refusal.js'
import type { PodSecurityControlName } from '../../model/pod-security.js'
import type { PodSecurityLevel } from './psa-checks.js'

/** A `validate.podSecurity` block, checked as Kyverno checks it when it admits the policy. */
export interface PodSecuritySpec {
  level: PodSecurityLevel
  version: PodSecurityVersion
  /** The level and version as Kyverno quotes them in its messages ("restricted:latest"). */
  label: string
  excludes: PodSecurityExclude[]
}

export interface PodSecurityExclude {
  /** Position in `exclude`, for variable names and error fields. */
  index: number
  control: string
  /** Container images (Kyverno wildcards); empty for an exclude of the pod-level fields. */
  images: string[]
  restrictedField: string
  values: string[]
}

/** Kubernetes releases whose Pod Security checks can be asked for: v1.0 to the newest published, v1.36. */
export const NEWEST_KUBERNETES_MINOR = 36

/** Kyverno's control names (the CRD's enum) and where an exclude of each may apply (pkg/pss/utils, PodSecurityStandard.Validate). */
const CONTROLS: Readonly<Record<PodSecurityControlName, 'container' | 'pod' | 'either'>> = {
  HostProcess: 'either',
  'Host Namespaces': 'pod',
  'Privileged Containers': 'container',
  Capabilities: 'container',
  'HostPath Volumes': 'pod',
  'Host Ports': 'container',
  AppArmor: 'either',
  SELinux: 'either',
  '/proc Mount Type': 'container',
  Seccomp: 'either',
  Sysctls: 'pod',
  'Volume Types': 'pod',
  'Privilege Escalation': 'container',
  'Running as Non-root': 'either',
  'Running as Non-root user': 'either',
}

/** Controls only restricted has; at baseline Kyverno refuses excludes of them (Seccomp and Capabilities have a baseline check too). */
const RESTRICTED_ONLY_CONTROLS = ['Volume Types', 'Privilege Escalation', 'Running as Non-root', 'Running as Non-root user']

export function readPodSecuritySpec(value: unknown, field: string): PodSecuritySpec {
  if (!isObject(value)) throw new PodSecurityInvalid(field, 'must be an object with level, version and exclude')
  const level = readLevel(value.level, `${field}.level`)
  const written = value.version === undefined || value.version === null || value.version === '' ? 'latest' : value.version
  const version = readVersion(written, `${field}.version`)
  const excludes = readExcludes(value.exclude, `${field}.exclude`, level)
  return { level, version, label: `${level}:${String(written)}`, excludes }
}

function readLevel(value: unknown, field: string): PodSecurityLevel {
  if (value === 'baseline' || value === 'restricted') return value
  if (value === 'privileged') {
    // pkg/pss skips only the restricted checks of a baseline policy, so Kyverno runs every restricted check for
    // level privileged: the opposite of what the policy says. Neither reading can be imported without judging
    // some pods differently from one side or the other.
    throw new PodSecurityUnsupported(`${field}: level privileged is judged by Kyverno with every restricted check; import it as restricted, or drop the rule`)
  }
  throw new PodSecurityInvalid(field, `must be baseline or restricted, not ${JSON.stringify(value ?? null)}`)
}

/** `latest` or `v1.<minor>` as Kubernetes parses it (no leading zeros, no patch), for a published release. */
function readVersion(value: unknown, field: string): PodSecurityVersion {
  if (value === 'latest') return LATEST_POD_SECURITY_VERSION
  const minor = typeof value === 'string' ? /^v1\.(0|[1-9][0-9]*)$/.exec(value)?.[1] : undefined
  if (minor === undefined || Number(minor) > NEWEST_KUBERNETES_MINOR) {
    throw new PodSecurityInvalid(field, `must be "latest" or a Kubernetes release from v1.0 to v1.${NEWEST_KUBERNETES_MINOR} such as "v1.29", not ${JSON.stringify(value)}`)
  }
  return Number(minor)
}

/** Excludes (`field` names the list) as Kyverno checks them for a policy of `level`; restricted takes every control. */
export function readExcludes(value: unknown, field: string, level: PodSecurityLevel): PodSecurityExclude[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new PodSecurityInvalid(field, 'must be a list')
  return value.map((entry: unknown, index) => readExclude(entry, `${field}[${index}]`, index, level))
}

function readExclude(value: unknown, field: string, index: number, level: PodSecurityLevel): PodSecurityExclude {
  if (!isObject(value)) throw new PodSecurityInvalid(field, 'must be an object with controlName')
  const control = value.controlName
  const scope = typeof control === 'string' && Object.hasOwn(CONTROLS, control) ? CONTROLS[control as PodSecurityControlName] : undefined
  if (typeof control !== 'string' || scope === undefined) throw new PodSecurityInvalid(`${field}.controlName`, `must be one of ${Object.keys(CONTROLS).join(', ')}`)
  const images = strings(value.images, `${field}.images`)
  const restrictedField = value.restrictedField === undefined || value.restrictedField === null ? '' : value.restrictedField
  if (typeof restrictedField !== 'string') throw new PodSecurityInvalid(`${field}.restrictedField`, 'must be a string')
  const values = strings(value.values, `${field}.values`)
  if (scope === 'container' && images.length === 0) throw new PodSecurityInvalid(`${field}.controlName`, `${control} is a container-level control: exclude.images must be specified`)
  if (scope === 'pod' && images.length > 0) throw new PodSecurityInvalid(`${field}.controlName`, `${control} is a pod-level control: exclude.images must not be specified`)
  if (restrictedField !== '' && values.length === 0) throw new PodSecurityInvalid(`${field}.values`, 'values is required with restrictedField')
  if (restrictedField === '' && values.length > 0) throw new PodSecurityInvalid(`${field}.restrictedField`, 'restrictedField is required with values')
  if (level === 'baseline' && RESTRICTED_ONLY_CONTROLS.includes(control)) throw new PodSecurityInvalid(`${field}.controlName`, `${control} is not a control of the baseline level`)
  return { index, control, images, restrictedField, values }
}

function strings(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === 'string')) throw new PodSecurityInvalid(field, 'must be a list of strings')
  return value
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
