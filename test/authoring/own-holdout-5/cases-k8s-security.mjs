// Kubernetes security cases for own-holdout-5: /proc masking, host-network DNS, secret file
// modes, bound token lifetimes, envFrom secrets, hostAliases, fsGroup change policy, user
// namespaces and pull secrets for the private registry.
import { kube, ctr, res, wl, podOf, ctrsOf, nsOf, image, cidrWithin } from './lib.mjs';

const small = res({ cpu: '100m', memory: '128Mi' }, { memory: '256Mi' });
const web = (name = 'app', img = 'ghcr.io/acme/storefront:4.2.1', more = {}) => ctr(name, img, { resources: small, ...more });

export default [
  // ------------------------------------------------------------------ procMount
  {
    id: 'k8s-procmount-default-only',
    difficulty: 'easy',
    topics: ['kubernetes', 'pod-security', 'proc-mount', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      'quick one 🙏 can we get a rule that no container ever sets securityContext.procMount to Unmasked? only "Default" is ok, or just not setting procMount at all. init containers count too. an unmasked /proc is basically a container escape waiting to happen',
    check: (o) => ctrsOf(podOf(o).spec).every((c) => (c.securityContext?.procMount ?? 'Default') === 'Default'),
    inputs: [
      {
        name: 'pod-procmount-default-explicit',
        expectPassed: true,
        object: wl('Pod', { name: 'inventory-api', ns: 'inventory' }, {
          containers: [web('api', 'ghcr.io/acme/inventory-api:2.8.0', { securityContext: { procMount: 'Default', runAsNonRoot: true } })],
        }),
      },
      {
        name: 'deploy-main-container-unmasked',
        expectPassed: false,
        object: wl('Deployment', { name: 'build-sandbox', ns: 'ci', replicas: 2 }, {
          hostUsers: false,
          containers: [web('buildkitd', 'moby/buildkit:v0.13.2-rootless', { securityContext: { procMount: 'Unmasked', runAsUser: 1000 } })],
        }),
      },
      {
        name: 'job-init-container-unmasked',
        expectPassed: false,
        object: wl('Job', { name: 'image-prep', ns: 'ci' }, {
          hostUsers: false,
          initContainers: [ctr('unpack', 'ghcr.io/acme/unpacker:1.0.3', { securityContext: { procMount: 'Unmasked' } })],
          containers: [web('prep', 'ghcr.io/acme/image-prep:1.0.3')],
        }),
      },
      {
        name: 'daemonset-procmount-unset',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'node-exporter', ns: 'monitoring' }, {
          containers: [web('exporter', 'quay.io/prometheus/node-exporter:v1.8.1', { ports: [{ name: 'metrics', containerPort: 9100 }] })],
        }),
      },
      {
        name: 'statefulset-sidecar-unmasked',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'ledger', ns: 'finance', replicas: 3 }, {
          hostUsers: false,
          containers: [
            web('ledger', 'ghcr.io/acme/ledger:5.0.0', { securityContext: { procMount: 'Default' } }),
            web('debug-shell', 'busybox:1.36', { command: ['sleep', 'infinity'], securityContext: { procMount: 'Unmasked' } }),
          ],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ hostNetwork DNS policy
  {
    id: 'k8s-hostnetwork-needs-clusterfirstwithhostnet',
    difficulty: 'medium',
    topics: ['kubernetes', 'host-network', 'dns-policy', 'conditional', 'controllers'],
    labels: kube('Pod'),
    instruction: `PLAT-3318: host-network pods can't resolve cluster services

Pods running with hostNetwork: true that don't touch dnsPolicy end up on the default ClusterFirst policy, which for host-network pods silently falls back to the node's resolv.conf, so *.svc.cluster.local lookups fail.

Acceptance criteria:
- any pod (bare Pods and the pod templates of Deployments, DaemonSets, Jobs etc.) with spec.hostNetwork set to true must set dnsPolicy: ClusterFirstWithHostNet
- dnsPolicy left out counts as ClusterFirst, i.e. a fail for host-network pods
- pods that don't use host networking are out of scope whatever their dnsPolicy is`,
    check: (o) => {
      const s = podOf(o).spec;
      return s.hostNetwork !== true || s.dnsPolicy === 'ClusterFirstWithHostNet';
    },
    inputs: [
      {
        name: 'daemonset-hostnet-clusterfirstwithhostnet',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'calico-node', ns: 'kube-system' }, {
          hostNetwork: true,
          dnsPolicy: 'ClusterFirstWithHostNet',
          containers: [web('calico-node', 'quay.io/calico/node:v3.27.3')],
        }),
      },
      {
        name: 'daemonset-hostnet-dnspolicy-unset',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'fluent-bit', ns: 'logging' }, {
          hostNetwork: true,
          containers: [web('fluent-bit', 'cr.fluentbit.io/fluent/fluent-bit:3.0.4')],
        }),
      },
      {
        name: 'deploy-hostnet-explicit-clusterfirst',
        expectPassed: false,
        object: wl('Deployment', { name: 'sip-gateway', ns: 'voice', replicas: 2 }, {
          hostNetwork: true,
          dnsPolicy: 'ClusterFirst',
          containers: [web('gateway', 'ghcr.io/acme/sip-gateway:1.12.0', { ports: [{ name: 'sip', containerPort: 5060 }] })],
        }),
      },
      {
        name: 'pod-no-hostnet-default-dns',
        expectPassed: true,
        object: wl('Pod', { name: 'dns-probe', ns: 'netops' }, {
          dnsPolicy: 'Default',
          containers: [web('probe', 'ghcr.io/acme/dns-probe:0.4.0')],
        }),
      },
      {
        name: 'job-hostnet-dnspolicy-default',
        expectPassed: false,
        object: wl('Job', { name: 'nic-benchmark', ns: 'netops' }, {
          hostNetwork: true,
          dnsPolicy: 'Default',
          containers: [web('iperf', 'ghcr.io/acme/iperf3:3.16')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ secret volume file modes
  {
    id: 'k8s-secret-volume-file-modes',
    difficulty: 'hard',
    topics: ['kubernetes', 'secrets', 'volumes', 'file-permissions', 'octal', 'controllers'],
    labels: kube('Pod'),
    instruction: `K8S-DATA-07 — File permissions on mounted Secrets

Secrets mounted into a pod as files must not be readable by "other". For every volume of type \`secret\`:
  (a) defaultMode must be set explicitly. Kubernetes falls back to 0644 when it is omitted, which is world-readable and therefore non-compliant;
  (b) the mode must give others no permission at all (last octal digit 0). Group may read but must not write or execute, so 0400 and 0440 are both fine, 0460 or 0644 are not;
  (c) the same applies to any per-key mode set under items[].
Reminder: once the manifest is converted to JSON the modes are plain decimal numbers (0400 arrives as 256, 0440 as 288, 0644 as 420).
ConfigMap and projected volumes are not covered by this control.`,
    check: (o) => {
      const bad = (m) => (m & 0o037) !== 0;
      return (podOf(o).spec.volumes ?? []).filter((v) => v.secret).every((v) => {
        const s = v.secret;
        if (s.defaultMode === undefined || bad(s.defaultMode)) return false;
        return (s.items ?? []).every((it) => it.mode === undefined || !bad(it.mode));
      });
    },
    inputs: [
      {
        name: 'deploy-secret-0400',
        expectPassed: true,
        object: wl('Deployment', { name: 'billing-api', ns: 'billing', replicas: 3 }, {
          containers: [web('api', 'ghcr.io/acme/billing-api:7.1.0', { volumeMounts: [{ name: 'db-creds', mountPath: '/etc/billing/db', readOnly: true }] })],
          volumes: [{ name: 'db-creds', secret: { secretName: 'billing-db', defaultMode: 256 } }],
        }),
      },
      {
        name: 'statefulset-secret-0440-group-read',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'kafka', ns: 'streaming', replicas: 3 }, {
          securityContext: { fsGroup: 1001 },
          containers: [web('kafka', 'bitnami/kafka:3.7.0', { volumeMounts: [{ name: 'tls', mountPath: '/opt/kafka/tls', readOnly: true }] })],
          volumes: [{ name: 'tls', secret: { secretName: 'kafka-broker-tls', defaultMode: 288 } }],
        }),
      },
      {
        name: 'statefulset-secret-no-defaultmode',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'vault-agent-cache', ns: 'security', replicas: 2 }, {
          containers: [web('agent', 'hashicorp/vault:1.16.2', { volumeMounts: [{ name: 'approle', mountPath: '/vault/approle', readOnly: true }] })],
          volumes: [{ name: 'approle', secret: { secretName: 'vault-approle' } }],
        }),
      },
      {
        name: 'pod-secret-0644',
        expectPassed: false,
        object: wl('Pod', { name: 'smtp-relay', ns: 'mail' }, {
          containers: [web('relay', 'ghcr.io/acme/smtp-relay:2.0.4', { volumeMounts: [{ name: 'smtp-auth', mountPath: '/etc/relay/auth' }] })],
          volumes: [{ name: 'smtp-auth', secret: { secretName: 'smtp-credentials', defaultMode: 420 } }],
        }),
      },
      {
        name: 'cronjob-item-mode-0604',
        expectPassed: false,
        object: wl('CronJob', { name: 'cert-sync', ns: 'security', schedule: '0 */6 * * *' }, {
          containers: [web('sync', 'ghcr.io/acme/cert-sync:1.3.0', { volumeMounts: [{ name: 'keys', mountPath: '/keys', readOnly: true }] })],
          volumes: [{
            name: 'keys',
            secret: { secretName: 'signing-keys', defaultMode: 256, items: [{ key: 'private.pem', path: 'private.pem' }, { key: 'public.pem', path: 'public.pem', mode: 388 }] },
          }],
        }),
      },
      {
        name: 'daemonset-configmap-0644-secret-0400',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'log-forwarder', ns: 'logging' }, {
          containers: [web('forwarder', 'cr.fluentbit.io/fluent/fluent-bit:3.0.4', {
            volumeMounts: [{ name: 'config', mountPath: '/fluent-bit/etc' }, { name: 'es-creds', mountPath: '/fluent-bit/creds', readOnly: true }],
          })],
          volumes: [
            { name: 'config', configMap: { name: 'fluent-bit-config', defaultMode: 420 } },
            { name: 'es-creds', secret: { secretName: 'elastic-credentials', defaultMode: 256 } },
          ],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ projected SA tokens
  {
    id: 'k8s-projected-token-lifetime-audience',
    difficulty: 'medium',
    topics: ['kubernetes', 'service-account-tokens', 'projected-volumes', 'defaults', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "Bound service account tokens: if a workload mounts a projected volume with a serviceAccountToken source, that token has to be short-lived and scoped. expirationSeconds must be 3600 (one hour) or less; when it's omitted the kubelet issues a 1h token, which is fine. And audience must be set to a non-empty value (vault, sts.amazonaws.com, whatever the consumer is) so the token can't be replayed against the API server. Pods that only use the normal auto-mounted token and don't declare such a projected source are out of scope.",
    check: (o) => (podOf(o).spec.volumes ?? []).flatMap((v) => v.projected?.sources ?? []).filter((s) => s.serviceAccountToken).every((s) => {
      const t = s.serviceAccountToken;
      return (t.expirationSeconds ?? 3600) <= 3600 && typeof t.audience === 'string' && t.audience.length > 0;
    }),
    inputs: [
      {
        name: 'deploy-token-3600-vault-audience',
        expectPassed: true,
        object: wl('Deployment', { name: 'orders', ns: 'shop', replicas: 3 }, {
          serviceAccountName: 'orders',
          containers: [web('orders', 'ghcr.io/acme/orders:3.4.2', { volumeMounts: [{ name: 'vault-token', mountPath: '/var/run/secrets/vault', readOnly: true }] })],
          volumes: [{ name: 'vault-token', projected: { sources: [{ serviceAccountToken: { path: 'token', audience: 'vault', expirationSeconds: 3600 } }] } }],
        }),
      },
      {
        name: 'deploy-token-two-hours',
        expectPassed: false,
        object: wl('Deployment', { name: 'reports', ns: 'analytics', replicas: 2 }, {
          serviceAccountName: 'reports',
          containers: [web('reports', 'ghcr.io/acme/reports:1.9.0', { volumeMounts: [{ name: 'aws-token', mountPath: '/var/run/secrets/eks.amazonaws.com/serviceaccount', readOnly: true }] })],
          volumes: [{ name: 'aws-token', projected: { sources: [{ serviceAccountToken: { path: 'token', audience: 'sts.amazonaws.com', expirationSeconds: 7200 } }] } }],
        }),
      },
      {
        name: 'job-token-expiry-omitted',
        expectPassed: true,
        object: wl('Job', { name: 'export-to-s3', ns: 'analytics' }, {
          serviceAccountName: 'exporter',
          containers: [web('export', 'ghcr.io/acme/exporter:0.7.1', { volumeMounts: [{ name: 'aws-token', mountPath: '/var/run/secrets/eks.amazonaws.com/serviceaccount', readOnly: true }] })],
          volumes: [{ name: 'aws-token', projected: { sources: [{ serviceAccountToken: { path: 'token', audience: 'sts.amazonaws.com' } }] } }],
        }),
      },
      {
        name: 'statefulset-token-no-audience',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'spire-agent-cache', ns: 'spire', replicas: 1 }, {
          containers: [web('cache', 'ghcr.io/acme/spire-cache:1.0.0', { volumeMounts: [{ name: 'psat', mountPath: '/var/run/secrets/tokens', readOnly: true }] })],
          volumes: [{ name: 'psat', projected: { sources: [{ serviceAccountToken: { path: 'spire-agent', expirationSeconds: 600 } }] } }],
        }),
      },
      {
        name: 'cronjob-token-one-day-mixed-sources',
        expectPassed: false,
        object: wl('CronJob', { name: 'nightly-sync', ns: 'crm', schedule: '30 1 * * *' }, {
          serviceAccountName: 'crm-sync',
          containers: [web('sync', 'ghcr.io/acme/crm-sync:2.2.0', { volumeMounts: [{ name: 'bundle', mountPath: '/etc/sync', readOnly: true }] })],
          volumes: [{
            name: 'bundle',
            projected: {
              sources: [
                { configMap: { name: 'crm-sync-config' } },
                { serviceAccountToken: { path: 'token', audience: 'crm.acme.io', expirationSeconds: 86400 } },
              ],
            },
          }],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ envFrom secretRef
  {
    id: 'k8s-no-envfrom-secretref',
    difficulty: 'medium',
    topics: ['kubernetes', 'secrets', 'environment', 'init-containers', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "can we stop people doing `envFrom: - secretRef:` pls? it dumps every key of the secret into the environment and we keep finding them in crash dumps + APM traces. pulling single keys with env[].valueFrom.secretKeyRef is fine, and envFrom with a configMapRef is fine too, it's only secretRef under envFrom that's banned. applies to init containers as well",
    check: (o) => ctrsOf(podOf(o).spec).every((c) => (c.envFrom ?? []).every((e) => !e.secretRef)),
    inputs: [
      {
        name: 'deploy-envfrom-configmap-only',
        expectPassed: true,
        object: wl('Deployment', { name: 'catalog', ns: 'shop', replicas: 2 }, {
          containers: [web('catalog', 'ghcr.io/acme/catalog:6.0.1', { envFrom: [{ configMapRef: { name: 'catalog-settings' } }] })],
        }),
      },
      {
        name: 'deploy-envfrom-secretref',
        expectPassed: false,
        object: wl('Deployment', { name: 'notifier', ns: 'comms', replicas: 2 }, {
          containers: [web('notifier', 'ghcr.io/acme/notifier:1.4.0', { envFrom: [{ secretRef: { name: 'notifier-secrets' } }] })],
        }),
      },
      {
        name: 'job-init-envfrom-secretref',
        expectPassed: false,
        object: wl('Job', { name: 'db-migrate', ns: 'shop' }, {
          initContainers: [ctr('wait-for-db', 'ghcr.io/acme/wait-for:1.1.0', { envFrom: [{ secretRef: { name: 'shop-db' } }] })],
          containers: [web('migrate', 'ghcr.io/acme/shop-migrations:2024.05.1', {
            env: [{ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'shop-db', key: 'password' } } }],
          })],
        }),
      },
      {
        name: 'statefulset-secretkeyref-only',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'search', ns: 'shop', replicas: 3 }, {
          containers: [web('opensearch', 'opensearchproject/opensearch:2.13.0', {
            env: [
              { name: 'OPENSEARCH_INITIAL_ADMIN_PASSWORD', valueFrom: { secretKeyRef: { name: 'opensearch-admin', key: 'password' } } },
              { name: 'DISCOVERY_SEED_HOSTS', value: 'search-0.search,search-1.search' },
            ],
          })],
        }),
      },
      {
        name: 'cronjob-envfrom-configmap-and-secret',
        expectPassed: false,
        object: wl('CronJob', { name: 'invoice-mailer', ns: 'billing', schedule: '0 7 * * 1-5' }, {
          containers: [web('mailer', 'ghcr.io/acme/invoice-mailer:3.0.0', {
            envFrom: [{ configMapRef: { name: 'mailer-config' } }, { prefix: 'SMTP_', secretRef: { name: 'smtp-credentials' } }],
          })],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ hostAliases
  {
    id: 'k8s-hostaliases-legacy-namespaces-only',
    difficulty: 'medium',
    topics: ['kubernetes', 'host-aliases', 'namespace-scope', 'cidr', 'controllers'],
    labels: kube('Pod'),
    instruction: `hostAliases (extra /etc/hosts entries baked into the pod spec) hide what a service actually talks to and break silently whenever an IP moves, so we don't want them.
The only place they are tolerated is namespaces whose name starts with "legacy-", where a couple of vendor apps can't be fixed; even there, every IP in hostAliases must be inside 10.0.0.0/8 (our VPC range), nothing else.
An empty hostAliases list counts the same as not having one.`,
    check: (o) => {
      const ha = podOf(o).spec.hostAliases ?? [];
      if (ha.length === 0) return true;
      if (!nsOf(o).startsWith('legacy-')) return false;
      return ha.every((h) => cidrWithin(`${h.ip}/32`, '10.0.0.0/8'));
    },
    inputs: [
      {
        name: 'deploy-legacy-ns-10-net',
        expectPassed: true,
        object: wl('Deployment', { name: 'sap-connector', ns: 'legacy-erp', replicas: 1 }, {
          hostAliases: [{ ip: '10.42.7.19', hostnames: ['sapgw01.corp.local', 'sapgw01'] }],
          containers: [web('connector', 'ghcr.io/acme/sap-connector:4.1.0')],
        }),
      },
      {
        name: 'deploy-legacy-ns-172-ip',
        expectPassed: false,
        object: wl('Deployment', { name: 'fax-bridge', ns: 'legacy-telco', replicas: 1 }, {
          hostAliases: [
            { ip: '10.8.0.4', hostnames: ['faxsrv.corp.local'] },
            { ip: '172.20.14.3', hostnames: ['pbx.corp.local'] },
          ],
          containers: [web('bridge', 'ghcr.io/acme/fax-bridge:0.9.2')],
        }),
      },
      {
        name: 'pod-payments-hostaliases',
        expectPassed: false,
        object: wl('Pod', { name: 'psp-client', ns: 'payments' }, {
          hostAliases: [{ ip: '10.1.1.20', hostnames: ['psp-sandbox.internal'] }],
          containers: [web('client', 'ghcr.io/acme/psp-client:2.3.0')],
        }),
      },
      {
        name: 'statefulset-legacyapps-lookalike-ns',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'as400-proxy', ns: 'legacyapps', replicas: 1 }, {
          hostAliases: [{ ip: '10.99.0.5', hostnames: ['as400.corp.local'] }],
          containers: [web('proxy', 'ghcr.io/acme/as400-proxy:1.0.0')],
        }),
      },
      {
        name: 'daemonset-empty-hostaliases-list',
        expectPassed: true,
        object: wl('DaemonSet', { name: 'node-problem-detector', ns: 'kube-system' }, {
          hostAliases: [],
          containers: [web('npd', 'registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.19')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ fsGroupChangePolicy
  {
    id: 'k8s-fsgroup-change-policy',
    difficulty: 'medium',
    topics: ['kubernetes', 'fs-group', 'volumes', 'conditional', 'defaults', 'controllers'],
    labels: kube('Pod'),
    instruction: `STOR-412 Slow pod start-ups on big volumes

When a pod sets fsGroup, the kubelet recursively chowns every file on each volume at start-up, which takes minutes on our larger PVs and makes rollouts time out.

Acceptance criteria:
1. If the pod-level securityContext sets fsGroup, it must also set fsGroupChangePolicy: OnRootMismatch.
2. fsGroupChangePolicy: Always together with fsGroup is a violation, and so is leaving fsGroupChangePolicy out (the default is Always).
3. Pods that don't set fsGroup are fine as they are.
This applies to pod templates in Deployments/StatefulSets/Jobs/etc as well as bare pods.`,
    check: (o) => {
      const sc = podOf(o).spec.securityContext ?? {};
      return sc.fsGroup === undefined || sc.fsGroupChangePolicy === 'OnRootMismatch';
    },
    inputs: [
      {
        name: 'statefulset-fsgroup-onrootmismatch',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'postgres', ns: 'data', replicas: 3 }, {
          securityContext: { fsGroup: 999, fsGroupChangePolicy: 'OnRootMismatch', runAsUser: 999 },
          containers: [web('postgres', 'postgres:16.3')],
        }),
      },
      {
        name: 'statefulset-fsgroup-policy-missing',
        expectPassed: false,
        object: wl('StatefulSet', { name: 'elasticsearch', ns: 'logging', replicas: 3 }, {
          securityContext: { fsGroup: 1000, runAsUser: 1000 },
          containers: [web('es', 'docker.elastic.co/elasticsearch/elasticsearch:8.13.4')],
        }),
      },
      {
        name: 'deploy-fsgroup-always',
        expectPassed: false,
        object: wl('Deployment', { name: 'media-processor', ns: 'media', replicas: 2 }, {
          securityContext: { fsGroup: 2000, fsGroupChangePolicy: 'Always' },
          containers: [web('processor', 'ghcr.io/acme/media-processor:3.3.0')],
        }),
      },
      {
        name: 'pod-no-fsgroup',
        expectPassed: true,
        object: wl('Pod', { name: 'toolbox', ns: 'ops' }, {
          securityContext: { runAsUser: 1000, runAsNonRoot: true },
          containers: [web('toolbox', 'ghcr.io/acme/toolbox:2024.06')],
        }),
      },
      {
        name: 'cronjob-fsgroup-policy-missing',
        expectPassed: false,
        object: wl('CronJob', { name: 'backup-uploads', ns: 'media', schedule: '0 3 * * *' }, {
          securityContext: { fsGroup: 2000 },
          containers: [web('backup', 'ghcr.io/acme/restic-runner:0.16.4')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ hostUsers
  {
    id: 'k8s-user-namespaces-in-sandbox',
    difficulty: 'easy',
    topics: ['kubernetes', 'user-namespaces', 'namespace-scope', 'controllers'],
    labels: kube('Pod'),
    instruction:
      "heads up: everything running in the `ci-runners` and `sandbox` namespaces has to opt into user namespaces from now on, i.e. the pod spec needs hostUsers: false. not setting it means the pod shares the host user namespace = not ok. other namespaces don't care for now",
    check: (o) => !['ci-runners', 'sandbox'].includes(nsOf(o)) || podOf(o).spec.hostUsers === false,
    inputs: [
      {
        name: 'pod-sandbox-hostusers-false',
        expectPassed: true,
        object: wl('Pod', { name: 'jupyter-kernel-7f2', ns: 'sandbox' }, {
          hostUsers: false,
          containers: [web('kernel', 'quay.io/jupyter/base-notebook:2024-05-27')],
        }),
      },
      {
        name: 'deploy-ci-runners-hostusers-unset',
        expectPassed: false,
        object: wl('Deployment', { name: 'gitlab-runner', ns: 'ci-runners', replicas: 4 }, {
          containers: [web('runner', 'gitlab/gitlab-runner:v17.0.0')],
        }),
      },
      {
        name: 'job-sandbox-hostusers-true',
        expectPassed: false,
        object: wl('Job', { name: 'untrusted-build-4411', ns: 'sandbox' }, {
          hostUsers: true,
          containers: [web('build', 'ghcr.io/acme/build-env:22.04')],
        }),
      },
      {
        name: 'deploy-payments-hostusers-unset',
        expectPassed: true,
        object: wl('Deployment', { name: 'payments-api', ns: 'payments', replicas: 3 }, {
          containers: [web('api', 'ghcr.io/acme/payments-api:9.0.2')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ pull secrets for the private registry
  {
    id: 'k8s-private-registry-pull-secret',
    difficulty: 'hard',
    topics: ['kubernetes', 'images', 'image-pull-secrets', 'registry', 'init-containers', 'conditional', 'controllers'],
    labels: kube('Pod'),
    instruction: `Images from our private registry (registry.internal.acme.dev) can only be pulled with credentials, and we deliberately don't put pull credentials on the nodes.

So: any pod that runs at least one image from registry.internal.acme.dev (init containers count) must list the secret named regcred-internal in its own spec.imagePullSecrets. Pods whose images all come from somewhere else don't need it.
Pull secrets inherited from the service account don't count for this check, because we can't see them from the manifest.`,
    check: (o) => {
      const s = podOf(o).spec;
      const uses = ctrsOf(s).some((c) => image(c.image).host === 'registry.internal.acme.dev');
      return !uses || (s.imagePullSecrets ?? []).some((p) => p.name === 'regcred-internal');
    },
    inputs: [
      {
        name: 'deploy-internal-image-with-regcred',
        expectPassed: true,
        object: wl('Deployment', { name: 'pricing', ns: 'shop', replicas: 3 }, {
          imagePullSecrets: [{ name: 'regcred-internal' }],
          containers: [web('pricing', 'registry.internal.acme.dev/shop/pricing:5.2.0')],
        }),
      },
      {
        name: 'deploy-internal-image-no-pull-secrets',
        expectPassed: false,
        object: wl('Deployment', { name: 'recommendations', ns: 'shop', replicas: 2 }, {
          serviceAccountName: 'recommendations',
          containers: [web('recs', 'registry.internal.acme.dev/ml/recommendations:2024.06.3')],
        }),
      },
      {
        name: 'job-init-internal-other-secret',
        expectPassed: false,
        object: wl('Job', { name: 'schema-load', ns: 'warehouse' }, {
          imagePullSecrets: [{ name: 'regcred-dockerhub' }],
          initContainers: [ctr('fetch-schema', 'registry.internal.acme.dev/data/schema-fetch:1.0.0')],
          containers: [web('load', 'postgres:16.3', { command: ['psql', '-f', '/schema/load.sql'] })],
        }),
      },
      {
        name: 'statefulset-lookalike-registry-host',
        expectPassed: true,
        object: wl('StatefulSet', { name: 'redis', ns: 'cache', replicas: 3 }, {
          containers: [web('redis', 'registry.internal.acme.dev.mirror.io/library/redis:7.2.5')],
        }),
      },
      {
        name: 'daemonset-sidecar-internal-wrong-secret',
        expectPassed: false,
        object: wl('DaemonSet', { name: 'log-agent', ns: 'logging' }, {
          imagePullSecrets: [{ name: 'regcred-internal-old' }],
          containers: [
            web('agent', 'cr.fluentbit.io/fluent/fluent-bit:3.0.4'),
            web('enricher', 'registry.internal.acme.dev/platform/log-enricher:0.5.1'),
          ],
        }),
      },
    ],
  },
];
