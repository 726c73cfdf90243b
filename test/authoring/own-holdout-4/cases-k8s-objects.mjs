// Kubernetes non-pod object cases (own-holdout-4): Service, Ingress, NetworkPolicy, Namespace, Role,
// CronJob, Job, ServiceAccount.
import { kube, ctr, res, obj, wl, prefixLen } from './lib.mjs';

const R = res({ cpu: '100m', memory: '128Mi' }, { memory: '256Mi' });
const app = (name, image, more = {}) => ctr(name, image, { resources: R, ...more });

const svc = (name, ns, spec, more = {}) => obj('v1', 'Service', { name, namespace: ns, labels: { app: name }, ...more }, {
  spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], ...spec },
});

const ing = (name, ns, rules, tls) => obj('networking.k8s.io/v1', 'Ingress', { name, namespace: ns }, {
  spec: {
    ingressClassName: 'nginx',
    ...(tls ? { tls } : {}),
    rules: rules.map((host) => ({
      ...(host ? { host } : {}),
      http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name, port: { number: 80 } } } }] },
    })),
  },
});

const netpol = (name, ns, spec) => obj('networking.k8s.io/v1', 'NetworkPolicy', { name, namespace: ns }, {
  spec: { podSelector: { matchLabels: { app: name } }, ...spec },
});

const namespace = (name, labels) => obj('v1', 'Namespace', { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } });

const role = (name, ns, rules) => obj('rbac.authorization.k8s.io/v1', 'Role', { name, namespace: ns }, { rules });

const sa = (name, ns, more = {}) => obj('v1', 'ServiceAccount', { name, namespace: ns }, more);

const coversHost = (tlsHost, host) => {
  if (tlsHost === host) return true;
  if (!tlsHost.startsWith('*.')) return false;
  const suffix = tlsHost.slice(1); // ".shop.example.com"
  if (!host.endsWith(suffix)) return false;
  const left = host.slice(0, host.length - suffix.length);
  return left.length > 0 && !left.includes('.');
};

