// Kubernetes workload cases (own-holdout-4): images, resources, probes, replicas, spreading, env, labels, volumes.
import { kube, ctr, res, wl, podOf, ctrsOf, nsOf, qty, image } from './lib.mjs';

const R = res({ cpu: '100m', memory: '128Mi' }, { memory: '256Mi' });
const app = (name, img, more = {}) => ctr(name, img, { resources: R, ...more });
const GI = 1024 ** 3;
const MI = 1024 ** 2;
const readiness = (port = 8080) => ({ httpGet: { path: '/ready', port }, periodSeconds: 10 });

export default [
  // ------------------------------------------------------------------ registries
  {
    id: 'k8s-images-from-company-registries',
    difficulty: 'medium',
    topics: ['kubernetes', 'images', 'registries', 'allowlist', 'lookalike', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "Reminder: images can only be pulled from our two registries, `registry.acme-internal.io` (anything under it) and GitHub Packages under `ghcr.io/acme-platform/`. Docker Hub is out, quay is out, and yes that includes init containers and sidecars. To be clear the registry host has to match exactly: `registry.acme-internal.io.mirror.net/...` or `ghcr.io/acme-platform-labs/...` do NOT count.",
    check: (o) =>
      ctrsOf(podOf(o).spec).every((c) => {
        const { host, repo } = image(c.image);
        return host === 'registry.acme-internal.io' || (host === 'ghcr.io' && repo.startsWith('acme-platform/'));
      }),
    inputs: [
      {
        name: 'deployment-internal-registry',
        expectPassed: true,
        object: wl('Deployment', { name: 'payments-api', ns: 'payments', replicas: 3 }, {
          containers: [app('api', 'registry.acme-internal.io/payments/api:2.4.1')],
        }),
      },
      {
        name: 'statefulset-ghcr-org-and-internal-init',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'redis-operator', ns: 'operators' }, {
          initContainers: [ctr('wait', 'registry.acme-internal.io/tools/wait-for:1.4.0')],
          containers: [app('operator', 'ghcr.io/acme-platform/redis-operator:1.3.0')],
        }),
      },
      {
        name: 'deployment-docker-hub-sidecar',
        expectPassed: false,
        object: wl('Deployment', { name: 'search-api', ns: 'search' }, {
          containers: [
            app('api', 'registry.acme-internal.io/search/api:9.1.0'),
            app('logs', 'fluent/fluent-bit:3.0.7'),
          ],
        }),
      },
      {
        name: 'pod-lookalike-registry-host',
        expectPassed: false,
        object: wl('Pod', { name: 'payments-api-debug', ns: 'payments' }, {
          containers: [app('api', 'registry.acme-internal.io.mirror.net/payments/api:2.4.1')],
        }),
      },
      {
        name: 'job-ghcr-other-org',
        expectPassed: false,
        object: wl('Job', { name: 'schema-migrate', ns: 'payments' }, {
          containers: [app('migrate', 'ghcr.io/acme-platform-labs/migrate:0.9.0')],
        }),
      },
      {
        name: 'cronjob-init-from-quay',
        expectPassed: false,
        object: wl('CronJob', { name: 'cert-report', ns: 'security' }, {
          initContainers: [ctr('fetch', 'quay.io/curl/curl:8.8.0')],
          containers: [app('report', 'registry.acme-internal.io/security/cert-report:1.0.0')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ requests
  {
    id: 'k8s-cpu-and-memory-requests-required',
    difficulty: 'easy',
    topics: ['kubernetes', 'resources', 'requests', 'missing-field', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'Every container must declare both a CPU request and a memory request (resources.requests.cpu and resources.requests.memory) so the scheduler can bin-pack properly. Limits are optional for this rule. Init containers are held to the same requirment.',
    check: (o) => ctrsOf(podOf(o).spec).every((c) => c.resources?.requests?.cpu !== undefined && c.resources?.requests?.memory !== undefined),
    inputs: [
      {
        name: 'deployment-both-requests',
        expectPassed: true,
        object: wl('Deployment', { name: 'notifications', ns: 'comms', replicas: 2 }, {
          containers: [ctr('notify', 'registry.acme-internal.io/comms/notify:1.12.0', { resources: res({ cpu: '250m', memory: '256Mi' }) })],
        }),
      },
      {
        name: 'deployment-missing-memory-request',
        expectPassed: false,
        object: wl('Deployment', { name: 'sms-gateway', ns: 'comms' }, {
          containers: [ctr('sms', 'registry.acme-internal.io/comms/sms:0.9.4', { resources: res({ cpu: '100m' }, { cpu: '500m' }) })],
        }),
      },
      {
        name: 'statefulset-init-without-resources',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'elasticsearch', ns: 'logging', replicas: 3 }, {
          initContainers: [ctr('sysctl', 'registry.acme-internal.io/tools/busybox:1.36', { command: ['sh', '-c', 'ulimit -n 65536'] })],
          containers: [ctr('es', 'registry.acme-internal.io/logging/elasticsearch:8.14.3', { resources: res({ cpu: '2', memory: '8Gi' }, { memory: '8Gi' }) })],
        }),
      },
      {
        name: 'cronjob-both-requests',
        expectPassed: true,
        object: wl('CronJob', { name: 'digest-email', ns: 'comms' }, {
          containers: [ctr('digest', 'registry.acme-internal.io/comms/digest:2.0.1', { resources: res({ cpu: '50m', memory: '64Mi' }, { cpu: '200m', memory: '128Mi' }) })],
        }),
      },
      {
        name: 'daemonset-cpu-request-only',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'falco', ns: 'security' }, {
          containers: [ctr('falco', 'registry.acme-internal.io/security/falco:0.38.1', { resources: res({ cpu: '100m' }) })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ memory bounds
  {
    id: 'k8s-memory-limit-bounds',
    difficulty: 'medium',
    topics: ['kubernetes', 'resources', 'memory', 'limits', 'numeric-bounds', 'boundary', 'units', 'missing-field', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: `Memory sizing guardrails (all containers, init containers too):
- a memory limit is mandatory
- the limit may not go above 4Gi (4096Mi is fine, anything bigger is not)
- if a memory request is given it has to be at least 64Mi
Quantities are compared by value, so e.g. 4G is smaller than 4Gi.`,
    check: (o) =>
      ctrsOf(podOf(o).spec).every((c) => {
        const lim = c.resources?.limits?.memory;
        const req = c.resources?.requests?.memory;
        return lim !== undefined && qty(lim) <= 4 * GI && (req === undefined || qty(req) >= 64 * MI);
      }),
    inputs: [
      {
        name: 'deployment-limit-4096mi',
        expectPassed: true,
        object: wl('Deployment', { name: 'pricing-engine', ns: 'pricing', replicas: 2 }, {
          containers: [ctr('engine', 'registry.acme-internal.io/pricing/engine:6.0.0', { resources: res({ cpu: '500m', memory: '512Mi' }, { memory: '4096Mi' }) })],
        }),
      },
      {
        name: 'statefulset-limit-5gi',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'clickhouse', ns: 'analytics' }, {
          containers: [ctr('clickhouse', 'registry.acme-internal.io/analytics/clickhouse:24.3', { resources: res({ cpu: '1', memory: '4Gi' }, { memory: '5Gi' }) })],
        }),
      },
      {
        name: 'deployment-no-memory-limit',
        expectPassed: false,
        object: wl('Deployment', { name: 'image-resizer', ns: 'media' }, {
          containers: [ctr('resizer', 'registry.acme-internal.io/media/resizer:3.1.0', { resources: res({ cpu: '200m', memory: '256Mi' }, { cpu: '1' }) })],
        }),
      },
      {
        name: 'pod-request-32mi',
        expectPassed: false,
        object: wl('Pod', { name: 'tiny-proxy', ns: 'edge' }, {
          containers: [ctr('proxy', 'registry.acme-internal.io/edge/tiny-proxy:0.5.0', { resources: res({ cpu: '10m', memory: '32Mi' }, { memory: '256Mi' }) })],
        }),
      },
      {
        name: 'job-decimal-4g-limit-no-request',
        expectPassed: true,
        object: wl('Job', { name: 'model-export', ns: 'ml' }, {
          containers: [ctr('export', 'registry.acme-internal.io/ml/model-export:1.1.0', { resources: res(undefined, { memory: '4G' }) })],
        }),
      },
      {
        name: 'cronjob-init-limit-8gi',
        expectPassed: false,
        object: wl('CronJob', { name: 'warehouse-load', ns: 'analytics' }, {
          initContainers: [ctr('download', 'registry.acme-internal.io/analytics/fetch:2.0.0', { resources: res({ cpu: '500m', memory: '1Gi' }, { memory: '8Gi' }) })],
          containers: [ctr('load', 'registry.acme-internal.io/analytics/loader:2.0.0', { resources: res({ cpu: '500m', memory: '1Gi' }, { memory: '2Gi' }) })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ ephemeral storage
  {
    id: 'k8s-ephemeral-storage-limit',
    difficulty: 'medium',
    topics: ['kubernetes', 'resources', 'ephemeral-storage', 'limits', 'numeric-bounds', 'boundary', 'units', 'missing-field', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: `PLAT-2207 Node DiskPressure evictions

We keep losing nodes to DiskPressure because pods write unbounded logs and scratch files to the node disk. From now on:
AC1: every app container sets resources.limits.ephemeral-storage
AC2: that limit is 2Gi or less
AC3: init containers are out of scope for this ticket`,
    check: (o) =>
      (podOf(o).spec.containers ?? []).every((c) => {
        const l = c.resources?.limits?.['ephemeral-storage'];
        return l !== undefined && qty(l) <= 2 * GI;
      }),
    inputs: [
      {
        name: 'deployment-1gi',
        expectPassed: true,
        object: wl('Deployment', { name: 'thumbnailer', ns: 'media', replicas: 2 }, {
          containers: [ctr('thumb', 'registry.acme-internal.io/media/thumbnailer:1.4.0', { resources: res({ cpu: '100m', memory: '256Mi' }, { memory: '512Mi', 'ephemeral-storage': '1Gi' }) })],
        }),
      },
      {
        name: 'deployment-2gi-and-2048mi',
        expectPassed: true,
        object: wl('Deployment', { name: 'report-builder', ns: 'reporting' }, {
          containers: [
            ctr('builder', 'registry.acme-internal.io/reporting/builder:5.0.0', { resources: res({ cpu: '200m', memory: '512Mi' }, { memory: '1Gi', 'ephemeral-storage': '2Gi' }) }),
            ctr('uploader', 'registry.acme-internal.io/reporting/uploader:5.0.0', { resources: res({ cpu: '50m', memory: '64Mi' }, { memory: '128Mi', 'ephemeral-storage': '2048Mi' }) }),
          ],
        }),
      },
      {
        name: 'statefulset-no-ephemeral-limit',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'zookeeper', ns: 'data' }, {
          containers: [ctr('zk', 'registry.acme-internal.io/data/zookeeper:3.9.2', { resources: res({ cpu: '250m', memory: '1Gi' }, { memory: '1Gi' }) })],
        }),
      },
      {
        name: 'daemonset-3gi',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'log-collector', ns: 'logging' }, {
          containers: [ctr('collector', 'registry.acme-internal.io/ops/vector:0.39.0', { resources: res({ cpu: '100m', memory: '128Mi' }, { memory: '256Mi', 'ephemeral-storage': '3Gi' }) })],
        }),
      },
      {
        name: 'job-init-without-limit',
        expectPassed: true,
        object: wl('Job', { name: 'dataset-prep', ns: 'ml' }, {
          initContainers: [ctr('pull', 'registry.acme-internal.io/ml/dataset-pull:0.3.0')],
          containers: [ctr('prep', 'registry.acme-internal.io/ml/prep:0.3.0', { resources: res({ cpu: '1', memory: '2Gi' }, { memory: '2Gi', 'ephemeral-storage': '500Mi' }) })],
        }),
      },
      {
        name: 'pod-decimal-2200m-bytes',
        expectPassed: false,
        object: wl('Pod', { name: 'scratch-worker', ns: 'ml' }, {
          containers: [ctr('worker', 'registry.acme-internal.io/ml/scratch:0.1.0', { resources: res({ cpu: '100m', memory: '128Mi' }, { memory: '256Mi', 'ephemeral-storage': '2200M' }) })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ probes
  {
    id: 'k8s-readiness-required-liveness-timeout',
    difficulty: 'hard',
    topics: ['kubernetes', 'probes', 'readiness', 'liveness', 'defaults', 'conditional', 'numeric-bounds', 'boundary', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "Health checks for long-running workloads (Deployments, StatefulSets, DaemonSets, bare Pods): every container in `containers` needs a readinessProbe; init containers don't. A livenessProbe is optional, but if you add one its timeoutSeconds must be 2 or more. The Kubernetes default is 1 second, which has given us restart storms during GC pauses, so a liveness probe that leaves timeoutSeconds out fails too.",
    check: (o) =>
      (podOf(o).spec.containers ?? []).every((c) => c.readinessProbe !== undefined && (c.livenessProbe === undefined || (c.livenessProbe.timeoutSeconds ?? 1) >= 2)),
    inputs: [
      {
        name: 'deployment-readiness-only',
        expectPassed: true,
        object: wl('Deployment', { name: 'quotes-api', ns: 'pricing', replicas: 2 }, {
          containers: [app('api', 'registry.acme-internal.io/pricing/quotes:3.0.0', { readinessProbe: readiness() })],
        }),
      },
      {
        name: 'deployment-no-readiness',
        expectPassed: false,
        object: wl('Deployment', { name: 'quotes-worker', ns: 'pricing' }, {
          containers: [app('worker', 'registry.acme-internal.io/pricing/quotes-worker:3.0.0', {
            livenessProbe: { httpGet: { path: '/live', port: 8080 }, timeoutSeconds: 5 },
          })],
        }),
      },
      {
        name: 'statefulset-liveness-timeout-2',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'rabbitmq', ns: 'messaging', replicas: 3 }, {
          containers: [app('rabbitmq', 'registry.acme-internal.io/messaging/rabbitmq:3.13.6', {
            readinessProbe: { exec: { command: ['rabbitmq-diagnostics', 'check_port_connectivity'] }, timeoutSeconds: 10 },
            livenessProbe: { tcpSocket: { port: 5672 }, timeoutSeconds: 2, periodSeconds: 30 },
          })],
        }),
      },
      {
        name: 'daemonset-liveness-default-timeout',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'dns-cache', ns: 'kube-dns' }, {
          containers: [app('unbound', 'registry.acme-internal.io/platform/unbound:1.20.0', {
            readinessProbe: { tcpSocket: { port: 53 } },
            livenessProbe: { tcpSocket: { port: 53 }, periodSeconds: 10, failureThreshold: 3 },
          })],
        }),
      },
      {
        name: 'pod-sidecar-without-readiness',
        expectPassed: false,
        object: wl('Pod', { name: 'legacy-app', ns: 'legacy' }, {
          containers: [
            app('app', 'registry.acme-internal.io/legacy/app:1.0.9', { readinessProbe: readiness() }),
            app('oauth-proxy', 'registry.acme-internal.io/security/oauth2-proxy:7.6.0', { ports: [{ containerPort: 4180 }] }),
          ],
        }),
      },
      {
        name: 'deployment-init-without-probes',
        expectPassed: true,
        object: wl('Deployment', { name: 'ledger-api', ns: 'billing' }, {
          initContainers: [ctr('migrate', 'registry.acme-internal.io/billing/migrations:4.1.7')],
          containers: [app('api', 'registry.acme-internal.io/billing/ledger-api:4.1.7', {
            readinessProbe: readiness(9000),
            livenessProbe: { httpGet: { path: '/live', port: 9000 }, timeoutSeconds: 3 },
          })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ prod replicas
  {
    id: 'k8s-prod-deployments-min-two-replicas',
    difficulty: 'medium',
    topics: ['kubernetes', 'replicas', 'availability', 'namespace-scope', 'defaults', 'boundary', 'lookalike'],
    labels: kube('Deployment'),
    instruction:
      "prod deployments need to survive losing a node, so any Deployment in the `prod` namespace or in a namespace whose name starts with `prod-` must run at least 2 replicas. spec.replicas not set = 1 replica (that's the k8s default) so that fails as well. Other namespaces can do what they like.",
    check: (o) => {
      const ns = nsOf(o);
      return !(ns === 'prod' || ns.startsWith('prod-')) || (o.spec.replicas ?? 1) >= 2;
    },
    inputs: [
      {
        name: 'prod-three-replicas',
        expectPassed: true,
        object: wl('Deployment', { name: 'web', ns: 'prod', replicas: 3 }, { containers: [app('web', 'registry.acme-internal.io/web/frontend:8.2.0')] }),
      },
      {
        name: 'prod-replicas-unset',
        expectPassed: false,
        object: wl('Deployment', { name: 'admin-ui', ns: 'prod' }, { containers: [app('ui', 'registry.acme-internal.io/web/admin-ui:1.4.0')] }),
      },
      {
        name: 'prod-checkout-exactly-two',
        expectPassed: true,
        object: wl('Deployment', { name: 'checkout', ns: 'prod-checkout', replicas: 2 }, { containers: [app('checkout', 'registry.acme-internal.io/shop/checkout:5.5.0')] }),
      },
      {
        name: 'prod-eu-single-replica',
        expectPassed: false,
        object: wl('Deployment', { name: 'gdpr-export', ns: 'prod-eu', replicas: 1 }, { containers: [app('export', 'registry.acme-internal.io/privacy/gdpr-export:0.6.0')] }),
      },
      {
        name: 'production-namespace-single-replica',
        expectPassed: true,
        object: wl('Deployment', { name: 'sandbox-api', ns: 'production', replicas: 1 }, { containers: [app('api', 'registry.acme-internal.io/sandbox/api:0.0.7')] }),
      },
    ],
  },

  // ------------------------------------------------------------------ zone spreading
  {
    id: 'k8s-zone-spread-for-three-plus-replicas',
    difficulty: 'hard',
    topics: ['kubernetes', 'topology-spread', 'availability', 'conditional', 'defaults', 'boundary', 'lookalike', 'arrays'],
    labels: kube('Deployment'),
    instruction: `SRE-OPS-31 zone spreading

If a Deployment asks for 3 or more replicas, its pod template must have at least one topologySpreadConstraints entry whose topologyKey is \`topology.kubernetes.io/zone\`. Spreading only by node (kubernetes.io/hostname) doesn't satisfy this, and neither does the deprecated failure-domain.beta.kubernetes.io/zone label. Deployments with fewer than 3 replicas, or with replicas unset (= 1), are exempt.`,
    check: (o) => (o.spec.replicas ?? 1) < 3 || (podOf(o).spec.topologySpreadConstraints ?? []).some((t) => t.topologyKey === 'topology.kubernetes.io/zone'),
    inputs: [
      {
        name: 'five-replicas-zone-spread',
        expectPassed: true,
        object: wl('Deployment', { name: 'api-gateway', ns: 'edge', replicas: 5 }, {
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'api-gateway' } } }],
          containers: [app('gateway', 'registry.acme-internal.io/edge/gateway:2.9.0')],
        }),
      },
      {
        name: 'three-replicas-no-constraints',
        expectPassed: false,
        object: wl('Deployment', { name: 'session-store', ns: 'edge', replicas: 3 }, {
          containers: [app('store', 'registry.acme-internal.io/edge/session-store:1.2.0')],
        }),
      },
      {
        name: 'two-replicas-no-constraints',
        expectPassed: true,
        object: wl('Deployment', { name: 'feature-admin', ns: 'platform', replicas: 2 }, {
          containers: [app('admin', 'registry.acme-internal.io/platform/feature-admin:0.4.0')],
        }),
      },
      {
        name: 'four-replicas-hostname-only',
        expectPassed: false,
        object: wl('Deployment', { name: 'search-frontend', ns: 'search', replicas: 4 }, {
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'search-frontend' } } }],
          containers: [app('frontend', 'registry.acme-internal.io/search/frontend:4.0.2')],
        }),
      },
      {
        name: 'six-replicas-host-and-zone',
        expectPassed: true,
        object: wl('Deployment', { name: 'recommendations', ns: 'ml', replicas: 6 }, {
          topologySpreadConstraints: [
            { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'recommendations' } } },
            { maxSkew: 2, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'recommendations' } } },
          ],
          containers: [app('recs', 'registry.acme-internal.io/ml/recs:0.18.0')],
        }),
      },
      {
        name: 'ten-replicas-deprecated-zone-label',
        expectPassed: false,
        object: wl('Deployment', { name: 'legacy-frontend', ns: 'legacy', replicas: 10 }, {
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'failure-domain.beta.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'legacy-frontend' } } }],
          containers: [app('frontend', 'registry.acme-internal.io/legacy/frontend:2.2.2')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ credentials in env
  {
    id: 'k8s-credential-env-vars-from-secrets',
    difficulty: 'medium',
    topics: ['kubernetes', 'env', 'secrets', 'name-pattern', 'lookalike', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "No credentials in plain env vars please. Any environment variable whose name ends in _PASSWORD, _TOKEN, _SECRET or _API_KEY has to get its value through valueFrom.secretKeyRef. A literal `value:` for those is not OK, and neither is pulling it out of a ConfigMap (configMapKeyRef). Env vars with other names aren't affected. Check init containers too.",
    check: (o) =>
      ctrsOf(podOf(o).spec).every((c) =>
        (c.env ?? []).every((e) => !/_(PASSWORD|TOKEN|SECRET|API_KEY)$/.test(e.name) || (e.value === undefined && e.valueFrom?.secretKeyRef !== undefined))),
    inputs: [
      {
        name: 'deployment-password-from-secret',
        expectPassed: true,
        object: wl('Deployment', { name: 'crm-sync', ns: 'sales' }, {
          containers: [app('sync', 'registry.acme-internal.io/sales/crm-sync:2.3.0', {
            env: [
              { name: 'LOG_LEVEL', value: 'info' },
              { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'crm-db', key: 'password' } } },
            ],
          })],
        }),
      },
      {
        name: 'deployment-literal-password',
        expectPassed: false,
        object: wl('Deployment', { name: 'crm-reports', ns: 'sales' }, {
          containers: [app('reports', 'registry.acme-internal.io/sales/crm-reports:2.3.0', {
            env: [
              { name: 'DB_USER', value: 'reports' },
              { name: 'DB_PASSWORD', value: 'Winter2025!' },
            ],
          })],
        }),
      },
      {
        name: 'statefulset-token-from-configmap',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'ci-runner', ns: 'ci' }, {
          containers: [app('runner', 'registry.acme-internal.io/ci/runner:16.11.0', {
            env: [{ name: 'GITHUB_TOKEN', valueFrom: { configMapKeyRef: { name: 'runner-config', key: 'token' } } }],
          })],
        }),
      },
      {
        name: 'pod-lookalike-names-literal',
        expectPassed: true,
        object: wl('Pod', { name: 'auth-tester', ns: 'identity' }, {
          containers: [app('tester', 'registry.acme-internal.io/identity/auth-tester:0.2.0', {
            env: [
              { name: 'DB_PASSWORD_FILE', value: '/run/secrets/db/password' },
              { name: 'TOKEN_TTL', value: '3600' },
              { name: 'SECRET_NAME', value: 'auth-tester-creds' },
            ],
          })],
        }),
      },
      {
        name: 'cronjob-init-literal-api-key',
        expectPassed: false,
        object: wl('CronJob', { name: 'payout-sync', ns: 'payments' }, {
          initContainers: [ctr('prefetch', 'registry.acme-internal.io/payments/prefetch:1.0.0', {
            env: [{ name: 'STRIPE_API_KEY', value: 'sk_live_51Hx9example0000000000' }],
          })],
          containers: [app('sync', 'registry.acme-internal.io/payments/payout-sync:1.0.0', {
            env: [{ name: 'STRIPE_API_KEY', valueFrom: { secretKeyRef: { name: 'stripe', key: 'api-key' } } }],
          })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ FinOps pod labels
  {
    id: 'k8s-pod-template-finops-labels',
    difficulty: 'medium',
    topics: ['kubernetes', 'labels', 'metadata', 'pattern', 'missing-field', 'pod-template', 'controllers'],
    labels: kube('Pod'),
    instruction: `FinOps tagging for Kubernetes. Pods must carry these labels — for a Deployment, StatefulSet, CronJob etc. that means the pod template's labels, the controller's own metadata doesn't count:
- \`app.kubernetes.io/name\` (any non-empty value)
- \`team\` (any non-empty value)
- \`cost-centre\` in the form cc- followed by exactly four digits, e.g. cc-0412

Kubecost's showback reports group by these, so pods without them end up as unallocated spend.`,
    check: (o) => {
      const l = podOf(o).meta.labels ?? {};
      return !!l['app.kubernetes.io/name'] && !!l.team && /^cc-\d{4}$/.test(l['cost-centre'] ?? '');
    },
    inputs: [
      {
        name: 'deployment-template-labels-complete',
        expectPassed: true,
        object: wl('Deployment', { name: 'catalog-api', ns: 'catalog', podLabels: { 'app.kubernetes.io/name': 'catalog-api', team: 'catalog', 'cost-centre': 'cc-0412' } }, {
          containers: [app('api', 'registry.acme-internal.io/catalog/api:7.0.1')],
        }),
      },
      {
        name: 'deployment-labels-only-on-controller',
        expectPassed: false,
        object: wl('Deployment', { name: 'catalog-indexer', ns: 'catalog', labels: { app: 'catalog-indexer', 'app.kubernetes.io/name': 'catalog-indexer', team: 'catalog', 'cost-centre': 'cc-0412' } }, {
          containers: [app('indexer', 'registry.acme-internal.io/catalog/indexer:7.0.1')],
        }),
      },
      {
        name: 'pod-cost-centre-five-digits',
        expectPassed: false,
        object: wl('Pod', { name: 'adhoc-analysis', ns: 'analytics', podLabels: { 'app.kubernetes.io/name': 'adhoc-analysis', team: 'data', 'cost-centre': 'cc-04121' } }, {
          containers: [app('notebook', 'registry.acme-internal.io/analytics/notebook:2024.10')],
        }),
      },
      {
        name: 'statefulset-us-spelling-cost-center',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'metrics-db', ns: 'monitoring', podLabels: { 'app.kubernetes.io/name': 'victoria-metrics', team: 'sre', 'cost-center': 'cc-0077' } }, {
          containers: [app('vm', 'registry.acme-internal.io/monitoring/victoria-metrics:1.102.1')],
        }),
      },
      {
        name: 'cronjob-template-labels-complete',
        expectPassed: true,
        object: wl('CronJob', { name: 'invoice-run', ns: 'billing', podLabels: { 'app.kubernetes.io/name': 'invoice-run', team: 'billing', 'cost-centre': 'cc-1180' } }, {
          containers: [app('run', 'registry.acme-internal.io/billing/invoice-run:4.1.7')],
        }),
      },
      {
        name: 'job-missing-team',
        expectPassed: false,
        object: wl('Job', { name: 'backfill-orders', ns: 'orders', podLabels: { 'app.kubernetes.io/name': 'backfill-orders', 'cost-centre': 'cc-2201' } }, {
          containers: [app('backfill', 'registry.acme-internal.io/orders/backfill:1.0.0')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ emptyDir size limits
  {
    id: 'k8s-emptydir-size-limits',
    difficulty: 'medium',
    topics: ['kubernetes', 'volumes', 'emptydir', 'numeric-bounds', 'boundary', 'units', 'conditional', 'missing-field', 'controllers'],
    labels: kube('Pod'),
    instruction: `emptyDir volumes keep filling node disks and RAM and nobody notices until the utilisation alerts fire. New rule for every pod:
1) each emptyDir volume must set sizeLimit
2) disk-backed emptyDirs (no medium, or medium "") get a sizeLimit of at most 5Gi
3) memory-backed ones (medium: Memory) count against the pod's memory, so keep them at 512Mi or less
Other volume types aren't touched by this rule.`,
    check: (o) =>
      (podOf(o).spec.volumes ?? []).filter((v) => v.emptyDir).every((v) => {
        const sl = v.emptyDir.sizeLimit;
        if (sl === undefined) return false;
        return qty(sl) <= (v.emptyDir.medium === 'Memory' ? 512 * MI : 5 * GI);
      }),
    inputs: [
      {
        name: 'deployment-disk-2gi',
        expectPassed: true,
        object: wl('Deployment', { name: 'pdf-service', ns: 'docs' }, {
          volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '2Gi' } }],
          containers: [app('pdf', 'registry.acme-internal.io/docs/pdf:2.1.0', { volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] })],
        }),
      },
      {
        name: 'deployment-emptydir-without-size-limit',
        expectPassed: false,
        object: wl('Deployment', { name: 'video-transcoder', ns: 'media' }, {
          volumes: [{ name: 'work', emptyDir: {} }],
          containers: [app('ffmpeg', 'registry.acme-internal.io/media/transcoder:6.1.0', { volumeMounts: [{ name: 'work', mountPath: '/work' }] })],
        }),
      },
      {
        name: 'statefulset-memory-512mi-and-configmap',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'hazelcast', ns: 'cache' }, {
          volumes: [
            { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '512Mi' } },
            { name: 'config', configMap: { name: 'hazelcast-config' } },
          ],
          containers: [app('hazelcast', 'registry.acme-internal.io/cache/hazelcast:5.4.0', {
            volumeMounts: [
              { name: 'shm', mountPath: '/dev/shm' },
              { name: 'config', mountPath: '/opt/hazelcast/config' },
            ],
          })],
        }),
      },
      {
        name: 'pod-memory-backed-1gi',
        expectPassed: false,
        object: wl('Pod', { name: 'chrome-headless', ns: 'qa' }, {
          volumes: [{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } }],
          containers: [app('chrome', 'registry.acme-internal.io/qa/chrome-headless:126.0', { volumeMounts: [{ name: 'dshm', mountPath: '/dev/shm' }] })],
        }),
      },
      {
        name: 'job-disk-6gi',
        expectPassed: false,
        object: wl('Job', { name: 'nightly-dump', ns: 'data' }, {
          volumes: [{ name: 'dump', emptyDir: { sizeLimit: '6Gi' } }],
          containers: [app('dump', 'registry.acme-internal.io/data/pg-dump:16.3', { volumeMounts: [{ name: 'dump', mountPath: '/dump' }] })],
        }),
      },
      {
        name: 'daemonset-no-emptydir',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'cert-sync', ns: 'security' }, {
          volumes: [
            { name: 'ca', secret: { secretName: 'corp-ca' } },
            { name: 'settings', configMap: { name: 'cert-sync' } },
          ],
          containers: [app('sync', 'registry.acme-internal.io/security/cert-sync:1.1.0', {
            volumeMounts: [
              { name: 'ca', mountPath: '/etc/ca', readOnly: true },
              { name: 'settings', mountPath: '/etc/cert-sync', readOnly: true },
            ],
          })],
        }),
      },
    ],
  },
];
