// own-holdout-3: Kubernetes workload cases (images, resources, probes, identity, scheduling, rollout).
import { kube, ctr, res, wl, podOf, ctrsOf, nsOf, qty, image, hex } from './lib.mjs';

const R = res({ cpu: '100m', memory: '128Mi' }, { memory: '256Mi' });
const ECR_W = '123456789012.dkr.ecr.eu-west-1.amazonaws.com';
const ECR_C = '123456789012.dkr.ecr.eu-central-1.amazonaws.com';
const digest = (seed) => `sha256:${hex(seed)}`;
const httpProbe = (path, port, more = {}) => ({ httpGet: { path, port }, ...more });

export default [
  // ------------------------------------------------------------------ 1
  {
    id: 'k8s3-image-semver-tag-or-digest',
    difficulty: 'medium',
    topics: ['kubernetes', 'images', 'tags', 'semver', 'digest', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "image tagging rule for all workloads - `latest` is banned and so is leaving the tag off entirely, every image (init containers included) has to carry a full three-part semver tag like 1.4.2 or v1.4.2, a pre-release suffix such as -rc.1 is fine but two-part tags like 2.1 or words like `stable` don't cut it; the only way around a version tag is pinning by digest (@sha256:...), in which case whatever tag is there doesn't matter",
    check: (o) =>
      ctrsOf(podOf(o).spec).every((c) => {
        const im = image(c.image);
        if (im.digest && /^sha256:[0-9a-f]{64}$/.test(im.digest)) return true;
        return typeof im.tag === 'string' && /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(im.tag);
      }),
    inputs: [
      {
        name: 'pod-semver-tags',
        expectPassed: true,
        object: wl('Pod', { name: 'cart', ns: 'shop' }, {
          containers: [ctr('cart', 'registry.acme.io/shop/cart:v3.2.0', { resources: R }), ctr('nginx', 'nginx:1.25.4', { resources: R })],
        }),
      },
      {
        name: 'deployment-latest-tag',
        expectPassed: false,
        object: wl('Deployment', { name: 'recommendations', ns: 'shop', replicas: 2 }, {
          containers: [ctr('recs', 'registry.acme.io/shop/recommendations:latest', { resources: R })],
        }),
      },
      {
        name: 'statefulset-untagged-init-image',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'cassandra', ns: 'data', replicas: 3 }, {
          initContainers: [ctr('sysctl', 'busybox', { resources: R })],
          containers: [ctr('cassandra', 'cassandra:4.1.4', { resources: R })],
        }),
      },
      {
        name: 'deployment-prerelease-suffix',
        expectPassed: true,
        object: wl('Deployment', { name: 'search-ui', ns: 'search', replicas: 1 }, {
          containers: [ctr('ui', 'ghcr.io/acme/search-ui:v2.1.0-rc.1', { resources: R })],
        }),
      },
      {
        name: 'cronjob-digest-pinned-no-tag',
        expectPassed: true,
        object: wl('CronJob', { name: 'sitemap-builder', ns: 'web', schedule: '0 5 * * *' }, {
          containers: [ctr('builder', `registry.acme.io/web/sitemap-builder@${digest('sitemap')}`, { resources: R })],
        }),
      },
      {
        name: 'daemonset-two-part-tag',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'fluentd', ns: 'logging' }, {
          containers: [ctr('fluentd', 'fluent/fluentd:v1.16', { resources: R })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 2
  {
    id: 'k8s3-images-from-own-ecr-regions',
    difficulty: 'hard',
    topics: ['kubernetes', 'images', 'registries', 'ecr', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: `PLAT-1187 Restrict image sources
Context: after the Docker Hub rate-limit incident we're moving everything to our own ECR.
AC:
1. Every regular container's image is pulled from our ECR account 123456789012 in eu-west-1 or eu-central-1, i.e. the registry host is \`123456789012.dkr.ecr.eu-west-1.amazonaws.com\` or \`123456789012.dkr.ecr.eu-central-1.amazonaws.com\`.
2. Init containers may use those too, or the public ECR mirror of the Docker official images (\`public.ecr.aws/docker/library/...\`) - nothing else from public.ecr.aws.
3. Anything else (docker.io, ghcr.io, other accounts or regions) is rejected.`,
    check: (o) => {
      const spec = podOf(o).spec;
      const own = (ref) => [ECR_W, ECR_C].includes(image(ref).host);
      const lib = (ref) => { const im = image(ref); return im.host === 'public.ecr.aws' && im.repo.startsWith('docker/library/'); };
      return (spec.containers ?? []).every((c) => own(c.image)) && (spec.initContainers ?? []).every((c) => own(c.image) || lib(c.image));
    },
    inputs: [
      {
        name: 'deployment-both-allowed-regions',
        expectPassed: true,
        object: wl('Deployment', { name: 'payments-api', ns: 'payments', replicas: 3 }, {
          containers: [ctr('api', `${ECR_W}/payments/api:8.2.0`, { resources: R }), ctr('otel', `${ECR_C}/observability/otel-collector:0.97.0`, { resources: R })],
        }),
      },
      {
        name: 'pod-us-east-1-registry',
        expectPassed: false,
        object: wl('Pod', { name: 'ledger-sync', ns: 'payments' }, {
          containers: [ctr('sync', '123456789012.dkr.ecr.us-east-1.amazonaws.com/payments/ledger-sync:1.0.4', { resources: R })],
        }),
      },
      {
        name: 'deployment-other-aws-account',
        expectPassed: false,
        object: wl('Deployment', { name: 'vendor-adapter', ns: 'integrations', replicas: 1 }, {
          containers: [ctr('adapter', '999988887777.dkr.ecr.eu-west-1.amazonaws.com/vendor/adapter:2.0.0', { resources: R })],
        }),
      },
      {
        name: 'statefulset-init-from-public-library',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'kafka', ns: 'streaming', replicas: 3 }, {
          initContainers: [ctr('wait-zk', 'public.ecr.aws/docker/library/busybox:1.36.1', { resources: R })],
          containers: [ctr('kafka', `${ECR_W}/streaming/kafka:3.7.0`, { resources: R })],
        }),
      },
      {
        name: 'deployment-main-container-from-public-library',
        expectPassed: false,
        object: wl('Deployment', { name: 'static-site', ns: 'web', replicas: 2 }, {
          containers: [ctr('nginx', 'public.ecr.aws/docker/library/nginx:1.25.4', { resources: R })],
        }),
      },
      {
        name: 'job-init-from-public-ecr-non-library',
        expectPassed: false,
        object: wl('Job', { name: 'seed-data', ns: 'payments' }, {
          initContainers: [ctr('kubectl', 'public.ecr.aws/bitnami/kubectl:1.29.3', { resources: R })],
          containers: [ctr('seed', `${ECR_C}/payments/seed:1.0.0`, { resources: R })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 3
  {
    id: 'k8s3-guaranteed-memory-no-cpu-limits',
    difficulty: 'medium',
    topics: ['kubernetes', 'resources', 'memory', 'cpu', 'quantities', 'controllers'],
    labels: kube('Pod'),
    instruction: `Resource standard RS-3 (applies to the main containers of every workload; init containers are exempt as they run to completion before the app starts):
 a) CPU and memory requests must both be specified.
 b) A memory limit must be specified and must equal the memory request - we want memory guaranteed, so no bursting above the request. Values are compared as quantities, so 1Gi and 1024Mi are the same thing.
 c) CPU limits must NOT be set; CFS throttling has caused us more latency incidents than noisy neighbours ever did.`,
    check: (o) =>
      (podOf(o).spec.containers ?? []).every((c) => {
        const rq = c.resources?.requests ?? {};
        const lm = c.resources?.limits ?? {};
        return rq.cpu !== undefined && rq.memory !== undefined && lm.memory !== undefined && qty(lm.memory) === qty(rq.memory) && lm.cpu === undefined;
      }),
    inputs: [
      {
        name: 'deployment-memory-equal-no-cpu-limit',
        expectPassed: true,
        object: wl('Deployment', { name: 'quote-engine', ns: 'insurance', replicas: 3 }, {
          containers: [ctr('engine', 'registry.acme.io/insurance/quote-engine:5.5.0', { resources: res({ cpu: '250m', memory: '512Mi' }, { memory: '512Mi' }) })],
        }),
      },
      {
        name: 'pod-1gi-equals-1024mi',
        expectPassed: true,
        object: wl('Pod', { name: 'pdf-render', ns: 'docs' }, {
          containers: [ctr('render', 'registry.acme.io/docs/pdf-render:1.9.2', { resources: res({ cpu: '1', memory: '1024Mi' }, { memory: '1Gi' }) })],
        }),
      },
      {
        name: 'deployment-cpu-limit-present',
        expectPassed: false,
        object: wl('Deployment', { name: 'claims-api', ns: 'insurance', replicas: 2 }, {
          containers: [ctr('api', 'registry.acme.io/insurance/claims-api:3.0.1', { resources: res({ cpu: '500m', memory: '768Mi' }, { cpu: '1', memory: '768Mi' }) })],
        }),
      },
      {
        name: 'statefulset-memory-limit-above-request',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'mongo', ns: 'data', replicas: 3 }, {
          containers: [ctr('mongo', 'mongo:7.0.7', { resources: res({ cpu: '1', memory: '2Gi' }, { memory: '3Gi' }) })],
        }),
      },
      {
        name: 'pod-missing-cpu-request',
        expectPassed: false,
        object: wl('Pod', { name: 'mailer', ns: 'comms' }, {
          containers: [ctr('mailer', 'registry.acme.io/comms/mailer:2.2.2', { resources: res({ memory: '256Mi' }, { memory: '256Mi' }) })],
        }),
      },
      {
        name: 'job-init-without-resources-main-compliant',
        expectPassed: true,
        object: wl('Job', { name: 'index-rebuild', ns: 'search' }, {
          initContainers: [ctr('download', 'curlimages/curl:8.7.1')],
          containers: [ctr('rebuild', 'registry.acme.io/search/index-rebuild:1.0.0', { resources: res({ cpu: '2', memory: '4Gi' }, { memory: '4096Mi' }) })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 4
  {
    id: 'k8s3-cpu-request-window-and-limit-ratio',
    difficulty: 'medium',
    topics: ['kubernetes', 'resources', 'cpu', 'quantities', 'ratios', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: `CPU sizing guardrails, every container incl. init containers:
- a CPU request is mandatory and has to be at least 50m and at most 2 cores
- a CPU limit is optional, but if there is one it can be at most 4x that container's CPU request
Remember the units: 0.5 is 500m, "2" is 2000m.`,
    check: (o) =>
      ctrsOf(podOf(o).spec).every((c) => {
        const req = c.resources?.requests?.cpu;
        if (req === undefined) return false;
        const m = Math.round(qty(req) * 1000);
        if (m < 50 || m > 2000) return false;
        const lim = c.resources?.limits?.cpu;
        return lim === undefined || Math.round(qty(lim) * 1000) <= 4 * m;
      }),
    inputs: [
      {
        name: 'pod-50m-request-200m-limit',
        expectPassed: true,
        object: wl('Pod', { name: 'tiny-cron-proxy', ns: 'tools' }, {
          containers: [ctr('proxy', 'registry.acme.io/tools/proxy:0.6.0', { resources: res({ cpu: '50m', memory: '32Mi' }, { cpu: '200m', memory: '64Mi' }) })],
        }),
      },
      {
        name: 'deployment-40m-request',
        expectPassed: false,
        object: wl('Deployment', { name: 'config-watcher', ns: 'tools', replicas: 1 }, {
          containers: [ctr('watcher', 'registry.acme.io/tools/config-watcher:1.1.0', { resources: res({ cpu: '40m', memory: '32Mi' }) })],
        }),
      },
      {
        name: 'statefulset-decimal-half-core-limit-2',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'nats', ns: 'messaging', replicas: 3 }, {
          containers: [ctr('nats', 'nats:2.10.12', { resources: res({ cpu: '0.5', memory: '256Mi' }, { cpu: '2', memory: '512Mi' }) })],
        }),
      },
      {
        name: 'deployment-2100m-request',
        expectPassed: false,
        object: wl('Deployment', { name: 'video-transcoder', ns: 'media', replicas: 2 }, {
          containers: [ctr('transcoder', 'registry.acme.io/media/transcoder:4.0.0', { resources: res({ cpu: '2100m', memory: '4Gi' }) })],
        }),
      },
      {
        name: 'pod-limit-five-times-request',
        expectPassed: false,
        object: wl('Pod', { name: 'batch-scorer', ns: 'ml' }, {
          containers: [ctr('scorer', 'registry.acme.io/ml/scorer:0.9.1', { resources: res({ cpu: '100m', memory: '256Mi' }, { cpu: '500m', memory: '256Mi' }) })],
        }),
      },
      {
        name: 'cronjob-init-container-no-cpu-request',
        expectPassed: false,
        object: wl('CronJob', { name: 'feed-import', ns: 'content', schedule: '10 * * * *' }, {
          initContainers: [ctr('fetch', 'curlimages/curl:8.7.1', { resources: res({ memory: '32Mi' }) })],
          containers: [ctr('import', 'registry.acme.io/content/feed-import:2.0.0', { resources: res({ cpu: '200m', memory: '256Mi' }, { cpu: '400m' }) })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 5
  {
    id: 'k8s3-probes-for-long-running-controllers',
    difficulty: 'hard',
    topics: ['kubernetes', 'probes', 'liveness', 'readiness', 'defaults', 'controllers'],
    labels: kube('Pod'),
    instruction: `Health checks for long-running workloads (Deployments, StatefulSets, DaemonSets - bare Pods, Jobs and CronJobs are not covered by this rule):
* each regular container (not init containers) must define both a readinessProbe and a livenessProbe
* the liveness probe mustn't be trigger-happy: failureThreshold x periodSeconds has to come to at least 30 seconds. Where a field is left out, use the Kubernetes defaults (failureThreshold 3, periodSeconds 10).`,
    check: (o) => {
      if (!['Deployment', 'StatefulSet', 'DaemonSet'].includes(o.kind)) return true;
      return (podOf(o).spec.containers ?? []).every((c) => {
        if (!c.readinessProbe || !c.livenessProbe) return false;
        return (c.livenessProbe.failureThreshold ?? 3) * (c.livenessProbe.periodSeconds ?? 10) >= 30;
      });
    },
    inputs: [
      {
        name: 'deployment-both-probes-defaults',
        expectPassed: true,
        object: wl('Deployment', { name: 'profile-svc', ns: 'accounts', replicas: 3 }, {
          containers: [ctr('profile', 'registry.acme.io/accounts/profile:2.4.0', { resources: R, ports: [{ containerPort: 8080, name: 'http' }], readinessProbe: httpProbe('/ready', 8080), livenessProbe: httpProbe('/healthz', 8080) })],
        }),
      },
      {
        name: 'deployment-liveness-15s-budget',
        expectPassed: false,
        object: wl('Deployment', { name: 'session-svc', ns: 'accounts', replicas: 3 }, {
          containers: [ctr('session', 'registry.acme.io/accounts/session:1.7.3', { resources: R, readinessProbe: httpProbe('/ready', 8080), livenessProbe: httpProbe('/healthz', 8080, { periodSeconds: 5 }) })],
        }),
      },
      {
        name: 'statefulset-readiness-missing',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'consul', ns: 'platform', replicas: 3 }, {
          containers: [ctr('consul', 'hashicorp/consul:1.18.1', { resources: R, livenessProbe: { tcpSocket: { port: 8500 }, periodSeconds: 10, failureThreshold: 3 } })],
        }),
      },
      {
        name: 'cronjob-without-probes',
        expectPassed: true,
        object: wl('CronJob', { name: 'token-rotator', ns: 'platform', schedule: '0 0 * * *' }, {
          containers: [ctr('rotator', 'registry.acme.io/platform/token-rotator:1.0.2', { resources: R })],
        }),
      },
      {
        name: 'daemonset-6-failures-every-5s',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'node-local-dns', ns: 'kube-system' }, {
          containers: [ctr('node-cache', 'registry.k8s.io/dns/k8s-dns-node-cache:1.23.0', { resources: R, readinessProbe: httpProbe('/health', 8080), livenessProbe: httpProbe('/health', 8080, { periodSeconds: 5, failureThreshold: 6 }) })],
        }),
      },
      {
        name: 'deployment-sidecar-without-liveness',
        expectPassed: false,
        object: wl('Deployment', { name: 'inventory', ns: 'shop', replicas: 2 }, {
          containers: [
            ctr('inventory', 'registry.acme.io/shop/inventory:6.0.0', { resources: R, readinessProbe: httpProbe('/ready', 8080), livenessProbe: httpProbe('/live', 8080, { failureThreshold: 5 }) }),
            ctr('oauth-proxy', 'quay.io/oauth2-proxy/oauth2-proxy:v7.6.0', { resources: R, readinessProbe: httpProbe('/ping', 4180) }),
          ],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 6
  {
    id: 'k8s3-named-service-account-required',
    difficulty: 'easy',
    topics: ['kubernetes', 'service-accounts', 'identity', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "Every workload has to run under its own identity: spec.serviceAccountName must be set, and it must not be `default`. The deprecated `serviceAccount` field doesn't count - set serviceAccountName.",
    check: (o) => {
      const sa = podOf(o).spec.serviceAccountName;
      return typeof sa === 'string' && sa !== '' && sa !== 'default';
    },
    inputs: [
      {
        name: 'deployment-dedicated-sa',
        expectPassed: true,
        object: wl('Deployment', { name: 'shipping', ns: 'logistics', replicas: 2 }, {
          serviceAccountName: 'shipping',
          containers: [ctr('shipping', 'registry.acme.io/logistics/shipping:3.1.0', { resources: R })],
        }),
      },
      {
        name: 'pod-no-service-account',
        expectPassed: false,
        object: wl('Pod', { name: 'scratchpad', ns: 'logistics' }, {
          containers: [ctr('shell', 'registry.acme.io/tools/toolbox:1.0.0', { resources: R })],
        }),
      },
      {
        name: 'statefulset-default-spelled-out',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'route-cache', ns: 'logistics', replicas: 2 }, {
          serviceAccountName: 'default',
          containers: [ctr('cache', 'redis:7.2.4', { resources: R })],
        }),
      },
      {
        name: 'job-deprecated-field-only',
        expectPassed: false,
        object: wl('Job', { name: 'manifest-export', ns: 'logistics' }, {
          serviceAccount: 'manifest-exporter',
          containers: [ctr('export', 'registry.acme.io/logistics/manifest-export:0.5.0', { resources: R })],
        }),
      },
      {
        name: 'cronjob-dedicated-sa',
        expectPassed: true,
        object: wl('CronJob', { name: 'carrier-sync', ns: 'logistics', schedule: '*/30 * * * *' }, {
          serviceAccountName: 'carrier-sync',
          containers: [ctr('sync', 'registry.acme.io/logistics/carrier-sync:2.0.0', { resources: R })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 7
  {
    id: 'k8s3-batch-namespace-on-spot-nodes',
    difficulty: 'hard',
    topics: ['kubernetes', 'scheduling', 'node-selector', 'affinity', 'tolerations', 'namespaces', 'controllers'],
    labels: kube('Pod'),
    instruction: `Workloads in the \`batch\` namespace need to land on spot capacity. For a pod (or pod template) in \`batch\`:
(1) it has to select spot nodes, either with nodeSelector \`node.kubernetes.io/lifecycle: spot\`, or with required node affinity (requiredDuringSchedulingIgnoredDuringExecution) where every nodeSelectorTerm has a matchExpression on key node.kubernetes.io/lifecycle with operator In and values exactly [spot]; AND
(2) it has to tolerate the spot taint \`spot=true:NoSchedule\`. A toleration counts if it has key spot and either value "true" (operator Equal, which is the default) or operator Exists, and its effect is NoSchedule or left empty.
Other namespaces are out of scope for this one.`,
    check: (o) => {
      if (nsOf(o) !== 'batch') return true;
      const spec = podOf(o).spec;
      const KEY = 'node.kubernetes.io/lifecycle';
      const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
      const byAffinity = terms.length > 0 && terms.every((t) => (t.matchExpressions ?? []).some((e) => e.key === KEY && e.operator === 'In' && e.values?.length === 1 && e.values[0] === 'spot'));
      const selects = spec.nodeSelector?.[KEY] === 'spot' || byAffinity;
      const tolerates = (spec.tolerations ?? []).some((t) => t.key === 'spot'
        && ((t.operator ?? 'Equal') === 'Exists' || ((t.operator ?? 'Equal') === 'Equal' && t.value === 'true'))
        && (t.effect === undefined || t.effect === '' || t.effect === 'NoSchedule'));
      return selects && tolerates;
    },
    inputs: [
      {
        name: 'deployment-outside-batch-nothing-set',
        expectPassed: true,
        object: wl('Deployment', { name: 'web', ns: 'frontend', replicas: 3 }, {
          containers: [ctr('web', 'registry.acme.io/frontend/web:9.0.0', { resources: R })],
        }),
      },
      {
        name: 'job-batch-nodeselector-and-toleration',
        expectPassed: true,
        object: wl('Job', { name: 'monthly-aggregates', ns: 'batch' }, {
          nodeSelector: { 'node.kubernetes.io/lifecycle': 'spot' },
          tolerations: [{ key: 'spot', operator: 'Equal', value: 'true', effect: 'NoSchedule' }],
          containers: [ctr('agg', 'registry.acme.io/batch/aggregates:1.4.0', { resources: R })],
        }),
      },
      {
        name: 'cronjob-batch-affinity-and-exists-toleration',
        expectPassed: true,
        object: wl('CronJob', { name: 'log-compactor', ns: 'batch', schedule: '0 1 * * *' }, {
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'node.kubernetes.io/lifecycle', operator: 'In', values: ['spot'] }] }] } } },
          tolerations: [{ key: 'spot', operator: 'Exists' }],
          containers: [ctr('compactor', 'registry.acme.io/batch/log-compactor:0.7.0', { resources: R })],
        }),
      },
      {
        name: 'job-batch-selector-without-toleration',
        expectPassed: false,
        object: wl('Job', { name: 'ml-feature-backfill', ns: 'batch' }, {
          nodeSelector: { 'node.kubernetes.io/lifecycle': 'spot' },
          containers: [ctr('backfill', 'registry.acme.io/ml/feature-backfill:2.0.0', { resources: R })],
        }),
      },
      {
        name: 'deployment-batch-toleration-value-false',
        expectPassed: false,
        object: wl('Deployment', { name: 'queue-workers', ns: 'batch', replicas: 5 }, {
          nodeSelector: { 'node.kubernetes.io/lifecycle': 'spot' },
          tolerations: [{ key: 'spot', operator: 'Equal', value: 'false', effect: 'NoSchedule' }],
          containers: [ctr('worker', 'registry.acme.io/batch/queue-worker:3.3.0', { resources: R })],
        }),
      },
      {
        name: 'job-batch-selects-on-demand',
        expectPassed: false,
        object: wl('Job', { name: 'invoice-rerun', ns: 'batch' }, {
          nodeSelector: { 'node.kubernetes.io/lifecycle': 'on-demand' },
          tolerations: [{ key: 'spot', value: 'true', effect: 'NoSchedule' }],
          containers: [ctr('rerun', 'registry.acme.io/finance/invoice-rerun:1.0.1', { resources: R })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 8
  {
    id: 'k8s3-explicit-pull-policy-always-unless-digest',
    difficulty: 'medium',
    topics: ['kubernetes', 'images', 'image-pull-policy', 'digest', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "imagePullPolicy has to be spelled out on every container (init containers too) - don't lean on the defaulting rules. It must be `Always`, unless the image reference is pinned to a sha256 digest, in which case IfNotPresent or Never are acceptable as well (the bytes can't change under us).",
    check: (o) =>
      ctrsOf(podOf(o).spec).every((c) => {
        const p = c.imagePullPolicy;
        if (p === undefined) return false;
        if (p === 'Always') return true;
        return Boolean(image(c.image).digest?.startsWith('sha256:')) && ['IfNotPresent', 'Never'].includes(p);
      }),
    inputs: [
      {
        name: 'deployment-always',
        expectPassed: true,
        object: wl('Deployment', { name: 'booking', ns: 'travel', replicas: 2 }, {
          containers: [ctr('booking', 'registry.acme.io/travel/booking:4.4.0', { resources: R, imagePullPolicy: 'Always' })],
        }),
      },
      {
        name: 'pod-policy-unset',
        expectPassed: false,
        object: wl('Pod', { name: 'fare-cache', ns: 'travel' }, {
          containers: [ctr('cache', 'registry.acme.io/travel/fare-cache:1.2.0', { resources: R })],
        }),
      },
      {
        name: 'statefulset-ifnotpresent-with-tag',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'seat-map-db', ns: 'travel', replicas: 3 }, {
          containers: [ctr('db', 'postgres:16.2', { resources: R, imagePullPolicy: 'IfNotPresent' })],
        }),
      },
      {
        name: 'daemonset-ifnotpresent-with-digest',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'node-tuner', ns: 'platform' }, {
          containers: [ctr('tuner', `registry.acme.io/platform/node-tuner:2.0.0@sha256:${hex('node-tuner')}`, { resources: R, imagePullPolicy: 'IfNotPresent' })],
        }),
      },
      {
        name: 'job-init-container-policy-unset',
        expectPassed: false,
        object: wl('Job', { name: 'pnr-import', ns: 'travel' }, {
          initContainers: [ctr('wait', 'busybox:1.36.1', { resources: R })],
          containers: [ctr('import', 'registry.acme.io/travel/pnr-import:1.0.0', { resources: R, imagePullPolicy: 'Always' })],
        }),
      },
      {
        name: 'cronjob-never-with-digest',
        expectPassed: true,
        object: wl('CronJob', { name: 'airport-refresh', ns: 'travel', schedule: '0 3 * * 0' }, {
          containers: [ctr('refresh', `registry.acme.io/travel/airport-refresh@sha256:${hex('airport-refresh')}`, { resources: R, imagePullPolicy: 'Never' })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 9
  {
    id: 'k8s3-termination-grace-bounds-statefulset-explicit',
    difficulty: 'medium',
    topics: ['kubernetes', 'termination-grace', 'statefulset', 'boundaries', 'controllers'],
    labels: kube('Pod'),
    instruction: `terminationGracePeriodSeconds:
- Deployments, DaemonSets, Jobs, CronJobs and bare Pods: optional, but when you do set it keep it between 10 and 120 seconds (inclusive).
- StatefulSets: must be set explicitly (our databses need time to flush to disk), anywhere from 10 up to 600 seconds inclusive.`,
    check: (o) => {
      const t = podOf(o).spec.terminationGracePeriodSeconds;
      if (o.kind === 'StatefulSet') return t !== undefined && t >= 10 && t <= 600;
      return t === undefined || (t >= 10 && t <= 120);
    },
    inputs: [
      {
        name: 'deployment-unset',
        expectPassed: true,
        object: wl('Deployment', { name: 'hotel-search', ns: 'travel', replicas: 2 }, {
          containers: [ctr('search', 'registry.acme.io/travel/hotel-search:2.0.0', { resources: R })],
        }),
      },
      {
        name: 'deployment-5-seconds',
        expectPassed: false,
        object: wl('Deployment', { name: 'geo-lookup', ns: 'travel', replicas: 2 }, {
          terminationGracePeriodSeconds: 5,
          containers: [ctr('geo', 'registry.acme.io/travel/geo-lookup:1.3.0', { resources: R })],
        }),
      },
      {
        name: 'deployment-120-seconds',
        expectPassed: true,
        object: wl('Deployment', { name: 'websocket-hub', ns: 'realtime', replicas: 4 }, {
          terminationGracePeriodSeconds: 120,
          containers: [ctr('hub', 'registry.acme.io/realtime/ws-hub:0.12.0', { resources: R })],
        }),
      },
      {
        name: 'statefulset-unset',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'clickhouse', ns: 'analytics', replicas: 3 }, {
          containers: [ctr('clickhouse', 'clickhouse/clickhouse-server:24.3.2', { resources: R })],
        }),
      },
      {
        name: 'statefulset-600-seconds',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'postgres-main', ns: 'data', replicas: 2 }, {
          terminationGracePeriodSeconds: 600,
          containers: [ctr('postgres', 'postgres:16.2', { resources: R })],
        }),
      },
      {
        name: 'job-180-seconds',
        expectPassed: false,
        object: wl('Job', { name: 'archive-upload', ns: 'analytics' }, {
          terminationGracePeriodSeconds: 180,
          containers: [ctr('upload', 'registry.acme.io/analytics/archive-upload:1.0.0', { resources: R })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 10
  {
    id: 'k8s3-deployment-rollout-strategy',
    difficulty: 'hard',
    topics: ['kubernetes', 'deployment', 'rollout', 'int-or-percent', 'annotations', 'exemptions'],
    labels: kube('Deployment'),
    instruction: `Zero-downtime rollouts: Deployments must roll, not recreate.
- strategy.type Recreate is forbidden unless the Deployment itself carries the annotation \`deploy.acme.io/allow-recreate: "true"\` (single-writer apps only).
- For rolling updates, maxUnavailable must be either the integer 0 or a percentage no higher than 25%. Other absolute numbers (1, 2, ...) aren't allowed because they mean different things at different replica counts.
- Leaving strategy / rollingUpdate / maxUnavailable out is fine: the default is RollingUpdate with 25%.`,
    check: (o) => {
      const s = o.spec?.strategy ?? {};
      if ((s.type ?? 'RollingUpdate') === 'Recreate') return o.metadata?.annotations?.['deploy.acme.io/allow-recreate'] === 'true';
      const mu = s.rollingUpdate?.maxUnavailable;
      if (mu === undefined) return true;
      if (typeof mu === 'number') return mu === 0;
      const m = /^(\d+)%$/.exec(mu);
      return Boolean(m) && Number(m[1]) <= 25;
    },
    inputs: [
      {
        name: 'no-strategy-block',
        expectPassed: true,
        object: wl('Deployment', { name: 'catalog-api', ns: 'shop', replicas: 4 }, {
          containers: [ctr('api', 'registry.acme.io/shop/catalog-api:7.0.0', { resources: R })],
        }),
      },
      {
        name: 'recreate-without-annotation',
        expectPassed: false,
        object: wl('Deployment', { name: 'report-generator', ns: 'finance', replicas: 1, extraSpec: { strategy: { type: 'Recreate' } } }, {
          containers: [ctr('gen', 'registry.acme.io/finance/report-generator:1.5.0', { resources: R })],
        }),
      },
      {
        name: 'recreate-with-annotation',
        expectPassed: true,
        object: wl('Deployment', { name: 'ledger-writer', ns: 'finance', replicas: 1, annotations: { 'deploy.acme.io/allow-recreate': 'true' }, extraSpec: { strategy: { type: 'Recreate' } } }, {
          containers: [ctr('writer', 'registry.acme.io/finance/ledger-writer:2.2.0', { resources: R })],
        }),
      },
      {
        name: 'max-unavailable-30-percent',
        expectPassed: false,
        object: wl('Deployment', { name: 'search-api', ns: 'search', replicas: 10, extraSpec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '30%', maxSurge: '30%' } } } }, {
          containers: [ctr('api', 'registry.acme.io/search/api:4.2.0', { resources: R })],
        }),
      },
      {
        name: 'max-unavailable-zero-integer',
        expectPassed: true,
        object: wl('Deployment', { name: 'checkout', ns: 'shop', replicas: 6, extraSpec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '50%' } } } }, {
          containers: [ctr('checkout', 'registry.acme.io/shop/checkout:3.4.1', { resources: R })],
        }),
      },
      {
        name: 'max-unavailable-absolute-two',
        expectPassed: false,
        object: wl('Deployment', { name: 'notifications', ns: 'comms', replicas: 8, extraSpec: { strategy: { rollingUpdate: { maxUnavailable: 2 } } } }, {
          containers: [ctr('notify', 'registry.acme.io/comms/notifications:5.0.0', { resources: R })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 11
  {
    id: 'k8s3-cronjob-frequency-deadline-history',
    difficulty: 'hard',
    topics: ['kubernetes', 'cronjob', 'schedule', 'history-limits', 'boundaries'],
    labels: kube('CronJob'),
    instruction: `CronJob hygiene (platform guild decision, March):
1. Nothing may run more often than every 5 minutes. Concretely, the minute field of spec.schedule must not be \`*\`, and if it's a step like \`*/N\` then N has to be 5 or more. (We don't use TZ prefixes or @every macros.)
2. startingDeadlineSeconds must be set and be at least 60.
3. successfulJobsHistoryLimit and failedJobsHistoryLimit, if set, must be no more than 5 each (the defaults are fine).`,
    check: (o) => {
      const s = o.spec ?? {};
      const minute = String(s.schedule).trim().split(/\s+/)[0];
      if (minute === '*') return false;
      const step = /^\*\/(\d+)$/.exec(minute);
      if (step && Number(step[1]) < 5) return false;
      if (!(typeof s.startingDeadlineSeconds === 'number' && s.startingDeadlineSeconds >= 60)) return false;
      return [s.successfulJobsHistoryLimit, s.failedJobsHistoryLimit].every((h) => h === undefined || h <= 5);
    },
    inputs: [
      {
        name: 'every-five-minutes-deadline-60',
        expectPassed: true,
        object: wl('CronJob', { name: 'queue-depth-probe', ns: 'ops', schedule: '*/5 * * * *', cronFields: { startingDeadlineSeconds: 60 } }, {
          containers: [ctr('probe', 'registry.acme.io/ops/queue-probe:1.0.0', { resources: R })],
        }),
      },
      {
        name: 'every-minute',
        expectPassed: false,
        object: wl('CronJob', { name: 'heartbeat', ns: 'ops', schedule: '* * * * *', cronFields: { startingDeadlineSeconds: 120 } }, {
          containers: [ctr('beat', 'registry.acme.io/ops/heartbeat:0.1.0', { resources: R })],
        }),
      },
      {
        name: 'every-two-minutes',
        expectPassed: false,
        object: wl('CronJob', { name: 'cache-warm', ns: 'web', schedule: '*/2 * * * *', cronFields: { startingDeadlineSeconds: 90 } }, {
          containers: [ctr('warm', 'registry.acme.io/web/cache-warm:2.1.0', { resources: R })],
        }),
      },
      {
        name: 'hourly-without-starting-deadline',
        expectPassed: false,
        object: wl('CronJob', { name: 'exchange-rates', ns: 'finance', schedule: '0 * * * *' }, {
          containers: [ctr('rates', 'registry.acme.io/finance/exchange-rates:3.0.0', { resources: R })],
        }),
      },
      {
        name: 'successful-history-ten',
        expectPassed: false,
        object: wl('CronJob', { name: 'nightly-etl', ns: 'data', schedule: '30 2 * * *', cronFields: { startingDeadlineSeconds: 600, successfulJobsHistoryLimit: 10, failedJobsHistoryLimit: 3 } }, {
          containers: [ctr('etl', 'registry.acme.io/data/etl:8.1.0', { resources: R })],
        }),
      },
      {
        name: 'half-hourly-list-history-five',
        expectPassed: true,
        object: wl('CronJob', { name: 'sla-report', ns: 'ops', schedule: '0,30 * * * *', cronFields: { startingDeadlineSeconds: 300, successfulJobsHistoryLimit: 5, failedJobsHistoryLimit: 5 } }, {
          containers: [ctr('report', 'registry.acme.io/ops/sla-report:1.2.0', { resources: R })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 12
  {
    id: 'k8s3-version-label-matches-image-tag',
    difficulty: 'hard',
    topics: ['kubernetes', 'labels', 'images', 'field-comparison', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "Release tracking: the pod's `app.kubernetes.io/version` label has to be present and equal to the tag of the main container's image, where main = the first entry in `containers` (e.g. image registry.acme.io/shop/cart:4.1.0 -> label 4.1.0). For controllers we read the label off the pod template, because that's what ends up on the running pods. If the image has no tag at all the label can't match, so that's a fail.",
    check: (o) => {
      const { meta, spec } = podOf(o);
      const first = (spec.containers ?? [])[0];
      const v = meta.labels?.['app.kubernetes.io/version'];
      if (!first || v === undefined) return false;
      const tag = image(first.image).tag;
      return tag !== undefined && tag === v;
    },
    inputs: [
      {
        name: 'deployment-template-label-matches',
        expectPassed: true,
        object: wl('Deployment', { name: 'cart', ns: 'shop', replicas: 3, podLabels: { 'app.kubernetes.io/version': '4.1.0' } }, {
          containers: [ctr('cart', 'registry.acme.io/shop/cart:4.1.0', { resources: R })],
        }),
      },
      {
        name: 'deployment-label-behind-image',
        expectPassed: false,
        object: wl('Deployment', { name: 'wishlist', ns: 'shop', replicas: 2, podLabels: { 'app.kubernetes.io/version': '2.0.9' } }, {
          containers: [ctr('wishlist', 'registry.acme.io/shop/wishlist:2.1.0', { resources: R })],
        }),
      },
      {
        name: 'pod-label-missing',
        expectPassed: false,
        object: wl('Pod', { name: 'coupon-validator', ns: 'shop' }, {
          containers: [ctr('validator', 'registry.acme.io/shop/coupon-validator:1.0.3', { resources: R })],
        }),
      },
      {
        name: 'statefulset-untagged-image',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'search-index', ns: 'search', replicas: 2, podLabels: { 'app.kubernetes.io/version': '1.0.0' } }, {
          containers: [ctr('index', 'registry.acme.io/search/index', { resources: R })],
        }),
      },
      {
        name: 'deployment-label-only-on-controller',
        expectPassed: false,
        object: wl('Deployment', { name: 'reviews', ns: 'shop', replicas: 2, labels: { app: 'reviews', 'app.kubernetes.io/version': '3.3.0' } }, {
          containers: [ctr('reviews', 'registry.acme.io/shop/reviews:3.3.0', { resources: R })],
        }),
      },
      {
        name: 'cronjob-v-prefixed-tag-sidecar-differs',
        expectPassed: true,
        object: wl('CronJob', { name: 'price-sync', ns: 'shop', schedule: '15 * * * *', podLabels: { 'app.kubernetes.io/version': 'v2.3.0' } }, {
          containers: [ctr('sync', 'registry.acme.io/shop/price-sync:v2.3.0', { resources: R }), ctr('cloudsql-proxy', 'gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.10.0', { resources: R })],
        }),
      },
    ],
  },
];
