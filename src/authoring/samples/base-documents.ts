/**
 * The documents samples start from: for every kind the catalog judges, one that complies with
 * every template at its example parameters (restricted Pod Security, pinned images from
 * registry.example.com, requests and limits, probes, labels app and team). Template edits then
 * change only what their rule is about. Each call returns a fresh copy.
 */
type Json = Record<string, unknown>

const POD_LABELS = { app: 'web', team: 'payments' }

function podSpec(): Json {
  return {
    automountServiceAccountToken: false,
    securityContext: { runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } },
    initContainers: [
      {
        name: 'migrate',
        image: 'registry.example.com/payments/migrate:1.4.2',
        imagePullPolicy: 'IfNotPresent',
        securityContext: containerSecurityContext(),
        resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
      },
    ],
    containers: [
      {
        name: 'web',
        image: 'registry.example.com/payments/web:1.4.2',
        imagePullPolicy: 'IfNotPresent',
        ports: [{ containerPort: 8080, protocol: 'TCP' }],
        securityContext: containerSecurityContext(),
        resources: { requests: { cpu: '250m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
        livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
        readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 5 },
        env: [{ name: 'LOG_LEVEL', value: 'info' }],
      },
    ],
  }
}

function containerSecurityContext(): Json {
  return {
    allowPrivilegeEscalation: false,
    privileged: false,
    readOnlyRootFilesystem: true,
    runAsNonRoot: true,
    capabilities: { drop: ['ALL'] },
  }
}

function metadata(name: string, namespace = 'payments'): Json {
  return { name, namespace, labels: { ...POD_LABELS } }
}

function podTemplate(): Json {
  return { metadata: { labels: { ...POD_LABELS } }, spec: podSpec() }
}

const BUILDERS: Record<string, () => Json> = {
  Pod: () => ({ apiVersion: 'v1', kind: 'Pod', metadata: metadata('web'), spec: podSpec() }),
  Deployment: () => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: metadata('web'),
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: podTemplate() },
  }),
  StatefulSet: () => ({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: metadata('db'),
    spec: { replicas: 3, serviceName: 'db', selector: { matchLabels: { app: 'web' } }, template: podTemplate() },
  }),
  DaemonSet: () => ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: metadata('agent'),
    spec: { selector: { matchLabels: { app: 'web' } }, template: podTemplate() },
  }),
  ReplicaSet: () => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: metadata('web-5d9c7'),
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: podTemplate() },
  }),
  Job: () => ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: metadata('report'),
    spec: { backoffLimit: 2, template: { ...podTemplate(), spec: { ...podSpec(), restartPolicy: 'Never' } } },
  }),
  CronJob: () => ({
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: metadata('nightly'),
    spec: { schedule: '0 2 * * *', jobTemplate: { spec: { template: { ...podTemplate(), spec: { ...podSpec(), restartPolicy: 'OnFailure' } } } } },
  }),
  Service: () => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: metadata('web'),
    spec: { type: 'ClusterIP', selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }] },
  }),
  Ingress: () => ({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: metadata('web'),
    spec: {
      ingressClassName: 'nginx',
      tls: [{ hosts: ['web.example.com'], secretName: 'web-tls' }],
      rules: [
        {
          host: 'web.example.com',
          http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] },
        },
      ],
    },
  }),
  HorizontalPodAutoscaler: () => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: metadata('web'),
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 3,
      maxReplicas: 10,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    },
  }),
  PodDisruptionBudget: () => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: metadata('web'),
    spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
  }),
  Namespace: () => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'payments', labels: { ...POD_LABELS } } }),
  ConfigMap: () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata('web-config'), data: { LOG_LEVEL: 'info' } }),
  Secret: () => ({ apiVersion: 'v1', kind: 'Secret', metadata: metadata('web-secret'), type: 'Opaque', data: { token: 'c2VjcmV0' } }),
  ServiceAccount: () => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: metadata('web'), automountServiceAccountToken: false }),
}

export const SAMPLE_KINDS: readonly string[] = Object.keys(BUILDERS)

/** A fresh compliant document of a Kubernetes kind, or undefined for a kind the catalog has no sample of. */
export function baseKubernetesDocument(kind: string): Json | undefined {
  return BUILDERS[kind]?.()
}

/** A generic JSON document: starts empty; generic templates add the fields they are about. */
export function baseGenericDocument(): Json {
  return {}
}

/**
 * A Terraform plan (`terraform show -json`) with one planned resource of `type`; its `values`
 * start empty and the Terraform templates' edits fill them in (see planResources).
 */
export function baseTerraformPlan(type: string): Json {
  return {
    format_version: '1.2',
    terraform_version: '1.9.5',
    planned_values: {
      root_module: {
        resources: [{ address: `${type}.sample`, mode: 'managed', type, name: 'sample', provider_name: 'registry.terraform.io/hashicorp/aws', values: {} }],
      },
    },
  }
}
