// Kubernetes pod-security style cases (own holdout).
import { kube, ctr, wl, podOf, ctrsOf, nsOf } from './lib.mjs';

const sc = (securityContext) => ({ securityContext });
const res = { resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } } };

export default [
  // ------------------------------------------------------------------ S1
  {
    id: 'sec-host-namespaces-kube-system-exempt',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'host-namespaces', 'exemptions', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "hey all, quick one from the platform sec sync: pods must not share the node's namespaces, so hostNetwork, hostPID and hostIPC all have to be false or just left out (false is the default anyway). " +
      "This covers Deployments, DaemonSets, Jobs etc, not just bare pods. Only exemption is stuff running in kube-system, our CNI and kube-proxy genuinly need hostNetwork.",
    check: (o) => {
      if (nsOf(o) === 'kube-system') return true;
      const s = podOf(o).spec;
      return s.hostNetwork !== true && s.hostPID !== true && s.hostIPC !== true;
    },
    inputs: [
      {
        name: 'kube-proxy-daemonset-in-kube-system',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'kube-proxy', ns: 'kube-system' }, {
          hostNetwork: true,
          priorityClassName: 'system-node-critical',
          containers: [ctr('kube-proxy', 'registry.k8s.io/kube-proxy:v1.29.4', { command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf'], ...sc({ privileged: true }) })],
          tolerations: [{ operator: 'Exists' }],
        }),
      },
      {
        name: 'node-exporter-in-monitoring-uses-host-pid',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'node-exporter', ns: 'monitoring' }, {
          hostPID: true,
          containers: [ctr('node-exporter', 'quay.io/prometheus/node-exporter:v1.8.1', { args: ['--path.rootfs=/host'], ports: [{ containerPort: 9100, name: 'metrics' }], ...res })],
        }),
      },
      {
        name: 'plain-pod-nothing-set',
        expectPassed: true,
        object: wl('Pod', { name: 'echo', ns: 'web' }, { containers: [ctr('echo', 'registry.acme.io/tools/echo-server:0.9.2', { ports: [{ containerPort: 8080 }], ...res })] }),
      },
      {
        name: 'deployment-hostipc-false-but-hostnetwork',
        expectPassed: false,
        object: wl('Deployment', { name: 'edge-proxy', ns: 'payments', replicas: 2 }, {
          hostIPC: false,
          hostNetwork: true,
          dnsPolicy: 'ClusterFirstWithHostNet',
          containers: [ctr('envoy', 'envoyproxy/envoy:v1.30.1', { ports: [{ containerPort: 10000 }], ...res })],
        }),
      },
      {
        name: 'cronjob-with-hostipc',
        expectPassed: false,
        object: wl('CronJob', { name: 'shm-cleaner', ns: 'batch', schedule: '*/30 * * * *' }, {
          hostIPC: true,
          containers: [ctr('cleaner', 'registry.acme.io/ops/shm-cleaner:2.1.0', res)],
        }),
      },
      {
        name: 'statefulset-explicit-false',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'redis', ns: 'data', replicas: 3 }, {
          hostNetwork: false,
          hostPID: false,
          containers: [ctr('redis', 'redis:7.2.4', { ports: [{ containerPort: 6379, name: 'redis' }], ...res })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ S2
  {
    id: 'sec-capabilities-drop-all-add-netbind-only',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'capabilities', 'allowlist', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'SEC-2291: Linux capabilities baseline\n\n' +
      'Every container, init containers included, must drop ALL capabilities (securityContext.capabilities.drop has to contain "ALL"). ' +
      'The only capability anyone may add back is NET_BIND_SERVICE.\n\n' +
      'Acceptance criteria:\n' +
      '- a container with no drop list fails\n' +
      '- dropping a handful of specific caps instead of ALL fails\n' +
      '- add: [NET_BIND_SERVICE] is OK, anything else in add fails',
    check: (o) =>
      ctrsOf(podOf(o).spec).every((c) => {
        const caps = c.securityContext?.capabilities ?? {};
        return (caps.drop ?? []).includes('ALL') && (caps.add ?? []).every((a) => a === 'NET_BIND_SERVICE');
      }),
    inputs: [
      {
        name: 'deployment-nginx-adds-net-bind',
        expectPassed: true,
        object: wl('Deployment', { name: 'storefront', ns: 'shop', replicas: 3 }, {
          containers: [
            ctr('nginx', 'nginx:1.25.4', { ports: [{ containerPort: 80 }], ...sc({ capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } }) }),
            ctr('log-tailer', 'busybox:1.36.1', { args: ['tail', '-F', '/var/log/nginx/access.log'], ...sc({ capabilities: { drop: ['ALL'] } }) }),
          ],
        }),
      },
      {
        name: 'pod-init-container-without-drop',
        expectPassed: false,
        object: wl('Pod', { name: 'orders-api', ns: 'shop' }, {
          initContainers: [ctr('migrate', 'registry.acme.io/shop/orders-migrate:3.4.0', { args: ['up'] })],
          containers: [ctr('api', 'registry.acme.io/shop/orders-api:3.4.0', sc({ capabilities: { drop: ['ALL'] }, allowPrivilegeEscalation: false }))],
        }),
      },
      {
        name: 'statefulset-adds-sys-admin',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'ceph-mon', ns: 'storage', replicas: 3 }, {
          containers: [ctr('mon', 'quay.io/ceph/ceph:v18.2.2', sc({ capabilities: { drop: ['ALL'], add: ['SYS_ADMIN'] } }))],
        }),
      },
      {
        name: 'job-drop-all-empty-add',
        expectPassed: true,
        object: wl('Job', { name: 'reindex', ns: 'search', jobFields: { backoffLimit: 2 } }, {
          containers: [ctr('reindex', 'registry.acme.io/search/reindexer:1.0.7', sc({ capabilities: { drop: ['ALL'], add: [] }, runAsNonRoot: true }))],
        }),
      },
      {
        name: 'daemonset-drops-specific-caps-only',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'conntrack-exporter', ns: 'monitoring' }, {
          containers: [ctr('exporter', 'registry.acme.io/obs/conntrack-exporter:0.4.1', sc({ capabilities: { drop: ['NET_RAW', 'SYS_ADMIN', 'MKNOD'] } }))],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ S3
  {
    id: 'sec-effective-non-root-identity',
    difficulty: 'hard',
    topics: ['kubernetes', 'pod-security', 'run-as-non-root', 'field-inheritance', 'init-containers', 'missing-field', 'controllers'],
    labels: kube('Pod'),
    instruction:
      '4.3 Process identity. No workload may run processes as root (UID 0). For each container (application and init containers alike) the effective settings are what count: ' +
      "a value in the container's own securityContext overrides the pod-level securityContext. A container complies when its effective runAsNonRoot is true or its effective runAsUser is a non-zero UID; " +
      'an effective runAsUser of 0 is a violation whatever runAsNonRoot says. A container with neither set (i.e. running as whatever user the image defaults to) does not comply.',
    check: (o) => {
      const s = podOf(o).spec;
      return ctrsOf(s).every((c) => {
        const user = c.securityContext?.runAsUser ?? s.securityContext?.runAsUser;
        const nonRoot = c.securityContext?.runAsNonRoot ?? s.securityContext?.runAsNonRoot;
        if (user === 0) return false;
        return nonRoot === true || (user !== undefined && user !== 0);
      });
    },
    inputs: [
      {
        name: 'pod-level-run-as-non-root',
        expectPassed: true,
        object: wl('Pod', { name: 'catalog', ns: 'shop' }, {
          securityContext: { runAsNonRoot: true },
          containers: [ctr('catalog', 'registry.acme.io/shop/catalog:2.8.1'), ctr('envoy', 'envoyproxy/envoy:v1.30.1')],
        }),
      },
      {
        name: 'deployment-container-overrides-to-uid-0',
        expectPassed: false,
        object: wl('Deployment', { name: 'checkout', ns: 'shop', replicas: 2 }, {
          securityContext: { runAsNonRoot: true },
          containers: [
            ctr('checkout', 'registry.acme.io/shop/checkout:5.0.2'),
            ctr('metrics', 'registry.acme.io/obs/statsd-exporter:0.26.1', sc({ runAsUser: 0 })),
          ],
        }),
      },
      {
        name: 'pod-init-container-has-no-identity',
        expectPassed: false,
        object: wl('Pod', { name: 'reports', ns: 'finance' }, {
          initContainers: [ctr('fetch-templates', 'registry.acme.io/finance/template-sync:1.1.0')],
          containers: [ctr('reports', 'registry.acme.io/finance/reports:4.2.0', sc({ runAsUser: 1000, runAsGroup: 1000 }))],
        }),
      },
      {
        name: 'statefulset-pod-level-uid',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'zookeeper', ns: 'data', replicas: 3 }, {
          securityContext: { runAsUser: 10001, runAsGroup: 10001, fsGroup: 10001 },
          containers: [ctr('zookeeper', 'zookeeper:3.9.2', { ports: [{ containerPort: 2181, name: 'client' }] })],
        }),
      },
      {
        name: 'cronjob-container-turns-non-root-off',
        expectPassed: false,
        object: wl('CronJob', { name: 'db-dump', ns: 'data' }, {
          securityContext: { runAsNonRoot: true },
          containers: [ctr('dump', 'postgres:16.2', { command: ['pg_dumpall'], ...sc({ runAsNonRoot: false }) })],
        }),
      },
      {
        name: 'daemonset-container-overrides-pod-root',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'log-agent', ns: 'logging' }, {
          securityContext: { runAsUser: 0 },
          containers: [ctr('agent', 'registry.acme.io/obs/log-agent:3.3.0', sc({ runAsUser: 65534 }))],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ S4
  {
    id: 'sec-seccomp-profile-required',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'seccomp', 'field-inheritance', 'missing-field', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'Per the hardening guide every container (init containers too) needs a seccomp profile of type RuntimeDefault or Localhost. ' +
      'It can be set once in the pod securityContext or per container, and a container-level profile overrides the pod one. ' +
      "Unconfined is not OK, and not setting a profile at all isn't either (the runtime default on most of our nodes is effectively unconfined).",
    check: (o) => {
      const s = podOf(o).spec;
      return ctrsOf(s).every((c) => ['RuntimeDefault', 'Localhost'].includes(c.securityContext?.seccompProfile?.type ?? s.securityContext?.seccompProfile?.type));
    },
    inputs: [
      {
        name: 'pod-level-runtime-default',
        expectPassed: true,
        object: wl('Pod', { name: 'thumbnailer', ns: 'media' }, {
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          initContainers: [ctr('warm-cache', 'registry.acme.io/media/cache-warmer:1.0.3')],
          containers: [ctr('thumbnailer', 'registry.acme.io/media/thumbnailer:2.2.0')],
        }),
      },
      {
        name: 'deployment-sidecar-without-profile',
        expectPassed: false,
        object: wl('Deployment', { name: 'search-api', ns: 'search', replicas: 3 }, {
          containers: [
            ctr('api', 'registry.acme.io/search/api:7.1.0', sc({ seccompProfile: { type: 'RuntimeDefault' } })),
            ctr('otel-collector', 'otel/opentelemetry-collector:0.98.0'),
          ],
        }),
      },
      {
        name: 'daemonset-container-unconfined-override',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'falco', ns: 'security' }, {
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          containers: [ctr('falco', 'falcosecurity/falco:0.37.1', sc({ seccompProfile: { type: 'Unconfined' } }))],
        }),
      },
      {
        name: 'job-localhost-profiles-everywhere',
        expectPassed: true,
        object: wl('Job', { name: 'import-ledger', ns: 'finance', jobFields: { backoffLimit: 1 } }, {
          initContainers: [ctr('download', 'curlimages/curl:8.7.1', { args: ['-fsSLo', '/work/ledger.csv', 'https://files.acme.io/ledger.csv'], ...sc({ seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/batch.json' } }) })],
          containers: [ctr('import', 'registry.acme.io/finance/ledger-import:1.9.0', sc({ seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/batch.json' } }))],
        }),
      },
      {
        name: 'pod-nothing-set',
        expectPassed: false,
        object: wl('Pod', { name: 'adhoc-shell', ns: 'ops' }, { containers: [ctr('shell', 'registry.acme.io/ops/toolbox:2024.03', { command: ['sleep', 'infinity'] })] }),
      },
      {
        name: 'statefulset-pod-unconfined-container-overrides',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'etcd-events', ns: 'platform', replicas: 3 }, {
          securityContext: { seccompProfile: { type: 'Unconfined' } },
          containers: [ctr('etcd', 'registry.k8s.io/etcd:3.5.12-0', sc({ seccompProfile: { type: 'RuntimeDefault' } }))],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ S5
  {
    id: 'sec-readonly-rootfs-annotation-optout',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'read-only-root-filesystem', 'exemptions', 'annotations', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'Read-only root filesystems\n' +
      '* every app container must set securityContext.readOnlyRootFilesystem: true (missing counts as false)\n' +
      '* init containers are exempt, they often need to write scratch files\n' +
      '* a workload can opt out by putting the annotation security.acme.io/rootfs-exempt: "true" on its pods (on the pod template for controllers). Any other value does not count as an opt-out.',
    check: (o) => {
      const { meta, spec } = podOf(o);
      if (meta.annotations?.['security.acme.io/rootfs-exempt'] === 'true') return true;
      return (spec.containers ?? []).every((c) => c.securityContext?.readOnlyRootFilesystem === true);
    },
    inputs: [
      {
        name: 'deployment-ro-app-containers-init-writable',
        expectPassed: true,
        object: wl('Deployment', { name: 'billing-api', ns: 'finance', replicas: 2 }, {
          initContainers: [ctr('render-config', 'registry.acme.io/tools/gomplate:3.11.7')],
          containers: [
            ctr('api', 'registry.acme.io/finance/billing-api:6.0.1', sc({ readOnlyRootFilesystem: true })),
            ctr('proxy', 'envoyproxy/envoy:v1.30.1', sc({ readOnlyRootFilesystem: true })),
          ],
        }),
      },
      {
        name: 'pod-container-missing-flag',
        expectPassed: false,
        object: wl('Pod', { name: 'notifier', ns: 'comms' }, {
          containers: [ctr('notifier', 'registry.acme.io/comms/notifier:1.3.3', sc({ allowPrivilegeEscalation: false }))],
        }),
      },
      {
        name: 'statefulset-opted-out-on-template',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'legacy-cms', ns: 'web', replicas: 1, podAnnotations: { 'security.acme.io/rootfs-exempt': 'true', 'security.acme.io/exempt-ticket': 'SEC-1877' } }, {
          containers: [ctr('cms', 'registry.acme.io/web/legacy-cms:9.4.2', sc({ readOnlyRootFilesystem: false }))],
        }),
      },
      {
        name: 'deployment-opt-out-value-false',
        expectPassed: false,
        object: wl('Deployment', { name: 'imgproxy', ns: 'media', replicas: 2, podAnnotations: { 'security.acme.io/rootfs-exempt': 'false' } }, {
          containers: [ctr('imgproxy', 'darthsim/imgproxy:v3.23.0')],
        }),
      },
      {
        name: 'cronjob-ro-with-writable-init',
        expectPassed: true,
        object: wl('CronJob', { name: 'sitemap', ns: 'web', schedule: '0 */6 * * *' }, {
          initContainers: [ctr('prepare', 'busybox:1.36.1', { command: ['mkdir', '-p', '/tmp/out'] })],
          containers: [ctr('sitemap', 'registry.acme.io/web/sitemap-gen:0.8.0', sc({ readOnlyRootFilesystem: true }))],
        }),
      },
      {
        name: 'deployment-annotation-only-on-deployment-metadata',
        expectPassed: false,
        object: wl('Deployment', { name: 'wiki', ns: 'internal', replicas: 1, annotations: { 'security.acme.io/rootfs-exempt': 'true' } }, {
          containers: [ctr('wiki', 'requarks/wiki:2.5.300')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ S6
  {
    id: 'sec-pci-namespaces-stricter-profile',
    difficulty: 'hard',
    topics: ['kubernetes', 'pod-security', 'multi-requirement', 'conditional', 'namespaces', 'privileged', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'For anything running in the payments namespaces (namespace name starts with `pay-`) PCI scope applies, so every container and init container there must\n' +
      '1. set allowPrivilegeEscalation: false explicitly (unset means it is allowed),\n' +
      '2. not be privileged,\n' +
      '3. drop ALL capabilities.\n' +
      'Everywhere else only rule 2 applies - no privileged containers in any namespace.',
    check: (o) => {
      const pci = nsOf(o).startsWith('pay-');
      return ctrsOf(podOf(o).spec).every((c) => {
        const s = c.securityContext ?? {};
        if (s.privileged === true) return false;
        if (!pci) return true;
        return s.allowPrivilegeEscalation === false && (s.capabilities?.drop ?? []).includes('ALL');
      });
    },
    inputs: [
      {
        name: 'pay-gateway-pod-compliant',
        expectPassed: true,
        object: wl('Pod', { name: 'card-gateway', ns: 'pay-gateway' }, {
          containers: [ctr('gateway', 'registry.acme.io/pay/card-gateway:12.1.0', sc({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true }))],
        }),
      },
      {
        name: 'pay-ledger-init-container-missing-ape',
        expectPassed: false,
        object: wl('Deployment', { name: 'ledger', ns: 'pay-ledger', replicas: 3 }, {
          initContainers: [ctr('schema', 'registry.acme.io/pay/ledger-schema:12.1.0', sc({ capabilities: { drop: ['ALL'] } }))],
          containers: [ctr('ledger', 'registry.acme.io/pay/ledger:12.1.0', sc({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } }))],
        }),
      },
      {
        name: 'web-deployment-nothing-set',
        expectPassed: true,
        object: wl('Deployment', { name: 'marketing-site', ns: 'web', replicas: 2 }, {
          containers: [ctr('site', 'registry.acme.io/web/marketing:2024.3.1')],
        }),
      },
      {
        name: 'monitoring-daemonset-privileged',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'ebpf-probe', ns: 'monitoring' }, {
          containers: [ctr('probe', 'registry.acme.io/obs/ebpf-probe:0.3.0', sc({ privileged: true }))],
        }),
      },
      {
        name: 'pay-batch-job-drops-only-net-raw',
        expectPassed: false,
        object: wl('Job', { name: 'settlement', ns: 'pay-batch' }, {
          containers: [ctr('settle', 'registry.acme.io/pay/settlement:4.0.0', sc({ allowPrivilegeEscalation: false, capabilities: { drop: ['NET_RAW'] } }))],
        }),
      },
      {
        name: 'pay-vault-statefulset-compliant',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'token-vault', ns: 'pay-vault', replicas: 3 }, {
          containers: [ctr('vault', 'hashicorp/vault:1.16.1', sc({ privileged: false, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsUser: 100 }))],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ S7
  {
    id: 'sec-hostpath-only-varlog-for-logging',
    difficulty: 'hard',
    topics: ['kubernetes', 'pod-security', 'host-path', 'exemptions', 'namespaces', 'volumes', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'hostPath volumes are not allowed. The one exception is the log shipper: pods in the `logging` namespace may use a hostPath whose path is /var/log or something below it (/var/log/pods, /var/log/containers, ...), ' +
      'and every container that mounts such a volume has to mount it readOnly: true. Anything else with hostPath, in logging or elsewhere, is a violation.',
    check: (o) => {
      const s = podOf(o).spec;
      const hp = (s.volumes ?? []).filter((v) => v.hostPath);
      if (hp.length === 0) return true;
      if (nsOf(o) !== 'logging') return false;
      if (!hp.every((v) => v.hostPath.path === '/var/log' || v.hostPath.path.startsWith('/var/log/'))) return false;
      const names = new Set(hp.map((v) => v.name));
      return ctrsOf(s).every((c) => (c.volumeMounts ?? []).filter((m) => names.has(m.name)).every((m) => m.readOnly === true));
    },
    inputs: [
      {
        name: 'fluent-bit-var-log-readonly',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'fluent-bit', ns: 'logging' }, {
          containers: [ctr('fluent-bit', 'fluent/fluent-bit:3.0.2', {
            volumeMounts: [{ name: 'varlog', mountPath: '/var/log', readOnly: true }, { name: 'config', mountPath: '/fluent-bit/etc/' }],
          })],
          volumes: [{ name: 'varlog', hostPath: { path: '/var/log' } }, { name: 'config', configMap: { name: 'fluent-bit-config' } }],
        }),
      },
      {
        name: 'logging-containers-dir-mounted-writable',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'vector', ns: 'logging' }, {
          containers: [ctr('vector', 'timberio/vector:0.37.1-distroless-libc', {
            volumeMounts: [{ name: 'containers', mountPath: '/var/log/containers' }],
          })],
          volumes: [{ name: 'containers', hostPath: { path: '/var/log/containers', type: 'Directory' } }],
        }),
      },
      {
        name: 'web-deployment-no-hostpath',
        expectPassed: true,
        object: wl('Deployment', { name: 'frontend', ns: 'web', replicas: 3 }, {
          containers: [ctr('frontend', 'registry.acme.io/web/frontend:8.2.0', {
            volumeMounts: [{ name: 'cache', mountPath: '/tmp/cache' }, { name: 'settings', mountPath: '/etc/frontend', readOnly: true }],
          })],
          volumes: [{ name: 'cache', emptyDir: { sizeLimit: '256Mi' } }, { name: 'settings', configMap: { name: 'frontend-settings' } }],
        }),
      },
      {
        name: 'logging-docker-dir-outside-var-log',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'fluentd-legacy', ns: 'logging' }, {
          containers: [ctr('fluentd', 'fluent/fluentd:v1.16-1', {
            volumeMounts: [{ name: 'docker', mountPath: '/var/lib/docker/containers', readOnly: true }],
          })],
          volumes: [{ name: 'docker', hostPath: { path: '/var/lib/docker/containers' } }],
        }),
      },
      {
        name: 'logging-lookalike-path-var-log-archive',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'archiver', ns: 'logging' }, {
          containers: [ctr('archiver', 'registry.acme.io/obs/log-archiver:1.2.0', {
            volumeMounts: [{ name: 'archive', mountPath: '/archive', readOnly: true }],
          })],
          volumes: [{ name: 'archive', hostPath: { path: '/var/log-archive' } }],
        }),
      },
      {
        name: 'default-namespace-pod-var-log',
        expectPassed: false,
        object: wl('Pod', { name: 'log-debug', ns: 'default' }, {
          containers: [ctr('debug', 'busybox:1.36.1', { command: ['sleep', '3600'], volumeMounts: [{ name: 'logs', mountPath: '/host-logs', readOnly: true }] })],
          volumes: [{ name: 'logs', hostPath: { path: '/var/log' } }],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ S8
  {
    id: 'sec-no-host-ports',
    difficulty: 'easy',
    topics: ['kubernetes', 'pod-security', 'host-ports', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: 'no hostPort on any container port please (init containers included) - plain containerPort is obviously fine.',
    check: (o) => ctrsOf(podOf(o).spec).every((c) => (c.ports ?? []).every((p) => !p.hostPort)),
    inputs: [
      { name: 'pod-without-ports', expectPassed: true, object: wl('Pod', { name: 'worker', ns: 'jobs' }, { containers: [ctr('worker', 'registry.acme.io/jobs/worker:3.1.0')] }) },
      {
        name: 'deployment-container-port-only',
        expectPassed: true,
        object: wl('Deployment', { name: 'api', ns: 'core', replicas: 2 }, { containers: [ctr('api', 'registry.acme.io/core/api:10.4.2', { ports: [{ containerPort: 8080, name: 'http' }, { containerPort: 9090, name: 'metrics' }] })] }),
      },
      {
        name: 'daemonset-host-port-9100',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'node-metrics', ns: 'monitoring' }, { containers: [ctr('exporter', 'quay.io/prometheus/node-exporter:v1.8.1', { ports: [{ containerPort: 9100, hostPort: 9100, name: 'metrics' }] })] }),
      },
      {
        name: 'pod-init-container-host-port',
        expectPassed: false,
        object: wl('Pod', { name: 'dns-warmup', ns: 'core' }, {
          initContainers: [ctr('warmup', 'registry.acme.io/net/dns-warmup:0.2.0', { ports: [{ containerPort: 5353, hostPort: 5353, protocol: 'UDP' }] })],
          containers: [ctr('app', 'registry.acme.io/core/app:1.0.0', { ports: [{ containerPort: 8080 }] })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ S9
  {
    id: 'sec-sysctls-allowlist',
    difficulty: 'easy',
    topics: ['kubernetes', 'pod-security', 'sysctls', 'allowlist', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "Only these sysctls may be set in a pod's securityContext.sysctls: kernel.shm_rmid_forced, net.ipv4.ip_local_port_range, net.ipv4.ip_unprivileged_port_start, net.ipv4.tcp_syncookies, net.ipv4.ping_group_range. " +
      'Any other sysctl name fails. Pods that set no sysctls are fine of course.',
    check: (o) => {
      const ok = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range'];
      return (podOf(o).spec.securityContext?.sysctls ?? []).every((s) => ok.includes(s.name));
    },
    inputs: [
      { name: 'pod-no-sysctls', expectPassed: true, object: wl('Pod', { name: 'cart', ns: 'shop' }, { securityContext: { runAsNonRoot: true }, containers: [ctr('cart', 'registry.acme.io/shop/cart:2.0.4')] }) },
      {
        name: 'deployment-tcp-syncookies',
        expectPassed: true,
        object: wl('Deployment', { name: 'haproxy', ns: 'edge', replicas: 2 }, {
          securityContext: { sysctls: [{ name: 'net.ipv4.tcp_syncookies', value: '1' }] },
          containers: [ctr('haproxy', 'haproxy:2.9.7')],
        }),
      },
      {
        name: 'statefulset-somaxconn',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'redis-cache', ns: 'data', replicas: 3 }, {
          securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] },
          containers: [ctr('redis', 'redis:7.2.4')],
        }),
      },
      {
        name: 'pod-one-allowed-one-not',
        expectPassed: false,
        object: wl('Pod', { name: 'mq', ns: 'messaging' }, {
          securityContext: { sysctls: [{ name: 'kernel.shm_rmid_forced', value: '1' }, { name: 'kernel.msgmax', value: '65536' }] },
          containers: [ctr('mq', 'registry.acme.io/messaging/mq:5.17.0')],
        }),
      },
      {
        name: 'cronjob-local-port-range',
        expectPassed: true,
        object: wl('CronJob', { name: 'crawler', ns: 'search', schedule: '0 1 * * 0' }, {
          securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65000' }] },
          containers: [ctr('crawler', 'registry.acme.io/search/crawler:3.3.3')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ S10
  {
    id: 'sec-selinux-type-allowlist-no-user-role',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'selinux', 'allowlist', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'SELinux: wherever seLinuxOptions is set (pod securityContext or any container, init containers included) the type may only be container_t, container_init_t or container_kvm_t, or be left empty, ' +
      'and user and role must not be set at all. Setting level is fine. Pods that never mention SELinux pass.',
    check: (o) => {
      const s = podOf(o).spec;
      const opts = [s.securityContext?.seLinuxOptions, ...ctrsOf(s).map((c) => c.securityContext?.seLinuxOptions)].filter(Boolean);
      return opts.every((x) => (x.type === undefined || x.type === '' || ['container_t', 'container_init_t', 'container_kvm_t'].includes(x.type)) && x.user === undefined && x.role === undefined);
    },
    inputs: [
      { name: 'pod-no-selinux', expectPassed: true, object: wl('Pod', { name: 'greeter', ns: 'demo' }, { containers: [ctr('greeter', 'registry.acme.io/demo/greeter:1.0.0')] }) },
      {
        name: 'pod-level-spc-t',
        expectPassed: false,
        object: wl('Pod', { name: 'node-debugger', ns: 'ops' }, {
          securityContext: { seLinuxOptions: { type: 'spc_t' } },
          containers: [ctr('debugger', 'registry.acme.io/ops/node-debugger:0.5.0')],
        }),
      },
      {
        name: 'deployment-container-t-with-level',
        expectPassed: true,
        object: wl('Deployment', { name: 'tenant-a-api', ns: 'tenant-a', replicas: 2 }, {
          containers: [ctr('api', 'registry.acme.io/tenants/api:4.4.0', sc({ seLinuxOptions: { type: 'container_t', level: 's0:c123,c456' } }))],
        }),
      },
      {
        name: 'daemonset-init-container-sets-user',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'csi-node', ns: 'storage' }, {
          initContainers: [ctr('prepare', 'registry.acme.io/storage/csi-prepare:1.2.0', sc({ seLinuxOptions: { user: 'system_u', type: 'container_t' } }))],
          containers: [ctr('csi', 'registry.acme.io/storage/csi-node:1.2.0')],
        }),
      },
      {
        name: 'job-pod-level-level-only',
        expectPassed: true,
        object: wl('Job', { name: 'tenant-export', ns: 'tenant-b' }, {
          securityContext: { seLinuxOptions: { level: 's0:c7,c9' } },
          containers: [ctr('export', 'registry.acme.io/tenants/export:2.0.1')],
        }),
      },
      {
        name: 'statefulset-container-sets-role',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'audit-store', ns: 'security', replicas: 1 }, {
          containers: [ctr('store', 'registry.acme.io/security/audit-store:1.1.0', sc({ seLinuxOptions: { role: 'sysadm_r', type: 'container_t' } }))],
        }),
      },
    ],
  },
];
