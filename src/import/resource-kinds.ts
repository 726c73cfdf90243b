import { Unsupported } from './import-error.js'

/**
 * Built-in Kubernetes resources (and Gateway API, which most clusters install): plural resource
 * name -> Kind, per API group. ValidatingAdmissionPolicy and Kyverno's ValidatingPolicy match on
 * `apiGroups` x `resources`, Verdict matches on kinds, and without a cluster to ask for discovery
 * this table is the only way from one to the other.
 */
const RESOURCES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '': {
    bindings: 'Binding',
    componentstatuses: 'ComponentStatus',
    configmaps: 'ConfigMap',
    endpoints: 'Endpoints',
    events: 'Event',
    limitranges: 'LimitRange',
    namespaces: 'Namespace',
    nodes: 'Node',
    persistentvolumeclaims: 'PersistentVolumeClaim',
    persistentvolumes: 'PersistentVolume',
    pods: 'Pod',
    podtemplates: 'PodTemplate',
    replicationcontrollers: 'ReplicationController',
    resourcequotas: 'ResourceQuota',
    secrets: 'Secret',
    serviceaccounts: 'ServiceAccount',
    services: 'Service',
  },
  'admissionregistration.k8s.io': {
    mutatingadmissionpolicies: 'MutatingAdmissionPolicy',
    mutatingadmissionpolicybindings: 'MutatingAdmissionPolicyBinding',
    mutatingwebhookconfigurations: 'MutatingWebhookConfiguration',
    validatingadmissionpolicies: 'ValidatingAdmissionPolicy',
    validatingadmissionpolicybindings: 'ValidatingAdmissionPolicyBinding',
    validatingwebhookconfigurations: 'ValidatingWebhookConfiguration',
  },
  'apiextensions.k8s.io': { customresourcedefinitions: 'CustomResourceDefinition' },
  'apiregistration.k8s.io': { apiservices: 'APIService' },
  apps: {
    controllerrevisions: 'ControllerRevision',
    daemonsets: 'DaemonSet',
    deployments: 'Deployment',
    replicasets: 'ReplicaSet',
    statefulsets: 'StatefulSet',
  },
  'authentication.k8s.io': { selfsubjectreviews: 'SelfSubjectReview', tokenreviews: 'TokenReview' },
  'authorization.k8s.io': {
    localsubjectaccessreviews: 'LocalSubjectAccessReview',
    selfsubjectaccessreviews: 'SelfSubjectAccessReview',
    selfsubjectrulesreviews: 'SelfSubjectRulesReview',
    subjectaccessreviews: 'SubjectAccessReview',
  },
  autoscaling: { horizontalpodautoscalers: 'HorizontalPodAutoscaler' },
  batch: { cronjobs: 'CronJob', jobs: 'Job' },
  'certificates.k8s.io': { certificatesigningrequests: 'CertificateSigningRequest', clustertrustbundles: 'ClusterTrustBundle' },
  'coordination.k8s.io': { leases: 'Lease' },
  'discovery.k8s.io': { endpointslices: 'EndpointSlice' },
  'events.k8s.io': { events: 'Event' },
  // Removed from the API server long ago, but old policies still list it next to apps and networking.k8s.io.
  extensions: {
    daemonsets: 'DaemonSet',
    deployments: 'Deployment',
    ingresses: 'Ingress',
    networkpolicies: 'NetworkPolicy',
    podsecuritypolicies: 'PodSecurityPolicy',
    replicasets: 'ReplicaSet',
  },
  'flowcontrol.apiserver.k8s.io': { flowschemas: 'FlowSchema', prioritylevelconfigurations: 'PriorityLevelConfiguration' },
  'gateway.networking.k8s.io': {
    backendtlspolicies: 'BackendTLSPolicy',
    gatewayclasses: 'GatewayClass',
    gateways: 'Gateway',
    grpcroutes: 'GRPCRoute',
    httproutes: 'HTTPRoute',
    referencegrants: 'ReferenceGrant',
    tcproutes: 'TCPRoute',
    tlsroutes: 'TLSRoute',
    udproutes: 'UDPRoute',
  },
  'networking.k8s.io': {
    ingressclasses: 'IngressClass',
    ingresses: 'Ingress',
    ipaddresses: 'IPAddress',
    networkpolicies: 'NetworkPolicy',
    servicecidrs: 'ServiceCIDR',
  },
  'node.k8s.io': { runtimeclasses: 'RuntimeClass' },
  policy: { poddisruptionbudgets: 'PodDisruptionBudget', podsecuritypolicies: 'PodSecurityPolicy' },
  'rbac.authorization.k8s.io': {
    clusterrolebindings: 'ClusterRoleBinding',
    clusterroles: 'ClusterRole',
    rolebindings: 'RoleBinding',
    roles: 'Role',
  },
  'resource.k8s.io': {
    deviceclasses: 'DeviceClass',
    resourceclaims: 'ResourceClaim',
    resourceclaimtemplates: 'ResourceClaimTemplate',
    resourceslices: 'ResourceSlice',
  },
  'scheduling.k8s.io': { priorityclasses: 'PriorityClass' },
  'storage.k8s.io': {
    csidrivers: 'CSIDriver',
    csinodes: 'CSINode',
    csistoragecapacities: 'CSIStorageCapacity',
    storageclasses: 'StorageClass',
    volumeattachments: 'VolumeAttachment',
    volumeattributesclasses: 'VolumeAttributesClass',
  },
}

