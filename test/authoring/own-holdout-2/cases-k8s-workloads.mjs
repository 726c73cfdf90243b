// Kubernetes: images, resources, probes, env credentials, replicas/spread, tolerations,
// Job/CronJob settings, GPU scheduling.
import { kube, ctr, res, wl, podOf, ctrsOf, nsOf, qty, image, hex } from './lib.mjs';

const R = res({ cpu: '100m', memory: '128Mi' }, { memory: '256Mi' });
const app = (name, img, more = {}) => ctr(name, img, { resources: R, ...more });
const dig = (seed) => `sha256:${hex(seed)}`;
const ECR = '318244012339.dkr.ecr.eu-west-2.amazonaws.com';

export default [
  // ------------------------------------------------------------------ registry allowlist
  {
    id: 'k8s-images-only-from-internal-registry-or-ecr',
    difficulty: 'medium',
    topics: ['kubernetes', 'images', 'registries', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: `Images may only be pulled from our two registries: registry.internal.acme.io (any path under it) and our ECR, ${ECR}. That means no Docker Hub - and that includes the implicit kind like \`redis:7\` or \`bitnami/kafka\` with no registry host - and no ghcr.io, quay.io etc. Init containers count too.`,
    check(o) {
      const allowed = new Set(['registry.internal.acme.io', ECR]);
      return ctrsOf(podOf(o).spec).every((c) => allowed.has(image(c.image).host));
    },
    inputs: [
      {
        name: 'pod-both-registries',
        expectPassed: true,
        object: wl('Pod', { name: 'quote-engine', ns: 'pricing' }, {
          initContainers: [app('warmup', 'registry.internal.acme.io/pricing/warmup:0.3.1')],
          containers: [app('engine', `${ECR}/pricing/quote-engine:2.14.0`)],
        }),
      },
      {
        name: 'deployment-implicit-docker-hub-sidecar',
        expectPassed: false,
        object: wl('Deployment', { name: 'rate-limiter', ns: 'edge', replicas: 2 }, {
          containers: [app('limiter', 'registry.internal.acme.io/edge/rate-limiter:1.0.4'), app('redis', 'redis:7.2')],
        }),
      },
      {
        name: 'statefulset-init-from-ghcr',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'events-store', ns: 'events', replicas: 3 }, {
          initContainers: [app('schema', 'ghcr.io/acme/events-schema:1.2')],
          containers: [app('store', 'registry.internal.acme.io/events/store:4.0')],
        }),
      },
      {
        name: 'deployment-lookalike-host',
        expectPassed: false,
        object: wl('Deployment', { name: 'catalogue', ns: 'shop', replicas: 2 }, {
          containers: [app('catalogue', 'registry.internal.acme.io.mirror.example.net/shop/catalogue:3.1')],
        }),
      },
      {
        name: 'cronjob-ecr-by-digest',
        expectPassed: true,
        object: wl('CronJob', { name: 'fx-rates-sync', ns: 'pricing', schedule: '*/30 * * * *' }, {
          containers: [app('sync', `${ECR}/pricing/fx-sync@${dig('fx')}`)],
        }),
      },
      {
        name: 'daemonset-docker-hub-org-image',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'kafka-proxy', ns: 'events' }, {
          containers: [app('proxy', 'bitnami/kafka:3.6')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ digest pinning in prod-*
  {
    id: 'k8s-prod-namespaces-pin-digests',
    difficulty: 'hard',
    topics: ['kubernetes', 'images', 'digests', 'tags', 'namespaces', 'conditional'],
    labels: kube('Pod'),
    instruction: `For anything in a namespace whose name starts with "prod-" (prod-payments, prod-search, ...), every container image - init containers included - has to be pinned by digest, i.e. @sha256: followed by the 64 hex chars; having a tag in front of the digest as well is fine. Outside the prod- namespaces we only ask that each image has an explicit tag that isn't "latest", or a digest.`,
    check(o) {
      const prod = nsOf(o).startsWith('prod-');
      return ctrsOf(podOf(o).spec).every((c) => {
        const i = image(c.image);
        const pinned = /^sha256:[0-9a-f]{64}$/.test(i.digest ?? '');
        if (prod) return pinned;
        return pinned || (!!i.tag && i.tag !== 'latest');
      });
    },
    inputs: [
      {
        name: 'prod-deployment-all-pinned',
        expectPassed: true,
        object: wl('Deployment', { name: 'payments-api', ns: 'prod-payments', replicas: 4 }, {
          initContainers: [app('migrate', `registry.acme.io/payments/migrate@${dig('migrate')}`)],
          containers: [app('api', `registry.acme.io/payments/api:9.1.0@${dig('api')}`)],
        }),
      },
      {
        name: 'prod-deployment-init-tag-only',
        expectPassed: false,
        object: wl('Deployment', { name: 'search-frontend', ns: 'prod-search', replicas: 3 }, {
          initContainers: [app('index-check', 'registry.acme.io/search/index-check:2.0.0')],
          containers: [app('frontend', `registry.acme.io/search/frontend@${dig('frontend')}`)],
        }),
      },
      {
        name: 'staging-pod-with-tag',
        expectPassed: true,
        object: wl('Pod', { name: 'payments-api', ns: 'staging-payments' }, {
          containers: [app('api', 'registry.acme.io/payments/api:9.2.0-rc.1')],
        }),
      },
      {
        name: 'staging-pod-no-tag',
        expectPassed: false,
        object: wl('Pod', { name: 'nginx-test', ns: 'staging-web' }, {
          containers: [app('nginx', 'registry.acme.io/web/nginx')],
        }),
      },
      {
        name: 'dev-statefulset-latest',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'mongo', ns: 'dev-catalogue', replicas: 1 }, {
          containers: [app('mongo', 'registry.acme.io/db/mongo:latest')],
        }),
      },
      {
        name: 'prod-cronjob-tag-only',
        expectPassed: false,
        object: wl('CronJob', { name: 'invoice-run', ns: 'prod-billing', schedule: '0 4 1 * *' }, {
          containers: [app('invoices', 'registry.acme.io/billing/invoice-run:v2')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ CPU / memory bounds
  {
    id: 'k8s-container-requests-and-limits-bounds',
    difficulty: 'medium',
    topics: ['kubernetes', 'resources', 'quantities', 'numeric-bounds', 'init-containers'],
    labels: kube('Pod'),
    instruction: `Resource policy, applies to every container incl. init containers:
* requests.cpu and requests.memory must both be set
* cpu request at least 50m, memory request at least 64Mi
* limits.memory must be set, no more than 8Gi
* limits.cpu is optional (we don't love CPU throttling) but if it's there it can't be more than 4 cores`,
    check(o) {
      return ctrsOf(podOf(o).spec).every((c) => {
        const r = c.resources ?? {};
        if (r.requests?.cpu === undefined || r.requests?.memory === undefined || r.limits?.memory === undefined) return false;
        if (qty(r.requests.cpu) < 0.05 || qty(r.requests.memory) < qty('64Mi')) return false;
        if (qty(r.limits.memory) > qty('8Gi')) return false;
        return r.limits.cpu === undefined || qty(r.limits.cpu) <= 4;
      });
    },
    inputs: [
      {
        name: 'pod-at-the-minimums-no-cpu-limit',
        expectPassed: true,
        object: wl('Pod', { name: 'tiny-worker', ns: 'jobs' }, {
          containers: [ctr('worker', 'registry.acme.io/jobs/tiny:1.0', { resources: res({ cpu: '50m', memory: '64Mi' }, { memory: '8Gi' }) })],
        }),
      },
      {
        name: 'deployment-decimal-cpu-and-limits-at-max',
        expectPassed: true,
        object: wl('Deployment', { name: 'recommender', ns: 'ml', replicas: 2 }, {
          containers: [ctr('model', 'registry.acme.io/ml/recommender:0.21', { resources: res({ cpu: '0.25', memory: '1Gi' }, { cpu: '4', memory: '8192Mi' }) })],
        }),
      },
      {
        name: 'deployment-init-container-without-requests',
        expectPassed: false,
        object: wl('Deployment', { name: 'wiki', ns: 'internal-tools', replicas: 1 }, {
          initContainers: [ctr('chown', 'registry.acme.io/tools/busybox:1.36', { resources: { limits: { memory: '64Mi' } } })],
          containers: [ctr('wiki', 'registry.acme.io/tools/wiki:2.5', { resources: res({ cpu: '200m', memory: '512Mi' }, { memory: '1Gi' }) })],
        }),
      },
      {
        name: 'statefulset-memory-limit-9gi',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'clickhouse', ns: 'analytics', replicas: 3 }, {
          containers: [ctr('clickhouse', 'registry.acme.io/db/clickhouse:24.3', { resources: res({ cpu: '2', memory: '6Gi' }, { memory: '9Gi' }) })],
        }),
      },
      {
        name: 'pod-cpu-limit-4500m',
        expectPassed: false,
        object: wl('Pod', { name: 'video-encode', ns: 'media' }, {
          containers: [ctr('encode', 'registry.acme.io/media/encode:3.0', { resources: res({ cpu: '2', memory: '2Gi' }, { cpu: '4500m', memory: '4Gi' }) })],
        }),
      },
      {
        name: 'job-memory-request-60mi',
        expectPassed: false,
        object: wl('Job', { name: 'cleanup', ns: 'ops' }, {
          containers: [ctr('cleanup', 'registry.acme.io/ops/cleanup:0.4', { resources: res({ cpu: '100m', memory: '60Mi' }, { memory: '128Mi' }) })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ liveness probe timing
  {
    id: 'k8s-liveness-probe-timing-defaults',
    difficulty: 'medium',
    topics: ['kubernetes', 'probes', 'liveness', 'defaults', 'numeric-bounds'],
    labels: kube('Pod'),
    instruction: `We keep gettting restart storms from over-eager liveness probes. From now on, for any container that has a livenessProbe: timeoutSeconds must be at least 2 (k8s default is 1, so leaving it out fails), failureThreshold at least 3 (leaving it out is fine, the default is 3) and periodSeconds at least 10 (default 10, so unset is fine too). Containers without a liveness probe aren't covered by this rule, and readiness/startup probes aren't either.`,
    check(o) {
      return ctrsOf(podOf(o).spec).every((c) => {
        const p = c.livenessProbe;
        if (!p) return true;
        return (p.timeoutSeconds ?? 1) >= 2 && (p.failureThreshold ?? 3) >= 3 && (p.periodSeconds ?? 10) >= 10;
      });
    },
    inputs: [
      {
        name: 'deployment-timeout-2-rest-default',
        expectPassed: true,
        object: wl('Deployment', { name: 'inventory', ns: 'warehouse', replicas: 3 }, {
          containers: [app('inventory', 'registry.acme.io/warehouse/inventory:1.7', { ports: [{ name: 'http', containerPort: 8080 }], livenessProbe: { httpGet: { path: '/livez', port: 'http' }, timeoutSeconds: 2 } })],
        }),
      },
      {
        name: 'deployment-timeout-left-out',
        expectPassed: false,
        object: wl('Deployment', { name: 'shipping', ns: 'warehouse', replicas: 2 }, {
          containers: [app('shipping', 'registry.acme.io/warehouse/shipping:2.0', { livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 15, failureThreshold: 5 } })],
        }),
      },
      {
        name: 'pod-failure-threshold-1',
        expectPassed: false,
        object: wl('Pod', { name: 'ws-gateway', ns: 'edge' }, {
          containers: [app('gateway', 'registry.acme.io/edge/ws-gateway:0.9', { livenessProbe: { tcpSocket: { port: 9000 }, timeoutSeconds: 5, failureThreshold: 1 } })],
        }),
      },
      {
        name: 'statefulset-period-5',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'zookeeper', ns: 'events', replicas: 3 }, {
          containers: [app('zk', 'registry.acme.io/events/zookeeper:3.9', { livenessProbe: { exec: { command: ['zkOk.sh'] }, timeoutSeconds: 3, periodSeconds: 5 } })],
        }),
      },
      {
        name: 'deployment-readiness-probe-only',
        expectPassed: true,
        object: wl('Deployment', { name: 'static-assets', ns: 'web', replicas: 2 }, {
          containers: [app('assets', 'registry.acme.io/web/assets:5.5', { readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 3 } })],
        }),
      },
      {
        name: 'daemonset-two-containers-one-bad',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'node-agent', ns: 'monitoring' }, {
          containers: [
            app('agent', 'registry.acme.io/obs/node-agent:1.3', { livenessProbe: { httpGet: { path: '/health', port: 9100 }, timeoutSeconds: 3, periodSeconds: 30, failureThreshold: 5 } }),
            app('reloader', 'registry.acme.io/obs/config-reloader:0.6', { livenessProbe: { httpGet: { path: '/health', port: 9533 } } }),
          ],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ production replicas + spread
  {
    id: 'k8s-production-deployments-replicas-and-spread',
    difficulty: 'hard',
    topics: ['kubernetes', 'availability', 'replicas', 'topology-spread', 'anti-affinity', 'conditional'],
    labels: kube('Deployment'),
    instruction: `Availability rule for Deployments labelled env: production (the label on the Deployment's own metadata):
1) at least 3 replicas - careful, leaving replicas out means 1
2) the pods have to be spread out, either with a topologySpreadConstraints entry whose topologyKey is topology.kubernetes.io/zone, or with a podAntiAffinity term (required or preferred, either is fine) whose topologyKey is topology.kubernetes.io/zone or kubernetes.io/hostname
Deployments without env: production aren't checked.`,
    check(o) {
      if (o.metadata?.labels?.env !== 'production') return true;
      if ((o.spec?.replicas ?? 1) < 3) return false;
      const spec = podOf(o).spec;
      if ((spec.topologySpreadConstraints ?? []).some((t) => t.topologyKey === 'topology.kubernetes.io/zone')) return true;
      const keys = new Set(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
      const anti = spec.affinity?.podAntiAffinity ?? {};
      return (anti.requiredDuringSchedulingIgnoredDuringExecution ?? []).some((t) => keys.has(t.topologyKey))
        || (anti.preferredDuringSchedulingIgnoredDuringExecution ?? []).some((w) => keys.has(w.podAffinityTerm?.topologyKey));
    },
    inputs: [
      {
        name: 'prod-three-replicas-zone-spread',
        expectPassed: true,
        object: wl('Deployment', { name: 'checkout', ns: 'shop', replicas: 3, labels: { app: 'checkout', env: 'production' } }, {
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'checkout' } } }],
          containers: [app('checkout', 'registry.acme.io/shop/checkout:8.0')],
        }),
      },
      {
        name: 'prod-replicas-missing',
        expectPassed: false,
        object: wl('Deployment', { name: 'basket', ns: 'shop', labels: { app: 'basket', env: 'production' } }, {
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'basket' } } }],
          containers: [app('basket', 'registry.acme.io/shop/basket:2.3')],
        }),
      },
      {
        name: 'prod-four-replicas-no-spread',
        expectPassed: false,
        object: wl('Deployment', { name: 'pricing', ns: 'shop', replicas: 4, labels: { app: 'pricing', env: 'production' } }, {
          containers: [app('pricing', 'registry.acme.io/shop/pricing:1.1')],
        }),
      },
      {
        name: 'prod-preferred-hostname-anti-affinity',
        expectPassed: true,
        object: wl('Deployment', { name: 'search', ns: 'search', replicas: 6, labels: { app: 'search', env: 'production', team: 'discovery' } }, {
          affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'search' } } } }] } },
          containers: [app('search', 'registry.acme.io/search/search:7.7')],
        }),
      },
      {
        name: 'staging-single-replica-not-checked',
        expectPassed: true,
        object: wl('Deployment', { name: 'checkout', ns: 'shop-staging', replicas: 1, labels: { app: 'checkout', env: 'staging' } }, {
          containers: [app('checkout', 'registry.acme.io/shop/checkout:8.1-rc1')],
        }),
      },
      {
        name: 'prod-spread-by-hostname-constraint-only',
        expectPassed: false,
        object: wl('Deployment', { name: 'reviews', ns: 'shop', replicas: 3, labels: { app: 'reviews', env: 'production' } }, {
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'reviews' } } }],
          containers: [app('reviews', 'registry.acme.io/shop/reviews:4.0')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ credentials in env
  {
    id: 'k8s-credential-env-vars-from-secrets',
    difficulty: 'medium',
    topics: ['kubernetes', 'env', 'secrets', 'credentials', 'init-containers'],
    labels: kube('Pod'),
    instruction: `nobody should be pasting credentials straight into env. if an env var's name contains PASSWORD, PASSWD, SECRET or API_KEY (any upper/lower case) it has to come from a Secret through valueFrom.secretKeyRef - a literal value or a configMapKeyRef doesn't cut it. envFrom isn't covered by this one. oh and init containers too`,
    check(o) {
      const words = ['PASSWORD', 'PASSWD', 'SECRET', 'API_KEY'];
      return ctrsOf(podOf(o).spec).every((c) => (c.env ?? []).every((e) => !words.some((w) => e.name.toUpperCase().includes(w)) || !!e.valueFrom?.secretKeyRef));
    },
    inputs: [
      {
        name: 'deployment-password-from-secret',
        expectPassed: true,
        object: wl('Deployment', { name: 'crm-sync', ns: 'sales', replicas: 1 }, {
          containers: [app('sync', 'registry.acme.io/sales/crm-sync:1.6', {
            env: [
              { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'crm-db', key: 'password' } } },
              { name: 'LOG_LEVEL', value: 'info' },
              { name: 'DB_HOST', valueFrom: { configMapKeyRef: { name: 'crm-settings', key: 'db_host' } } },
            ],
          })],
        }),
      },
      {
        name: 'pod-literal-client-secret',
        expectPassed: false,
        object: wl('Pod', { name: 'oauth-proxy', ns: 'internal-tools' }, {
          containers: [app('proxy', 'registry.acme.io/tools/oauth2-proxy:7.6', { env: [{ name: 'OAUTH2_PROXY_CLIENT_SECRET', value: 'd2f1c3b9e8a7' }] })],
        }),
      },
      {
        name: 'statefulset-lowercase-api-key-from-configmap',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'payments-ledger', ns: 'payments', replicas: 2 }, {
          containers: [app('ledger', 'registry.acme.io/payments/ledger:3.0', { env: [{ name: 'stripe_api_key', valueFrom: { configMapKeyRef: { name: 'payments-config', key: 'stripe' } } }] })],
        }),
      },
      {
        name: 'job-init-container-literal-passwd',
        expectPassed: false,
        object: wl('Job', { name: 'ldap-import', ns: 'identity' }, {
          initContainers: [app('bind-check', 'registry.acme.io/identity/ldap-tools:2.4', { env: [{ name: 'LDAP_BIND_PASSWD', value: 'changeme' }] })],
          containers: [app('import', 'registry.acme.io/identity/ldap-import:2.4', { env: [{ name: 'LDAP_BIND_PASSWD', valueFrom: { secretKeyRef: { name: 'ldap', key: 'bind' } } }] })],
        }),
      },
      {
        name: 'deployment-envfrom-and-secret-ref',
        expectPassed: true,
        object: wl('Deployment', { name: 'rails-app', ns: 'legacy', replicas: 2 }, {
          containers: [app('web', 'registry.acme.io/legacy/rails-app:6.1', {
            envFrom: [{ configMapRef: { name: 'rails-env' } }],
            env: [{ name: 'SECRET_KEY_BASE', valueFrom: { secretKeyRef: { name: 'rails-secrets', key: 'secret_key_base' } } }, { name: 'RAILS_ENV', value: 'production' }],
          })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ DaemonSet tolerations
  {
    id: 'k8s-daemonset-toleration-rules',
    difficulty: 'medium',
    topics: ['kubernetes', 'daemonsets', 'tolerations', 'numeric-bounds', 'exemptions'],
    labels: kube('DaemonSet'),
    instruction: `DaemonSet toleration rules:
1. No blanket tolerations. A toleration with operator Exists and no key matches every taint - not allowed.
2. Any toleration with effect NoExecute must set tolerationSeconds, 300 max.
3. Tolerating the node-role.kubernetes.io/control-plane taint is only OK for DaemonSets in kube-system.`,
    check(o) {
      const ns = nsOf(o);
      return (podOf(o).spec.tolerations ?? []).every((t) => {
        if (t.operator === 'Exists' && !t.key) return false;
        if (t.effect === 'NoExecute' && !(t.tolerationSeconds !== undefined && t.tolerationSeconds <= 300)) return false;
        if (t.key === 'node-role.kubernetes.io/control-plane' && ns !== 'kube-system') return false;
        return true;
      });
    },
    inputs: [
      {
        name: 'dedicated-noschedule-toleration',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'node-exporter', ns: 'monitoring' }, {
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'infra', effect: 'NoSchedule' }],
          containers: [app('exporter', 'quay.io/prometheus/node-exporter:v1.7.0')],
        }),
      },
      {
        name: 'blanket-exists-toleration',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'security-agent', ns: 'security' }, {
          tolerations: [{ operator: 'Exists' }],
          containers: [app('agent', 'registry.acme.io/security/agent:5.2')],
        }),
      },
      {
        name: 'noexecute-600-seconds',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'log-forwarder', ns: 'logging' }, {
          tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 600 }],
          containers: [app('forwarder', 'registry.acme.io/obs/forwarder:2.2')],
        }),
      },
      {
        name: 'noexecute-300-seconds',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'dns-cache', ns: 'networking' }, {
          tolerations: [
            { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
            { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
          ],
          containers: [app('nodelocaldns', 'registry.k8s.io/dns/k8s-dns-node-cache:1.23.0')],
        }),
      },
      {
        name: 'control-plane-toleration-outside-kube-system',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'falco', ns: 'security' }, {
          tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
          containers: [app('falco', 'docker.io/falcosecurity/falco-no-driver:0.37.1')],
        }),
      },
      {
        name: 'control-plane-toleration-in-kube-system',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'kube-proxy', ns: 'kube-system' }, {
          tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
          containers: [app('kube-proxy', 'registry.k8s.io/kube-proxy:v1.29.3')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ Job guardrails
  {
    id: 'k8s-batch-job-guardrails',
    difficulty: 'medium',
    topics: ['kubernetes', 'jobs', 'defaults', 'durations', 'jira'],
    labels: kube('Job'),
    instruction: `OPS-1187 Batch Job guardrails

AC:
- spec.backoffLimit no more than 4. Careful: unset means 6 in Kubernetes, so unset fails.
- spec.activeDeadlineSeconds must be set and be at most 2 hours.
- spec.ttlSecondsAfterFinished must be set (any value, 0 is fine) so finished Jobs get garbage collected.
Scope: Job objects only, CronJobs are tracked in OPS-1188.`,
    check(o) {
      const s = o.spec ?? {};
      return (s.backoffLimit ?? 6) <= 4 && s.activeDeadlineSeconds !== undefined && s.activeDeadlineSeconds <= 7200 && s.ttlSecondsAfterFinished !== undefined;
    },
    inputs: [
      {
        name: 'all-three-set',
        expectPassed: true,
        object: wl('Job', { name: 'reindex-products', ns: 'search', jobFields: { backoffLimit: 3, activeDeadlineSeconds: 3600, ttlSecondsAfterFinished: 600 } }, { containers: [app('reindex', 'registry.acme.io/search/reindex:7.7')] }),
      },
      {
        name: 'backoff-limit-unset',
        expectPassed: false,
        object: wl('Job', { name: 'gdpr-erasure', ns: 'privacy', jobFields: { activeDeadlineSeconds: 1800, ttlSecondsAfterFinished: 86400 } }, { containers: [app('erase', 'registry.acme.io/privacy/erasure:1.2')] }),
      },
      {
        name: 'deadline-one-second-over',
        expectPassed: false,
        object: wl('Job', { name: 'warehouse-load', ns: 'analytics', jobFields: { backoffLimit: 2, activeDeadlineSeconds: 7201, ttlSecondsAfterFinished: 3600 } }, { containers: [app('load', 'registry.acme.io/analytics/load:4.0')] }),
      },
      {
        name: 'limits-at-boundary-ttl-zero',
        expectPassed: true,
        object: wl('Job', { name: 'cert-rotate', ns: 'security', jobFields: { backoffLimit: 4, activeDeadlineSeconds: 7200, ttlSecondsAfterFinished: 0 } }, { containers: [app('rotate', 'registry.acme.io/security/cert-rotate:0.3')] }),
      },
      {
        name: 'ttl-missing',
        expectPassed: false,
        object: wl('Job', { name: 'thumbnail-backfill', ns: 'media', jobFields: { backoffLimit: 1, activeDeadlineSeconds: 5400 } }, { containers: [app('backfill', 'registry.acme.io/media/backfill:1.0')] }),
      },
    ],
  },

  // ------------------------------------------------------------------ CronJob time zone + concurrency
  {
    id: 'k8s-cronjob-timezone-and-concurrency',
    difficulty: 'medium',
    topics: ['kubernetes', 'cronjobs', 'time-zone', 'defaults', 'durations'],
    labels: kube('CronJob'),
    instruction: `CronJobs - please make these mandatory:
- spec.timeZone set explicitly, and only "Etc/UTC" or "Europe/London" (we had a job run twice on the BST changeover)
- concurrencyPolicy Forbid or Replace. Default is Allow, so not setting it fails
- if startingDeadlineSeconds is set it can't be more than 10 minutes`,
    check(o) {
      const s = o.spec ?? {};
      return ['Etc/UTC', 'Europe/London'].includes(s.timeZone) && ['Forbid', 'Replace'].includes(s.concurrencyPolicy) && (s.startingDeadlineSeconds === undefined || s.startingDeadlineSeconds <= 600);
    },
    inputs: [
      {
        name: 'london-forbid-no-deadline',
        expectPassed: true,
        object: wl('CronJob', { name: 'payroll-export', ns: 'hr', schedule: '0 6 * * 1-5', cronFields: { timeZone: 'Europe/London', concurrencyPolicy: 'Forbid' } }, { containers: [app('export', 'registry.acme.io/hr/payroll-export:2.0')] }),
      },
      {
        name: 'no-time-zone',
        expectPassed: false,
        object: wl('CronJob', { name: 'cache-warm', ns: 'web', schedule: '*/15 * * * *', cronFields: { concurrencyPolicy: 'Replace' } }, { containers: [app('warm', 'registry.acme.io/web/cache-warm:1.0')] }),
      },
      {
        name: 'new-york-time-zone',
        expectPassed: false,
        object: wl('CronJob', { name: 'us-settlement', ns: 'payments', schedule: '0 17 * * 1-5', cronFields: { timeZone: 'America/New_York', concurrencyPolicy: 'Forbid' } }, { containers: [app('settle', 'registry.acme.io/payments/settlement:3.1')] }),
      },
      {
        name: 'utc-concurrency-unset',
        expectPassed: false,
        object: wl('CronJob', { name: 'db-vacuum', ns: 'data', schedule: '0 3 * * 0', cronFields: { timeZone: 'Etc/UTC' } }, { containers: [app('vacuum', 'registry.acme.io/data/vacuum:1.4')] }),
      },
      {
        name: 'starting-deadline-15-minutes',
        expectPassed: false,
        object: wl('CronJob', { name: 'feed-import', ns: 'catalogue', schedule: '5 * * * *', cronFields: { timeZone: 'Etc/UTC', concurrencyPolicy: 'Replace', startingDeadlineSeconds: 900 } }, { containers: [app('import', 'registry.acme.io/catalogue/feed-import:0.8')] }),
      },
      {
        name: 'starting-deadline-exactly-10-minutes',
        expectPassed: true,
        object: wl('CronJob', { name: 'sla-report', ns: 'support', schedule: '0 8 * * *', cronFields: { timeZone: 'Etc/UTC', concurrencyPolicy: 'Forbid', startingDeadlineSeconds: 600 } }, { containers: [app('report', 'registry.acme.io/support/sla-report:1.1')] }),
      },
    ],
  },

  // ------------------------------------------------------------------ GPU scheduling
  {
    id: 'k8s-gpu-pods-memory-and-taint-toleration',
    difficulty: 'hard',
    topics: ['kubernetes', 'gpu', 'tolerations', 'resources', 'conditional'],
    labels: kube('Pod'),
    instruction: `GPU pool rules. Background: the GPU nodes are tainted nvidia.com/gpu=present:NoSchedule.
- Any container with an nvidia.com/gpu limit must also have limits.memory of at least 16Gi (the models don't fit otherwise).
- A pod with such a container must tolerate the GPU taint: a toleration with key nvidia.com/gpu and effect NoSchedule, using operator Exists, or operator Equal with value "present".
- Pods that don't use GPUs must not carry any toleration for the nvidia.com/gpu key, so they dont squat on the expensive nodes.`,
    check(o) {
      const spec = podOf(o).spec;
      const gpuCtrs = ctrsOf(spec).filter((c) => c.resources?.limits?.['nvidia.com/gpu'] !== undefined);
      const tols = (spec.tolerations ?? []).filter((t) => t.key === 'nvidia.com/gpu');
      if (gpuCtrs.length === 0) return tols.length === 0;
      if (!gpuCtrs.every((c) => c.resources.limits.memory !== undefined && qty(c.resources.limits.memory) >= qty('16Gi'))) return false;
      return tols.some((t) => t.effect === 'NoSchedule' && (t.operator === 'Exists' || (t.operator === 'Equal' && t.value === 'present')));
    },
    inputs: [
      {
        name: 'training-job-gpu-32gi-tolerates',
        expectPassed: true,
        object: wl('Job', { name: 'train-ranker', ns: 'ml', jobFields: { backoffLimit: 1 } }, {
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
          containers: [ctr('trainer', 'registry.acme.io/ml/trainer:2.3', { resources: res({ cpu: '4', memory: '24Gi' }, { memory: '32Gi', 'nvidia.com/gpu': '1' }) })],
        }),
      },
      {
        name: 'inference-deployment-gpu-8gi',
        expectPassed: false,
        object: wl('Deployment', { name: 'llm-inference', ns: 'ml', replicas: 2 }, {
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
          containers: [ctr('server', 'registry.acme.io/ml/llm-server:0.4', { resources: res({ cpu: '2', memory: '8Gi' }, { memory: '8Gi', 'nvidia.com/gpu': '2' }) })],
        }),
      },
      {
        name: 'pod-gpu-without-toleration',
        expectPassed: false,
        object: wl('Pod', { name: 'cuda-smoke-test', ns: 'ml' }, {
          containers: [ctr('cuda', 'registry.acme.io/ml/cuda-sample:12.3', { resources: res(undefined, { memory: '16Gi', 'nvidia.com/gpu': '1' }) })],
        }),
      },
      {
        name: 'cpu-deployment-tolerating-gpu-taint',
        expectPassed: false,
        object: wl('Deployment', { name: 'feature-api', ns: 'ml', replicas: 2 }, {
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
          containers: [app('api', 'registry.acme.io/ml/feature-api:1.0')],
        }),
      },
      {
        name: 'cpu-deployment-other-toleration',
        expectPassed: true,
        object: wl('Deployment', { name: 'batch-scorer', ns: 'ml', replicas: 2 }, {
          tolerations: [{ key: 'spot', operator: 'Equal', value: 'true', effect: 'NoSchedule' }],
          containers: [app('scorer', 'registry.acme.io/ml/scorer:3.0')],
        }),
      },
      {
        name: 'statefulset-gpu-equal-present',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'embedding-cache', ns: 'ml', replicas: 1 }, {
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Equal', value: 'present', effect: 'NoSchedule' }],
          containers: [ctr('embedder', 'registry.acme.io/ml/embedder:1.5', { resources: res({ cpu: '2', memory: '18Gi' }, { memory: '20Gi', 'nvidia.com/gpu': '1' }) })],
        }),
      },
    ],
  },
];
