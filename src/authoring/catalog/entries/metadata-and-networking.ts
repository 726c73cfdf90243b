import type { ClauseTest, NamedRequirement, Use } from '../named-requirement.js'

/**
 * Requirements on an object's own metadata (labels, annotations, namespace), how it is exposed
 * (Service types, Ingress hosts and TLS) and how it scales (replicas, HPA bounds and metrics,
 * PodDisruptionBudgets). Where Kubernetes fills in a default for a missing field (spec.replicas: 1,
 * spec.type: ClusterIP, HPA minReplicas: 1, HPA metrics: 80% CPU), rules judge the default, as the
 * cluster will run it; "must have X" for fields without a default fails when the field is missing.
 *
 * Texts in rules (`object-rule`) name parameters and values in double braces: `{{minimum}}`,
 * `{{allowed|or}}`; checks and texts that depend on which parameters are given are the rule list's
 * cases chosen by `when`, or values chosen by `texts`.
 */

const HPA = 'HorizontalPodAutoscaler'
const PDB = 'PodDisruptionBudget'

// ---------------------------------------------------------------------------------------------
// Labels and annotations

const LABELS_NAMED: ClauseTest = {
  any: [
    { mentions: ['label', 'labels', { re: '\\blabel(l)?ed\\b' }] },
    // Recommended app labels and Pod Security admission labels are labels by their prefix.
    { mentions: [{ re: '(^|\\s)["\'`]?(app|pod-security)\\.kubernetes\\.io\\/\\S' }] },
  ],
}

const ANNOTATIONS_NAMED: ClauseTest = { mentions: ['annotation', 'annotations', { re: '\\bannotated\\b' }] }

/** A negated label clause may still ask for the label: "no pod without a team label", "must not be empty". */
const FORBIDS_METADATA: ClauseTest = {
  all: [
    { negated: true },
    { not: { mentions: ['without', 'missing', 'lack', 'lacks', 'lacking', 'absent', 'non-empty', 'nonempty', { re: '\\bnot (be )?empty\\b' }, { re: '\\bnot (be )?(omitted|left out|forgotten)\\b' }] } },
  ],
}

/**
 * Keys, values and patterns of a label or annotation clause; 2 when it names keys. An invalid
 * pattern is asked again rather than dropped: dropping it would accept any value.
 */
const READ_LABELS = {
  score: [{ when: { reads: 'metadata-request', with: { noun: 'label', part: 'keys' } }, score: 2 }, { score: 1 }],
  parameters: {
    keys: { use: 'metadata-request', with: { noun: 'label', part: 'keys' } },
    values: { use: 'metadata-request', with: { noun: 'label', part: 'values' } },
    patterns: { use: 'metadata-request', with: { noun: 'label', part: 'patterns' } },
  },
  missing: [{ parameter: 'patterns', when: { test: 'metadata-pattern-invalid', with: { noun: 'label' } } }],
}
const READ_ANNOTATIONS = {
  score: [{ when: { reads: 'metadata-request', with: { noun: 'annotation', part: 'keys' } }, score: 2 }, { score: 1 }],
  parameters: {
    keys: { use: 'metadata-request', with: { noun: 'annotation', part: 'keys' } },
    values: { use: 'metadata-request', with: { noun: 'annotation', part: 'values' } },
    patterns: { use: 'metadata-request', with: { noun: 'annotation', part: 'patterns' } },
  },
  missing: [{ parameter: 'patterns', when: { test: 'metadata-pattern-invalid', with: { noun: 'annotation' } } }],
}

// ---------------------------------------------------------------------------------------------
// Replicas and autoscalers

const REPLICATED_KINDS = ['Deployment', 'StatefulSet', 'ReplicaSet']
const REPLICAS_WORD = '(?:replicas?|instances)'
const REPLICA_BOUNDS = { subject: REPLICAS_WORD, between: true }
/** Neither bound read, or the most below the least: the bounds are asked for again. */
const NO_BOUND: ClauseTest = { not: { any: [{ reads: 'lower-bound', with: REPLICA_BOUNDS }, { reads: 'upper-bound', with: REPLICA_BOUNDS }] } }
const BOUNDS_INVERTED: ClauseTest = { test: 'bounds-inverted', with: REPLICA_BOUNDS }

const NAMES_HPA: ClauseTest = { any: [{ test: 'names-kinds', with: { kinds: [HPA] } }, { mentions: [{ re: 'autoscal' }] }] }
const MIN_REPLICAS_FIELD: ClauseTest = { mentions: ['minreplicas', 'min replicas', 'minimum replicas'] }
const MAX_REPLICAS_FIELD: ClauseTest = { mentions: ['maxreplicas', 'max replicas', 'maximum replicas'] }
const HPA_REPLICAS: ClauseTest = { all: [NAMES_HPA, { mentions: ['replica', 'replicas'] }] }
const HPA_MINIMUM: ClauseTest = { reads: 'lower-bound', with: { subject: '(?:minreplicas|replicas?)' } }
const HPA_MAXIMUM: ClauseTest = { reads: 'upper-bound', with: { subject: '(?:maxreplicas|replicas?)' } }

/** The replica-count rule but its name and checks, which depend on the bounds given ({{bounds}} says them). */
const REPLICA_RULE = {
  description: 'Replicated workloads run {{bounds}} replicas: one replica means downtime on every rollout and node drain. An unset spec.replicas counts as 1, as Kubernetes runs it.',
  severity: 'medium',
  kinds: '{{kinds}}',
  message: 'spec.replicas must be {{bounds}}',
  remediation: 'Set spec.replicas to {{bounds}} (leaving it unset means 1 replica).',
}
const AT_LEAST_REPLICAS = {
  expression: 'object.spec.?replicas.orValue(1) >= {{minimum}}',
  message: 'spec.replicas must be at least {{minimum}}',
  messageExpression: "'spec.replicas is ' + string(object.spec.?replicas.orValue(1)) + ' (1 when unset), at least {{minimum}} required'",
}
const AT_MOST_REPLICAS = {
  expression: 'object.spec.?replicas.orValue(1) <= {{maximum}}',
  message: 'spec.replicas must be at most {{maximum}}',
  messageExpression: "'spec.replicas is ' + string(object.spec.?replicas.orValue(1)) + ', at most {{maximum}} allowed'",
}

// ---------------------------------------------------------------------------------------------
// Namespace