/** The subresource request carries the parent object itself (a Pod for pods/status). */
export const SAME_OBJECT = Symbol('same object as the parent resource')

/**
 * Subresources that admission control sees, keyed by the parent Kind: the object an admission
 * request for them carries, as a Verdict kind entry. Verdict matches on the object's kind, so
 * `pods/exec` is reachable as PodExecOptions, while `pods/status` carries a Pod and cannot be
 * told apart from the Pod itself. `status` exists for almost every kind and is handled generally.
 */
const SUBRESOURCES: Readonly<Record<string, Readonly<Record<string, string | typeof SAME_OBJECT>>>> = {
  Pod: {
    attach: 'PodAttachOptions',
    binding: 'Binding',
    ephemeralcontainers: SAME_OBJECT,
    eviction: 'policy/Eviction',
    exec: 'PodExecOptions',
    portforward: 'PodPortForwardOptions',
    proxy: 'PodProxyOptions',
    resize: SAME_OBJECT,
  },
  Node: { proxy: 'NodeProxyOptions' },
  Service: { proxy: 'ServiceProxyOptions' },
  Deployment: { scale: 'autoscaling/Scale' },
  ReplicaSet: { scale: 'autoscaling/Scale' },
  StatefulSet: { scale: 'autoscaling/Scale' },
  ReplicationController: { scale: 'autoscaling/Scale' },
  ServiceAccount: { token: 'authentication.k8s.io/TokenRequest' },
  Namespace: { finalize: SAME_OBJECT },
  CertificateSigningRequest: { approval: SAME_OBJECT },
}

/** The Kind of a plural resource in a group; `*` searches every group. */
export function kindOfResource(group: string, resource: string): string | undefined {
  if (group !== '*') return RESOURCES[group]?.[resource]
  for (const resources of Object.values(RESOURCES)) {
    const kind = resources[resource]
    if (kind) return kind
  }
  return undefined
}

/** What a request for `subresource` of `kind` carries; undefined when admission never sees it. */
export function subresourceObject(kind: string, subresource: string): string | typeof SAME_OBJECT | undefined {
  const known = SUBRESOURCES[kind]?.[subresource]
  if (known !== undefined) return known
  return subresource === 'status' ? SAME_OBJECT : undefined
}

/**
 * A Verdict kind entry: the core group is left out (a bare Kind, the model's convention), `*`
 * for the group means any group, and a version is only written when matching must be exact.
 */
export function kindEntry(group: string, kind: string, version?: string): string {
  if (version !== undefined && version !== '*') {
    return `${group === '' ? 'core' : group}/${version}/${kind}`
  }
  return group === '' || group === '*' ? kind : `${group}/${kind}`
}

/** A rule of a Kubernetes MatchResources (ValidatingAdmissionPolicy, Kyverno ValidatingPolicy). */
export interface ResourceRuleInput {
  apiGroups: string[]
  apiVersions: string[]
  resources: string[]
  /** matchPolicy Exact: versions count; Equivalent (the default): any version of the resource matches. */
  exact: boolean
}

/** Kind entries plus what is needed to check subresources once a whole match block is known. */
export interface KindList {
  kinds: string[]
  /** Kinds matched as themselves. */
  parents: string[]
  /** Kinds reached only through a subresource that carries the parent object (pods/status). */
  sameObject: string[]
}

/**
 * Kind entries for apiGroups x resources. A resource that none of the listed groups serves
 * makes no kind (the API server would never send it); a resource no listed group is known to
 * serve is Unsupported, because matching on a guessed Kind would silently match nothing.
 */
