import Type, { type Static } from 'typebox'

/** Kyverno's Pod Security control names (its CRD's enum), as an exclude names them. */
export const POD_SECURITY_CONTROL_NAMES = [
  'HostProcess',
  'Host Namespaces',
  'Privileged Containers',
  'Capabilities',
  'HostPath Volumes',
  'Host Ports',
  'AppArmor',
  'SELinux',
  '/proc Mount Type',
  'Seccomp',
  'Sysctls',
  'Volume Types',
  'Privilege Escalation',
  'Running as Non-root',
  'Running as Non-root user',
] as const

export type PodSecurityControlName = (typeof POD_SECURITY_CONTROL_NAMES)[number]

/**
 * One control let through, as Kyverno's `podSecurity.exclude` entries say it: for the containers
 * whose image matches `images` (a container-level control) or for the pod's own fields (none),
 * and only for the values listed of `restrictedField` when it is given.
 */
export const PodSecurityExcludeSchema = Type.Object(
  {
    controlName: Type.Enum(POD_SECURITY_CONTROL_NAMES, { type: 'string', description: `one of ${POD_SECURITY_CONTROL_NAMES.join(', ')}` }),
    images: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'container images (globs with * and ?) the exclude applies to' })),
    restrictedField: Type.Optional(Type.String({ minLength: 1, description: 'the field, as Kyverno names it, e.g. spec.containers[*].securityContext.capabilities.add' })),
    values: Type.Optional(Type.Array(Type.String(), { description: 'the values of restrictedField let through' })),
  },
  { additionalProperties: false },
)

/** Kyverno's `validate.podSecurity`: the Pod Security Standards at a level and version, minus the excludes. */
export const PodSecuritySchema = Type.Object(
  {
    level: Type.Union([Type.Literal('baseline'), Type.Literal('restricted')]),
    version: Type.Optional(Type.String({ minLength: 1, description: 'latest (the default) or a Kubernetes release such as v1.29' })),
    exclude: Type.Optional(Type.Array(PodSecurityExcludeSchema)),
  },
  { additionalProperties: false },
)

export type PodSecurityExcludeEntry = Static<typeof PodSecurityExcludeSchema>
export type PodSecurity = Static<typeof PodSecuritySchema>