export default [
  // ------------------------------------------------------------------ NodePort
  {
    id: 'k8s-service-no-nodeport',
    difficulty: 'easy',
    topics: ['kubernetes', 'service', 'service-type', 'defaults'],
    labels: kube('Service'),
    instruction:
      "Please block Services of type NodePort. Everything goes through the ingress controller or an internal load balancer; opening random 30000-32767 ports on every node isn't something we want. ClusterIP (including headless), LoadBalancer and ExternalName services are all fine.",
    check: (o) => (o.spec?.type ?? 'ClusterIP') !== 'NodePort',
    inputs: [
      { name: 'clusterip-type-unset', expectPassed: true, object: svc('orders-api', 'orders', {}) },
      { name: 'nodeport-debug', expectPassed: false, object: svc('grafana-debug', 'monitoring', { type: 'NodePort' }) },
      {
        name: 'loadbalancer-internal',
        expectPassed: true,
        object: svc('mqtt-broker', 'iot', { type: 'LoadBalancer', ports: [{ name: 'mqtt', port: 8883, targetPort: 8883, protocol: 'TCP' }] }, {
          annotations: { 'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internal' },
        }),
      },
      {
        name: 'nodeport-fixed-port',
        expectPassed: false,
        object: svc('legacy-soap', 'legacy', { type: 'NodePort', ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30080, protocol: 'TCP' }] }),
      },
    ],
  },

  // ------------------------------------------------------------------ LoadBalancer source ranges
  {
    id: 'k8s-loadbalancer-source-ranges',
    difficulty: 'medium',
    topics: ['kubernetes', 'service', 'load-balancer', 'cidr', 'conditional', 'missing-field', 'arrays'],
    labels: kube('Service'),
    instruction:
      "Any Service of type LoadBalancer has to list loadBalancerSourceRanges, and neither `0.0.0.0/0` nor `::/0` may be among them (that's just \"open to everyone\" with extra steps). Services that aren't LoadBalancers are out of scope.",
    check: (o) => {
      if (o.spec?.type !== 'LoadBalancer') return true;
      const r = o.spec.loadBalancerSourceRanges ?? [];
      return r.length > 0 && !r.includes('0.0.0.0/0') && !r.includes('::/0');
    },
    inputs: [
      {
        name: 'lb-office-ranges',
        expectPassed: true,
        object: svc('partner-api', 'partners', { type: 'LoadBalancer', loadBalancerSourceRanges: ['203.0.113.0/24', '198.51.100.16/28'] }),
      },
      { name: 'lb-without-ranges', expectPassed: false, object: svc('status-page', 'web', { type: 'LoadBalancer' }) },
      {
        name: 'lb-includes-any-ipv4',
        expectPassed: false,
        object: svc('sftp', 'partners', { type: 'LoadBalancer', loadBalancerSourceRanges: ['10.0.0.0/8', '0.0.0.0/0'], ports: [{ name: 'sftp', port: 22, targetPort: 2222, protocol: 'TCP' }] }),
      },
      { name: 'clusterip-no-ranges', expectPassed: true, object: svc('inventory', 'shop', {}) },
      {
        name: 'lb-any-ipv6',
        expectPassed: false,
        object: svc('webhooks', 'integration', { type: 'LoadBalancer', ipFamilyPolicy: 'PreferDualStack', loadBalancerSourceRanges: ['192.0.2.0/24', '::/0'] }),
      },
    ],
  },

  // ------------------------------------------------------------------ Ingress TLS coverage
  {
    id: 'k8s-ingress-every-host-has-tls',
    difficulty: 'hard',
    topics: ['kubernetes', 'ingress', 'tls', 'wildcards', 'dns-names', 'arrays', 'missing-field'],
    labels: kube('Ingress'),
    instruction: `Ingress TLS coverage

Every host that appears in an Ingress's rules must also be listed in spec.tls[].hosts, so nothing is served over plain HTTP. A TLS entry with a wildcard such as \`*.shop.example.com\` covers exactly one extra label on the left (api.shop.example.com: yes; shop.example.com and v2.api.shop.example.com: no). Rules without a host aren't allowed either, because they can't be matched to a certificate.`,
    check: (o) => {
      const tlsHosts = (o.spec?.tls ?? []).flatMap((t) => t.hosts ?? []);
      return (o.spec?.rules ?? []).every((r) => typeof r.host === 'string' && tlsHosts.some((h) => coversHost(h, r.host)));
    },
    inputs: [
      {
        name: 'single-host-covered',
        expectPassed: true,
        object: ing('docs-site', 'docs', ['docs.example.com'], [{ hosts: ['docs.example.com'], secretName: 'docs-tls' }]),
      },
      {
        name: 'second-host-not-in-tls',
        expectPassed: false,
        object: ing('storefront', 'shop', ['www.example.com', 'm.example.com'], [{ hosts: ['www.example.com'], secretName: 'www-tls' }]),
      },
      {
        name: 'wildcard-one-level',
        expectPassed: true,
        object: ing('shop-apis', 'shop', ['api.shop.example.com', 'cart.shop.example.com'], [{ hosts: ['*.shop.example.com'], secretName: 'shop-wildcard-tls' }]),
      },
      {
        name: 'wildcard-two-levels-deep',
        expectPassed: false,
        object: ing('shop-api-v2', 'shop', ['v2.api.shop.example.com'], [{ hosts: ['*.shop.example.com'], secretName: 'shop-wildcard-tls' }]),
      },
      {
        name: 'no-tls-section',
        expectPassed: false,
        object: ing('intranet', 'corp', ['intranet.corp.example.com']),
      },
      {
        name: 'hostless-rule',
        expectPassed: false,
        object: ing('catch-all', 'web', [null], [{ hosts: ['www.example.com'], secretName: 'www-tls' }]),
      },
    ],
  },

  // ------------------------------------------------------------------ NetworkPolicy egress CIDRs
  {
    id: 'k8s-networkpolicy-egress-cidr-size',
    difficulty: 'medium',
    topics: ['kubernetes', 'networkpolicy', 'egress', 'cidr', 'numeric-bounds', 'boundary', 'arrays'],
    labels: kube('NetworkPolicy'),
    instruction:
      "NetworkPolicy review rule: every ipBlock used in an *egress* rule must be a /16 or smaller range (prefix length 16 or higher), so 0.0.0.0/0 and things like 10.0.0.0/8 are out; if you need internet egress go via the proxy. ipBlocks in ingress rules aren't covered by this, and egress peers that are pod or namespace selectors are fine.",
    check: (o) =>
      (o.spec?.egress ?? []).flatMap((e) => e.to ?? []).filter((p) => p.ipBlock).every((p) => prefixLen(p.ipBlock.cidr) >= 16),
    inputs: [
      {
        name: 'egress-to-db-subnet',
        expectPassed: true,
        object: netpol('orders-api', 'orders', {
          policyTypes: ['Egress'],
          egress: [{ to: [{ ipBlock: { cidr: '10.20.30.0/24' } }], ports: [{ protocol: 'TCP', port: 5432 }] }],
        }),
      },
      {
        name: 'egress-anywhere-with-except',
        expectPassed: false,
        object: netpol('webhook-sender', 'integration', {
          policyTypes: ['Egress'],
          egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '169.254.169.254/32'] } }], ports: [{ protocol: 'TCP', port: 443 }] }],
        }),
      },
      {
        name: 'egress-exactly-slash-16',
        expectPassed: true,
        object: netpol('batch-workers', 'batch', {
          policyTypes: ['Egress'],
          egress: [{ to: [{ ipBlock: { cidr: '172.20.0.0/16' } }] }],
        }),
      },
      {
        name: 'egress-slash-12',
        expectPassed: false,
        object: netpol('analytics-etl', 'analytics', {
          policyTypes: ['Egress'],
          egress: [{ to: [{ ipBlock: { cidr: '172.16.0.0/12' } }], ports: [{ protocol: 'TCP', port: 9000 }] }],
        }),
      },
      {
        name: 'ingress-anywhere-egress-selectors',
        expectPassed: true,
        object: netpol('public-web', 'web', {
          policyTypes: ['Ingress', 'Egress'],
          ingress: [{ from: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [{ protocol: 'TCP', port: 8080 }] }],
          egress: [{ to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'shop' } }, podSelector: { matchLabels: { app: 'cart' } } }] }],
        }),
      },
      {
        name: 'egress-second-peer-slash-8',
        expectPassed: false,
        object: netpol('ledger-api', 'billing', {
          policyTypes: ['Egress'],
          egress: [
            { to: [{ ipBlock: { cidr: '10.40.1.16/28' } }], ports: [{ protocol: 'TCP', port: 5432 }] },
            { to: [{ ipBlock: { cidr: '10.0.0.0/8' } }], ports: [{ protocol: 'TCP', port: 443 }] },
          ],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ Namespace labels
  {
    id: 'k8s-namespace-ownership-labels',
    difficulty: 'medium',
    topics: ['kubernetes', 'namespace', 'labels', 'allowlist', 'pattern', 'name-prefix-exemption', 'missing-field'],
    labels: kube('Namespace'),
    instruction: `namespace onboarding checklist - the Namespace object itself needs these labels:
  • owner-team: non-empty
  • environment: one of dev, staging, prod (lowercase, exactly those words)
  • cost-center: five digits
Namespaces whose name starts with \`kube-\`, and the \`default\` namespace, are exempt.`,
    check: (o) => {
      const n = o.metadata.name;
      if (n === 'default' || n.startsWith('kube-')) return true;
      const l = o.metadata.labels ?? {};
      return !!l['owner-team'] && ['dev', 'staging', 'prod'].includes(l.environment) && /^\d{5}$/.test(l['cost-center'] ?? '');
    },
    inputs: [
      { name: 'payments-complete', expectPassed: true, object: namespace('payments', { 'owner-team': 'payments', environment: 'prod', 'cost-center': '40120' }) },
      { name: 'environment-production-spelled-out', expectPassed: false, object: namespace('search', { 'owner-team': 'search', environment: 'production', 'cost-center': '40233' }) },
      { name: 'cost-center-four-digits', expectPassed: false, object: namespace('ml-sandbox', { 'owner-team': 'ml', environment: 'dev', 'cost-center': '1234' }) },
      { name: 'kube-system-no-labels', expectPassed: true, object: namespace('kube-system', {}) },
      { name: 'owner-team-missing', expectPassed: false, object: namespace('reporting', { environment: 'staging', 'cost-center': '40555' }) },
    ],
  },

  // ------------------------------------------------------------------ Roles that read Secrets
  {
    id: 'k8s-roles-reading-secrets',
    difficulty: 'hard',
    topics: ['kubernetes', 'rbac', 'role', 'secrets', 'wildcards', 'namespace-exemption', 'arrays'],
    labels: kube('Role'),
    instruction:
      "RBAC: only the `vault` and `external-secrets` namespaces may contain Roles that can read Secrets. \"Read\" means any of the verbs get, list or watch (or the `*` verb) on the resource `secrets` (or `*` resources) in the core API group (apiGroups \"\" or `*`). Roles elsewhere that can only create/update/delete secrets aren't covered here, we have a seperate rule for that.",
    check: (o) => {
      if (['vault', 'external-secrets'].includes(o.metadata.namespace)) return true;
      return !(o.rules ?? []).some((r) =>
        (r.apiGroups ?? []).some((g) => g === '' || g === '*') &&
        (r.resources ?? []).some((x) => x === 'secrets' || x === '*') &&
        (r.verbs ?? []).some((v) => ['get', 'list', 'watch', '*'].includes(v)));
    },
    inputs: [
      {
        name: 'app-reads-configmaps',
        expectPassed: true,
        object: role('config-reader', 'shop', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }]),
      },
      {
        name: 'app-gets-secrets',
        expectPassed: false,
        object: role('cart-secrets', 'shop', [
          { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
          { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
        ]),
      },
      {
        name: 'vault-namespace-reads-secrets',
        expectPassed: true,
        object: role('vault-agent-injector', 'vault', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] }]),
      },
      {
        name: 'wildcard-resources-list',
        expectPassed: false,
        object: role('ops-viewer', 'ops', [{ apiGroups: [''], resources: ['*'], verbs: ['list'] }]),
      },
      {
        name: 'create-and-update-secrets-only',
        expectPassed: true,
        object: role('cert-writer', 'web', [{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'update', 'patch'] }]),
      },
      {
        name: 'star-verb-on-secrets',
        expectPassed: false,
        object: role('ci-deployer', 'ci', [
          { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'patch'] },
          { apiGroups: [''], resources: ['secrets'], verbs: ['*'] },
        ]),
      },
    ],
  },

  // ------------------------------------------------------------------ CronJob concurrency + time zone
  {
    id: 'k8s-cronjob-concurrency-and-timezone',
    difficulty: 'medium',
    topics: ['kubernetes', 'cronjob', 'defaults', 'allowlist', 'missing-field', 'multi-requirement'],
    labels: kube('CronJob'),
    instruction:
      "CronJobs: set `spec.concurrencyPolicy` to Forbid or Replace. The default (Allow) lets slow runs pile up on top of each other, so leaving it unset fails. Also spell out `spec.timeZone` (any IANA zone, e.g. Europe/London or Etc/UTC) so schedules don't silently follow whatever the controller's local time is.",
    check: (o) => ['Forbid', 'Replace'].includes(o.spec?.concurrencyPolicy) && typeof o.spec?.timeZone === 'string' && o.spec.timeZone.length > 0,
    inputs: [
      {
        name: 'forbid-etc-utc',
        expectPassed: true,
        object: wl('CronJob', { name: 'nightly-report', ns: 'reporting', schedule: '30 1 * * *', cronFields: { concurrencyPolicy: 'Forbid', timeZone: 'Etc/UTC' } }, {
          containers: [app('report', 'registry.acme-internal.io/reporting/nightly:3.2.0')],
        }),
      },
      {
        name: 'replace-europe-london',
        expectPassed: true,
        object: wl('CronJob', { name: 'fx-rates', ns: 'pricing', schedule: '*/15 7-18 * * 1-5', cronFields: { concurrencyPolicy: 'Replace', timeZone: 'Europe/London' } }, {
          containers: [app('fx', 'registry.acme-internal.io/pricing/fx-rates:1.0.4')],
        }),
      },
      {
        name: 'concurrency-unset',
        expectPassed: false,
        object: wl('CronJob', { name: 'cache-warm', ns: 'web', schedule: '0 6 * * *', cronFields: { timeZone: 'Europe/Berlin' } }, {
          containers: [app('warm', 'registry.acme-internal.io/web/cache-warm:0.5.0')],
        }),
      },
      {
        name: 'allow-explicit',
        expectPassed: false,
        object: wl('CronJob', { name: 'feed-import', ns: 'catalog', schedule: '*/10 * * * *', cronFields: { concurrencyPolicy: 'Allow', timeZone: 'Etc/UTC' } }, {
          containers: [app('import', 'registry.acme-internal.io/catalog/feed-import:2.0.0')],
        }),
      },
      {
        name: 'forbid-without-timezone',
        expectPassed: false,
        object: wl('CronJob', { name: 'gc-artifacts', ns: 'ci', schedule: '0 4 * * 0', cronFields: { concurrencyPolicy: 'Forbid' } }, {
          containers: [app('gc', 'registry.acme-internal.io/ci/artifact-gc:1.2.0')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ Job deadlines
  {
    id: 'k8s-job-deadline-and-backoff',
    difficulty: 'medium',
    topics: ['kubernetes', 'job', 'numeric-bounds', 'boundary', 'missing-field', 'defaults', 'multi-requirement'],
    labels: kube('Job'),
    instruction:
      "Batch Jobs must have a deadline: spec.activeDeadlineSeconds has to be set, and to no more than 86400 (24h). backoffLimit may be left unset (k8s defaults it to 6), but if you do set it keep it at 6 or lower.",
    check: (o) => {
      const d = o.spec?.activeDeadlineSeconds;
      const b = o.spec?.backoffLimit;
      return typeof d === 'number' && d <= 86400 && (b === undefined || b <= 6);
    },
    inputs: [
      {
        name: 'one-hour-deadline',
        expectPassed: true,
        object: wl('Job', { name: 'db-backfill', ns: 'orders', jobFields: { activeDeadlineSeconds: 3600 } }, {
          containers: [app('backfill', 'registry.acme-internal.io/orders/backfill:1.0.0')],
        }),
      },
      {
        name: 'no-deadline',
        expectPassed: false,
        object: wl('Job', { name: 'reindex-all', ns: 'search', jobFields: { backoffLimit: 2 } }, {
          containers: [app('reindex', 'registry.acme-internal.io/search/reindexer:1.9.0')],
        }),
      },
      {
        name: 'exactly-24h-backoff-6',
        expectPassed: true,
        object: wl('Job', { name: 'full-export', ns: 'data', jobFields: { activeDeadlineSeconds: 86400, backoffLimit: 6 } }, {
          containers: [app('export', 'registry.acme-internal.io/data/exporter:1.6.0')],
        }),
      },
      {
        name: 'two-day-deadline',
        expectPassed: false,
        object: wl('Job', { name: 'train-model', ns: 'ml', jobFields: { activeDeadlineSeconds: 172800 } }, {
          containers: [app('train', 'registry.acme-internal.io/ml/trainer:0.9.0')],
        }),
      },
      {
        name: 'backoff-limit-ten',
        expectPassed: false,
        object: wl('Job', { name: 'flaky-import', ns: 'integration', jobFields: { activeDeadlineSeconds: 1800, backoffLimit: 10 } }, {
          containers: [app('import', 'registry.acme-internal.io/integration/importer:2.1.0')],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ ServiceAccount automount
  {
    id: 'k8s-serviceaccount-automount-off',
    difficulty: 'easy',
    topics: ['kubernetes', 'serviceaccount', 'service-account-token', 'missing-field', 'namespace-exemption'],
    labels: kube('ServiceAccount'),
    instruction:
      'ServiceAccounts should opt out of token automounting: set automountServiceAccountToken: false on every ServiceAccount object. Not setting it counts as true. kube-system is excluded from this.',
    check: (o) => o.metadata.namespace === 'kube-system' || o.automountServiceAccountToken === false,
    inputs: [
      { name: 'explicit-false', expectPassed: true, object: sa('checkout', 'shop', { automountServiceAccountToken: false }) },
      { name: 'field-unset', expectPassed: false, object: sa('reporting', 'reporting') },
      { name: 'explicit-true', expectPassed: false, object: sa('argo-workflow', 'ci', { automountServiceAccountToken: true }) },
      { name: 'kube-system-unset', expectPassed: true, object: sa('coredns', 'kube-system') },
      { name: 'kube-public-unset', expectPassed: false, object: sa('cluster-info-reader', 'kube-public') },
    ],
  },
];