export function kindsOfResourceRule(rule: ResourceRuleInput, field: string): KindList {
  const versions = rule.exact && !rule.apiVersions.includes('*') && rule.apiVersions.length > 0 ? rule.apiVersions : [undefined]
  const out: KindList = { kinds: [], parents: [], sameObject: [] }
  for (const resource of rule.resources) {
    if (resource === '*' || resource === '*/*') {
      // Every resource (and with */*, every subresource) of these groups.
      if (rule.apiGroups.includes('*')) return { kinds: ['*'], parents: ['*'], sameObject: [] }
      for (const group of rule.apiGroups) out.kinds.push(kindEntry(group === '' ? 'core' : group, '*'))
      out.parents.push('*')
      continue
    }
    const [plural, subresource, ...rest] = resource.split('/') as [string, string | undefined, ...string[]]
    if (rest.length > 0 || plural === '' || subresource === '') {
      throw new Unsupported(`${field}: "${resource}" is not a resource name`)
    }
    if (plural === '*' || subresource === '*') {
      throw new Unsupported(`${field}: wildcard subresources ("${resource}") cannot be matched by kind`)
    }
    let served = false
    for (const group of rule.apiGroups) {
      const kind = kindOfResource(group, plural)
      if (!kind) continue
      served = true
      if (subresource === undefined) {
        out.parents.push(kind)
        for (const version of versions) out.kinds.push(kindEntry(group, kind, version))
        continue
      }
      const carried = subresourceObject(kind, subresource)
      if (carried === undefined) {
        throw new Unsupported(`${field}: admission requests for the subresource "${resource}" are not supported`)
      }
      if (carried === SAME_OBJECT) {
        out.sameObject.push(kind)
        for (const version of versions) out.kinds.push(kindEntry(group, kind, version))
      } else {
        out.kinds.push(carried)
      }
    }
    if (!served) {
      const groups = rule.apiGroups.map((g) => (g === '' ? '"" (core)' : `"${g}"`)).join(', ')
      throw new Unsupported(
        `${field}: the kind of resource "${resource}" in API group ${groups} is not known to the importer ` +
          '(custom resources cannot be matched without their Kind)',
      )
    }
  }
  out.kinds = [...new Set(out.kinds)]
  return out
}

/**
 * A subresource that carries its parent object can only be matched as the parent kind. That is
 * harmless when the parent is matched anyway (in the same match or exclude block), and wrong
 * otherwise: the rule would apply to every ordinary request for the parent too.
 */
export function checkSameObjectSubresources(lists: readonly KindList[], field: string): void {
  const parents = new Set(lists.flatMap((l) => l.parents))
  if (parents.has('*')) return
  for (const kind of lists.flatMap((l) => l.sameObject)) {
    if (!parents.has(kind)) {
      throw new Unsupported(
        `${field}: matches a subresource of ${kind} but not ${kind} itself; such requests carry the ${kind} ` +
          `object, and Verdict's match cannot tell them apart from ordinary ${kind} requests`,
      )
    }
  }
}

/** A resource (or `resource/subresource`) of an API group whose admission requests carry a kind. */
export interface KindResource {
  group: string
  resource: string
  /** The kind is carried by a subresource request of a parent resource (pods/exec carries PodExecOptions). */
  subresource: boolean
}

/**
 * The inverse of kindOfResource and subresourceObject, for writing a kind as resource rules: every
 * resource of the table whose requests carry `kind` in `group` (any group when undefined; '' is
 * the core group). A kind carried by a subresource is found in the parent's group.
 */
export function resourcesOfKind(kind: string, group: string | undefined): KindResource[] {
  const out: KindResource[] = []
  for (const [resourceGroup, resources] of Object.entries(RESOURCES)) {
    for (const [resource, resourceKind] of Object.entries(resources)) {
      if (resourceKind === kind && (group === undefined || group === resourceGroup)) out.push({ group: resourceGroup, resource, subresource: false })
      for (const [subresource, carried] of Object.entries(SUBRESOURCES[resourceKind] ?? {})) {
        if (typeof carried !== 'string') continue
        const slash = carried.lastIndexOf('/')
        const carriedKind = slash < 0 ? carried : carried.slice(slash + 1)
        const carriedGroup = slash < 0 ? '' : carried.slice(0, slash)
        if (carriedKind === kind && (group === undefined || group === carriedGroup)) out.push({ group: resourceGroup, resource: `${resource}/${subresource}`, subresource: true })
      }
    }
  }
  return out
}
