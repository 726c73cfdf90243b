// Kubernetes pod-security cases (own-holdout-4).
import { kube, ctr, res, wl, podOf, ctrsOf, nsOf, effectiveSc } from './lib.mjs';

const R = res({ cpu: '100m', memory: '128Mi' }, { memory: '256Mi' });
const app = (name, image, more = {}) => ctr(name, image, { resources: R, ...more });

export default [
  // ------------------------------------------------------------------ host namespaces
  {
    id: 'k8s-no-host-namespaces',
    difficulty: 'easy',
    topics: ['kubernetes', 'pod-security', 'baseline', 'host-namespaces', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "hey all 👋 heads up, from monday the admission policy starts rejecting anything that shares the node's namespaces. so: no `hostNetwork: true`, no `hostPID: true` and no `hostIPC: true` in the pod spec. writing them out as false is fine obviously. this is for deployments / daemonsets / jobs / cronjobs too, not just bare pods - it's the pod template that gets checked",
    check: (o) => {
      const s = podOf(o).spec;
      return s.hostNetwork !== true && s.hostPID !== true && s.hostIPC !== true;
    },
    inputs: [
      {
        name: 'deployment-web-no-host-fields',
        expectPassed: true,
        object: wl('Deployment', { name: 'storefront-web', ns: 'shop', replicas: 3 }, {
          containers: [app('web', 'registry.acme-internal.io/shop/storefront:3.14.2', { ports: [{ containerPort: 8080 }] })],
        }),
      },
      {
        name: 'pod-host-network',
        expectPassed: false,
        object: wl('Pod', { name: 'netdebug', ns: 'sre' }, {
          hostNetwork: true,
          containers: [app('tools', 'nicolaka/netshoot:v0.13', { command: ['sleep', 'infinity'] })],
        }),
      },
      {
        name: 'daemonset-node-exporter-host-pid',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'node-exporter', ns: 'monitoring' }, {
          hostPID: true,
          containers: [app('node-exporter', 'quay.io/prometheus/node-exporter:v1.8.2', { args: ['--path.rootfs=/host'] })],
        }),
      },
      {
        name: 'job-explicit-false',
        expectPassed: true,
        object: wl('Job', { name: 'reindex-search', ns: 'search' }, {
          hostNetwork: false,
          hostIPC: false,
          hostPID: false,
          containers: [app('reindex', 'registry.acme-internal.io/search/reindexer:1.9.0')],
        }),
      },
      {
        name: 'cronjob-host-ipc',
        expectPassed: false,
        object: wl('CronJob', { name: 'shm-cleanup', ns: 'batch', schedule: '0 * * * *' }, {
          hostIPC: true,
          containers: [app('cleanup', 'registry.acme-internal.io/ops/shm-cleanup:0.3.1')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ capabilities allowlist
  {
    id: 'k8s-capabilities-runtime-default-set-only',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'baseline', 'capabilities', 'allowlist', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: `Control K8S-SEC-04 - Linux capabilities

Containers may only add capabilities that are in the container runtime's default set: AUDIT_WRITE, CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, MKNOD, NET_BIND_SERVICE, SETFCAP, SETGID, SETPCAP, SETUID and SYS_CHROOT. Any other entry in securityContext.capabilities.add (for example NET_ADMIN, SYS_ADMIN, NET_RAW or SYS_PTRACE) is a finding. Init containers are in scope. Dropping capabilities is always permitted and is not required by this control.`,
    check: (o) => {
      const ok = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);
      return ctrsOf(podOf(o).spec).every((c) => (c.securityContext?.capabilities?.add ?? []).every((a) => ok.has(a)));
    },
    inputs: [
      {
        name: 'deployment-no-capabilities',
        expectPassed: true,
        object: wl('Deployment', { name: 'orders-api', ns: 'orders', replicas: 2 }, {
          containers: [app('api', 'registry.acme-internal.io/orders/api:5.2.0')],
        }),
      },
      {
        name: 'pod-adds-chown-and-kill',
        expectPassed: true,
        object: wl('Pod', { name: 'file-converter', ns: 'media' }, {
          containers: [app('convert', 'registry.acme-internal.io/media/converter:2.0.4', {
            securityContext: { capabilities: { drop: ['ALL'], add: ['CHOWN', 'KILL'] } },
          })],
        }),
      },
      {
        name: 'statefulset-net-admin',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'vpn-gateway', ns: 'network', replicas: 2 }, {
          containers: [app('wireguard', 'linuxserver/wireguard:1.0.20210914', {
            securityContext: { capabilities: { add: ['NET_ADMIN'] } },
          })],
        }),
      },
      {
        name: 'deployment-init-sys-ptrace',
        expectPassed: false,
        object: wl('Deployment', { name: 'profiler-demo', ns: 'perf' }, {
          initContainers: [ctr('attach-agent', 'registry.acme-internal.io/perf/agent-installer:1.1.0', {
            securityContext: { capabilities: { add: ['SYS_PTRACE'] } },
          })],
          containers: [app('app', 'registry.acme-internal.io/perf/demo:0.4.0', {
            securityContext: { capabilities: { drop: ['ALL'] } },
          })],
        }),
      },
      {
        name: 'daemonset-net-raw',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'ping-probe', ns: 'monitoring' }, {
          containers: [app('prober', 'registry.acme-internal.io/sre/ping-prober:0.9.2', {
            securityContext: { capabilities: { drop: ['ALL'], add: ['NET_RAW'] } },
          })],
        }),
      },
      {
        name: 'job-net-bind-service',
        expectPassed: true,
        object: wl('Job', { name: 'port80-smoke', ns: 'edge' }, {
          containers: [app('smoke', 'registry.acme-internal.io/edge/smoke:1.0.0', {
            securityContext: { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } },
          })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ UID >= 10000
  {
    id: 'k8s-run-as-user-high-uid',
    difficulty: 'hard',
    topics: ['kubernetes', 'pod-security', 'run-as-user', 'numeric-bounds', 'boundary', 'inheritance', 'missing-field', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: `SEC-1182: Enforce high UIDs for workload containers

Background: UIDs below 10000 collide with real accounts on our node images, so a breakout as e.g. uid 1000 lands as an actual user on the host.

Acceptance criteria:
- every container, init containers included, ends up running with a runAsUser of 10000 or above
- runAsUser can come from the pod-level securityContext or from the container's own securityContext; where both are set the container's value is the one that counts
- if neither level sets runAsUser the workload is rejected (we don't trust the USER line in the image, and runAsNonRoot alone doesn't say which UID)`,
    check: (o) => {
      const spec = podOf(o).spec;
      return ctrsOf(spec).every((c) => {
        const u = effectiveSc(spec, c, 'runAsUser');
        return typeof u === 'number' && u >= 10000;
      });
    },
    inputs: [
      {
        name: 'deployment-pod-level-10001',
        expectPassed: true,
        object: wl('Deployment', { name: 'invoice-svc', ns: 'billing', replicas: 2 }, {
          securityContext: { runAsUser: 10001, runAsGroup: 10001, runAsNonRoot: true },
          containers: [app('invoice', 'registry.acme-internal.io/billing/invoice:4.1.7')],
        }),
      },
      {
        name: 'pod-container-exactly-10000',
        expectPassed: true,
        object: wl('Pod', { name: 'pdf-render', ns: 'billing' }, {
          containers: [app('render', 'registry.acme-internal.io/billing/pdf-render:1.2.0', { securityContext: { runAsUser: 10000 } })],
        }),
      },
      {
        name: 'statefulset-container-overrides-to-root',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'ledger-db', ns: 'billing', replicas: 3 }, {
          securityContext: { runAsUser: 20000, fsGroup: 20000 },
          containers: [app('postgres', 'registry.acme-internal.io/db/postgres:16.3', { securityContext: { runAsUser: 0 } })],
        }),
      },
      {
        name: 'deployment-run-as-non-root-without-uid',
        expectPassed: false,
        object: wl('Deployment', { name: 'search-ui', ns: 'search' }, {
          securityContext: { runAsNonRoot: true },
          containers: [app('ui', 'registry.acme-internal.io/search/ui:2.8.3')],
        }),
      },
      {
        name: 'job-init-container-uid-1000',
        expectPassed: false,
        object: wl('Job', { name: 'ledger-migrate', ns: 'billing' }, {
          securityContext: { runAsUser: 10500 },
          initContainers: [ctr('wait-db', 'registry.acme-internal.io/tools/wait-for:1.4.0', { securityContext: { runAsUser: 1000 } })],
          containers: [app('migrate', 'registry.acme-internal.io/billing/migrations:4.1.7')],
        }),
      },
      {
        name: 'cronjob-container-raises-low-pod-uid',
        expectPassed: true,
        object: wl('CronJob', { name: 'dunning-mailer', ns: 'billing' }, {
          securityContext: { runAsUser: 999 },
          containers: [app('mailer', 'registry.acme-internal.io/billing/dunning:0.7.5', { securityContext: { runAsUser: 15000 } })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ read-only root fs
  {
    id: 'k8s-read-only-root-filesystem-app-containers',
    difficulty: 'easy',
    topics: ['kubernetes', 'pod-security', 'read-only-rootfs', 'init-containers', 'missing-field', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "all app containers have to run with a read-only root filesystem (securityContext.readOnlyRootFilesystem: true), if your service needs to write somewhere mount an emptyDir for it - init containers are exempt from this one since a lot of them unpack stuff onto disk, and leaving the field out counts as NOT read only",
    check: (o) => (podOf(o).spec.containers ?? []).every((c) => c.securityContext?.readOnlyRootFilesystem === true),
    inputs: [
      {
        name: 'deployment-read-only-with-tmp-emptydir',
        expectPassed: true,
        object: wl('Deployment', { name: 'catalog-api', ns: 'catalog', replicas: 2 }, {
          volumes: [{ name: 'tmp', emptyDir: {} }],
          containers: [app('api', 'registry.acme-internal.io/catalog/api:7.0.1', {
            securityContext: { readOnlyRootFilesystem: true },
            volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
          })],
        }),
      },
      {
        name: 'deployment-field-missing',
        expectPassed: false,
        object: wl('Deployment', { name: 'catalog-worker', ns: 'catalog' }, {
          containers: [app('worker', 'registry.acme-internal.io/catalog/worker:7.0.1', { securityContext: { runAsNonRoot: true, runAsUser: 10001 } })],
        }),
      },
      {
        name: 'pod-writable-init-read-only-main',
        expectPassed: true,
        object: wl('Pod', { name: 'static-site', ns: 'web' }, {
          volumes: [{ name: 'site', emptyDir: {} }],
          initContainers: [ctr('unpack', 'registry.acme-internal.io/web/site-bundle:2025.03.1', {
            securityContext: { readOnlyRootFilesystem: false },
            volumeMounts: [{ name: 'site', mountPath: '/out' }],
          })],
          containers: [app('nginx', 'registry.acme-internal.io/web/nginx-unprivileged:1.27', {
            securityContext: { readOnlyRootFilesystem: true },
            volumeMounts: [{ name: 'site', mountPath: '/usr/share/nginx/html', readOnly: true }],
          })],
        }),
      },
      {
        name: 'statefulset-sidecar-writable',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'kafka-connect', ns: 'data' }, {
          containers: [
            app('connect', 'registry.acme-internal.io/data/kafka-connect:3.7.0', { securityContext: { readOnlyRootFilesystem: true } }),
            app('log-shipper', 'registry.acme-internal.io/ops/fluent-bit:3.0.7', { securityContext: { readOnlyRootFilesystem: false } }),
          ],
        }),
      },
      {
        name: 'cronjob-explicit-false',
        expectPassed: false,
        object: wl('CronJob', { name: 'sitemap-builder', ns: 'web' }, {
          containers: [app('build', 'registry.acme-internal.io/web/sitemap:1.3.2', { securityContext: { readOnlyRootFilesystem: false, runAsNonRoot: true } })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ seccomp, effective per container
  {
    id: 'k8s-seccomp-effective-profile',
    difficulty: 'hard',
    topics: ['kubernetes', 'pod-security', 'restricted', 'seccomp', 'inheritance', 'missing-field', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "Seccomp (hardening guide, section 3.2). Each container must run under a seccomp profile of type RuntimeDefault or Localhost. The profile can be declared once in the pod's securityContext.seccompProfile, in which case it applies to every container, or per container; a container-level seccompProfile replaces the pod-level one for that container. A container whose resulting profile is Unconfined, or which gets no profile from either level, is non-compliant. Init containers are included in the assessment.",
    check: (o) => {
      const spec = podOf(o).spec;
      return ctrsOf(spec).every((c) => ['RuntimeDefault', 'Localhost'].includes(effectiveSc(spec, c, 'seccompProfile')?.type));
    },
    inputs: [
      {
        name: 'deployment-pod-level-runtime-default',
        expectPassed: true,
        object: wl('Deployment', { name: 'auth-gateway', ns: 'identity', replicas: 3 }, {
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          initContainers: [ctr('config-render', 'registry.acme-internal.io/identity/config-render:1.0.3')],
          containers: [app('gateway', 'registry.acme-internal.io/identity/auth-gateway:12.4.0')],
        }),
      },
      {
        name: 'pod-container-unconfined-override',
        expectPassed: false,
        object: wl('Pod', { name: 'strace-helper', ns: 'identity' }, {
          securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          containers: [app('helper', 'registry.acme-internal.io/sre/strace:6.8', { securityContext: { seccompProfile: { type: 'Unconfined' } } })],
        }),
      },
      {
        name: 'daemonset-no-profile-anywhere',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'log-agent', ns: 'logging' }, {
          containers: [app('agent', 'registry.acme-internal.io/ops/vector:0.39.0')],
        }),
      },
      {
        name: 'statefulset-localhost-per-container',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'etcd-events', ns: 'platform', replicas: 3 }, {
          containers: [app('etcd', 'registry.acme-internal.io/platform/etcd:3.5.15', {
            securityContext: { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/etcd-audit.json' } },
          })],
        }),
      },
      {
        name: 'job-init-container-without-profile',
        expectPassed: false,
        object: wl('Job', { name: 'keycloak-import', ns: 'identity' }, {
          initContainers: [ctr('fetch-realm', 'registry.acme-internal.io/tools/curl:8.8.0')],
          containers: [app('import', 'registry.acme-internal.io/identity/keycloak-config-cli:5.12.0', {
            securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          })],
        }),
      },
      {
        name: 'cronjob-pod-unconfined-container-runtime-default',
        expectPassed: true,
        object: wl('CronJob', { name: 'token-janitor', ns: 'identity' }, {
          securityContext: { seccompProfile: { type: 'Unconfined' } },
          containers: [app('janitor', 'registry.acme-internal.io/identity/token-janitor:0.2.0', {
            securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
          })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ hostPort
  {
    id: 'k8s-host-ports-ingress-controller-only',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'host-ports', 'namespace-exemption', 'allowlist', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "hostPort policy, short version: nobody should ever be binding ports directly on our nodes. The one exception is the ingress controller running in the `ingress-nginx` namespace, which may use hostPort 80 and 443 and nothing else. A containerPort without a hostPort is fine everywhere, of course.",
    check: (o) => {
      const ports = ctrsOf(podOf(o).spec).flatMap((c) => c.ports ?? []).filter((p) => p.hostPort !== undefined);
      return nsOf(o) === 'ingress-nginx' ? ports.every((p) => p.hostPort === 80 || p.hostPort === 443) : ports.length === 0;
    },
    inputs: [
      {
        name: 'deployment-container-port-only',
        expectPassed: true,
        object: wl('Deployment', { name: 'cart', ns: 'shop', replicas: 2 }, {
          containers: [app('cart', 'registry.acme-internal.io/shop/cart:2.2.0', { ports: [{ name: 'http', containerPort: 8080 }] })],
        }),
      },
      {
        name: 'daemonset-ingress-nginx-80-443',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'ingress-nginx-controller', ns: 'ingress-nginx' }, {
          containers: [app('controller', 'registry.k8s.io/ingress-nginx/controller:v1.11.2', {
            ports: [
              { name: 'http', containerPort: 80, hostPort: 80 },
              { name: 'https', containerPort: 443, hostPort: 443 },
            ],
          })],
        }),
      },
      {
        name: 'daemonset-ingress-nginx-metrics-host-port',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'ingress-nginx-controller', ns: 'ingress-nginx' }, {
          containers: [app('controller', 'registry.k8s.io/ingress-nginx/controller:v1.11.2', {
            ports: [
              { name: 'http', containerPort: 80, hostPort: 80 },
              { name: 'https', containerPort: 443, hostPort: 443 },
              { name: 'metrics', containerPort: 10254, hostPort: 10254 },
            ],
          })],
        }),
      },
      {
        name: 'pod-host-port-in-monitoring',
        expectPassed: false,
        object: wl('Pod', { name: 'node-exporter-manual', ns: 'monitoring' }, {
          containers: [app('exporter', 'quay.io/prometheus/node-exporter:v1.8.2', { ports: [{ name: 'metrics', containerPort: 9100, hostPort: 9100 }] })],
        }),
      },
      {
        name: 'deployment-lookalike-namespace-443',
        expectPassed: false,
        object: wl('Deployment', { name: 'internal-ingress', ns: 'ingress-nginx-internal' }, {
          containers: [app('controller', 'registry.k8s.io/ingress-nginx/controller:v1.11.2', { ports: [{ name: 'https', containerPort: 443, hostPort: 443 }] })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ sysctls
  {
    id: 'k8s-safe-sysctls-only',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'baseline', 'sysctls', 'allowlist', 'arrays', 'controllers'],
    labels: kube('Pod'),
    instruction: `Pod sysctls - allowed list

Only these namespaced "safe" sysctls may appear in a pod's securityContext.sysctls:
* kernel.shm_rmid_forced
* net.ipv4.ip_local_port_range
* net.ipv4.ip_unprivileged_port_start
* net.ipv4.tcp_syncookies
* net.ipv4.ping_group_range

Any other sysctl name gets rejected whatever its value. Pods that don't set sysctls at all are fine.`,
    check: (o) => {
      const ok = new Set(['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range']);
      return (podOf(o).spec.securityContext?.sysctls ?? []).every((s) => ok.has(s.name));
    },
    inputs: [
      {
        name: 'deployment-no-sysctls',
        expectPassed: true,
        object: wl('Deployment', { name: 'recommendations', ns: 'ml' }, {
          securityContext: { runAsNonRoot: true, runAsUser: 10001 },
          containers: [app('recs', 'registry.acme-internal.io/ml/recs:0.18.0')],
        }),
      },
      {
        name: 'pod-local-port-range',
        expectPassed: true,
        object: wl('Pod', { name: 'loadgen', ns: 'perf' }, {
          securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65000' }] },
          containers: [app('k6', 'grafana/k6:0.52.0')],
        }),
      },
      {
        name: 'statefulset-somaxconn',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'redis-cache', ns: 'cache', replicas: 3 }, {
          securityContext: { sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] },
          containers: [app('redis', 'redis:7.2.5')],
        }),
      },
      {
        name: 'deployment-one-allowed-one-not',
        expectPassed: false,
        object: wl('Deployment', { name: 'mq-bridge', ns: 'integration' }, {
          securityContext: {
            sysctls: [
              { name: 'net.ipv4.tcp_syncookies', value: '1' },
              { name: 'kernel.msgmax', value: '65536' },
            ],
          },
          containers: [app('bridge', 'registry.acme-internal.io/integration/mq-bridge:3.0.2')],
        }),
      },
      {
        name: 'job-tcp-keepalive-lookalike',
        expectPassed: false,
        object: wl('Job', { name: 'long-export', ns: 'data' }, {
          securityContext: { sysctls: [{ name: 'net.ipv4.tcp_keepalive_time', value: '600' }] },
          containers: [app('export', 'registry.acme-internal.io/data/exporter:1.6.0')],
        }),
      },
      {
        name: 'daemonset-syncookies-and-ping-range',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'edge-probe', ns: 'edge' }, {
          securityContext: {
            sysctls: [
              { name: 'net.ipv4.tcp_syncookies', value: '1' },
              { name: 'net.ipv4.ping_group_range', value: '0 2147483647' },
            ],
          },
          containers: [app('probe', 'registry.acme-internal.io/edge/probe:2.1.0')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ SELinux options
  {
    id: 'k8s-selinux-options-baseline',
    difficulty: 'hard',
    topics: ['kubernetes', 'pod-security', 'baseline', 'selinux', 'allowlist', 'inheritance', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction: `SELinux options (baseline profile)

seLinuxOptions can show up in the pod-level securityContext and in any container's securityContext, init containers included. Wherever it shows up:
1. \`type\` is either left out or is one of container_t, container_init_t, container_kvm_t, container_engine_t
2. \`user\` and \`role\` must not be set at all

\`level\` is unrestricted (e.g. s0:c123,c456). Having no seLinuxOptions anywhere is compliant.`,
    check: (o) => {
      const spec = podOf(o).spec;
      const types = ['container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t'];
      return [spec.securityContext?.seLinuxOptions, ...ctrsOf(spec).map((c) => c.securityContext?.seLinuxOptions)]
        .filter(Boolean)
        .every((s) => (s.type === undefined || types.includes(s.type)) && s.user === undefined && s.role === undefined);
    },
    inputs: [
      {
        name: 'deployment-no-selinux-options',
        expectPassed: true,
        object: wl('Deployment', { name: 'profile-svc', ns: 'accounts' }, {
          containers: [app('profile', 'registry.acme-internal.io/accounts/profile:3.3.0')],
        }),
      },
      {
        name: 'pod-level-and-container-type',
        expectPassed: true,
        object: wl('Pod', { name: 'mls-reader', ns: 'accounts' }, {
          securityContext: { seLinuxOptions: { level: 's0:c123,c456' } },
          containers: [app('reader', 'registry.acme-internal.io/accounts/mls-reader:1.0.0', { securityContext: { seLinuxOptions: { type: 'container_t' } } })],
        }),
      },
      {
        name: 'deployment-spc-t-type',
        expectPassed: false,
        object: wl('Deployment', { name: 'csi-helper', ns: 'storage' }, {
          containers: [app('helper', 'registry.acme-internal.io/storage/csi-helper:0.8.1', { securityContext: { seLinuxOptions: { type: 'spc_t' } } })],
        }),
      },
      {
        name: 'statefulset-pod-level-user',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'audit-store', ns: 'security', replicas: 3 }, {
          securityContext: { seLinuxOptions: { user: 'system_u', type: 'container_t' } },
          containers: [app('store', 'registry.acme-internal.io/security/audit-store:2.0.0')],
        }),
      },
      {
        name: 'job-init-container-role',
        expectPassed: false,
        object: wl('Job', { name: 'relabel-volume', ns: 'security' }, {
          initContainers: [ctr('relabel', 'registry.acme-internal.io/tools/relabel:1.0.2', {
            securityContext: { seLinuxOptions: { role: 'sysadm_r', type: 'container_t' } },
          })],
          containers: [app('worker', 'registry.acme-internal.io/security/worker:2.0.0')],
        }),
      },
      {
        name: 'daemonset-container-init-t',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'node-init', ns: 'platform' }, {
          containers: [app('init', 'registry.acme-internal.io/platform/node-init:1.5.0', {
            securityContext: { seLinuxOptions: { type: 'container_init_t', level: 's0' } },
          })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ PCI namespaces: no SA token
  {
    id: 'k8s-pci-namespaces-no-sa-token',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-security', 'service-account-token', 'namespace-scope', 'missing-field', 'controllers', 'pci'],
    labels: kube('Pod'),
    instruction:
      "PCI DSS scope reduction: anything running in a PCI namespace (namespace name begins with `pci-`) must explicitly set automountServiceAccountToken: false in the pod spec (for a Deployment, CronJob etc. that's the pod template's spec). We don't want Kubernetes API credentials sitting inside the cardholder-data environment. Leaving the field out doesn't count, because then the token is mounted by default. Only the pod spec is looked at, not the ServiceAccount object. Namespaces that don't start with pci- aren't affected.",
    check: (o) => !nsOf(o).startsWith('pci-') || podOf(o).spec.automountServiceAccountToken === false,
    inputs: [
      {
        name: 'deployment-pci-explicit-false',
        expectPassed: true,
        object: wl('Deployment', { name: 'card-vault', ns: 'pci-payments', replicas: 3 }, {
          automountServiceAccountToken: false,
          containers: [app('vault', 'registry.acme-internal.io/pci/card-vault:8.0.2')],
        }),
      },
      {
        name: 'deployment-pci-field-missing',
        expectPassed: false,
        object: wl('Deployment', { name: 'tokenizer', ns: 'pci-tokenizer', replicas: 2 }, {
          containers: [app('tokenizer', 'registry.acme-internal.io/pci/tokenizer:2.5.1')],
        }),
      },
      {
        name: 'cronjob-pci-true',
        expectPassed: false,
        object: wl('CronJob', { name: 'settlement-export', ns: 'pci-settlement' }, {
          automountServiceAccountToken: true,
          serviceAccountName: 'settlement-export',
          containers: [app('export', 'registry.acme-internal.io/pci/settlement-export:1.9.0')],
        }),
      },
      {
        name: 'job-pci-pod-spec-missing-sa-set',
        expectPassed: false,
        object: wl('Job', { name: 'chargeback-import', ns: 'pci-disputes' }, {
          serviceAccountName: 'chargeback-import',
          containers: [app('import', 'registry.acme-internal.io/pci/chargeback-import:0.4.2')],
        }),
      },
      {
        name: 'pod-pcidemo-namespace-missing',
        expectPassed: true,
        object: wl('Pod', { name: 'checkout-demo', ns: 'pcidemo' }, {
          containers: [app('demo', 'registry.acme-internal.io/shop/checkout-demo:0.1.0')],
        }),
      },
      {
        name: 'statefulset-orders-true',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'orders-db', ns: 'orders' }, {
          automountServiceAccountToken: true,
          containers: [app('postgres', 'registry.acme-internal.io/db/postgres:16.3')],
        }),
      },
    ],
  },
];
