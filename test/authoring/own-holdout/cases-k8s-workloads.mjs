// Kubernetes workload practice cases (own holdout): images, resources, probes, identities,
// scheduling, env, sizing.
import { kube, ctr, wl, podOf, ctrsOf, nsOf, qty, image, hex } from './lib.mjs';

const mem = (request, limit) => ({ resources: { requests: { cpu: '100m', memory: request }, limits: { memory: limit } } });
const cpu = (request, limit) => ({ resources: { requests: { cpu: request, memory: '256Mi' }, limits: { cpu: limit, memory: '256Mi' } } });
const http = (path, port) => ({ httpGet: { path, port } });
const millis = (q) => Math.round(qty(q) * 1000);

export default [
  // ------------------------------------------------------------------ W1
  {
    id: 'wl-images-from-two-registries',
    difficulty: 'medium',
    topics: ['kubernetes', 'images', 'registries', 'allowlist', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'Images may only be pulled from our two registries, registry.acme.io and acme.azurecr.io (any repository path under them is fine). ' +
      'Docker Hub is off limits, and that includes short names like `nginx` or `busybox` which resolve to Docker Hub. Init containers are held to the same rule.',
    check: (o) => ctrsOf(podOf(o).spec).every((c) => ['registry.acme.io', 'acme.azurecr.io'].includes(image(c.image).host)),
    inputs: [
      {
        name: 'deployment-acme-registry',
        expectPassed: true,
        object: wl('Deployment', { name: 'platform-api', ns: 'platform', replicas: 2 }, { containers: [ctr('api', 'registry.acme.io/platform/api:1.4.2')] }),
      },
      {
        name: 'pod-init-container-short-name',
        expectPassed: false,
        object: wl('Pod', { name: 'uploader', ns: 'media' }, {
          initContainers: [ctr('wait-for-db', 'busybox:1.36.1', { command: ['sh', '-c', 'until nc -z postgres 5432; do sleep 2; done'] })],
          containers: [ctr('uploader', 'registry.acme.io/media/uploader:0.9.0')],
        }),
      },
      {
        name: 'daemonset-azure-registry',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'node-agent', ns: 'ops' }, { containers: [ctr('agent', 'acme.azurecr.io/agents/node-agent:2.0.0')] }),
      },
      {
        name: 'pod-lookalike-registry-host',
        expectPassed: false,
        object: wl('Pod', { name: 'helper', ns: 'ops' }, { containers: [ctr('helper', 'registry.acme.io.evil-mirror.net/ops/helper:1.0.0')] }),
      },
      {
        name: 'statefulset-explicit-docker-io',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'sessions', ns: 'web', replicas: 3 }, { containers: [ctr('redis', 'docker.io/library/redis:7.2.4')] }),
      },
      {
        name: 'cronjob-acme-digest',
        expectPassed: true,
        object: wl('CronJob', { name: 'backup', ns: 'ops' }, { containers: [ctr('backup', `registry.acme.io/ops/backup@sha256:${hex('backup')}`)] }),
      },
    ],
  },

  // ------------------------------------------------------------------ W2
  {
    id: 'wl-images-semver-or-digest',
    difficulty: 'hard',
    topics: ['kubernetes', 'images', 'tags', 'semver', 'format', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'Images must be pinned. Acceptable: a digest (image@sha256:...), with or without a tag in front of it, or a full semantic-version tag, meaning three dot-separated numbers, optionally with a leading v and a pre-release suffix (1.4.2, v2.0.0, 3.1.0-rc.1). ' +
      'Not acceptable: latest, no tag at all, or partial/branch tags like 1.2, stable or main. Applies to every container incl. init containers.',
    check: (o) =>
      ctrsOf(podOf(o).spec).every((c) => {
        const { tag, digest } = image(c.image);
        if (digest && /^sha256:[0-9a-f]{64}$/.test(digest)) return true;
        return typeof tag === 'string' && /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(tag);
      }),
    inputs: [
      { name: 'pod-v-prefixed-semver', expectPassed: true, object: wl('Pod', { name: 'inventory', ns: 'shop' }, { containers: [ctr('inventory', 'registry.acme.io/shop/inventory:v2.3.1')] }) },
      {
        name: 'deployment-two-part-tag',
        expectPassed: false,
        object: wl('Deployment', { name: 'pricing', ns: 'shop', replicas: 2 }, { containers: [ctr('pricing', 'registry.acme.io/shop/pricing:1.2')] }),
      },
      { name: 'pod-untagged-image', expectPassed: false, object: wl('Pod', { name: 'scratchpad', ns: 'dev' }, { containers: [ctr('scratchpad', 'registry.acme.io/dev/scratchpad')] }) },
      {
        name: 'job-digest-only',
        expectPassed: true,
        object: wl('Job', { name: 'migrate-v42', ns: 'shop' }, { containers: [ctr('migrate', `registry.acme.io/shop/migrations@sha256:${hex('migrations')}`)] }),
      },
      {
        name: 'cronjob-rc-init-but-latest-main',
        expectPassed: false,
        object: wl('CronJob', { name: 'nightly-report', ns: 'finance' }, {
          initContainers: [ctr('fetch', 'registry.acme.io/finance/fetcher:3.0.0-rc.1')],
          containers: [ctr('report', 'registry.acme.io/finance/report:latest')],
        }),
      },
      {
        name: 'statefulset-registry-with-port',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'kv', ns: 'data', replicas: 3 }, { containers: [ctr('kv', 'registry.internal:5000/data/kv-store:2.10.0')] }),
      },
    ],
  },

  // ------------------------------------------------------------------ W3
  {
    id: 'wl-memory-limit-and-request-bounds',
    difficulty: 'medium',
    topics: ['kubernetes', 'resources', 'memory', 'numeric-bounds', 'boundary', 'units', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'Memory sizing for every container (init containers too): a memory limit is mandatory and cannot be more than 2Gi, and a memory request must be set and be at least 64Mi. ' +
      'Values are compared as quantities, so 2048Mi is the same thing as 2Gi.',
    check: (o) =>
      ctrsOf(podOf(o).spec).every((c) => {
        const l = c.resources?.limits?.memory;
        const r = c.resources?.requests?.memory;
        return l !== undefined && r !== undefined && qty(l) <= 2 * 1024 ** 3 && qty(r) >= 64 * 1024 ** 2;
      }),
    inputs: [
      {
        name: 'deployment-exactly-at-both-bounds',
        expectPassed: true,
        object: wl('Deployment', { name: 'geo', ns: 'maps', replicas: 2 }, { containers: [ctr('geo', 'registry.acme.io/maps/geo:5.1.0', mem('64Mi', '2048Mi'))] }),
      },
      {
        name: 'pod-limit-2-5-gi',
        expectPassed: false,
        object: wl('Pod', { name: 'tiles', ns: 'maps' }, { containers: [ctr('tiles', 'registry.acme.io/maps/tiles:5.1.0', mem('512Mi', '2.5Gi'))] }),
      },
      {
        name: 'statefulset-decimal-2g-limit',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'geo-cache', ns: 'maps', replicas: 3 }, { containers: [ctr('cache', 'memcached:1.6.26', mem('128Mi', '2G'))] }),
      },
      {
        name: 'job-init-container-without-resources',
        expectPassed: false,
        object: wl('Job', { name: 'rebuild-index', ns: 'maps' }, {
          initContainers: [ctr('download', 'registry.acme.io/maps/osm-fetch:1.0.2')],
          containers: [ctr('rebuild', 'registry.acme.io/maps/indexer:5.1.0', mem('1Gi', '2Gi'))],
        }),
      },
      {
        name: 'cronjob-request-60m-decimal',
        expectPassed: false,
        object: wl('CronJob', { name: 'purge-tiles', ns: 'maps' }, { containers: [ctr('purge', 'registry.acme.io/maps/purger:0.3.0', mem('60M', '1Gi'))] }),
      },
      {
        name: 'daemonset-fractional-gi-request',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'tile-prefetch', ns: 'maps' }, { containers: [ctr('prefetch', 'registry.acme.io/maps/prefetch:0.7.0', mem('0.25Gi', '512Mi'))] }),
      },
    ],
  },

  // ------------------------------------------------------------------ W4
  {
    id: 'wl-cpu-limit-at-most-4x-request',
    difficulty: 'hard',
    topics: ['kubernetes', 'resources', 'cpu', 'field-comparison', 'boundary', 'units', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "CPU overcommit rule (throttling behaviour gets unpredictable past this), app containers only (init containers don't matter here): both the cpu request and the cpu limit must be set, and the limit may be at most 4x the request. " +
      'e.g. a request of 250m allows a limit up to 1 full CPU.',
    check: (o) =>
      (podOf(o).spec.containers ?? []).every((c) => {
        const r = c.resources?.requests?.cpu;
        const l = c.resources?.limits?.cpu;
        return r !== undefined && l !== undefined && millis(l) <= 4 * millis(r);
      }),
    inputs: [
      {
        name: 'deployment-exactly-4x',
        expectPassed: true,
        object: wl('Deployment', { name: 'render', ns: 'media', replicas: 2 }, { containers: [ctr('render', 'registry.acme.io/media/render:2.0.0', cpu('250m', '1'))] }),
      },
      {
        name: 'deployment-5x',
        expectPassed: false,
        object: wl('Deployment', { name: 'transcode', ns: 'media', replicas: 2 }, { containers: [ctr('transcode', 'registry.acme.io/media/transcode:2.0.0', cpu('100m', '500m'))] }),
      },
      {
        name: 'statefulset-mixed-units-3x',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'queue', ns: 'media', replicas: 3 }, { containers: [ctr('queue', 'registry.acme.io/media/queue:1.4.0', cpu('0.5', '1500m'))] }),
      },
      {
        name: 'pod-request-without-limit',
        expectPassed: false,
        object: wl('Pod', { name: 'probe-runner', ns: 'media' }, {
          containers: [ctr('runner', 'registry.acme.io/media/probe-runner:0.1.0', { resources: { requests: { cpu: '200m', memory: '128Mi' }, limits: { memory: '128Mi' } } })],
        }),
      },
      {
        name: 'job-bare-init-container-ignored',
        expectPassed: true,
        object: wl('Job', { name: 'catalog-sync', ns: 'media' }, {
          initContainers: [ctr('wait', 'registry.acme.io/tools/wait-for:1.0.0')],
          containers: [ctr('sync', 'registry.acme.io/media/catalog-sync:3.2.1', cpu('200m', '400m'))],
        }),
      },
      {
        name: 'daemonset-second-container-5x',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'gpu-metrics', ns: 'media' }, {
          containers: [
            ctr('exporter', 'registry.acme.io/obs/gpu-exporter:1.1.0', cpu('100m', '200m')),
            ctr('reloader', 'registry.acme.io/obs/config-reloader:0.9.0', cpu('50m', '250m')),
          ],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ W5
  {
    id: 'wl-probes-by-controller-kind',
    difficulty: 'medium',
    topics: ['kubernetes', 'probes', 'conditional', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'Probes:\n' +
      '- Deployments and StatefulSets: every app container needs both a readinessProbe and a livenessProbe\n' +
      '- DaemonSets: a livenessProbe on every app container is enough\n' +
      '- Jobs and CronJobs run to completion, no probes needed\n' +
      'Init containers never need probes.',
    check: (o) => {
      const cs = podOf(o).spec.containers ?? [];
      if (o.kind === 'Deployment' || o.kind === 'StatefulSet') return cs.every((c) => c.readinessProbe && c.livenessProbe);
      if (o.kind === 'DaemonSet') return cs.every((c) => c.livenessProbe);
      return true;
    },
    inputs: [
      {
        name: 'deployment-both-probes',
        expectPassed: true,
        object: wl('Deployment', { name: 'accounts', ns: 'identity', replicas: 3 }, {
          initContainers: [ctr('migrate', 'registry.acme.io/identity/accounts-migrate:8.0.0')],
          containers: [ctr('accounts', 'registry.acme.io/identity/accounts:8.0.0', { readinessProbe: http('/ready', 8080), livenessProbe: http('/healthz', 8080) })],
        }),
      },
      {
        name: 'deployment-readiness-only',
        expectPassed: false,
        object: wl('Deployment', { name: 'sessions', ns: 'identity', replicas: 2 }, {
          containers: [ctr('sessions', 'registry.acme.io/identity/sessions:2.2.0', { readinessProbe: http('/ready', 8080) })],
        }),
      },
      {
        name: 'statefulset-sidecar-missing-liveness',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'ldap', ns: 'identity', replicas: 2 }, {
          containers: [
            ctr('ldap', 'registry.acme.io/identity/openldap:2.6.7', { readinessProbe: { tcpSocket: { port: 389 } }, livenessProbe: { tcpSocket: { port: 389 } } }),
            ctr('exporter', 'registry.acme.io/obs/ldap-exporter:2.2.0', { readinessProbe: http('/metrics', 9330) }),
          ],
        }),
      },
      {
        name: 'job-no-probes',
        expectPassed: true,
        object: wl('Job', { name: 'rotate-keys', ns: 'identity' }, { containers: [ctr('rotate', 'registry.acme.io/identity/key-rotator:1.0.0')] }),
      },
      {
        name: 'daemonset-liveness-only',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'cert-sync', ns: 'identity' }, {
          containers: [ctr('sync', 'registry.acme.io/identity/cert-sync:0.4.0', { livenessProbe: { exec: { command: ['/bin/cert-sync', 'health'] } } })],
        }),
      },
      {
        name: 'daemonset-readiness-only',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'node-auth', ns: 'identity' }, {
          containers: [ctr('node-auth', 'registry.acme.io/identity/node-auth:0.2.0', { readinessProbe: http('/ready', 9000) })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ W6
  {
    id: 'wl-service-account-and-token-automount',
    difficulty: 'medium',
    topics: ['kubernetes', 'service-accounts', 'multi-requirement', 'exemptions', 'labels', 'missing-field', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'PLAT-812 Service accounts\n\n' +
      'Workloads must run under their own service account: serviceAccountName must be set and must not be `default` (unset means default, so that fails too).\n' +
      'Also set automountServiceAccountToken: false in the pod spec. The only pods allowed to leave it on (true or unset) are ones labelled acme.io/needs-api: "true" on the pod itself / pod template.',
    check: (o) => {
      const { meta, spec } = podOf(o);
      const sa = spec.serviceAccountName;
      if (!sa || sa === 'default') return false;
      return meta.labels?.['acme.io/needs-api'] === 'true' || spec.automountServiceAccountToken === false;
    },
    inputs: [
      {
        name: 'deployment-own-sa-no-token',
        expectPassed: true,
        object: wl('Deployment', { name: 'orders-api', ns: 'shop', replicas: 2 }, { serviceAccountName: 'orders-api', automountServiceAccountToken: false, containers: [ctr('api', 'registry.acme.io/shop/orders-api:3.4.0')] }),
      },
      {
        name: 'pod-sa-unset',
        expectPassed: false,
        object: wl('Pod', { name: 'quick-test', ns: 'shop' }, { automountServiceAccountToken: false, containers: [ctr('test', 'registry.acme.io/shop/smoke:1.0.0')] }),
      },
      {
        name: 'deployment-needs-api-label-token-unset',
        expectPassed: true,
        object: wl('Deployment', { name: 'shop-operator', ns: 'shop', replicas: 1, podLabels: { 'acme.io/needs-api': 'true' } }, {
          serviceAccountName: 'shop-operator',
          containers: [ctr('operator', 'registry.acme.io/shop/operator:0.12.0')],
        }),
      },
      {
        name: 'statefulset-token-unset-no-label',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'orders-db', ns: 'shop', replicas: 3 }, { serviceAccountName: 'orders-db', containers: [ctr('postgres', 'postgres:16.2')] }),
      },
      {
        name: 'cronjob-explicit-default-sa',
        expectPassed: false,
        object: wl('CronJob', { name: 'abandoned-carts', ns: 'shop' }, { serviceAccountName: 'default', automountServiceAccountToken: false, containers: [ctr('carts', 'registry.acme.io/shop/cart-reaper:1.1.0')] }),
      },
      {
        name: 'job-own-sa-token-off',
        expectPassed: true,
        object: wl('Job', { name: 'reprice', ns: 'shop' }, { serviceAccountName: 'report-runner', automountServiceAccountToken: false, containers: [ctr('reprice', 'registry.acme.io/shop/reprice:2.0.0')] }),
      },
    ],
  },

  // ------------------------------------------------------------------ W7
  {
    id: 'wl-toleration-guardrails',
    difficulty: 'medium',
    topics: ['kubernetes', 'scheduling', 'tolerations', 'exemptions', 'namespaces', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'Scheduling guardrails:\n' +
      '(a) only workloads in the gpu-jobs namespace may tolerate the nvidia.com/gpu taint (whatever operator or effect they use)\n' +
      '(b) nobody may tolerate every taint, i.e. a toleration with operator Exists and no key. DaemonSets in kube-system are the one exception to (b).\n' +
      'Ordinary tolerations like node.kubernetes.io/not-ready are fine.',
    check: (o) =>
      (podOf(o).spec.tolerations ?? []).every((t) => {
        if (t.key === 'nvidia.com/gpu' && nsOf(o) !== 'gpu-jobs') return false;
        if (!t.key && t.operator === 'Exists') return o.kind === 'DaemonSet' && nsOf(o) === 'kube-system';
        return true;
      }),
    inputs: [
      {
        name: 'gpu-jobs-job-tolerates-gpu',
        expectPassed: true,
        object: wl('Job', { name: 'train-resnet', ns: 'gpu-jobs' }, {
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
          containers: [ctr('train', 'registry.acme.io/ml/trainer:1.8.0', { resources: { limits: { 'nvidia.com/gpu': '1' } } })],
        }),
      },
      {
        name: 'ml-deployment-tolerates-gpu',
        expectPassed: false,
        object: wl('Deployment', { name: 'inference', ns: 'ml', replicas: 2 }, {
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Equal', value: 'present', effect: 'NoSchedule' }],
          containers: [ctr('inference', 'registry.acme.io/ml/inference:1.8.0')],
        }),
      },
      {
        name: 'kube-system-daemonset-tolerates-all',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'calico-node', ns: 'kube-system' }, {
          tolerations: [{ operator: 'Exists' }],
          containers: [ctr('calico-node', 'docker.io/calico/node:v3.27.3')],
        }),
      },
      {
        name: 'monitoring-daemonset-tolerates-all',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'promtail', ns: 'monitoring' }, {
          tolerations: [{ operator: 'Exists', effect: 'NoSchedule' }],
          containers: [ctr('promtail', 'grafana/promtail:2.9.7')],
        }),
      },
      {
        name: 'web-deployment-not-ready-toleration',
        expectPassed: true,
        object: wl('Deployment', { name: 'landing', ns: 'web', replicas: 2 }, {
          tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
          containers: [ctr('landing', 'registry.acme.io/web/landing:1.0.0')],
        }),
      },
      {
        name: 'kube-system-deployment-tolerates-all',
        expectPassed: false,
        object: wl('Deployment', { name: 'coredns-custom', ns: 'kube-system', replicas: 2 }, {
          tolerations: [{ operator: 'Exists' }],
          containers: [ctr('coredns', 'registry.k8s.io/coredns/coredns:v1.11.1')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ W8
  {
    id: 'wl-priority-class-allowlist-batch-for-jobs',
    difficulty: 'medium',
    topics: ['kubernetes', 'scheduling', 'priority-class', 'allowlist', 'conditional', 'missing-field', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'priorityClassName is required on every workload and it must be one of acme-critical, acme-high, acme-default, acme-batch, we got bitten by pods with no priority getting preempted last quarter so no exceptions, and Jobs and CronJobs specifically have to use acme-batch so batch work never competes with serving traffic.',
    check: (o) => {
      const pc = podOf(o).spec.priorityClassName;
      if (o.kind === 'Job' || o.kind === 'CronJob') return pc === 'acme-batch';
      return ['acme-critical', 'acme-high', 'acme-default', 'acme-batch'].includes(pc);
    },
    inputs: [
      { name: 'deployment-acme-high', expectPassed: true, object: wl('Deployment', { name: 'checkout', ns: 'shop', replicas: 3 }, { priorityClassName: 'acme-high', containers: [ctr('checkout', 'registry.acme.io/shop/checkout:5.0.2')] }) },
      { name: 'deployment-unset', expectPassed: false, object: wl('Deployment', { name: 'reviews', ns: 'shop', replicas: 2 }, { containers: [ctr('reviews', 'registry.acme.io/shop/reviews:1.9.0')] }) },
      { name: 'job-acme-batch', expectPassed: true, object: wl('Job', { name: 'recompute-ratings', ns: 'shop' }, { priorityClassName: 'acme-batch', containers: [ctr('ratings', 'registry.acme.io/shop/ratings-job:1.0.0')] }) },
      { name: 'cronjob-acme-default', expectPassed: false, object: wl('CronJob', { name: 'expire-coupons', ns: 'shop' }, { priorityClassName: 'acme-default', containers: [ctr('coupons', 'registry.acme.io/shop/coupons-job:0.5.0')] }) },
      { name: 'pod-system-cluster-critical', expectPassed: false, object: wl('Pod', { name: 'kube-sidecar', ns: 'shop' }, { priorityClassName: 'system-cluster-critical', containers: [ctr('sidecar', 'registry.acme.io/shop/sidecar:0.1.0')] }) },
      { name: 'daemonset-acme-critical', expectPassed: true, object: wl('DaemonSet', { name: 'log-forwarder', ns: 'logging' }, { priorityClassName: 'acme-critical', containers: [ctr('forwarder', 'registry.acme.io/obs/forwarder:2.4.0')] }) },
    ],
  },

  // ------------------------------------------------------------------ W9
  {
    id: 'wl-credential-env-vars-from-secrets',
    difficulty: 'medium',
    topics: ['kubernetes', 'secrets', 'env', 'arrays', 'name-patterns', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'No credentials in plain env vars. Any env var whose name contains PASSWORD, SECRET, TOKEN or API_KEY (case does not matter, so db_password counts) must take its value from a Secret via valueFrom.secretKeyRef; ' +
      'a literal value or a configMapKeyRef is not OK. Init containers are checked too. Pulling a whole Secret in with envFrom is fine, and other env vars can be plain literals.',
    check: (o) =>
      ctrsOf(podOf(o).spec).every((c) =>
        (c.env ?? []).every((e) => !/PASSWORD|SECRET|TOKEN|API_KEY/.test(e.name.toUpperCase()) || e.valueFrom?.secretKeyRef !== undefined)),
    inputs: [
      {
        name: 'deployment-password-from-secret',
        expectPassed: true,
        object: wl('Deployment', { name: 'crm', ns: 'sales', replicas: 2 }, {
          containers: [ctr('crm', 'registry.acme.io/sales/crm:11.0.0', {
            env: [
              { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'crm-db', key: 'password' } } },
              { name: 'LOG_LEVEL', value: 'info' },
            ],
          })],
        }),
      },
      {
        name: 'pod-lowercase-token-literal',
        expectPassed: false,
        object: wl('Pod', { name: 'slack-bot', ns: 'sales' }, {
          containers: [ctr('bot', 'registry.acme.io/sales/slack-bot:0.3.0', { env: [{ name: 'slack_api_token', value: 'xoxb-not-a-real-token' }] })],
        }),
      },
      {
        name: 'statefulset-init-secret-key-literal',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'search', ns: 'sales', replicas: 3 }, {
          initContainers: [ctr('bootstrap', 'registry.acme.io/sales/search-bootstrap:2.0.0', { env: [{ name: 'ELASTIC_SECRET_KEY', value: 'changeme' }] })],
          containers: [ctr('search', 'registry.acme.io/sales/search:2.0.0', { env: [{ name: 'ES_JAVA_OPTS', value: '-Xms1g -Xmx1g' }] })],
        }),
      },
      {
        name: 'job-envfrom-secret-and-literals',
        expectPassed: true,
        object: wl('Job', { name: 'lead-import', ns: 'sales' }, {
          containers: [ctr('import', 'registry.acme.io/sales/lead-import:1.2.0', {
            envFrom: [{ secretRef: { name: 'lead-import-credentials' } }],
            env: [{ name: 'BATCH_SIZE', value: '500' }, { name: 'FEATURE_DEDUPE', value: 'true' }],
          })],
        }),
      },
      {
        name: 'deployment-token-from-configmap',
        expectPassed: false,
        object: wl('Deployment', { name: 'release-bot', ns: 'tools', replicas: 1 }, {
          containers: [ctr('bot', 'registry.acme.io/tools/release-bot:4.0.1', { env: [{ name: 'GITHUB_TOKEN', valueFrom: { configMapKeyRef: { name: 'release-bot', key: 'token' } } }] })],
        }),
      },
      {
        name: 'cronjob-smtp-password-secret',
        expectPassed: true,
        object: wl('CronJob', { name: 'weekly-digest', ns: 'sales' }, {
          containers: [ctr('digest', 'registry.acme.io/sales/digest:1.0.3', {
            env: [
              { name: 'SMTP_HOST', value: 'smtp.acme.io' },
              { name: 'SMTP_PASSWORD', valueFrom: { secretKeyRef: { name: 'smtp', key: 'password' } } },
            ],
          })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ W10
  {
    id: 'wl-deployment-replicas-and-zone-spread',
    difficulty: 'hard',
    topics: ['kubernetes', 'availability', 'replicas', 'topology-spread', 'conditional', 'namespaces', 'missing-field', 'numeric-bounds'],
    labels: kube('Deployment'),
    instruction:
      'Deployment sizing rules:\n' +
      '- prod namespaces (name begins with prod-): at least 3 replicas; replicas left unset means 1, so that fails. They must also spread across zones: a topologySpreadConstraint with topologyKey topology.kubernetes.io/zone on the pod template.\n' +
      '- every other namespace: no more than 2 replicas (we pay for non-prod), nothing else required.',
    check: (o) => {
      const r = o.spec.replicas ?? 1;
      if (nsOf(o).startsWith('prod-')) return r >= 3 && (podOf(o).spec.topologySpreadConstraints ?? []).some((t) => t.topologyKey === 'topology.kubernetes.io/zone');
      return r <= 2;
    },
    inputs: (() => {
      const spread = (app, ...keys) => keys.map((k) => ({ maxSkew: 1, topologyKey: k, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app } } }));
      return [
        { name: 'prod-three-replicas-zone-spread', expectPassed: true, object: wl('Deployment', { name: 'api', ns: 'prod-core', replicas: 3 }, { topologySpreadConstraints: spread('api', 'topology.kubernetes.io/zone'), containers: [ctr('api', 'registry.acme.io/core/api:10.4.2')] }) },
        { name: 'prod-replicas-unset', expectPassed: false, object: wl('Deployment', { name: 'admin', ns: 'prod-core' }, { topologySpreadConstraints: spread('admin', 'topology.kubernetes.io/zone'), containers: [ctr('admin', 'registry.acme.io/core/admin:10.4.2')] }) },
        { name: 'prod-hostname-spread-only', expectPassed: false, object: wl('Deployment', { name: 'web', ns: 'prod-web', replicas: 5 }, { topologySpreadConstraints: spread('web', 'kubernetes.io/hostname'), containers: [ctr('web', 'registry.acme.io/web/site:3.0.0')] }) },
        { name: 'staging-two-replicas', expectPassed: true, object: wl('Deployment', { name: 'web', ns: 'staging', replicas: 2 }, { containers: [ctr('web', 'registry.acme.io/web/site:3.1.0-rc.2')] }) },
        { name: 'staging-four-replicas', expectPassed: false, object: wl('Deployment', { name: 'api', ns: 'staging', replicas: 4 }, { containers: [ctr('api', 'registry.acme.io/core/api:10.5.0-rc.1')] }) },
        { name: 'prod-six-replicas-both-spreads', expectPassed: true, object: wl('Deployment', { name: 'gateway', ns: 'prod-eu', replicas: 6 }, { topologySpreadConstraints: spread('gateway', 'kubernetes.io/hostname', 'topology.kubernetes.io/zone'), containers: [ctr('gateway', 'registry.acme.io/edge/gateway:2.2.0')] }) },
      ];
    })(),
  },
];