/**
 * Kinds that live in a namespace, judged when the clause names none. `Namespace` is in the
 * entry's kinds only because "namespace" in "the default namespace" reads as that kind (see
 * text/kinds.ts); the rule never judges Namespace objects, which are cluster-scoped.
 */
const NAMESPACED_KINDS = [
  'Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Job', 'CronJob', 'Service', 'Ingress',
  'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ConfigMap', 'Secret', 'ServiceAccount', 'Role', 'RoleBinding', 'NetworkPolicy',
  'PersistentVolumeClaim', 'LimitRange', 'ResourceQuota',
]
const NAMESPACE_ENTRY_KINDS = ['Pod', 'Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob', 'Service', 'Ingress', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'ConfigMap', 'Secret', 'ServiceAccount']

// ---------------------------------------------------------------------------------------------
// Services

const SERVICE_TYPES: Array<[string, string]> = [
  ['ClusterIP', '\\bcluster ?ips?\\b'],
  ['NodePort', '\\bnode ?ports?\\b'],
  ['LoadBalancer', '\\bload ?balancers?\\b'],
  ['ExternalName', '\\bexternal ?names?\\b'],
]
/** "only ClusterIP, never NodePort": types before the negation are allowed, after it forbidden. */
const SERVICE_TYPES_SPLIT = {
  values: SERVICE_TYPES,
  negation: "\\b(no|not|never|dont|don't|disallow(ed)?|forbid(den)?|prohibit(ed)?|deny|denied|block(ed)?|reject(ed)?|ban(ned)?|avoid|none)\\b",
}

/** The Service types rule but its checks, which are those of the lists given, and its name and remediation, which say the allowed types when there are some. */
const SERVICE_TYPES_RULE = {
  description: 'Services: {{summary}}. NodePort and LoadBalancer expose a Service outside the cluster. An unset spec.type is ClusterIP, as Kubernetes defaults it.',
  severity: 'high',
  kinds: ['Service'],
  variables: [{ name: 'type', expression: "object.spec.?type.orValue('ClusterIP')" }],
  message: 'Service type not allowed ({{summary}})',
}
const ONLY_SERVICE_TYPES = { name: 'service-types-only-{{allowed}}', remediation: 'Set spec.type to {{allowed|or}}.' }
const NO_SERVICE_TYPES = { name: 'service-types-no-{{forbidden}}', remediation: 'Change spec.type away from {{forbidden|and}} (e.g. ClusterIP behind an Ingress).' }
const SERVICE_TYPE_ALLOWED = {
  expression: 'variables.type in {{allowed|cel}}',
  message: 'Service type must be {{allowed|or}}',
  messageExpression: "'Service type ' + variables.type + ' is not allowed; use {{allowed|or}}'",
}
const SERVICE_TYPE_NOT_FORBIDDEN = {
  expression: '!(variables.type in {{forbidden|cel}})',
  message: 'Service type must not be {{forbidden|or}}',
  messageExpression: "'Service type ' + variables.type + ' is not allowed'",
}

// ---------------------------------------------------------------------------------------------
// Ingress

const INGRESS_HOSTS = "object.spec.?rules.orValue([]).map(r, r.?host.orValue(''))"
const TLS_HOSTS = 'object.spec.?tls.orValue([])'

const NAMES_INGRESS: ClauseTest = { test: 'names-kinds', with: { kinds: ['Ingress'] } }
/** Ingress clauses about host names; image registries are hosts too, but not of an Ingress. */
const ABOUT_INGRESS_HOSTS: ClauseTest = {
  all: [
    { mentions: ['host', 'hosts', 'hostname', 'hostnames', 'host name', 'host names', 'domain', 'domains', 'subdomain', 'subdomains'] },
    { not: { mentions: [{ re: '\\bimages?\\b' }, { re: '\\bregistr(y|ies)\\b' }, { re: '\\bpull\\b' }, 'port', 'ports', 'network', 'path', 'ipc', 'pid'] } },
  ],
}
const DOMAINS_GIVEN: ClauseTest = { reads: 'domain-names' }
/** The domains of the rule, lowercased; the first of them for host names (example.com without any), and the others for the remediation. */
const DOMAIN_VALUES: readonly Use[] = [
  { use: 'parameters-as', with: { domains: { as: 'list', lowercase: true } } },
  { use: 'joined', with: { 'other-domains': { each: 'domains', from: 1, prefix: '.', join: ', ' } } },
  { use: 'texts', with: { domain: [{ when: { given: 'domains' }, text: '{{domains.0}}' }, { text: 'example.com' }], others: [{ when: { given: 'domains.1' }, text: ' (or {{other-domains}})' }] } },
]
/** A host under one of the domains, on a dot boundary: evilacme.io is not under acme.io; acme.io itself and *.acme.io are. */
const UNDER_DOMAINS = "{{domains|cel}}.exists(d, host == d || host.endsWith('.' + d))"

/** The ingress class rule but its checks and the texts that name the classes. */
const INGRESS_CLASS_RULE = {
  description:
    'An Ingress without spec.ingressClassName is served by whichever controller claims the default class (or none), so its exposure depends on cluster defaults. ' +
    'The deprecated kubernetes.io/ingress.class annotation does not count.',
  severity: 'medium',
  kinds: ['Ingress'],
}
const INGRESS_CLASS_SET = { expression: "object.spec.?ingressClassName.orValue('') != ''", message: 'the Ingress does not set spec.ingressClassName' }

// ---------------------------------------------------------------------------------------------
// PodDisruptionBudgets

/**
 * Clauses about PodDisruptionBudget objects. "Deployments need a PDB" is not one: whether a PDB
 * covers a Deployment cannot be judged from one object, so no entry here takes it.
 */
const NAMES_PDB: ClauseTest = {
  all: [
    { not: { test: 'names-other-kinds', with: { than: [PDB] } } },
    { any: [{ test: 'names-kinds', with: { kinds: [PDB] } }, { mentions: ['minavailable', 'maxunavailable', 'min available', 'max unavailable', 'disruption budget', 'disruption budgets'] }] },
  ],
}
const BLOCKS_DISRUPTION: ClauseTest = {
  mentions: [
    { re: '\\bmaxunavailable\\b.*\\b(0|zero)\\b(?!\\.)' },
    { re: '\\bminavailable\\b.*\\b100 ?%' },
    { re: '\\bdrains?\\b' },
    { re: '\\bevict' },
    { re: '\\ballows? (?:\\w+ ){0,3}disruptions?\\b' },
    { re: '\\bblocks?\\b' },
  ],
}
const PDB_FIELDS = ['minAvailable', 'maxUnavailable']
/** The budget rule but its name and remediation, which say the field when one alone is required ({{what}} are the fields, {{set}} their check). */
const PDB_BUDGET_RULE = {
  description: 'A PodDisruptionBudget must say how much disruption it allows: {{what}}.',
  severity: 'medium',
  kinds: [PDB],
  cel: [{ expression: '{{set}}', message: 'the PodDisruptionBudget does not set {{what}}' }],
  message: 'the PodDisruptionBudget does not set {{what}}',
}

