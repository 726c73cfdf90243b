// own-holdout-3: Kubernetes pod security cases.
import { kube, ctr, res, wl, podOf, ctrsOf, nsOf } from './lib.mjs';

const R = res({ cpu: '100m', memory: '128Mi' }, { memory: '256Mi' });
const sc = (securityContext, more = {}) => ({ securityContext, resources: R, ...more });
const APE = { allowPrivilegeEscalation: false };

export default [
  // ------------------------------------------------------------------ 1
  {
    id: 'k8s3-allow-privilege-escalation-explicit-false',
    difficulty: 'easy',
    topics: ['kubernetes', 'pod-security', 'privilege-escalation', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "quick one for #platform-sec: from next sprint every container we schedule has to say `allowPrivilegeEscalation: false` in its securityContext. Init containers count too. We're NOT relying on the default here - if the field is missing that's a fail, because without it a setuid binary can end up with more privileges than its parent process. Applies to bare pods and to anything with a pod template (deployments, statefulsets, daemonsets, jobs, cronjobs...).",
    check: (o) => ctrsOf(podOf(o).spec).every((c) => c.securityContext?.allowPrivilegeEscalation === false),
    inputs: [
      {
        name: 'pod-two-containers-explicit-false',
        expectPassed: true,
        object: wl('Pod', { name: 'checkout-api', ns: 'shop' }, {
          containers: [ctr('api', 'registry.acme.io/shop/checkout:3.4.1', sc(APE)), ctr('envoy', 'envoyproxy/envoy:v1.29.2', sc({ ...APE, runAsNonRoot: true }))],
        }),
      },
      {
        name: 'deployment-init-container-field-missing',
        expectPassed: false,
        object: wl('Deployment', { name: 'orders', ns: 'shop', replicas: 3 }, {
          initContainers: [ctr('migrate', 'registry.acme.io/shop/orders-migrate:3.4.1', sc({ runAsNonRoot: true }))],
          containers: [ctr('orders', 'registry.acme.io/shop/orders:3.4.1', sc(APE))],
        }),
      },
      {
        name: 'statefulset-main-container-true',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'ledger-db', ns: 'finance', replicas: 3 }, {
          containers: [ctr('postgres', 'postgres:16.2', sc({ allowPrivilegeEscalation: true }))],
        }),
      },
      {
        name: 'cronjob-explicit-false',
        expectPassed: true,
        object: wl('CronJob', { name: 'nightly-report', ns: 'finance', schedule: '30 1 * * *' }, {
          containers: [ctr('report', 'registry.acme.io/finance/report:1.0.9', sc({ ...APE, readOnlyRootFilesystem: true }))],
        }),
      },
      {
        name: 'daemonset-sidecar-without-field',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'node-metrics', ns: 'monitoring' }, {
          containers: [
            ctr('exporter', 'quay.io/prometheus/node-exporter:v1.7.0', sc(APE)),
            ctr('kube-rbac-proxy', 'quay.io/brancz/kube-rbac-proxy:v0.16.0', sc({ runAsNonRoot: true, readOnlyRootFilesystem: true })),
          ],
        }),
      },
      {
        name: 'job-init-and-main-explicit-false',
        expectPassed: true,
        object: wl('Job', { name: 'reindex-search', ns: 'search' }, {
          initContainers: [ctr('wait-es', 'busybox:1.36.1', sc(APE))],
          containers: [ctr('reindex', 'registry.acme.io/search/reindex:2.2.0', sc(APE))],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 2
  {
    id: 'k8s3-capabilities-drop-all-nbs-only-low-ports',
    difficulty: 'hard',
    topics: ['kubernetes', 'pod-security', 'capabilities', 'ports', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'Control K8S-SEC-07 (Linux capabilities). Each container, init containers included, shall drop every capability by listing `ALL` under securityContext.capabilities.drop. The only capability that may be added back is NET_BIND_SERVICE, and a container may add it only when it actually declares a containerPort below 1024; adding it to a container whose ports are all 1024 or higher (or that declares no ports) is a finding. Adding any other capability is a finding.',
    check: (o) =>
      ctrsOf(podOf(o).spec).every((c) => {
        const caps = c.securityContext?.capabilities ?? {};
        if (!(caps.drop ?? []).includes('ALL')) return false;
        const add = caps.add ?? [];
        if (!add.every((x) => x === 'NET_BIND_SERVICE')) return false;
        if (add.includes('NET_BIND_SERVICE')) return (c.ports ?? []).some((p) => p.containerPort < 1024);
        return true;
      }),
    inputs: [
      {
        name: 'pod-drop-all-nothing-added',
        expectPassed: true,
        object: wl('Pod', { name: 'pricing', ns: 'shop' }, {
          containers: [ctr('pricing', 'registry.acme.io/shop/pricing:5.0.2', sc({ ...APE, capabilities: { drop: ['ALL'] } }, { ports: [{ containerPort: 8080 }] }))],
        }),
      },
      {
        name: 'deployment-nbs-with-port-443',
        expectPassed: true,
        object: wl('Deployment', { name: 'edge-proxy', ns: 'edge', replicas: 2 }, {
          containers: [ctr('haproxy', 'haproxy:2.9.6', sc({ capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } }, { ports: [{ containerPort: 443, name: 'https' }, { containerPort: 8404, name: 'stats' }] }))],
        }),
      },
      {
        name: 'deployment-nbs-but-port-1024',
        expectPassed: false,
        object: wl('Deployment', { name: 'legacy-gw', ns: 'edge', replicas: 2 }, {
          containers: [ctr('gw', 'registry.acme.io/edge/legacy-gw:0.9.4', sc({ capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } }, { ports: [{ containerPort: 1024 }] }))],
        }),
      },
      {
        name: 'pod-adds-net-admin',
        expectPassed: false,
        object: wl('Pod', { name: 'vpn-client', ns: 'netops' }, {
          containers: [ctr('wg', 'registry.acme.io/netops/wireguard:1.0.20210914', sc({ capabilities: { drop: ['ALL'], add: ['NET_ADMIN'] } }))],
        }),
      },
      {
        name: 'statefulset-init-container-drops-nothing',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'zookeeper', ns: 'kafka', replicas: 3 }, {
          initContainers: [ctr('fix-perms', 'busybox:1.36.1', sc({ runAsUser: 1000 }))],
          containers: [ctr('zk', 'zookeeper:3.9.2', sc({ capabilities: { drop: ['ALL'] } }, { ports: [{ containerPort: 2181, name: 'client' }] }))],
        }),
      },
      {
        name: 'cronjob-drop-all',
        expectPassed: true,
        object: wl('CronJob', { name: 'cert-audit', ns: 'security', schedule: '0 6 * * 1' }, {
          containers: [ctr('audit', 'registry.acme.io/security/cert-audit:1.3.0', sc({ ...APE, capabilities: { drop: ['ALL'] } }))],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 3
  {
    id: 'k8s3-apparmor-confinement-field-or-annotation',
    difficulty: 'hard',
    topics: ['kubernetes', 'pod-security', 'apparmor', 'annotations', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: `SEC-2291: Enforce AppArmor confinement

As a security engineer I want every container confined by AppArmor.

Acceptance criteria:
- A container is confined when its own securityContext.appArmorProfile.type is RuntimeDefault or Localhost, or - if the container doesn't set one - when the pod-level securityContext.appArmorProfile.type is RuntimeDefault or Localhost.
- The older annotation \`container.apparmor.security.beta.kubernetes.io/<container name>\` on the pod (pod template for controllers) also confines that container when its value is \`runtime/default\` or starts with \`localhost/\`.
- Unconfined means not confined; a container-level Unconfined beats a pod-level default.
- Init containers included.`,
    check: (o) => {
      const { meta, spec } = podOf(o);
      const good = (t) => t === 'RuntimeDefault' || t === 'Localhost';
      return ctrsOf(spec).every((c) => {
        const own = c.securityContext?.appArmorProfile?.type;
        if (own !== undefined) return good(own);
        const ann = meta.annotations?.[`container.apparmor.security.beta.kubernetes.io/${c.name}`];
        if (typeof ann === 'string' && (ann === 'runtime/default' || ann.startsWith('localhost/'))) return true;
        return good(spec.securityContext?.appArmorProfile?.type);
      });
    },
    inputs: [
      {
        name: 'pod-level-runtime-default',
        expectPassed: true,
        object: wl('Pod', { name: 'search-api', ns: 'search' }, {
          securityContext: { appArmorProfile: { type: 'RuntimeDefault' } },
          initContainers: [ctr('warmup', 'registry.acme.io/search/warmup:1.1.0', { resources: R })],
          containers: [ctr('api', 'registry.acme.io/search/api:4.2.0', { resources: R })],
        }),
      },
      {
        name: 'deployment-container-unconfined-overrides-pod',
        expectPassed: false,
        object: wl('Deployment', { name: 'profiler', ns: 'perf', replicas: 1 }, {
          securityContext: { appArmorProfile: { type: 'RuntimeDefault' } },
          containers: [
            ctr('app', 'registry.acme.io/perf/app:2.0.0', { resources: R }),
            ctr('ebpf', 'registry.acme.io/perf/ebpf-agent:0.4.1', sc({ appArmorProfile: { type: 'Unconfined' } })),
          ],
        }),
      },
      {
        name: 'pod-legacy-annotations-each-container',
        expectPassed: true,
        object: wl('Pod', { name: 'web', ns: 'frontend', annotations: {
          'container.apparmor.security.beta.kubernetes.io/nginx': 'localhost/k8s-nginx',
          'container.apparmor.security.beta.kubernetes.io/log-tailer': 'runtime/default',
        } }, {
          containers: [ctr('nginx', 'nginx:1.25.4', { resources: R }), ctr('log-tailer', 'busybox:1.36.1', { resources: R })],
        }),
      },
      {
        name: 'statefulset-nothing-configured',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'redis', ns: 'cache', replicas: 3 }, {
          containers: [ctr('redis', 'redis:7.2.4', sc({ runAsNonRoot: true, runAsUser: 999 }))],
        }),
      },
      {
        name: 'daemonset-pod-default-init-localhost',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'log-agent', ns: 'logging' }, {
          securityContext: { appArmorProfile: { type: 'RuntimeDefault' } },
          initContainers: [ctr('setup', 'registry.acme.io/logging/setup:1.0.0', sc({ appArmorProfile: { type: 'Localhost', localhostProfile: 'k8s-log-setup' } }))],
          containers: [ctr('agent', 'fluent/fluent-bit:3.0.2', { resources: R })],
        }),
      },
      {
        name: 'deployment-annotation-covers-only-one-container',
        expectPassed: false,
        object: wl('Deployment', { name: 'billing', ns: 'finance', replicas: 2, podAnnotations: {
          'container.apparmor.security.beta.kubernetes.io/billing': 'runtime/default',
        } }, {
          containers: [ctr('billing', 'registry.acme.io/finance/billing:7.1.0', { resources: R }), ctr('cloudsql-proxy', 'gcr.io/cloud-sql-connectors/cloud-sql-proxy:2.10.0', { resources: R })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 4
  {
    id: 'k8s3-privileged-only-kube-system-or-csi-node',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'privileged', 'exemptions', 'namespaces', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'Nobody should be able to run a privileged container (securityContext.privileged: true - init containers included) outside of kube-system. The one other exception is our CSI node plugin: pods labelled `app.kubernetes.io/component: csi-node` may be privileged in any namespace. For controllers, the label that counts is the one on the pod template, not on the controller itself.',
    check: (o) => {
      const { meta, spec } = podOf(o);
      if (nsOf(o) === 'kube-system') return true;
      if (meta.labels?.['app.kubernetes.io/component'] === 'csi-node') return true;
      return !ctrsOf(spec).some((c) => c.securityContext?.privileged === true);
    },
    inputs: [
      {
        name: 'daemonset-kube-system-privileged',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'kube-proxy', ns: 'kube-system' }, {
          hostNetwork: true,
          containers: [ctr('kube-proxy', 'registry.k8s.io/kube-proxy:v1.29.3', sc({ privileged: true }))],
        }),
      },
      {
        name: 'daemonset-csi-node-template-label',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'ebs-csi-node', ns: 'storage-system', podLabels: { 'app.kubernetes.io/component': 'csi-node' } }, {
          containers: [ctr('ebs-plugin', 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.29.1', sc({ privileged: true }))],
        }),
      },
      {
        name: 'deployment-app-namespace-privileged',
        expectPassed: false,
        object: wl('Deployment', { name: 'fraud-scorer', ns: 'payments', replicas: 2 }, {
          containers: [ctr('scorer', 'registry.acme.io/payments/fraud-scorer:1.8.0', sc({ privileged: true }))],
        }),
      },
      {
        name: 'pod-init-container-privileged',
        expectPassed: false,
        object: wl('Pod', { name: 'tuned-app', ns: 'default' }, {
          initContainers: [ctr('sysctl', 'busybox:1.36.1', sc({ privileged: true }))],
          containers: [ctr('app', 'registry.acme.io/core/tuned-app:0.3.0', sc({ privileged: false }))],
        }),
      },
      {
        name: 'deployment-explicitly-unprivileged',
        expectPassed: true,
        object: wl('Deployment', { name: 'catalog', ns: 'shop', replicas: 3 }, {
          containers: [ctr('catalog', 'registry.acme.io/shop/catalog:2.6.3', sc({ privileged: false, ...APE }))],
        }),
      },
      {
        name: 'daemonset-csi-label-on-controller-only',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'nfs-csi-node', ns: 'storage-system', labels: { app: 'nfs-csi-node', 'app.kubernetes.io/component': 'csi-node' } }, {
          containers: [ctr('nfs-plugin', 'registry.k8s.io/sig-storage/nfsplugin:v4.6.0', sc({ privileged: true }))],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 5
  {
    id: 'k8s3-hostpath-log-dirs-read-only',
    difficulty: 'hard',
    topics: ['kubernetes', 'pod-security', 'host-path', 'volumes', 'read-only', 'controllers'],
    labels: kube('Pod'),
    instruction: `hostPath policy (log shippers only):
1. A hostPath volume may only point at /var/log or /var/lib/docker/containers, or somewhere below either of those.
2. Every volumeMount that uses a hostPath volume must have readOnly: true - in every container that mounts it, init containers included.
Pods without hostPath volumes are unaffected. Matching is by directory, not by string prefix: /var/log-archive is not under /var/log.`,
    check: (o) => {
      const spec = podOf(o).spec;
      const under = (p) => ['/var/log', '/var/lib/docker/containers'].some((b) => p === b || p.startsWith(`${b}/`));
      const hp = (spec.volumes ?? []).filter((v) => v.hostPath);
      if (!hp.every((v) => under(v.hostPath.path.replace(/\/+$/, '')))) return false;
      const names = new Set(hp.map((v) => v.name));
      return ctrsOf(spec).every((c) => (c.volumeMounts ?? []).filter((m) => names.has(m.name)).every((m) => m.readOnly === true));
    },
    inputs: [
      {
        name: 'daemonset-var-log-read-only',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'fluent-bit', ns: 'logging' }, {
          volumes: [{ name: 'varlog', hostPath: { path: '/var/log' } }],
          containers: [ctr('fluent-bit', 'fluent/fluent-bit:3.0.2', { resources: R, volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }] })],
        }),
      },
      {
        name: 'daemonset-docker-containers-and-journal-read-only',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'vector-agent', ns: 'logging' }, {
          volumes: [
            { name: 'docker-logs', hostPath: { path: '/var/lib/docker/containers', type: 'Directory' } },
            { name: 'journal', hostPath: { path: '/var/log/journal' } },
          ],
          containers: [ctr('vector', 'timberio/vector:0.37.0-debian', {
            resources: R,
            volumeMounts: [
              { name: 'docker-logs', mountPath: '/var/lib/docker/containers', readOnly: true },
              { name: 'journal', mountPath: '/run/log/journal', readOnly: true },
            ],
          })],
        }),
      },
      {
        name: 'pod-var-log-archive-sibling-dir',
        expectPassed: false,
        object: wl('Pod', { name: 'log-archiver', ns: 'logging' }, {
          volumes: [{ name: 'archive', hostPath: { path: '/var/log-archive' } }],
          containers: [ctr('archiver', 'registry.acme.io/logging/archiver:0.2.0', { resources: R, volumeMounts: [{ name: 'archive', mountPath: '/archive', readOnly: true }] })],
        }),
      },
      {
        name: 'daemonset-var-log-mounted-writable',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'promtail', ns: 'logging' }, {
          volumes: [{ name: 'pods', hostPath: { path: '/var/log/pods' } }],
          containers: [ctr('promtail', 'grafana/promtail:2.9.6', { resources: R, volumeMounts: [{ name: 'pods', mountPath: '/var/log/pods' }] })],
        }),
      },
      {
        name: 'pod-etc-kubernetes-read-only',
        expectPassed: false,
        object: wl('Pod', { name: 'config-reader', ns: 'ops' }, {
          volumes: [{ name: 'kube-etc', hostPath: { path: '/etc/kubernetes' } }],
          containers: [ctr('reader', 'busybox:1.36.1', { resources: R, volumeMounts: [{ name: 'kube-etc', mountPath: '/host/etc', readOnly: true }] })],
        }),
      },
      {
        name: 'deployment-emptydir-only',
        expectPassed: true,
        object: wl('Deployment', { name: 'thumbnailer', ns: 'media', replicas: 2 }, {
          volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '1Gi' } }],
          containers: [ctr('thumb', 'registry.acme.io/media/thumbnailer:1.4.0', { resources: R, volumeMounts: [{ name: 'scratch', mountPath: '/tmp' }] })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 6
  {
    id: 'k8s3-volume-kind-allowlist-restricted',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'restricted', 'volumes', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "Per the restricted Pod Security profile we only accept these volume kinds in pod specs: configMap, csi, downwardAPI, emptyDir, ephemeral, persistentVolumeClaim, projected and secret. Anything else (hostPath, nfs, cloud disks attached directly like awsElasticBlockStore, etc.) gets rejected - ask for a PVC instead. A pod with no volumes at all is obviously fine.",
    check: (o) => {
      const ok = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];
      return (podOf(o).spec.volumes ?? []).every((v) => Object.keys(v).filter((k) => k !== 'name').every((k) => ok.includes(k)));
    },
    inputs: [
      {
        name: 'deployment-configmap-secret-emptydir',
        expectPassed: true,
        object: wl('Deployment', { name: 'notifier', ns: 'comms', replicas: 2 }, {
          volumes: [
            { name: 'cfg', configMap: { name: 'notifier-config' } },
            { name: 'creds', secret: { secretName: 'notifier-smtp' } },
            { name: 'tmp', emptyDir: {} },
          ],
          containers: [ctr('notifier', 'registry.acme.io/comms/notifier:2.0.1', { resources: R, volumeMounts: [{ name: 'cfg', mountPath: '/etc/notifier' }, { name: 'creds', mountPath: '/run/secrets/smtp', readOnly: true }, { name: 'tmp', mountPath: '/tmp' }] })],
        }),
      },
      {
        name: 'pod-nfs-volume',
        expectPassed: false,
        object: wl('Pod', { name: 'media-importer', ns: 'media' }, {
          volumes: [{ name: 'share', nfs: { server: 'filer01.corp.acme.io', path: '/exports/media' } }],
          containers: [ctr('importer', 'registry.acme.io/media/importer:0.8.0', { resources: R, volumeMounts: [{ name: 'share', mountPath: '/mnt/media' }] })],
        }),
      },
      {
        name: 'statefulset-projected-downwardapi-pvc',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'etcd', ns: 'platform', replicas: 3 }, {
          volumes: [
            { name: 'podinfo', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
            { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3600, audience: 'vault' } }] } },
            { name: 'backup', persistentVolumeClaim: { claimName: 'etcd-backup' } },
          ],
          containers: [ctr('etcd', 'quay.io/coreos/etcd:v3.5.12', { resources: R, volumeMounts: [{ name: 'podinfo', mountPath: '/etc/podinfo' }, { name: 'token', mountPath: '/var/run/vault' }, { name: 'backup', mountPath: '/backup' }] })],
        }),
      },
      {
        name: 'job-aws-ebs-volume',
        expectPassed: false,
        object: wl('Job', { name: 'restore-snapshot', ns: 'platform' }, {
          volumes: [{ name: 'disk', awsElasticBlockStore: { volumeID: 'vol-0a1b2c3d4e5f67890', fsType: 'ext4' } }],
          containers: [ctr('restore', 'registry.acme.io/platform/restore:1.2.0', { resources: R, volumeMounts: [{ name: 'disk', mountPath: '/data' }] })],
        }),
      },
      {
        name: 'daemonset-hostpath-volume',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'node-problem-detector', ns: 'kube-system' }, {
          volumes: [{ name: 'kmsg', hostPath: { path: '/dev/kmsg' } }],
          containers: [ctr('npd', 'registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.19', { resources: R, volumeMounts: [{ name: 'kmsg', mountPath: '/dev/kmsg', readOnly: true }] })],
        }),
      },
      {
        name: 'cronjob-no-volumes',
        expectPassed: true,
        object: wl('CronJob', { name: 'stale-branch-cleanup', ns: 'ci', schedule: '0 4 * * 0' }, {
          containers: [ctr('cleanup', 'registry.acme.io/ci/branch-cleanup:1.0.3', { resources: R })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 7
  {
    id: 'k8s3-no-root-group-ids',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'run-as-group', 'fs-group', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "Group IDs: the root group (GID 0) is off limits. Concretely: runAsGroup must not be 0 - not in the pod securityContext and not in any container's (init containers included); fsGroup must not be 0; supplementalGroups must not contain 0. Leaving any of these unset is acceptable, we only care about explicit zeros in those group fields.",
    check: (o) => {
      const spec = podOf(o).spec;
      const p = spec.securityContext ?? {};
      if (p.runAsGroup === 0 || p.fsGroup === 0 || (p.supplementalGroups ?? []).includes(0)) return false;
      return ctrsOf(spec).every((c) => c.securityContext?.runAsGroup !== 0);
    },
    inputs: [
      {
        name: 'pod-all-groups-nonzero',
        expectPassed: true,
        object: wl('Pod', { name: 'importer', ns: 'data' }, {
          securityContext: { runAsUser: 1000, runAsGroup: 1000, fsGroup: 2000, supplementalGroups: [3000, 4000] },
          containers: [ctr('importer', 'registry.acme.io/data/importer:1.1.0', sc({ runAsGroup: 1000 }))],
        }),
      },
      {
        name: 'deployment-fsgroup-zero',
        expectPassed: false,
        object: wl('Deployment', { name: 'wiki', ns: 'intranet', replicas: 1 }, {
          securityContext: { runAsUser: 33, runAsGroup: 33, fsGroup: 0 },
          containers: [ctr('wiki', 'registry.acme.io/intranet/wiki:1.41.0', { resources: R })],
        }),
      },
      {
        name: 'pod-supplemental-groups-include-zero',
        expectPassed: false,
        object: wl('Pod', { name: 'backup-agent', ns: 'ops' }, {
          securityContext: { runAsGroup: 1500, supplementalGroups: [1500, 0] },
          containers: [ctr('agent', 'registry.acme.io/ops/backup-agent:3.0.0', { resources: R })],
        }),
      },
      {
        name: 'statefulset-init-container-group-zero',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'minio', ns: 'storage', replicas: 4 }, {
          securityContext: { fsGroup: 1001 },
          initContainers: [ctr('chown', 'busybox:1.36.1', sc({ runAsUser: 1001, runAsGroup: 0 }))],
          containers: [ctr('minio', 'quay.io/minio/minio:RELEASE.2024-03-30T09-41-56Z', sc({ runAsUser: 1001, runAsGroup: 1001 }))],
        }),
      },
      {
        name: 'cronjob-group-fields-unset',
        expectPassed: true,
        object: wl('CronJob', { name: 'invoice-mailer', ns: 'finance', schedule: '0 8 1 * *' }, {
          containers: [ctr('mailer', 'registry.acme.io/finance/invoice-mailer:2.3.1', sc({ runAsNonRoot: true }))],
        }),
      },
      {
        name: 'daemonset-uid-zero-groups-nonzero',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'disk-usage-exporter', ns: 'monitoring' }, {
          securityContext: { runAsUser: 0, runAsGroup: 2000, fsGroup: 2000 },
          containers: [ctr('exporter', 'registry.acme.io/monitoring/disk-usage-exporter:0.5.0', { resources: R })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 8
  {
    id: 'k8s3-no-shared-pid-in-prod-prefixed-namespaces',
    difficulty: 'easy',
    topics: ['kubernetes', 'pod-security', 'process-namespace', 'namespaces', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "Anything running in a namepsace whose name begins with `prod` (e.g. prod, prod-eu, production) must not share a process namespace between its containers, i.e. spec.shareProcessNamespace can't be true there. Outside those namespaces, do what you like. Namespaces are matched on the start of the name only.",
    check: (o) => !(nsOf(o).startsWith('prod') && podOf(o).spec.shareProcessNamespace === true),
    inputs: [
      {
        name: 'pod-prod-eu-shared',
        expectPassed: false,
        object: wl('Pod', { name: 'debug-me', ns: 'prod-eu' }, {
          shareProcessNamespace: true,
          containers: [ctr('app', 'registry.acme.io/core/app:1.0.0', { resources: R }), ctr('shell', 'busybox:1.36.1', { resources: R })],
        }),
      },
      {
        name: 'deployment-production-shared',
        expectPassed: false,
        object: wl('Deployment', { name: 'gateway', ns: 'production', replicas: 3 }, {
          shareProcessNamespace: true,
          containers: [ctr('gateway', 'registry.acme.io/core/gateway:6.2.0', { resources: R })],
        }),
      },
      {
        name: 'deployment-preprod-shared',
        expectPassed: true,
        object: wl('Deployment', { name: 'gateway', ns: 'preprod', replicas: 1 }, {
          shareProcessNamespace: true,
          containers: [ctr('gateway', 'registry.acme.io/core/gateway:6.2.0', { resources: R })],
        }),
      },
      {
        name: 'pod-prod-not-set',
        expectPassed: true,
        object: wl('Pod', { name: 'worker', ns: 'prod' }, {
          containers: [ctr('worker', 'registry.acme.io/core/worker:2.8.0', { resources: R })],
        }),
      },
      {
        name: 'statefulset-prod-explicit-false',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'queue', ns: 'prod-us', replicas: 3 }, {
          shareProcessNamespace: false,
          containers: [ctr('rabbitmq', 'rabbitmq:3.13.0-management', { resources: R })],
        }),
      },
      {
        name: 'cronjob-prod-shared',
        expectPassed: false,
        object: wl('CronJob', { name: 'heap-dumper', ns: 'prod', schedule: '0 */6 * * *' }, {
          shareProcessNamespace: true,
          containers: [ctr('dumper', 'registry.acme.io/core/heap-dumper:0.1.0', { resources: R })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 9
  {
    id: 'k8s3-windows-hostprocess-and-admin-user',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'windows', 'host-process', 'controllers'],
    labels: kube('Pod'),
    instruction: `Windows node hardening (from the NSA/CISA guide, adapted):
- HostProcess containers are banned: windowsOptions.hostProcess must never be true, neither in the pod securityContext nor in any container's (init containers included).
- Containers must not run as ContainerAdministrator. A container's effective user is its own securityContext.windowsOptions.runAsUserName, falling back to the pod's; if neither is set the image default applies and we accept that (our base images default to ContainerUser).
Linux pods don't set any of this and are unaffected.`,
    check: (o) => {
      const spec = podOf(o).spec;
      const podWin = spec.securityContext?.windowsOptions ?? {};
      const cs = ctrsOf(spec);
      if (podWin.hostProcess === true || cs.some((c) => c.securityContext?.windowsOptions?.hostProcess === true)) return false;
      return cs.every((c) => {
        const u = c.securityContext?.windowsOptions?.runAsUserName ?? podWin.runAsUserName;
        return u === undefined || u.toLowerCase() !== 'containeradministrator';
      });
    },
    inputs: [
      {
        name: 'pod-windows-containeruser',
        expectPassed: true,
        object: wl('Pod', { name: 'iis-site', ns: 'legacy-web' }, {
          nodeSelector: { 'kubernetes.io/os': 'windows' },
          securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } },
          containers: [ctr('iis', 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', { resources: R })],
        }),
      },
      {
        name: 'daemonset-pod-hostprocess',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'win-node-exporter', ns: 'monitoring' }, {
          nodeSelector: { 'kubernetes.io/os': 'windows' },
          hostNetwork: true,
          securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\system' } },
          containers: [ctr('exporter', 'ghcr.io/prometheus-community/windows-exporter:0.25.1', { resources: R })],
        }),
      },
      {
        name: 'deployment-container-overrides-to-admin',
        expectPassed: false,
        object: wl('Deployment', { name: 'dotnet-api', ns: 'legacy-web', replicas: 2 }, {
          nodeSelector: { 'kubernetes.io/os': 'windows' },
          securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } },
          containers: [ctr('api', 'registry.acme.io/legacy/dotnet-api:4.8.1', sc({ windowsOptions: { runAsUserName: 'ContainerAdministrator' } }))],
        }),
      },
      {
        name: 'pod-linux-nothing-set',
        expectPassed: true,
        object: wl('Pod', { name: 'nginx', ns: 'web' }, {
          containers: [ctr('nginx', 'nginx:1.25.4', sc({ runAsNonRoot: true, runAsUser: 101 }))],
        }),
      },
      {
        name: 'deployment-pod-level-admin-inherited',
        expectPassed: false,
        object: wl('Deployment', { name: 'report-server', ns: 'legacy-web', replicas: 1 }, {
          nodeSelector: { 'kubernetes.io/os': 'windows' },
          securityContext: { windowsOptions: { runAsUserName: 'ContainerAdministrator' } },
          containers: [ctr('ssrs', 'registry.acme.io/legacy/report-server:2019.1', { resources: R })],
        }),
      },
      {
        name: 'job-pod-admin-but-every-container-overrides',
        expectPassed: true,
        object: wl('Job', { name: 'win-migrate', ns: 'legacy-web' }, {
          nodeSelector: { 'kubernetes.io/os': 'windows' },
          securityContext: { windowsOptions: { runAsUserName: 'ContainerAdministrator' } },
          initContainers: [ctr('prep', 'registry.acme.io/legacy/prep:1.0.0', sc({ windowsOptions: { runAsUserName: 'ContainerUser' } }))],
          containers: [ctr('migrate', 'registry.acme.io/legacy/migrate:1.0.0', sc({ windowsOptions: { runAsUserName: 'ContainerUser' } }))],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 10
  {
    id: 'k8s3-no-container-runtime-socket-mounts',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'host-path', 'container-runtime', 'controllers'],
    labels: kube('Pod'),
    instruction: `Mounting the container runtime socket is equivalent to root on the node, so nobody should be able to hostPath-mount any of these:
  /var/run/docker.sock, /run/docker.sock, /var/run/containerd/containerd.sock, /run/containerd/containerd.sock, /var/run/crio/crio.sock, /run/crio/crio.sock
...or any directory that contains one of them (so \`/\`, \`/var\`, \`/var/run\`, \`/run\`, \`/run/containerd\` etc. are just as bad). Other hostPaths aren't this rule's business.`,
    check: (o) => {
      const socks = ['/var/run/docker.sock', '/run/docker.sock', '/var/run/containerd/containerd.sock', '/run/containerd/containerd.sock', '/var/run/crio/crio.sock', '/run/crio/crio.sock'];
      return (podOf(o).spec.volumes ?? []).filter((v) => v.hostPath).every((v) => {
        const p = v.hostPath.path === '/' ? '/' : v.hostPath.path.replace(/\/+$/, '');
        return !socks.some((s) => s === p || s.startsWith(p === '/' ? '/' : `${p}/`));
      });
    },
    inputs: [
      {
        name: 'daemonset-docker-sock',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'dind-builder', ns: 'ci' }, {
          volumes: [{ name: 'docker', hostPath: { path: '/var/run/docker.sock', type: 'Socket' } }],
          containers: [ctr('builder', 'docker:25.0.4-cli', { resources: R, volumeMounts: [{ name: 'docker', mountPath: '/var/run/docker.sock' }] })],
        }),
      },
      {
        name: 'pod-run-containerd-directory',
        expectPassed: false,
        object: wl('Pod', { name: 'image-gc', ns: 'ops' }, {
          volumes: [{ name: 'containerd', hostPath: { path: '/run/containerd' } }],
          containers: [ctr('gc', 'registry.acme.io/ops/image-gc:0.2.0', { resources: R, volumeMounts: [{ name: 'containerd', mountPath: '/run/containerd', readOnly: true }] })],
        }),
      },
      {
        name: 'daemonset-host-root',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'host-scanner', ns: 'security' }, {
          volumes: [{ name: 'host', hostPath: { path: '/' } }],
          containers: [ctr('scanner', 'registry.acme.io/security/host-scanner:1.5.0', { resources: R, volumeMounts: [{ name: 'host', mountPath: '/host', readOnly: true }] })],
        }),
      },
      {
        name: 'daemonset-var-log-only',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'filebeat', ns: 'logging' }, {
          volumes: [{ name: 'varlog', hostPath: { path: '/var/log' } }],
          containers: [ctr('filebeat', 'docker.elastic.co/beats/filebeat:8.13.0', { resources: R, volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }] })],
        }),
      },
      {
        name: 'deployment-kubelet-pods-dir',
        expectPassed: true,
        object: wl('Deployment', { name: 'volume-inspector', ns: 'storage', replicas: 1 }, {
          volumes: [{ name: 'kubelet-pods', hostPath: { path: '/var/lib/kubelet/pods' } }],
          containers: [ctr('inspector', 'registry.acme.io/storage/volume-inspector:0.4.0', { resources: R, volumeMounts: [{ name: 'kubelet-pods', mountPath: '/pods', readOnly: true }] })],
        }),
      },
      {
        name: 'pod-var-run-trailing-slash',
        expectPassed: false,
        object: wl('Pod', { name: 'socket-proxy', ns: 'ci' }, {
          volumes: [{ name: 'run', hostPath: { path: '/var/run/' } }],
          containers: [ctr('proxy', 'tecnativa/docker-socket-proxy:0.1.2', { resources: R, volumeMounts: [{ name: 'run', mountPath: '/host/run' }] })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 11
  {
    id: 'k8s3-non-root-effective-user',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'run-as-non-root', 'inheritance', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "Containers must not run as root. Every container (init containers too) needs runAsNonRoot: true in effect - either set on the container itself or inherited from the pod securityContext; a container-level runAsNonRoot: false overrides the pod and fails. Separately, an explicit runAsUser of 0 fails even when runAsNonRoot is true - the container's own runAsUser wins, otherwise the pod's applies.",
    check: (o) => {
      const spec = podOf(o).spec;
      const p = spec.securityContext ?? {};
      return ctrsOf(spec).every((c) => (c.securityContext?.runAsNonRoot ?? p.runAsNonRoot) === true && (c.securityContext?.runAsUser ?? p.runAsUser) !== 0);
    },
    inputs: [
      {
        name: 'pod-level-non-root',
        expectPassed: true,
        object: wl('Pod', { name: 'grpc-echo', ns: 'tools' }, {
          securityContext: { runAsNonRoot: true, runAsUser: 10001 },
          initContainers: [ctr('init-cfg', 'busybox:1.36.1', { resources: R })],
          containers: [ctr('echo', 'registry.acme.io/tools/grpc-echo:1.0.0', { resources: R })],
        }),
      },
      {
        name: 'deployment-container-overrides-false',
        expectPassed: false,
        object: wl('Deployment', { name: 'image-resizer', ns: 'media', replicas: 2 }, {
          securityContext: { runAsNonRoot: true },
          containers: [ctr('resizer', 'registry.acme.io/media/resizer:3.3.0', sc({ runAsNonRoot: false }))],
        }),
      },
      {
        name: 'statefulset-non-root-but-uid-zero',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'elasticsearch', ns: 'search', replicas: 3 }, {
          securityContext: { runAsNonRoot: true },
          containers: [ctr('es', 'docker.elastic.co/elasticsearch/elasticsearch:8.13.0', sc({ runAsUser: 0 }))],
        }),
      },
      {
        name: 'cronjob-nothing-set',
        expectPassed: false,
        object: wl('CronJob', { name: 'db-vacuum', ns: 'data', schedule: '0 2 * * 6' }, {
          containers: [ctr('vacuum', 'postgres:16.2', { resources: R })],
        }),
      },
      {
        name: 'daemonset-pod-uid-zero-containers-override',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'cadvisor-lite', ns: 'monitoring' }, {
          securityContext: { runAsNonRoot: true, runAsUser: 0 },
          containers: [ctr('cadvisor', 'registry.acme.io/monitoring/cadvisor-lite:0.3.0', sc({ runAsUser: 65534 }))],
        }),
      },
      {
        name: 'job-init-container-lacks-non-root',
        expectPassed: false,
        object: wl('Job', { name: 'schema-sync', ns: 'data' }, {
          initContainers: [ctr('fetch', 'curlimages/curl:8.7.1', sc({ runAsUser: 100 }))],
          containers: [ctr('sync', 'registry.acme.io/data/schema-sync:1.2.0', sc({ runAsNonRoot: true, runAsUser: 1000 }))],
        }),
      },
    ],
  },
];
