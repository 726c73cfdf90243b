// Kubernetes workload cases for own-holdout-5: startup probes instead of long liveness delays,
// Deployment revision history, StatefulSet volume claim templates, node pinning, env var names,
// container ports, DaemonSet rollouts, preStop hooks, DNS ndots, minReadySeconds / progress deadline.
import { kube, ctr, res, wl, podOf, ctrsOf, nsOf, qty } from './lib.mjs';

const small = res({ cpu: '200m', memory: '256Mi' }, { memory: '512Mi' });
const web = (name = 'app', img = 'ghcr.io/acme/storefront:4.2.1', more = {}) => ctr(name, img, { resources: small, ...more });
const http = (path, port, more = {}) => ({ httpGet: { path, port }, ...more });

export default [
  // ------------------------------------------------------------------ startup vs liveness delay
  {
    id: 'k8s-startup-probe-instead-of-liveness-delay',
    difficulty: 'hard',
    topics: ['kubernetes', 'probes', 'startup-probe', 'liveness', 'defaults', 'arithmetic', 'controllers'],
    labels: kube('Pod'),
    instruction: `SRE-1290 — stop papering over slow starts with initialDelaySeconds

We keep seeing liveness probes with initialDelaySeconds: 300 "because the app is slow to boot". That delays detection of a real hang after every restart. Rules for our long-running workloads (Deployments, StatefulSets, DaemonSets, bare Pods):

* a livenessProbe's initialDelaySeconds must be 30 or less (not set = 0, fine)
* if a container genuinely needs longer to boot, give it a startupProbe instead. The startup probe's total budget, failureThreshold × periodSeconds (Kubernetes defaults: 3 and 10 when not set), must not exceed 600 seconds / 10 minutes. Past that we'd rather the pod fail and get looked at.
* containers without probes are out of scope for this ticket, and init containers don't get probes anyway`,
    check: (o) => (podOf(o).spec.containers ?? []).every((c) => {
      if (c.livenessProbe && (c.livenessProbe.initialDelaySeconds ?? 0) > 30) return false;
      const sp = c.startupProbe;
      return !sp || (sp.failureThreshold ?? 3) * (sp.periodSeconds ?? 10) <= 600;
    }),
    inputs: [
      {
        name: 'deploy-liveness-delay-exactly-30',
        expectPassed: true,
        object: wl('Deployment', { name: 'checkout', ns: 'shop', replicas: 3 }, {
          containers: [web('checkout', 'ghcr.io/acme/checkout:8.1.0', {
            readinessProbe: http('/ready', 8080, { periodSeconds: 5 }),
            livenessProbe: http('/healthz', 8080, { initialDelaySeconds: 30, periodSeconds: 10 }),
          })],
        }),
      },
      {
        name: 'deploy-liveness-delay-120',
        expectPassed: false,
        object: wl('Deployment', { name: 'legacy-portal', ns: 'portal', replicas: 2 }, {
          containers: [web('portal', 'ghcr.io/acme/portal:11.4.2', {
            livenessProbe: http('/health', 8080, { initialDelaySeconds: 120, timeoutSeconds: 3 }),
          })],
        }),
      },
      {
        name: 'statefulset-startup-60x10',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'keycloak', ns: 'identity', replicas: 2 }, {
          containers: [web('keycloak', 'quay.io/keycloak/keycloak:24.0.5', {
            startupProbe: http('/health/started', 9000, { failureThreshold: 60, periodSeconds: 10 }),
            livenessProbe: http('/health/live', 9000, { periodSeconds: 15 }),
          })],
        }),
      },
      {
        name: 'daemonset-startup-30x30',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'gpu-feature-discovery', ns: 'gpu-operator' }, {
          containers: [web('gfd', 'nvcr.io/nvidia/gpu-feature-discovery:v0.8.2', {
            startupProbe: { exec: { command: ['test', '-f', '/etc/kubernetes/node-feature-discovery/features.d/gfd'] }, failureThreshold: 30, periodSeconds: 30 },
          })],
        }),
      },
      {
        name: 'pod-startup-threshold-61-default-period',
        expectPassed: false,
        object: wl('Pod', { name: 'ml-model-server', ns: 'ml' }, {
          containers: [
            web('server', 'ghcr.io/acme/model-server:2.0.0', {
              startupProbe: { tcpSocket: { port: 8500 }, failureThreshold: 61 },
              livenessProbe: { tcpSocket: { port: 8500 } },
            }),
            web('metrics', 'ghcr.io/acme/metrics-sidecar:1.1.0'),
          ],
        }),
      },
      {
        name: 'pod-startup-defaults-liveness-no-delay',
        expectPassed: true,
        object: wl('Pod', { name: 'feature-api', ns: 'flags' }, {
          containers: [web('api', 'ghcr.io/acme/feature-api:1.5.0', {
            startupProbe: http('/healthz', 8080),
            livenessProbe: http('/healthz', 8080, { periodSeconds: 20 }),
          })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ revisionHistoryLimit
  {
    id: 'k8s-deployment-revision-history-limit',
    difficulty: 'easy',
    topics: ['kubernetes', 'deployments', 'revision-history', 'defaults'],
    labels: kube('Deployment'),
    instruction:
      "etcd is getting bloated with old ReplicaSets 😅 pls make every Deployment set spec.revisionHistoryLimit explicitly, to 5 or lower (0 is allowed if you really never roll back). the k8s default is 10, way too many, so leaving it out counts as a fail",
    check: (o) => Number.isInteger(o.spec?.revisionHistoryLimit) && o.spec.revisionHistoryLimit <= 5,
    inputs: [
      {
        name: 'deploy-rhl-3',
        expectPassed: true,
        object: wl('Deployment', { name: 'cart', ns: 'shop', replicas: 3, extraSpec: { revisionHistoryLimit: 3 } }, { containers: [web('cart', 'ghcr.io/acme/cart:2.9.1')] }),
      },
      {
        name: 'deploy-rhl-exactly-5',
        expectPassed: true,
        object: wl('Deployment', { name: 'search-ui', ns: 'shop', replicas: 2, extraSpec: { revisionHistoryLimit: 5 } }, { containers: [web('ui', 'ghcr.io/acme/search-ui:1.18.0')] }),
      },
      {
        name: 'deploy-rhl-unset',
        expectPassed: false,
        object: wl('Deployment', { name: 'wishlist', ns: 'shop', replicas: 2 }, { containers: [web('wishlist', 'ghcr.io/acme/wishlist:0.9.0')] }),
      },
      {
        name: 'deploy-rhl-10',
        expectPassed: false,
        object: wl('Deployment', { name: 'reviews', ns: 'shop', replicas: 2, extraSpec: { revisionHistoryLimit: 10 } }, { containers: [web('reviews', 'ghcr.io/acme/reviews:3.0.0')] }),
      },
      {
        name: 'deploy-rhl-6',
        expectPassed: false,
        object: wl('Deployment', { name: 'loyalty', ns: 'crm', replicas: 1, extraSpec: { revisionHistoryLimit: 6, strategy: { type: 'Recreate' } } }, { containers: [web('loyalty', 'ghcr.io/acme/loyalty:1.1.4')] }),
      },
    ],
  },

  // ------------------------------------------------------------------ StatefulSet volumeClaimTemplates
  {
    id: 'k8s-statefulset-claim-templates',
    difficulty: 'hard',
    topics: ['kubernetes', 'statefulsets', 'storage', 'storage-class', 'quantities', 'access-modes', 'every-element'],
    labels: kube('StatefulSet'),
    instruction: `STOR-02 (StatefulSet storage)

Every volumeClaimTemplate on a StatefulSet must name its storage class explicitly (we don't want whatever the cluster default happens to be that week), and the class must be either gp3-encrypted or io2-encrypted.
Each template may request at most 500Gi of storage. Mind the units: 500G is less than 500Gi and OK, 540G is more than 500Gi and not OK.
Access modes are limited to ReadWriteOnce and ReadWriteOncePod; ReadWriteMany on EBS doesn't work anyway.`,
    check: (o) => (o.spec.volumeClaimTemplates ?? []).every((t) => {
      const s = t.spec ?? {};
      return ['gp3-encrypted', 'io2-encrypted'].includes(s.storageClassName)
        && qty(s.resources?.requests?.storage ?? '0') <= 500 * 1024 ** 3
        && (s.accessModes ?? []).every((m) => ['ReadWriteOnce', 'ReadWriteOncePod'].includes(m));
    }),
    inputs: [
      {
        name: 'sts-gp3-encrypted-100gi',
        expectPassed: true,
        object: wl('StatefulSet', {
          name: 'mongodb', ns: 'data', replicas: 3,
          extraSpec: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'gp3-encrypted', resources: { requests: { storage: '100Gi' } } } }] },
        }, { containers: [web('mongod', 'mongo:7.0.11')] }),
      },
      {
        name: 'sts-two-templates-500gi-and-500g',
        expectPassed: true,
        object: wl('StatefulSet', {
          name: 'clickhouse', ns: 'analytics', replicas: 2,
          extraSpec: {
            volumeClaimTemplates: [
              { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOncePod'], storageClassName: 'io2-encrypted', resources: { requests: { storage: '500Gi' } } } },
              { metadata: { name: 'logs' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'gp3-encrypted', resources: { requests: { storage: '500G' } } } },
            ],
          },
        }, { containers: [web('clickhouse', 'clickhouse/clickhouse-server:24.5.1')] }),
      },
      {
        name: 'sts-no-storage-class',
        expectPassed: false,
        object: wl('StatefulSet', {
          name: 'rabbitmq', ns: 'messaging', replicas: 3,
          extraSpec: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } } }] },
        }, { containers: [web('rabbitmq', 'rabbitmq:3.13.3-management')] }),
      },
      {
        name: 'sts-second-template-540g',
        expectPassed: false,
        object: wl('StatefulSet', {
          name: 'cassandra', ns: 'data', replicas: 3,
          extraSpec: {
            volumeClaimTemplates: [
              { metadata: { name: 'commitlog' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'io2-encrypted', resources: { requests: { storage: '50Gi' } } } },
              { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'gp3-encrypted', resources: { requests: { storage: '540G' } } } },
            ],
          },
        }, { containers: [web('cassandra', 'cassandra:4.1.5')] }),
      },
      {
        name: 'sts-read-write-many',
        expectPassed: false,
        object: wl('StatefulSet', {
          name: 'jenkins', ns: 'ci', replicas: 1,
          extraSpec: { volumeClaimTemplates: [{ metadata: { name: 'home' }, spec: { accessModes: ['ReadWriteMany'], storageClassName: 'gp3-encrypted', resources: { requests: { storage: '200Gi' } } } }] },
        }, { containers: [web('jenkins', 'jenkins/jenkins:2.462-jdk17')] }),
      },
      {
        name: 'sts-plain-gp3-lookalike-class',
        expectPassed: false,
        object: wl('StatefulSet', {
          name: 'zookeeper', ns: 'streaming', replicas: 3,
          extraSpec: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'gp3', resources: { requests: { storage: '10Gi' } } } }] },
        }, { containers: [web('zookeeper', 'zookeeper:3.9.2')] }),
      },
    ],
  },

  // ------------------------------------------------------------------ node pinning
  {
    id: 'k8s-no-pinning-to-a-node',
    difficulty: 'medium',
    topics: ['kubernetes', 'scheduling', 'node-selector', 'affinity', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'Please stop pinning workloads to one particular node: it breaks drains, node replacement and autoscaler scale-down. Concretely, in any pod spec (templates included): no spec.nodeName, no nodeSelector on the kubernetes.io/hostname label, and no required node affinity term (requiredDuringSchedulingIgnoredDuringExecution) matching on kubernetes.io/hostname. Selecting on other node labels (zones, node pools, instance types) is totally fine, and preferred/soft affinity on hostname is fine too.',
    check: (o) => {
      const s = podOf(o).spec;
      if (s.nodeName) return false;
      if (s.nodeSelector && 'kubernetes.io/hostname' in s.nodeSelector) return false;
      const terms = s.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
      return terms.every((t) => (t.matchExpressions ?? []).every((e) => e.key !== 'kubernetes.io/hostname'));
    },
    inputs: [
      {
        name: 'pod-node-name-set',
        expectPassed: false,
        object: wl('Pod', { name: 'disk-benchmark', ns: 'ops' }, {
          nodeName: 'ip-10-0-12-84.eu-west-1.compute.internal',
          containers: [web('fio', 'ghcr.io/acme/fio:3.37')],
        }),
      },
      {
        name: 'sts-hostname-node-selector',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'minio', ns: 'storage', replicas: 1 }, {
          nodeSelector: { 'kubernetes.io/hostname': 'storage-node-03' },
          containers: [web('minio', 'quay.io/minio/minio:RELEASE.2024-06-04T19-20-08Z')],
        }),
      },
      {
        name: 'deploy-required-affinity-on-hostname',
        expectPassed: false,
        object: wl('Deployment', { name: 'license-server', ns: 'eng-tools', replicas: 1 }, {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['worker-17'] }] }],
              },
            },
          },
          containers: [web('flexlm', 'ghcr.io/acme/flexlm:11.19')],
        }),
      },
      {
        name: 'job-preferred-affinity-on-hostname',
        expectPassed: true,
        object: wl('Job', { name: 'cache-warmup', ns: 'shop' }, {
          affinity: {
            nodeAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [{
                weight: 50,
                preference: { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['worker-02', 'worker-03'] }] },
              }],
            },
          },
          containers: [web('warmup', 'ghcr.io/acme/cache-warmup:1.0.2')],
        }),
      },
      {
        name: 'cronjob-required-zone-affinity',
        expectPassed: true,
        object: wl('CronJob', { name: 'zone-report', ns: 'finops', schedule: '0 5 * * 1' }, {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['eu-west-1a', 'eu-west-1b'] }] }],
              },
            },
          },
          containers: [web('report', 'ghcr.io/acme/finops-report:0.3.0')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ env var names
  {
    id: 'k8s-env-var-names-upper-snake',
    difficulty: 'medium',
    topics: ['kubernetes', 'environment', 'naming', 'regex', 'every-element', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: `DEVX-88: env var naming

Our config loader only picks up upper-case variables and lower-case ones have bitten us twice in prod.

AC: every entry in env[] of every container, init containers included, must have a name made only of upper-case letters, digits and underscores, and starting with a letter (DB_HOST, HTTP2_ENABLED, S3_BUCKET). No dots, no dashes, no lower case.
envFrom is not part of this ticket.`,
    check: (o) => ctrsOf(podOf(o).spec).every((c) => (c.env ?? []).every((e) => /^[A-Z][A-Z0-9_]*$/.test(e.name))),
    inputs: [
      {
        name: 'deploy-upper-snake-names',
        expectPassed: true,
        object: wl('Deployment', { name: 'shipping', ns: 'logistics', replicas: 2 }, {
          containers: [web('shipping', 'ghcr.io/acme/shipping:4.0.0', {
            env: [{ name: 'DB_HOST', value: 'shipping-db.logistics.svc' }, { name: 'HTTP2_ENABLED', value: 'true' }, { name: 'S3_BUCKET', value: 'acme-shipping-labels' }],
          })],
        }),
      },
      {
        name: 'deploy-lowercase-name',
        expectPassed: false,
        object: wl('Deployment', { name: 'tracking', ns: 'logistics', replicas: 2 }, {
          containers: [web('tracking', 'ghcr.io/acme/tracking:1.7.3', { env: [{ name: 'LOG_FORMAT', value: 'json' }, { name: 'log_level', value: 'info' }] })],
        }),
      },
      {
        name: 'job-init-container-dash',
        expectPassed: false,
        object: wl('Job', { name: 'seed-carriers', ns: 'logistics' }, {
          initContainers: [ctr('wait', 'ghcr.io/acme/wait-for:1.1.0', { env: [{ name: 'DB-HOST', value: 'shipping-db' }] })],
          containers: [web('seed', 'ghcr.io/acme/seed:1.0.0', { env: [{ name: 'DB_HOST', value: 'shipping-db' }] })],
        }),
      },
      {
        name: 'statefulset-dotted-name',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'config-server', ns: 'platform', replicas: 2 }, {
          containers: [web('config', 'ghcr.io/acme/config-server:3.1.0', { env: [{ name: 'spring.profiles.active', value: 'prod' }] })],
        }),
      },
      {
        name: 'pod-leading-digit',
        expectPassed: false,
        object: wl('Pod', { name: 'auth-canary', ns: 'identity' }, {
          containers: [web('auth', 'ghcr.io/acme/auth:6.2.0', { env: [{ name: '2FA_ENABLED', value: 'true' }] })],
        }),
      },
      {
        name: 'cronjob-envfrom-prefix-lowercase',
        expectPassed: true,
        object: wl('CronJob', { name: 'rates-refresh', ns: 'logistics', schedule: '*/30 * * * *' }, {
          containers: [web('refresh', 'ghcr.io/acme/rates-refresh:0.8.0', {
            envFrom: [{ prefix: 'carrier_', configMapRef: { name: 'carrier-endpoints' } }],
            env: [{ name: 'REFRESH_WINDOW_HOURS', value: '6' }],
          })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ container ports
  {
    id: 'k8s-container-port-hygiene',
    difficulty: 'medium',
    topics: ['kubernetes', 'ports', 'protocol', 'namespace-scope', 'defaults', 'controllers'],
    labels: kube('Pod'),
    instruction: `Port hygiene for container specs (init containers too):
1. every entry under ports[] must have a name, because our Services target ports by name, not number
2. protocol must be TCP; leaving protocol out is fine since it defaults to TCP
3. UDP is only OK in the dns and monitoring namespaces (coredns, statsd)
4. SCTP is never OK, anywhere`,
    check: (o) => {
      const udpOk = ['dns', 'monitoring'].includes(nsOf(o));
      return ctrsOf(podOf(o).spec).every((c) => (c.ports ?? []).every((p) => {
        const proto = p.protocol ?? 'TCP';
        return !!p.name && (proto === 'TCP' || (proto === 'UDP' && udpOk));
      }));
    },
    inputs: [
      {
        name: 'deploy-named-ports-default-protocol',
        expectPassed: true,
        object: wl('Deployment', { name: 'gateway', ns: 'edge', replicas: 3 }, {
          containers: [web('envoy', 'envoyproxy/envoy:v1.30.2', { ports: [{ name: 'http', containerPort: 8080 }, { name: 'admin', containerPort: 9901, protocol: 'TCP' }] })],
        }),
      },
      {
        name: 'deploy-unnamed-port',
        expectPassed: false,
        object: wl('Deployment', { name: 'profile', ns: 'identity', replicas: 2 }, {
          containers: [web('profile', 'ghcr.io/acme/profile:2.2.0', { ports: [{ name: 'http', containerPort: 8080 }, { containerPort: 9090 }] })],
        }),
      },
      {
        name: 'daemonset-monitoring-udp-statsd',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'statsd-exporter', ns: 'monitoring' }, {
          containers: [web('exporter', 'prom/statsd-exporter:v0.26.1', { ports: [{ name: 'statsd-udp', containerPort: 9125, protocol: 'UDP' }, { name: 'metrics', containerPort: 9102 }] })],
        }),
      },
      {
        name: 'deploy-payments-udp',
        expectPassed: false,
        object: wl('Deployment', { name: 'fraud-scorer', ns: 'payments', replicas: 2 }, {
          containers: [web('scorer', 'ghcr.io/acme/fraud-scorer:5.5.0', { ports: [{ name: 'http', containerPort: 8080 }, { name: 'telemetry', containerPort: 8125, protocol: 'UDP' }] })],
        }),
      },
      {
        name: 'sts-monitoring-sctp',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'diameter-probe', ns: 'monitoring', replicas: 1 }, {
          containers: [web('probe', 'ghcr.io/acme/diameter-probe:0.2.0', { ports: [{ name: 'diameter', containerPort: 3868, protocol: 'SCTP' }] })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ DaemonSet rollout
  {
    id: 'k8s-daemonset-rolling-update-limits',
    difficulty: 'hard',
    topics: ['kubernetes', 'daemonsets', 'update-strategy', 'int-or-percent', 'defaults'],
    labels: kube('DaemonSet'),
    instruction: `For DaemonSets we want controlled rollouts accross the whole fleet:
- updateStrategy.type has to be RollingUpdate. OnDelete means nobody ever actually rolls the change out. No type set = RollingUpdate (k8s default), fine.
- rollingUpdate.maxUnavailable: either an absolute number no bigger than 5, or a percentage of at most 10%. Not set = 1, which is fine.
- maxSurge must be 0 or not set, our CNI and storage agents can't run two copies on one node.`,
    check: (o) => {
      const us = o.spec.updateStrategy ?? {};
      if ((us.type ?? 'RollingUpdate') !== 'RollingUpdate') return false;
      const mu = us.rollingUpdate?.maxUnavailable ?? 1;
      const muOk = typeof mu === 'string' ? Number(mu.replace('%', '')) <= 10 : mu <= 5;
      const ms = us.rollingUpdate?.maxSurge;
      return muOk && (ms === undefined || ms === 0 || ms === '0%');
    },
    inputs: [
      {
        name: 'ds-no-update-strategy',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'kube-proxy-lite', ns: 'kube-system' }, { containers: [web('proxy', 'registry.k8s.io/kube-proxy:v1.30.2')] }),
      },
      {
        name: 'ds-on-delete',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'cilium-agent', ns: 'kube-system', extraSpec: { updateStrategy: { type: 'OnDelete' } } }, { containers: [web('agent', 'quay.io/cilium/cilium:v1.15.6')] }),
      },
      {
        name: 'ds-max-unavailable-10-percent',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'node-exporter', ns: 'monitoring', extraSpec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%' } } } }, { containers: [web('exporter', 'quay.io/prometheus/node-exporter:v1.8.1')] }),
      },
      {
        name: 'ds-max-unavailable-25-percent',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'fluent-bit', ns: 'logging', extraSpec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%' } } } }, { containers: [web('fluent-bit', 'cr.fluentbit.io/fluent/fluent-bit:3.0.4')] }),
      },
      {
        name: 'ds-max-unavailable-5',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'ebs-csi-node', ns: 'kube-system', extraSpec: { updateStrategy: { rollingUpdate: { maxUnavailable: 5 } } } }, { containers: [web('ebs-plugin', 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.31.0')] }),
      },
      {
        name: 'ds-max-surge-1',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'datadog-agent', ns: 'monitoring', extraSpec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } } }, { containers: [web('agent', 'gcr.io/datadoghq/agent:7.54.0')] }),
      },
    ],
  },

  // ------------------------------------------------------------------ preStop hooks for frontends
  {
    id: 'k8s-frontend-prestop-hook',
    difficulty: 'medium',
    topics: ['kubernetes', 'lifecycle', 'graceful-shutdown', 'label-scope', 'defaults', 'controllers'],
    labels: kube('Pod'),
    instruction: `Anything in the frontend tier (pods labelled tier: frontend) sits behind the load balancer and drops requests during rollouts unless it keeps serving until the endpoints update.
So for pods labelled tier=frontend:
- every container (sidecars included, init containers not) needs a lifecycle.preStop hook; any handler type is fine (exec, sleep, httpGet)
- terminationGracePeriodSeconds must be at least 30. The default is 30, so leaving it out is OK.
Pods without that label aren't in scope.`,
    check: (o) => {
      const { meta, spec } = podOf(o);
      if (meta.labels?.tier !== 'frontend') return true;
      const hasHook = (c) => ['exec', 'sleep', 'httpGet', 'tcpSocket'].some((h) => c.lifecycle?.preStop?.[h]);
      return (spec.containers ?? []).every(hasHook) && (spec.terminationGracePeriodSeconds ?? 30) >= 30;
    },
    inputs: [
      {
        name: 'deploy-frontend-prestop-sleep',
        expectPassed: true,
        object: wl('Deployment', { name: 'storefront', ns: 'shop', replicas: 4, podLabels: { tier: 'frontend' } }, {
          terminationGracePeriodSeconds: 45,
          containers: [web('web', 'ghcr.io/acme/storefront:4.2.1', { lifecycle: { preStop: { sleep: { seconds: 15 } } } })],
        }),
      },
      {
        name: 'deploy-frontend-sidecar-without-hook',
        expectPassed: false,
        object: wl('Deployment', { name: 'account-ui', ns: 'identity', replicas: 3, podLabels: { tier: 'frontend' } }, {
          containers: [
            web('ui', 'ghcr.io/acme/account-ui:2.0.3', { lifecycle: { preStop: { exec: { command: ['sh', '-c', 'sleep 10'] } } } }),
            web('oauth2-proxy', 'quay.io/oauth2-proxy/oauth2-proxy:v7.6.0'),
          ],
        }),
      },
      {
        name: 'deploy-frontend-grace-20',
        expectPassed: false,
        object: wl('Deployment', { name: 'landing', ns: 'marketing', replicas: 2, podLabels: { tier: 'frontend' } }, {
          terminationGracePeriodSeconds: 20,
          containers: [web('nginx', 'nginxinc/nginx-unprivileged:1.27.0', { lifecycle: { preStop: { exec: { command: ['/usr/sbin/nginx', '-s', 'quit'] } } } })],
        }),
      },
      {
        name: 'sts-frontend-no-lifecycle',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'docs-site', ns: 'docs', replicas: 2, podLabels: { tier: 'frontend' } }, {
          containers: [web('docs', 'ghcr.io/acme/docs-site:2024.06.1')],
        }),
      },
      {
        name: 'pod-frontend-httpget-hook-grace-default',
        expectPassed: true,
        object: wl('Pod', { name: 'status-page', ns: 'ops', podLabels: { tier: 'frontend' } }, {
          initContainers: [ctr('render', 'ghcr.io/acme/status-render:0.4.0')],
          containers: [web('status', 'ghcr.io/acme/status-page:1.2.0', { lifecycle: { preStop: { httpGet: { path: '/drain', port: 8080 } } } })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ ndots
  {
    id: 'k8s-dns-ndots-edge-namespaces',
    difficulty: 'medium',
    topics: ['kubernetes', 'dns', 'dns-config', 'namespace-scope', 'defaults', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "DNS load: with the default ndots:5 every external lookup (api.stripe.com, ...) first runs through 4-5 usless search-domain queries and it is hammering CoreDNS. For pods in namespaces starting with edge- or in the namespace called gateway, set an ndots option in spec.dnsConfig.options with a value of 2 or lower (the value is a string in the manifest, e.g. \"2\"). No ndots option there = the default of 5 = fail. Pods in other namespaces can do what they like.",
    check: (o) => {
      const ns = nsOf(o);
      if (!(ns.startsWith('edge-') || ns === 'gateway')) return true;
      const opt = (podOf(o).spec.dnsConfig?.options ?? []).find((x) => x.name === 'ndots');
      return !!opt && Number(opt.value) <= 2;
    },
    inputs: [
      {
        name: 'deploy-edge-ndots-2',
        expectPassed: true,
        object: wl('Deployment', { name: 'webhook-relay', ns: 'edge-public', replicas: 3 }, {
          dnsConfig: { options: [{ name: 'ndots', value: '2' }, { name: 'single-request-reopen' }] },
          containers: [web('relay', 'ghcr.io/acme/webhook-relay:1.6.0')],
        }),
      },
      {
        name: 'deploy-edge-no-dnsconfig',
        expectPassed: false,
        object: wl('Deployment', { name: 'oauth-callback', ns: 'edge-auth', replicas: 2 }, {
          containers: [web('callback', 'ghcr.io/acme/oauth-callback:0.9.4')],
        }),
      },
      {
        name: 'deploy-gateway-ndots-3',
        expectPassed: false,
        object: wl('Deployment', { name: 'api-gateway', ns: 'gateway', replicas: 4 }, {
          dnsConfig: { options: [{ name: 'ndots', value: '3' }] },
          containers: [web('kong', 'kong:3.7.0')],
        }),
      },
      {
        name: 'sts-edge-only-timeout-option',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'edge-cache', ns: 'edge-cdn', replicas: 3 }, {
          dnsConfig: { options: [{ name: 'timeout', value: '2' }] },
          containers: [web('varnish', 'varnish:7.5.0')],
        }),
      },
      {
        name: 'pod-payments-no-dnsconfig',
        expectPassed: true,
        object: wl('Pod', { name: 'ledger-debug', ns: 'payments' }, {
          containers: [web('debug', 'ghcr.io/acme/ledger:5.0.0')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ minReadySeconds / progressDeadlineSeconds
  {
    id: 'k8s-prod-deployment-rollout-timing',
    difficulty: 'medium',
    topics: ['kubernetes', 'deployments', 'rollout', 'label-scope', 'defaults'],
    labels: kube('Deployment'),
    instruction:
      "For production Deployments (the Deployment itself carries the label env=production): minReadySeconds has to be at least 15, so a pod that crashes right after turning ready isn't counted as available, and progressDeadlineSeconds, if you set it, must be 900 or less. Kubernetes defaults it to 600 which is fine. Deployments without env=production are not in scope.",
    check: (o) => {
      if (o.metadata?.labels?.env !== 'production') return true;
      return (o.spec.minReadySeconds ?? 0) >= 15 && (o.spec.progressDeadlineSeconds ?? 600) <= 900;
    },
    inputs: [
      {
        name: 'deploy-prod-minready-15-deadline-default',
        expectPassed: true,
        object: wl('Deployment', { name: 'checkout', ns: 'shop', replicas: 4, labels: { app: 'checkout', env: 'production' }, extraSpec: { minReadySeconds: 15 } }, { containers: [web('checkout', 'ghcr.io/acme/checkout:8.1.0')] }),
      },
      {
        name: 'deploy-prod-minready-missing',
        expectPassed: false,
        object: wl('Deployment', { name: 'payments-api', ns: 'payments', replicas: 3, labels: { app: 'payments-api', env: 'production' } }, { containers: [web('api', 'ghcr.io/acme/payments-api:9.0.2')] }),
      },
      {
        name: 'deploy-prod-deadline-1200',
        expectPassed: false,
        object: wl('Deployment', { name: 'search', ns: 'shop', replicas: 3, labels: { app: 'search', env: 'production' }, extraSpec: { minReadySeconds: 30, progressDeadlineSeconds: 1200 } }, { containers: [web('search', 'ghcr.io/acme/search:4.4.0')] }),
      },
      {
        name: 'deploy-prod-deadline-900',
        expectPassed: true,
        object: wl('Deployment', { name: 'inventory', ns: 'shop', replicas: 3, labels: { app: 'inventory', env: 'production' }, extraSpec: { minReadySeconds: 20, progressDeadlineSeconds: 900 } }, { containers: [web('inventory', 'ghcr.io/acme/inventory-api:2.8.0')] }),
      },
      {
        name: 'deploy-prod-minready-10',
        expectPassed: false,
        object: wl('Deployment', { name: 'cart', ns: 'shop', replicas: 3, labels: { app: 'cart', env: 'production' }, extraSpec: { minReadySeconds: 10 } }, { containers: [web('cart', 'ghcr.io/acme/cart:2.9.1')] }),
      },
    ],
  },
];