export const METADATA_AND_NETWORKING_ENTRIES: readonly NamedRequirement[] = [
  // Required or forbidden labels or annotations, for any kind (the compiler narrows `kinds: ['*']`).
  {
    id: 'required-labels',
    title: 'Required labels',
    platform: 'kubernetes',
    category: 'metadata',
    kinds: ['*'],
    phrasings: [
      'team and cost-center labels',
      'must have labels team, owner',
      'require the app.kubernetes.io/name label',
      'label env must be prod or staging',
      'label team matching ^[a-z]+$',
      'every deployment needs an env=prod label',
      'cost-center label must be a 4-digit number',
    ],
    parameters: [
      { name: 'keys', question: 'which label keys are required?', required: true, example: ['team', 'cost-center'] },
      { name: 'values', question: 'which values may each label have?', required: false, example: { env: ['prod', 'staging'] } },
      { name: 'patterns', question: 'which pattern (RE2) must each label value match?', required: false, example: { team: '^[a-z]+$' } },
    ],
    recognize: { when: { all: [LABELS_NAMED, { not: FORBIDS_METADATA }] }, ...READ_LABELS },
    rule: { use: 'metadata-keys', with: { noun: 'label', forbidden: false, severity: 'medium', purpose: 'so they can be selected, attributed and billed' } },
    samples: { use: 'metadata-keys', with: { noun: 'label', forbidden: false } },
  },
  {
    id: 'required-annotations',
    title: 'Required annotations',
    platform: 'kubernetes',
    category: 'metadata',
    kinds: ['*'],
    phrasings: [
      'require the owner annotation',
      'contact and runbook annotations are required',
      'annotation prometheus.io/scrape must be true',
      'every service needs an owner annotation matching ^[a-z-]+$',
    ],
    parameters: [
      { name: 'keys', question: 'which annotation keys are required?', required: true, example: ['owner'] },
      { name: 'values', question: 'which values may each annotation have?', required: false, example: { owner: ['payments'] } },
      { name: 'patterns', question: 'which pattern (RE2) must each annotation value match?', required: false, example: { team: '^[a-z]+$' } },
    ],
    recognize: { when: { all: [ANNOTATIONS_NAMED, { not: FORBIDS_METADATA }] }, ...READ_ANNOTATIONS },
    rule: { use: 'metadata-keys', with: { noun: 'annotation', forbidden: false, severity: 'low', purpose: 'so people and tools can find who owns them and how to run them' } },
    samples: { use: 'metadata-keys', with: { noun: 'annotation', forbidden: false } },
  },
  {
    id: 'forbidden-labels',
    title: 'Forbidden labels',
    platform: 'kubernetes',
    category: 'metadata',
    kinds: ['*'],
    phrasings: ['no debug label', 'labels must not include temporary', 'label env must not be dev or test', 'disallow the sandbox label on deployments'],
    parameters: [
      { name: 'keys', question: 'which label keys are forbidden?', required: true, example: ['team', 'cost-center'] },
      { name: 'values', question: 'which values of each label are forbidden?', required: false, example: { env: ['prod', 'staging'] } },
      { name: 'patterns', question: 'which pattern (RE2) marks a forbidden label value?', required: false, example: { team: '^[a-z]+$' } },
    ],
    recognize: { when: { all: [LABELS_NAMED, FORBIDS_METADATA] }, ...READ_LABELS },
    rule: { use: 'metadata-keys', with: { noun: 'label', forbidden: true, severity: 'medium' } },
    samples: { use: 'metadata-keys', with: { noun: 'label', forbidden: true } },
  },
  {
    id: 'forbidden-annotations',
    title: 'Forbidden annotations',
    platform: 'kubernetes',
    category: 'metadata',
    kinds: ['*'],
    phrasings: [
      'no kubectl.kubernetes.io/last-applied-configuration annotation',
      'annotations must not include debug',
      'forbid the annotation example.com/skip-checks',
    ],
    parameters: [
      { name: 'keys', question: 'which annotation keys are forbidden?', required: true, example: ['owner'] },
      { name: 'values', question: 'which values of each annotation are forbidden?', required: false, example: { owner: ['payments'] } },
      { name: 'patterns', question: 'which pattern (RE2) marks a forbidden annotation value?', required: false, example: { team: '^[a-z]+$' } },
    ],
    recognize: { when: { all: [ANNOTATIONS_NAMED, FORBIDS_METADATA] }, ...READ_ANNOTATIONS },
    rule: { use: 'metadata-keys', with: { noun: 'annotation', forbidden: true, severity: 'medium' } },
    samples: { use: 'metadata-keys', with: { noun: 'annotation', forbidden: true } },
  },
  {
    id: 'replica-count',
    title: 'Replica count within bounds',
    platform: 'kubernetes',
    category: 'scaling',
    kinds: REPLICATED_KINDS,
    phrasings: ['at least 2 replicas', 'replicas >= 3', 'minimum of three replicas', 'deployments must run more than one replica', 'statefulsets need between 3 and 5 replicas'],
    parameters: [
      { name: 'minimum', question: 'at least how many replicas?', required: false, example: 2 },
      { name: 'maximum', question: 'at most how many replicas?', required: false, example: 10 },
      { name: 'kinds', question: 'which kinds does it apply to?', required: false, example: ['Deployment'] },
    ],
    recognize: {
      // HPA bounds are their own entries; labels about replicas are labels.
      when: {
        all: [
          { mentions: ['replica', 'replicas', 'replica count'] },
          { not: { mentions: ['minreplicas', 'maxreplicas', 'hpa', 'hpas', 'label', 'labels', 'annotation', 'annotations', { re: 'autoscal' }] } },
        ],
      },
      score: [{ when: { any: [NO_BOUND, BOUNDS_INVERTED] }, score: 1 }, { score: 2 }],
      parameters: {
        minimum: { use: 'lower-bound', with: REPLICA_BOUNDS },
        maximum: { use: 'upper-bound', with: REPLICA_BOUNDS },
        kinds: { use: 'kinds-named', with: { among: REPLICATED_KINDS } },
      },
      missing: [
        { parameter: 'minimum', when: NO_BOUND },
        { parameter: 'maximum', when: BOUNDS_INVERTED },
      ],
    },
    values: [
      { use: 'parameters-as', with: { minimum: { as: 'number' }, maximum: { as: 'number' }, kinds: { as: 'list', otherwise: REPLICATED_KINDS } } },
      {
        use: 'texts',
        with: {
          bounds: [
            { when: { given: ['minimum', 'maximum'] }, text: 'at least {{minimum}} and at most {{maximum}}' },
            { when: { given: 'minimum' }, text: 'at least {{minimum}}' },
            { when: { given: 'maximum' }, text: 'at most {{maximum}}' },
          ],
        },
      },
    ],
    // Kubernetes runs one replica when spec.replicas is missing.
    rule: [
      { when: { given: ['minimum', 'maximum'] }, use: 'object-rule', with: { ...REPLICA_RULE, name: 'replicas-between-{{minimum}}-and-{{maximum}}', cel: [AT_LEAST_REPLICAS, AT_MOST_REPLICAS] } },
      { when: { given: 'minimum' }, use: 'object-rule', with: { ...REPLICA_RULE, name: 'replicas-at-least-{{minimum}}', cel: [AT_LEAST_REPLICAS] } },
      { when: { given: 'maximum' }, use: 'object-rule', with: { ...REPLICA_RULE, name: 'replicas-at-most-{{maximum}}', cel: [AT_MOST_REPLICAS] } },
      { use: 'object-rule', with: { ...REPLICA_RULE, name: 'replicas-at-most-0', cel: [{ expression: 'true', message: 'no bound to check' }] } },
    ],
    samples: {
      use: 'number-bounds',
      with: { field: 'spec.replicas', minimum: 'minimum', maximum: 'maximum', unset: { counts: 1, description: 'spec.replicas unset (1 replica)', written: true }, floor: 0 },
    },
  },
  {
    id: 'no-default-namespace',
    title: 'Nothing in the default namespace',
    platform: 'kubernetes',
    category: 'metadata',
    kinds: [...NAMESPACE_ENTRY_KINDS, 'Namespace'],
    phrasings: ['nothing in the default namespace', 'namespace must not be default', 'workloads must not be deployed in the default namespace', 'deployments may not use the default namespace'],
    parameters: [{ name: 'kinds', question: 'which kinds does it apply to?', required: false, example: ['Deployment'] }],
    recognize: {
      when: {
        all: [
          { mentions: [{ re: '\\bdefault namespaces?\\b' }, { re: '\\bnamespaces? (?:\\w+ ){0,3}default\\b' }, { re: '\\bdefault ns\\b' }] },
          { not: { mentions: ['label', 'labels', 'annotation', 'annotations', { re: '\\bservice ?accounts?\\b' }] } },
        ],
      },
      score: 2,
      parameters: { kinds: { use: 'kinds-named', with: { among: NAMESPACE_ENTRY_KINDS } } },
    },
    values: [{ use: 'parameters-as', with: { kinds: { as: 'list', otherwise: NAMESPACED_KINDS } } }],
    rule: {
      use: 'object-rule',
      with: {
        name: 'no-default-namespace',
        description:
          'Workloads in the default namespace escape per-namespace quotas, RBAC and network policies. A manifest without metadata.namespace fails too: ' +
          "it lands in the namespace of whoever applies it, usually default. In admission the request's namespace counts.",
        severity: 'medium',
        kinds: '{{kinds}}',
        variables: [{ name: 'namespace', expression: "object.metadata.?namespace.orValue('') != '' ? object.metadata.namespace : request.?namespace.orValue('')" }],
        cel: [
          { expression: "variables.namespace != ''", message: 'metadata.namespace is not set: the object would land in the default namespace' },
          { expression: "variables.namespace != 'default'", message: 'objects must not be in the default namespace' },
        ],
        message: 'objects must not be in the default namespace',
        remediation: 'Set metadata.namespace to the team\'s own namespace (not "default"); a missing metadata.namespace also fails, because kubectl would put the object in the current context\'s namespace, usually default.',
      },
    },
    samples: {
      good: [{ use: 'replace-values', with: { at: 'metadata', except: ['Namespace'], replace: [{ field: 'namespace', values: ['', 'default'], missing: true, with: 'payments' }] } }],
      bad: [
        { description: 'the object in the default namespace (a Namespace sample, being cluster-scoped, becomes a ConfigMap)', edit: { at: 'namespaced-metadata', set: { namespace: 'default' } } },
        { description: 'the object without metadata.namespace', edit: { at: 'namespaced-metadata', remove: ['namespace'] } },
      ],
    },
  },
  {
    id: 'service-types',
    title: 'Allowed Service types',
    platform: 'kubernetes',
    category: 'networking',
    kinds: ['Service'],
    phrasings: ['no NodePort services', 'services must be ClusterIP', 'disallow LoadBalancer services', 'service type must be ClusterIP or LoadBalancer'],
    parameters: [
      { name: 'allowed', question: 'which Service types are allowed?', required: false, example: ['ClusterIP'] },
      { name: 'forbidden', question: 'which Service types are forbidden?', required: false, example: ['NodePort', 'LoadBalancer'] },
    ],
    recognize: {
      when: { all: [{ mentions: SERVICE_TYPES.map(([, pattern]) => ({ re: pattern })) }, { not: { mentions: ['label', 'labels', 'annotation', 'annotations'] } }] },
      score: [{ when: { mentions: ['service', 'services', 'svc', 'type', 'types'] }, score: 3 }, { score: 2 }],
      parameters: {
        forbidden: { use: 'values-named', with: { ...SERVICE_TYPES_SPLIT, as: 'forbidden' } },
        allowed: { use: 'values-named', with: { ...SERVICE_TYPES_SPLIT, as: 'allowed' } },
      },
    },
    values: [
      { use: 'parameters-as', with: { allowed: { as: 'list' }, forbidden: { as: 'list' } } },
      { use: 'texts', with: { summary: [{ when: { given: 'allowed' }, text: 'only {{allowed}}' }, { text: 'no {{forbidden}}' }] } },
    ],
    rule: [
      { when: { given: ['allowed', 'forbidden'] }, use: 'object-rule', with: { ...SERVICE_TYPES_RULE, ...ONLY_SERVICE_TYPES, cel: [SERVICE_TYPE_ALLOWED, SERVICE_TYPE_NOT_FORBIDDEN] } },
      { when: { given: 'allowed' }, use: 'object-rule', with: { ...SERVICE_TYPES_RULE, ...ONLY_SERVICE_TYPES, cel: [SERVICE_TYPE_ALLOWED] } },
      { when: { given: 'forbidden' }, use: 'object-rule', with: { ...SERVICE_TYPES_RULE, ...NO_SERVICE_TYPES, cel: [SERVICE_TYPE_NOT_FORBIDDEN] } },
      {
        use: 'object-rule',
        with: { ...SERVICE_TYPES_RULE, ...NO_SERVICE_TYPES, cel: [{ expression: 'true', message: 'no Service type to check', messageExpression: "'no Service type to check'" }] },
      },
    ],
    samples: {
      use: 'listed-values',
      with: {
        field: 'spec.type',
        allowed: 'allowed',
        forbidden: 'forbidden',
        candidates: SERVICE_TYPES.map(([type]) => type),
        count: 2,
        unset: { counts: 'ClusterIP', description: 'spec.type unset (ClusterIP)' },
      },
    },
  },
  {
    id: 'service-no-external-ips',
    title: 'No Service externalIPs',
    platform: 'kubernetes',
    category: 'networking',
    kinds: ['Service'],
    phrasings: ['services must not set externalIPs', 'no external IPs on services', 'disallow Service externalIPs'],
    parameters: [],
    recognize: {
      when: { all: [{ mentions: ['externalips', 'externalip', 'external ips', 'external ip', 'external ip addresses'] }, { negated: true }] },
      score: 3,
    },
    rule: {
      use: 'object-rule',
      with: {
        name: 'service-no-external-ips',
        description:
          'spec.externalIPs lets a Service capture traffic sent to any IP address, including ones it does not own (CVE-2020-8554): only cluster administrators should route external addresses.',
        severity: 'high',
        kinds: ['Service'],
        cel: [{ expression: 'object.spec.?externalIPs.orValue([]).size() == 0', message: 'Services must not set spec.externalIPs' }],
        message: 'Services must not set spec.externalIPs',
        remediation: 'Remove spec.externalIPs; expose the Service through a LoadBalancer or an Ingress instead.',
      },
    },
    samples: {
      good: [{ at: 'spec', remove: ['externalIPs'] }],
      bad: [{ description: 'a Service with spec.externalIPs: [203.0.113.10]', edit: { at: 'spec', set: { externalIPs: ['203.0.113.10'] } } }],
    },
  },
  {
    id: 'ingress-tls',
    title: 'Ingresses use TLS',
    platform: 'kubernetes',
    category: 'networking',
    kinds: ['Ingress'],
    phrasings: ['ingresses must use TLS', 'require TLS on every ingress host', 'ingress traffic must be HTTPS'],
    parameters: [],
    recognize: {
      when: {
        all: [
          { mentions: ['tls', 'https', 'ssl', 'certificate', 'certificates', 'cert', 'certs'] },
          { not: { mentions: [{ re: '\\bimages?\\b' }, { re: '\\bregistr(y|ies)\\b' }, 'wildcard', 'wildcards'] } },
          { not: DOMAINS_GIVEN },
        ],
      },
      score: [{ when: { any: [NAMES_INGRESS, { mentions: ['ingress', 'ingresses'] }] }, score: 2 }, { score: 1 }],
    },
    rule: {
      use: 'object-rule',
      with: {
        name: 'ingress-tls',
        description:
          'Every host an Ingress serves must be listed in a spec.tls entry, so it is served over HTTPS. A wildcard TLS host (*.example.com) covers one level of subdomain; rules without a host need at least one TLS entry.',
        severity: 'high',
        kinds: ['Ingress'],
        cel: [
          { expression: `${TLS_HOSTS}.size() > 0`, message: 'the Ingress has no spec.tls entry' },
          {
            expression: `${INGRESS_HOSTS}.all(host, host == '' || ${TLS_HOSTS}.exists(t, t.?hosts.orValue([]).exists(h, h == host || (h.startsWith('*.') && host.endsWith(h.substring(1)) && !host.substring(0, host.size() - h.size() + 1).contains('.')))))`,
            message: 'every Ingress rule host must be listed in spec.tls[].hosts',
          },
        ],
        message: 'Ingress hosts must be served over TLS',
        remediation: 'Add a spec.tls entry whose hosts list every spec.rules[].host, with secretName naming the certificate Secret.',
      },
    },
    samples: {
      good: [{ use: 'cover-ingress-hosts-with-tls' }],
      bad: [
        { description: 'an Ingress without spec.tls', edit: { at: 'spec', remove: ['tls'] } },
        { description: 'a second rule host not listed in spec.tls', edit: { use: 'second-ingress-host', with: { label: 'plain' } } },
      ],
    },
  },
  {
    id: 'ingress-class-required',
    title: 'Ingresses name their ingress class',
    platform: 'kubernetes',
    category: 'networking',
    kinds: ['Ingress'],
    phrasings: ['ingresses must set ingressClassName', 'every ingress needs an ingress class', 'ingressClassName must be nginx or traefik'],
    parameters: [{ name: 'classes', question: 'which ingress classes are allowed?', required: false, example: ['nginx'] }],
    recognize: {
      when: {
        all: [
          { mentions: ['ingressclassname', 'ingressclass', 'ingress class', 'ingress class name', 'ingress controller class'] },
          { not: { all: [{ negated: true }, { not: { mentions: ['without', 'missing', 'empty'] } }] } },
        ],
      },
      score: 3,
      parameters: {
        classes: { use: 'values-after', with: { after: '^(be|to|of|use|either|equal|equals)$', stop: '^(ingress|ingresses|class|classes|ingressclassname|set|present|specified|defined|explicit)$' } },
      },
    },
    values: [{ use: 'parameters-as', with: { classes: { as: 'list' } } }],
    rule: [
      {
        when: { given: 'classes' },
        use: 'object-rule',
        with: {
          ...INGRESS_CLASS_RULE,
          name: 'ingress-class-{{classes}}',
          cel: [INGRESS_CLASS_SET, { expression: 'object.spec.ingressClassName in {{classes|cel}}', message: 'spec.ingressClassName must be {{classes|or}}' }],
          message: 'spec.ingressClassName must be {{classes|or}}',
          remediation: 'Set spec.ingressClassName to {{classes|or}} (and drop the deprecated kubernetes.io/ingress.class annotation).',
        },
      },
      {
        use: 'object-rule',
        with: {
          ...INGRESS_CLASS_RULE,
          name: 'ingress-class-required',
          cel: [INGRESS_CLASS_SET],
          message: 'the Ingress does not set spec.ingressClassName',
          remediation: 'Set spec.ingressClassName to the IngressClass that should serve it (and drop the deprecated kubernetes.io/ingress.class annotation).',
        },
      },
    ],
    samples: {
      use: 'listed-values',
      with: {
        field: 'spec.ingressClassName',
        allowed: 'classes',
        candidates: ['nginx', 'traefik', 'haproxy', 'other-class'],
        count: 1,
        fallback: 'other-class',
        unset: { description: 'an Ingress without spec.ingressClassName' },
      },
    },
  },
  {
    id: 'ingress-host-domains',
    title: 'Ingress hosts under allowed domains',
    platform: 'kubernetes',
    category: 'networking',
    kinds: ['Ingress'],
    phrasings: ['ingress hosts must end with .acme.io', 'ingress host names only under acme.io or acme.dev', 'only allow ingress hosts in example.com'],
    parameters: [{ name: 'domains', question: 'which domains may Ingress hosts be under?', required: true, example: ['example.com'] }],
    recognize: {
      // "ingress hosts must be under an approved domain" is this requirement, but which domains?
      when: {
        all: [ABOUT_INGRESS_HOSTS, { any: [DOMAINS_GIVEN, { all: [NAMES_INGRESS, { mentions: ['domain', 'domains', 'under', 'end with', 'ends with', 'suffix'] }] }] }],
      },
      score: [{ when: { not: DOMAINS_GIVEN }, score: 1 }, { when: NAMES_INGRESS, score: 3 }, { score: 2 }],
      parameters: { domains: { use: 'domain-names' } },
    },
    values: DOMAIN_VALUES,
    rule: {
      use: 'object-rule',
      with: {
        name: 'ingress-hosts-under-{{domains}}',
        description: 'Ingress hosts, in rules and TLS entries, must be {{domains|or}} or a subdomain of it. A rule without a host answers every host name, so it fails too.',
        severity: 'high',
        kinds: ['Ingress'],
        cel: [
          { expression: `${INGRESS_HOSTS}.all(host, host != '' && ${UNDER_DOMAINS})`, message: 'every spec.rules[].host must be set and under {{domains|or}}' },
          { expression: `${TLS_HOSTS}.all(t, t.?hosts.orValue([]).all(host, ${UNDER_DOMAINS}))`, message: 'every spec.tls[].hosts entry must be under {{domains|or}}' },
        ],
        message: 'Ingress hosts must be under {{domains|or}}',
        remediation: 'Set every spec.rules[].host and spec.tls[].hosts entry to a name ending in .{{domain}}{{others}}; give host-less rules a host.',
      },
    },
    samples: {
      good: [{ use: 'rename-ingress-hosts', with: { keepUnder: '{{domains}}', match: '^([^.]*).*$', to: '$1.{{domain}}' } }],
      bad: [
        { description: 'a look-alike host web.evil{{domain}}', edit: { use: 'rename-ingress-hosts', with: { to: 'web.evil{{domain}}' } } },
        { description: 'a host {{domain}}.attacker.example that only starts with the domain', edit: { use: 'rename-ingress-hosts', with: { to: '{{domain}}.attacker.example' } } },
        { description: 'a rule without a host', edit: { use: 'remove-from-each', with: { list: 'spec.rules', key: 'host' } } },
      ],
    },
  },
  {
    id: 'ingress-no-wildcard-hosts',
    title: 'No wildcard Ingress hosts',
    platform: 'kubernetes',
    category: 'networking',
    kinds: ['Ingress'],
    phrasings: ['no wildcard ingress hosts', 'ingress hosts must not be wildcards', 'disallow wildcard hosts on ingresses'],
    parameters: [],
    recognize: {
      when: { all: [{ mentions: ['wildcard', 'wildcards', { re: '(^|\\s)\\*\\.' }] }, { negated: true }, { any: [ABOUT_INGRESS_HOSTS, NAMES_INGRESS] }] },
      score: 3,
    },
    rule: {
      use: 'object-rule',
      with: {
        name: 'ingress-no-wildcard-hosts',
        description: 'A wildcard Ingress host (*.example.com) claims every subdomain, including ones other teams or attackers could want to serve.',
        severity: 'medium',
        kinds: ['Ingress'],
        cel: [
          { expression: `${INGRESS_HOSTS}.all(host, !host.startsWith('*'))`, message: 'spec.rules[].host must not be a wildcard' },
          { expression: `${TLS_HOSTS}.all(t, t.?hosts.orValue([]).all(host, !host.startsWith('*')))`, message: 'spec.tls[].hosts must not hold a wildcard' },
        ],
        message: 'wildcard Ingress hosts are not allowed',
        remediation: 'Replace each wildcard host (*.example.com) in spec.rules[].host and spec.tls[].hosts with the exact host names served.',
      },
    },
    samples: {
      good: [{ use: 'rename-ingress-hosts', with: { match: '^\\*', to: 'www' } }],
      bad: [
        { description: 'a wildcard rule and TLS host', edit: { use: 'rename-ingress-hosts', with: { match: '^[^.]*(?=\\.)', to: '*' } } },
        { description: 'a wildcard host only in spec.tls', edit: { use: 'append-to-first', with: { list: 'spec.tls', to: 'hosts', item: '*.example.com' } } },
      ],
    },
  },
  {
    id: 'hpa-min-replicas',
    title: 'HPA minReplicas at least N',
    platform: 'kubernetes',
    category: 'scaling',
    kinds: [HPA],
    phrasings: ['HPA minReplicas must be at least 2', 'autoscalers need a minimum of 2 replicas', 'minReplicas >= 3 on every HorizontalPodAutoscaler'],
    parameters: [{ name: 'minimum', question: 'at least how many minReplicas?', required: true, example: 2 }],
    recognize: {
      when: {
        all: [
          { any: [MIN_REPLICAS_FIELD, HPA_REPLICAS] },
          { not: { all: [{ mentions: ['maxreplicas'] }, { not: { mentions: ['minreplicas'] } }] } },
          {
            any: [
              // "the HPA's minReplicas must be set high enough": which minimum?
              { all: [{ not: HPA_MINIMUM }, MIN_REPLICAS_FIELD, NAMES_HPA] },
              // "autoscalers scale to at most 10 replicas" is the other bound.
              { all: [HPA_MINIMUM, { not: { all: [{ not: MIN_REPLICAS_FIELD }, { reads: 'upper-bound', with: { subject: 'replicas?' } }, { not: { mentions: [{ re: 'at least|minimum|>=' }] } }] } }] },
            ],
          },
        ],
      },
      score: [{ when: { not: HPA_MINIMUM }, score: 1 }, { when: { mentions: ['minreplicas'] }, score: 3 }, { score: 2 }],
      parameters: { minimum: { use: 'lower-bound', with: { subject: '(?:minreplicas|replicas?)' } } },
    },
    values: [{ use: 'parameters-as', with: { minimum: { as: 'number', otherwise: 1 } } }],
    rule: {
      use: 'object-rule',
      with: {
        name: 'hpa-min-replicas-at-least-{{minimum}}',
        description: 'HorizontalPodAutoscalers keep at least {{minimum}} replicas, so scaling down never leaves a single pod. An unset minReplicas is 1, as Kubernetes defaults it.',
        severity: 'medium',
        kinds: [HPA],
        // Kubernetes defaults minReplicas to 1.
        cel: [
          {
            expression: 'object.spec.?minReplicas.orValue(1) >= {{minimum}}',
            message: 'spec.minReplicas must be at least {{minimum}}',
            messageExpression: "'spec.minReplicas is ' + string(object.spec.?minReplicas.orValue(1)) + ' (1 when unset), at least {{minimum}} required'",
          },
        ],
        message: 'spec.minReplicas must be at least {{minimum}}',
        remediation: 'Set spec.minReplicas to {{minimum}} or more (unset means 1).',
      },
    },
    samples: { use: 'number-bounds', with: { field: 'spec.minReplicas', minimum: 'minimum', otherwise: 1, unset: { counts: 1, description: 'spec.minReplicas unset (1)' } } },
  },
  {
    id: 'hpa-max-replicas',
    title: 'HPA maxReplicas at most N',
    platform: 'kubernetes',
    category: 'scaling',
    kinds: [HPA],
    phrasings: ['HPA maxReplicas at most 20', 'autoscalers may scale to no more than 50 replicas', 'cap maxReplicas at 10'],
    parameters: [{ name: 'maximum', question: 'at most how many maxReplicas?', required: true, example: 20 }],
    recognize: {
      when: {
        all: [
          { any: [MAX_REPLICAS_FIELD, HPA_REPLICAS] },
          { not: { all: [{ mentions: ['minreplicas'] }, { not: { mentions: ['maxreplicas'] } }] } },
          { any: [HPA_MAXIMUM, { all: [MAX_REPLICAS_FIELD, NAMES_HPA] }] },
        ],
      },
      score: [{ when: { not: HPA_MAXIMUM }, score: 1 }, { when: { mentions: ['maxreplicas'] }, score: 3 }, { score: 2 }],
      parameters: { maximum: { use: 'upper-bound', with: { subject: '(?:maxreplicas|replicas?)' } } },
    },
    values: [{ use: 'parameters-as', with: { maximum: { as: 'number', otherwise: 1 } } }],
    rule: {
      use: 'object-rule',
      with: {
        name: 'hpa-max-replicas-at-most-{{maximum}}',
        description: 'HorizontalPodAutoscalers scale to at most {{maximum}} replicas, bounding what a load spike (or a metrics bug) can cost.',
        severity: 'medium',
        kinds: [HPA],
        cel: [
          // maxReplicas has no default: an HPA without it is not bounded by anything this rule can see.
          { expression: 'has(object.spec.maxReplicas)', message: 'spec.maxReplicas is not set' },
          {
            expression: 'object.spec.maxReplicas <= {{maximum}}',
            message: 'spec.maxReplicas must be at most {{maximum}}',
            messageExpression: "'spec.maxReplicas is ' + string(object.spec.maxReplicas) + ', at most {{maximum}} allowed'",
          },
        ],
        message: 'spec.maxReplicas must be at most {{maximum}}',
        remediation: 'Set spec.maxReplicas to {{maximum}} or less.',
      },
    },
    samples: { use: 'number-bounds', with: { field: 'spec.maxReplicas', maximum: 'maximum', otherwise: 1, unset: { description: 'spec.maxReplicas unset' } } },
  },
  {
    id: 'hpa-cpu-utilization',
    title: 'HPAs scale on CPU utilization',
    platform: 'kubernetes',
    category: 'scaling',
    kinds: [HPA],
    phrasings: ['HPAs must target CPU utilization', 'autoscalers must scale on CPU', 'every HPA needs a CPU utilization metric'],
    parameters: [],
    recognize: {
      when: {
        all: [
          { mentions: ['cpu'] },
          { any: [NAMES_HPA, { mentions: ['utilization', 'utilisation'] }] },
          { not: { mentions: ['limit', 'limits', 'request', 'requests', 'minreplicas', 'maxreplicas'] } },
        ],
      },
      score: [{ when: { mentions: ['utilization', 'utilisation', 'metric', 'metrics', 'target', 'scale on', 'scale by', 'based on'] }, score: 3 }, { score: 2 }],
    },
    rule: {
      use: 'object-rule',
      with: {
        name: 'hpa-cpu-utilization',
        description:
          'HorizontalPodAutoscalers scale on average CPU utilization (a Resource or ContainerResource metric for cpu with a Utilization target, or autoscaling/v1 targetCPUUtilizationPercentage). ' +
          'An HPA without metrics scales on 80% CPU, as Kubernetes defaults it, and passes.',
        severity: 'low',
        kinds: [HPA],
        cel: [
          {
            expression:
              'has(object.spec.targetCPUUtilizationPercentage) || object.spec.?metrics.orValue([]).size() == 0 || object.spec.metrics.exists(m, ' +
              "(m.?type.orValue('') == 'Resource' && m.?resource.?name.orValue('') == 'cpu' && (m.?resource.?target.?type.orValue('') == 'Utilization' || has(m.resource.targetAverageUtilization))) || " +
              "(m.?type.orValue('') == 'ContainerResource' && m.?containerResource.?name.orValue('') == 'cpu' && m.?containerResource.?target.?type.orValue('') == 'Utilization'))",
            message: 'the HPA must scale on CPU utilization',
          },
        ],
        message: 'the HPA must scale on CPU utilization',
        remediation: 'Add to spec.metrics: {type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 70}}}.',
      },
    },
    samples: {
      // An HPA without metrics already scales on CPU.
      good: [
        {
          use: 'add-list-item',
          with: { list: 'spec.metrics', item: { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }, unless: { type: 'Resource', 'resource.name': 'cpu' }, ifEmpty: false },
        },
      ],
      bad: [
        {
          description: 'an HPA scaling on memory only',
          edit: { at: 'spec', set: { metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 80 } } }] } },
        },
        {
          description: 'an HPA scaling on CPU average value, not utilization',
          edit: { at: 'spec', set: { metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '500m' } } }] } },
        },
      ],
    },
  },
  {
    id: 'pdb-budget-set',
    title: 'PDBs set minAvailable or maxUnavailable',
    platform: 'kubernetes',
    category: 'scaling',
    kinds: [PDB],
    phrasings: ['PDBs must set minAvailable or maxUnavailable', 'PodDisruptionBudgets must set minAvailable', 'every PodDisruptionBudget must specify a budget'],
    parameters: [{ name: 'fields', question: 'which field must be set: minAvailable, maxUnavailable, or either?', required: false, example: ['minAvailable', 'maxUnavailable'] }],
    recognize: {
      when: {
        all: [
          NAMES_PDB,
          { not: BLOCKS_DISRUPTION },
          { not: { all: [{ negated: true }, { not: { mentions: ['without', 'missing'] } }] } },
          { mentions: ['minavailable', 'maxunavailable', 'budget', 'set', 'specify', 'define', 'need', 'needs', 'must have', 'require', 'required'] },
        ],
      },
      score: 2,
      parameters: {
        // One field named alone is required; both, or neither, means either will do.
        fields: {
          use: 'choices-named',
          with: {
            choices: [
              ['minAvailable', ['minavailable', 'min available', 'minimum available']],
              ['maxUnavailable', ['maxunavailable', 'max unavailable', 'maximum unavailable']],
            ],
          },
        },
      },
    },
    values: [
      { use: 'parameters-as', with: { fields: { as: 'list', only: PDB_FIELDS, otherwise: PDB_FIELDS } } },
      { use: 'joined', with: { what: { each: 'fields', prefix: 'spec.', join: ' or ' }, set: { each: 'fields', prefix: 'has(object.spec.', suffix: ')', join: ' || ' } } },
    ],
    rule: [
      {
        when: { given: 'fields.1' },
        use: 'object-rule',
        with: { ...PDB_BUDGET_RULE, name: 'pdb-budget-set', remediation: 'Set spec.minAvailable (e.g. 1 or "50%") or spec.maxUnavailable (e.g. 1) on the PodDisruptionBudget.' },
      },
      {
        when: { is: { fields: 'minAvailable' } },
        use: 'object-rule',
        with: { ...PDB_BUDGET_RULE, name: 'pdb-{{fields.0}}-set', remediation: 'Set {{what}} on the PodDisruptionBudget (e.g. 1 or "50%") instead of spec.maxUnavailable.' },
      },
      { use: 'object-rule', with: { ...PDB_BUDGET_RULE, name: 'pdb-{{fields.0}}-set', remediation: 'Set {{what}} on the PodDisruptionBudget (e.g. 1) instead of spec.minAvailable.' } },
    ],
    samples: { use: 'either-field', with: { at: 'spec', fields: PDB_FIELDS, parameter: 'fields', subject: 'a PodDisruptionBudget', value: 1 } },
  },
  {
    id: 'pdb-allows-disruption',
    title: 'PDBs allow voluntary disruptions',
    platform: 'kubernetes',
    category: 'scaling',
    kinds: [PDB],
    phrasings: ['maxUnavailable must not be 0', 'minAvailable must not be 100%', 'PDBs must not block node drains'],
    parameters: [],
    recognize: { when: { all: [NAMES_PDB, BLOCKS_DISRUPTION] }, score: 3 },
    rule: {
      use: 'object-rule',
      with: {
        name: 'pdb-allows-disruption',
        description:
          'A PodDisruptionBudget with maxUnavailable 0 (or 0%) or minAvailable 100% never allows an eviction, so node drains and cluster upgrades hang. ' +
          'Both are checked whichever the instruction named: they block drains alike.',
        severity: 'medium',
        kinds: [PDB],
        cel: [
          {
            expression: "!has(object.spec.maxUnavailable) || (type(object.spec.maxUnavailable) == string ? !(object.spec.maxUnavailable in ['0%', '0']) : object.spec.maxUnavailable != 0)",
            message: 'spec.maxUnavailable of 0 blocks every voluntary disruption',
          },
          { expression: "!has(object.spec.minAvailable) || type(object.spec.minAvailable) != string || object.spec.minAvailable != '100%'", message: 'spec.minAvailable of 100% blocks every voluntary disruption' },
        ],
        message: 'the PodDisruptionBudget blocks every voluntary disruption',
        remediation: 'Set spec.maxUnavailable to at least 1 (or a non-zero percentage), or spec.minAvailable below 100%.',
      },
    },
    samples: {
      good: [
        {
          use: 'replace-values',
          with: {
            at: 'spec',
            replace: [
              { field: 'maxUnavailable', values: [0, '0%', '0'], with: 1 },
              { field: 'minAvailable', values: ['100%'], with: '50%' },
            ],
          },
        },
      ],
      bad: [
        { description: 'spec.maxUnavailable: 0', edit: { at: 'spec', set: { maxUnavailable: 0 }, remove: ['minAvailable'] } },
        { description: 'spec.maxUnavailable: "0%"', edit: { at: 'spec', set: { maxUnavailable: '0%' }, remove: ['minAvailable'] } },
        { description: 'spec.minAvailable: "100%"', edit: { at: 'spec', set: { minAvailable: '100%' } } },
      ],
    },
  },
]
