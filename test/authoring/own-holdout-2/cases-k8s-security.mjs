// Kubernetes: pod-security style rules (seccomp, hostPath, capabilities, UID ranges,
// read-only root filesystems, service-account tokens, emptyDir sizes).
import { kube, ctr, res, wl, podOf, ctrsOf, nsOf, qty } from './lib.mjs';

const R = res({ cpu: '100m', memory: '128Mi' }, { memory: '256Mi' });
const app = (name, image, more = {}) => ctr(name, image, { resources: R, ...more });

export default [
  // ------------------------------------------------------------------ seccomp
  {
    id: 'k8s-seccomp-pod-or-every-container',
    difficulty: 'hard',
    topics: ['kubernetes', 'pod-security', 'seccomp', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: `PLAT-2291: enforce seccomp on workloads

Acceptance criteria:
- Either the pod-level securityContext.seccompProfile.type is RuntimeDefault or Localhost, or every single container (init containers included) sets one of those two types in its own securityContext.
- A container-level profile overrides the pod one, so a container that says Unconfined fails the whole pod even when the pod level is RuntimeDefault.
- Applies to bare Pods and to anything with a pod template (Deployments, StatefulSets, DaemonSets, Jobs, CronJobs).`,
    check(o) {
      const { spec } = podOf(o);
      const ok = (t) => t === 'RuntimeDefault' || t === 'Localhost';
      const podType = spec.securityContext?.seccompProfile?.type;
      return ctrsOf(spec).every((c) => ok(c.securityContext?.seccompProfile?.type ?? podType));
    },
    inputs: [
      {
        name: 'deployment-pod-level-runtime-default',
        expectPassed: true,
        object: wl('Deployment', { name: 'checkout-api', ns: 'shop', replicas: 2 }, {
          securityContext: { seccompProfile: { type: 'RuntimeDefault' }, runAsNonRoot: true },
          initContainers: [app('wait-db', 'registry.acme.io/tools/wait-for:1.3')],
          containers: [app('api', 'registry.acme.io/shop/checkout-api:4.2.0')],
        }),
      },
      {
        name: 'pod-init-container-without-profile',
        expectPassed: false,
        object: wl('Pod', { name: 'report-builder', ns: 'analytics' }, {
          initContainers: [app('fetch-templates', 'registry.acme.io/tools/fetch:0.9')],
          containers: [app('builder', 'registry.acme.io/analytics/report-builder:2.1', { securityContext: { seccompProfile: { type: 'RuntimeDefault' } } })],
        }),
      },
      {
        name: 'pod-level-unconfined-but-every-container-localhost',
        expectPassed: true,
        object: wl('Pod', { name: 'packet-inspector', ns: 'netsec' }, {
          securityContext: { seccompProfile: { type: 'Unconfined' } },
          initContainers: [app('setup', 'registry.acme.io/netsec/setup:1.0', { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/setup.json' } } })],
          containers: [app('inspector', 'registry.acme.io/netsec/inspector:3.4', { securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/inspector.json' } } })],
        }),
      },
      {
        name: 'statefulset-sidecar-overrides-to-unconfined',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'ledger-db', ns: 'finance', replicas: 3 }, {
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            app('postgres', 'registry.acme.io/db/postgres:16.2'),
            app('pgbouncer', 'registry.acme.io/db/pgbouncer:1.22', { securityContext: { seccompProfile: { type: 'Unconfined' } } }),
          ],
        }),
      },
      {
        name: 'cronjob-no-seccomp-anywhere',
        expectPassed: false,
        object: wl('CronJob', { name: 'nightly-export', ns: 'analytics', schedule: '30 1 * * *' }, {
          containers: [app('export', 'registry.acme.io/analytics/export:1.8', { securityContext: { allowPrivilegeEscalation: false } })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ hostPath
  {
    id: 'k8s-hostpath-only-readonly-varlog-for-logging-daemonsets',
    difficulty: 'hard',
    topics: ['kubernetes', 'pod-security', 'host-path', 'volumes', 'exemptions', 'cis'],
    labels: kube('Pod'),
    instruction: `our take on CIS 5.2.12 (minimise hostPath): hostPath volumes are banned across the cluster. The one exception is DaemonSets in the \`logging\` namespace, which may use hostPath volumes whose path is /var/log or something underneath it (e.g. /var/log/pods) - but only if every container that mounts such a volume mounts it with readOnly: true. Anything else with a hostPath, including a logging DaemonSet pointed at /var/lib/docker, gets rejected. Workloads without hostPath volumes are obviously fine.`,
    check(o) {
      const { spec } = podOf(o);
      for (const v of spec.volumes ?? []) {
        if (!v.hostPath) continue;
        if (o.kind !== 'DaemonSet' || nsOf(o) !== 'logging') return false;
        const p = v.hostPath.path;
        if (!(p === '/var/log' || p.startsWith('/var/log/'))) return false;
        for (const c of ctrsOf(spec)) for (const m of c.volumeMounts ?? []) if (m.name === v.name && m.readOnly !== true) return false;
      }
      return true;
    },
    inputs: [
      {
        name: 'logging-daemonset-varlog-readonly',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'fluent-bit', ns: 'logging' }, {
          volumes: [{ name: 'varlog', hostPath: { path: '/var/log', type: 'Directory' } }, { name: 'config', configMap: { name: 'fluent-bit-config' } }],
          containers: [app('fluent-bit', 'cr.fluentbit.io/fluent/fluent-bit:3.0.4', { volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }, { name: 'config', mountPath: '/fluent-bit/etc' }] })],
        }),
      },
      {
        name: 'logging-daemonset-varlog-pods-writable',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'promtail', ns: 'logging' }, {
          volumes: [{ name: 'pods', hostPath: { path: '/var/log/pods' } }],
          containers: [app('promtail', 'docker.io/grafana/promtail:2.9.4', { volumeMounts: [{ name: 'pods', mountPath: '/var/log/pods' }] })],
        }),
      },
      {
        name: 'logging-daemonset-docker-containers-dir',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'vector-agent', ns: 'logging' }, {
          volumes: [{ name: 'containers', hostPath: { path: '/var/lib/docker/containers' } }],
          containers: [app('vector', 'docker.io/timberio/vector:0.37.0-distroless-libc', { volumeMounts: [{ name: 'containers', mountPath: '/var/lib/docker/containers', readOnly: true }] })],
        }),
      },
      {
        name: 'monitoring-daemonset-varlog-readonly',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'log-exporter', ns: 'monitoring' }, {
          volumes: [{ name: 'varlog', hostPath: { path: '/var/log' } }],
          containers: [app('exporter', 'registry.acme.io/obs/log-exporter:0.4', { volumeMounts: [{ name: 'varlog', mountPath: '/host/var/log', readOnly: true }] })],
        }),
      },
      {
        name: 'logging-deployment-with-hostpath',
        expectPassed: false,
        object: wl('Deployment', { name: 'log-aggregator', ns: 'logging', replicas: 1 }, {
          volumes: [{ name: 'varlog', hostPath: { path: '/var/log' } }],
          containers: [app('aggregator', 'registry.acme.io/obs/aggregator:1.1', { volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }] })],
        }),
      },
      {
        name: 'deployment-without-hostpath',
        expectPassed: true,
        object: wl('Deployment', { name: 'search-api', ns: 'search', replicas: 3 }, {
          volumes: [{ name: 'cache', emptyDir: { sizeLimit: '1Gi' } }, { name: 'settings', configMap: { name: 'search-settings' } }],
          containers: [app('api', 'registry.acme.io/search/api:7.0.1', { volumeMounts: [{ name: 'cache', mountPath: '/cache' }, { name: 'settings', mountPath: '/etc/search' }] })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ capabilities
  {
    id: 'k8s-no-dangerous-added-capabilities',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'capabilities', 'init-containers', 'compliance'],
    labels: kube('Pod'),
    instruction: `SEC-K8S-07 Linux capabilities. Containers (this includes init containers and ephemeral containers) must not add any of the following capabilities: SYS_ADMIN, NET_ADMIN, SYS_PTRACE, SYS_MODULE or ALL. Capability names are compared case-insensitively and with or without the CAP_ prefix, so CAP_SYS_ADMIN is the same as SYS_ADMIN. Dropping capabilities is always permitted, and adding other capabilities (e.g. NET_BIND_SERVICE) is not restricted by this control.`,
    check(o) {
      const banned = new Set(['SYS_ADMIN', 'NET_ADMIN', 'SYS_PTRACE', 'SYS_MODULE', 'ALL']);
      return ctrsOf(podOf(o).spec).every((c) => (c.securityContext?.capabilities?.add ?? []).every((cap) => !banned.has(cap.toUpperCase().replace(/^CAP_/, ''))));
    },
    inputs: [
      {
        name: 'pod-adds-net-bind-drops-all',
        expectPassed: true,
        object: wl('Pod', { name: 'edge-proxy', ns: 'edge' }, {
          containers: [app('envoy', 'docker.io/envoyproxy/envoy:v1.29.2', { securityContext: { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } } })],
        }),
      },
      {
        name: 'deployment-adds-cap-sys-admin-prefixed',
        expectPassed: false,
        object: wl('Deployment', { name: 'fuse-mounter', ns: 'storage', replicas: 1 }, {
          containers: [app('mounter', 'registry.acme.io/storage/fuse-mounter:0.7', { securityContext: { capabilities: { add: ['CAP_SYS_ADMIN'] } } })],
        }),
      },
      {
        name: 'pod-init-container-adds-lowercase-net-admin',
        expectPassed: false,
        object: wl('Pod', { name: 'mesh-app', ns: 'orders' }, {
          initContainers: [app('iptables-init', 'registry.acme.io/mesh/proxy-init:1.12', { securityContext: { capabilities: { add: ['net_admin', 'NET_RAW'] } } })],
          containers: [app('orders', 'registry.acme.io/orders/orders:3.3.1')],
        }),
      },
      {
        name: 'daemonset-only-drops-sys-admin',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'node-labeller', ns: 'kube-system' }, {
          containers: [app('labeller', 'registry.acme.io/infra/node-labeller:2.0', { securityContext: { capabilities: { drop: ['SYS_ADMIN', 'NET_ADMIN'] } } })],
        }),
      },
      {
        name: 'job-adds-all',
        expectPassed: false,
        object: wl('Job', { name: 'disk-wipe', ns: 'ops' }, {
          containers: [app('wipe', 'registry.acme.io/ops/disk-wipe:1.0', { securityContext: { capabilities: { add: ['ALL'] } } })],
        }),
      },
      {
        name: 'statefulset-sidecar-adds-sys-ptrace',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'profiled-cache', ns: 'perf', replicas: 2 }, {
          containers: [
            app('cache', 'registry.acme.io/perf/cache:5.1'),
            app('profiler', 'registry.acme.io/perf/profiler:0.3', { securityContext: { capabilities: { add: ['SYS_PTRACE'] } } }),
          ],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ UID / GID range
  {
    id: 'k8s-uid-gid-at-least-10000-when-set',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'run-as-user', 'optional-fields', 'numeric-bounds'],
    labels: kube('Pod'),
    instruction: `UIDs and GIDs below 10000 clash with real accounts on our node images. So wherever runAsUser or runAsGroup is set - pod-level securityContext or a container's securityContext, init containers included - it has to be 10000 or above. Same for the pod's fsGroup. If none of them are set that's fine (the image default applies and a different policy covers non-root).`,
    check(o) {
      const { spec } = podOf(o);
      const vals = [spec.securityContext?.runAsUser, spec.securityContext?.runAsGroup, spec.securityContext?.fsGroup];
      for (const c of ctrsOf(spec)) vals.push(c.securityContext?.runAsUser, c.securityContext?.runAsGroup);
      return vals.every((v) => v === undefined || v >= 10000);
    },
    inputs: [
      {
        name: 'pod-level-ids-and-container-boundary',
        expectPassed: true,
        object: wl('Deployment', { name: 'billing-worker', ns: 'billing', replicas: 2 }, {
          securityContext: { runAsUser: 10001, runAsGroup: 10001, fsGroup: 10001 },
          containers: [app('worker', 'registry.acme.io/billing/worker:2.8', { securityContext: { runAsUser: 10000 } })],
        }),
      },
      {
        name: 'container-runs-as-uid-1000',
        expectPassed: false,
        object: wl('Pod', { name: 'notebook', ns: 'data-science' }, {
          containers: [app('jupyter', 'registry.acme.io/ds/jupyter:2024.03', { securityContext: { runAsUser: 1000, runAsGroup: 100000 } })],
        }),
      },
      {
        name: 'nothing-set',
        expectPassed: true,
        object: wl('Pod', { name: 'static-site', ns: 'web' }, {
          containers: [app('nginx', 'registry.acme.io/web/nginx-unprivileged:1.25')],
        }),
      },
      {
        name: 'init-container-group-zero',
        expectPassed: false,
        object: wl('Deployment', { name: 'media-transcoder', ns: 'media', replicas: 2 }, {
          securityContext: { runAsUser: 20000 },
          initContainers: [app('fix-perms', 'registry.acme.io/tools/busybox:1.36', { securityContext: { runAsGroup: 0 } })],
          containers: [app('transcoder', 'registry.acme.io/media/transcoder:6.0')],
        }),
      },
      {
        name: 'statefulset-fsgroup-999',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'es-data', ns: 'search', replicas: 3 }, {
          securityContext: { runAsUser: 10500, runAsGroup: 10500, fsGroup: 999 },
          containers: [app('elasticsearch', 'registry.acme.io/search/elasticsearch:8.13.0')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ read-only root filesystem
  {
    id: 'k8s-readonly-rootfs-app-containers',
    difficulty: 'easy',
    topics: ['kubernetes', 'pod-security', 'read-only-root-filesystem', 'exemptions'],
    labels: kube('Pod'),
    instruction: `Every app container should run with securityContext.readOnlyRootFilesystem: true. Init containers don't need it. Pods labelled legacy-rootfs=allowed (for controllers: the label on the pod template) are exempt until they get migrated.`,
    check(o) {
      const { meta, spec } = podOf(o);
      if (meta.labels?.['legacy-rootfs'] === 'allowed') return true;
      return (spec.containers ?? []).every((c) => c.securityContext?.readOnlyRootFilesystem === true);
    },
    inputs: [
      {
        name: 'deployment-all-app-containers-readonly',
        expectPassed: true,
        object: wl('Deployment', { name: 'profile-svc', ns: 'accounts', replicas: 2 }, {
          initContainers: [app('migrate', 'registry.acme.io/accounts/profile-migrate:1.9')],
          containers: [
            app('profile', 'registry.acme.io/accounts/profile-svc:1.9', { securityContext: { readOnlyRootFilesystem: true } }),
            app('otel', 'registry.acme.io/obs/otel-collector:0.97', { securityContext: { readOnlyRootFilesystem: true } }),
          ],
        }),
      },
      {
        name: 'pod-container-not-setting-it',
        expectPassed: false,
        object: wl('Pod', { name: 'debug-shell', ns: 'accounts' }, {
          containers: [app('shell', 'registry.acme.io/tools/netshoot:0.12')],
        }),
      },
      {
        name: 'deployment-second-container-false',
        expectPassed: false,
        object: wl('Deployment', { name: 'cart', ns: 'shop', replicas: 3 }, {
          containers: [
            app('cart', 'registry.acme.io/shop/cart:2.2', { securityContext: { readOnlyRootFilesystem: true } }),
            app('log-shipper', 'registry.acme.io/obs/shipper:0.5', { securityContext: { readOnlyRootFilesystem: false } }),
          ],
        }),
      },
      {
        name: 'deployment-legacy-label-on-template',
        expectPassed: true,
        object: wl('Deployment', { name: 'wordpress', ns: 'marketing', replicas: 1, podLabels: { 'legacy-rootfs': 'allowed' } }, {
          containers: [app('wordpress', 'registry.acme.io/marketing/wordpress:6.5')],
        }),
      },
      {
        name: 'cronjob-container-false',
        expectPassed: false,
        object: wl('CronJob', { name: 'sitemap-gen', ns: 'marketing' }, {
          containers: [app('gen', 'registry.acme.io/marketing/sitemap:0.2', { securityContext: { readOnlyRootFilesystem: false } })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ service account token
  {
    id: 'k8s-no-token-automount-on-default-sa',
    difficulty: 'medium',
    topics: ['kubernetes', 'service-accounts', 'automount-token', 'defaults', 'controllers'],
    labels: kube('Pod'),
    instruction: `can we stop pods from getting an API token they dont need? rule: the pod spec has to say automountServiceAccountToken: false, UNLESS the pod runs under its own dedicated service account (serviceAccountName set to something other than "default") - those can do what they like. Note k8s mounts the token when the field is left out, so a pod on the default SA that just doesn't mention it fails.`,
    check(o) {
      const { spec } = podOf(o);
      if (spec.serviceAccountName && spec.serviceAccountName !== 'default') return true;
      return spec.automountServiceAccountToken === false;
    },
    inputs: [
      {
        name: 'pod-default-sa-field-missing',
        expectPassed: false,
        object: wl('Pod', { name: 'hello', ns: 'sandbox' }, { containers: [app('hello', 'registry.acme.io/sandbox/hello:1.0')] }),
      },
      {
        name: 'deployment-dedicated-sa',
        expectPassed: true,
        object: wl('Deployment', { name: 'orders-api', ns: 'orders', replicas: 2 }, {
          serviceAccountName: 'orders-api',
          containers: [app('api', 'registry.acme.io/orders/api:5.0.2')],
        }),
      },
      {
        name: 'pod-explicit-default-sa-automount-off',
        expectPassed: true,
        object: wl('Pod', { name: 'batch-runner', ns: 'ops' }, {
          serviceAccountName: 'default',
          automountServiceAccountToken: false,
          containers: [app('runner', 'registry.acme.io/ops/runner:0.8')],
        }),
      },
      {
        name: 'deployment-default-sa-automount-true',
        expectPassed: false,
        object: wl('Deployment', { name: 'grafana', ns: 'monitoring', replicas: 1 }, {
          serviceAccountName: 'default',
          automountServiceAccountToken: true,
          containers: [app('grafana', 'docker.io/grafana/grafana:10.4.1')],
        }),
      },
      {
        name: 'job-no-sa-automount-off',
        expectPassed: true,
        object: wl('Job', { name: 'db-seed', ns: 'orders' }, {
          automountServiceAccountToken: false,
          containers: [app('seed', 'registry.acme.io/orders/seed:5.0.2')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ emptyDir size limits
  {
    id: 'k8s-emptydir-needs-size-limit',
    difficulty: 'medium',
    topics: ['kubernetes', 'volumes', 'empty-dir', 'quantities', 'numeric-bounds'],
    labels: kube('Pod'),
    instruction: `emptyDir volumes must declare a sizeLimit. Disk-backed ones may be at most 2Gi; memory-backed ones (medium: Memory) at most 256Mi, becuase tmpfs counts against the container's memory. Other volume types aren't affected by this.`,
    check(o) {
      for (const v of podOf(o).spec.volumes ?? []) {
        if (!v.emptyDir) continue;
        if (v.emptyDir.sizeLimit === undefined) return false;
        const max = v.emptyDir.medium === 'Memory' ? qty('256Mi') : qty('2Gi');
        if (qty(v.emptyDir.sizeLimit) > max) return false;
      }
      return true;
    },
    inputs: [
      {
        name: 'pod-disk-emptydir-1gi-and-configmap',
        expectPassed: true,
        object: wl('Pod', { name: 'thumbnailer', ns: 'media' }, {
          volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '1Gi' } }, { name: 'cfg', configMap: { name: 'thumbnailer' } }],
          containers: [app('thumb', 'registry.acme.io/media/thumbnailer:2.0', { volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }, { name: 'cfg', mountPath: '/etc/thumb' }] })],
        }),
      },
      {
        name: 'deployment-emptydir-without-limit',
        expectPassed: false,
        object: wl('Deployment', { name: 'pdf-render', ns: 'docs', replicas: 2 }, {
          volumes: [{ name: 'tmp', emptyDir: {} }],
          containers: [app('render', 'registry.acme.io/docs/pdf-render:1.4', { volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }] })],
        }),
      },
      {
        name: 'deployment-memory-emptydir-512mi',
        expectPassed: false,
        object: wl('Deployment', { name: 'session-cache', ns: 'web', replicas: 2 }, {
          volumes: [{ name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '512Mi' } }],
          containers: [app('cache', 'registry.acme.io/web/session-cache:0.9', { volumeMounts: [{ name: 'shm', mountPath: '/dev/shm' }] })],
        }),
      },
      {
        name: 'statefulset-both-at-their-limits',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'ml-feature-store', ns: 'ml', replicas: 2 }, {
          volumes: [{ name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '256Mi' } }, { name: 'spill', emptyDir: { sizeLimit: '2048Mi' } }],
          containers: [app('store', 'registry.acme.io/ml/feature-store:3.2', { volumeMounts: [{ name: 'shm', mountPath: '/dev/shm' }, { name: 'spill', mountPath: '/spill' }] })],
        }),
      },
      {
        name: 'job-disk-emptydir-3g-decimal',
        expectPassed: false,
        object: wl('Job', { name: 'log-compactor', ns: 'ops' }, {
          volumes: [{ name: 'work', emptyDir: { sizeLimit: '3G' } }],
          containers: [app('compactor', 'registry.acme.io/ops/compactor:1.1', { volumeMounts: [{ name: 'work', mountPath: '/work' }] })],
        }),
      },
    ],
  },
];
