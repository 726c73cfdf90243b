// own-holdout-3: Kubernetes non-workload objects (Service, Ingress, NetworkPolicy, PDB, HPA, RBAC,
// ConfigMap, Secret, Namespace, PVC).
import { kube, obj, b64, qty, cidr4, isPrivateCidr } from './lib.mjs';

const svc = (name, namespace, spec, { annotations, labels } = {}) =>
  obj('v1', 'Service', { name, namespace, labels: labels ?? { app: name }, annotations }, {
    spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], ...spec },
  });
const backend = (name, number = 80) => ({ service: { name, port: { number } } });
const path = (p, pathType, svcName) => ({ path: p, pathType, backend: backend(svcName) });
const ing = (name, namespace, spec, annotations) =>
  obj('networking.k8s.io/v1', 'Ingress', { name, namespace, annotations }, { spec: { ingressClassName: 'nginx', ...spec } });
const rule = (host, paths) => ({ ...(host === undefined ? {} : { host }), http: { paths } });
const np = (name, namespace, spec) => obj('networking.k8s.io/v1', 'NetworkPolicy', { name, namespace }, { spec });
const pdb = (name, namespace, spec) => obj('policy/v1', 'PodDisruptionBudget', { name, namespace }, { spec });
const hpa = (name, namespace, spec) =>
  obj('autoscaling/v2', 'HorizontalPodAutoscaler', { name, namespace }, { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, ...spec } });
const cpuUtil = (n) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } } });
const RBAC = 'rbac.authorization.k8s.io';
const crb = (name, role, subjects) => obj(`${RBAC}/v1`, 'ClusterRoleBinding', { name }, { roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role }, subjects });
const group = (name) => ({ kind: 'Group', apiGroup: RBAC, name });
const user = (name) => ({ kind: 'User', apiGroup: RBAC, name });
const sa = (name, namespace) => ({ kind: 'ServiceAccount', name, namespace });
const role = (name, namespace, rules) => obj(`${RBAC}/v1`, 'Role', { name, namespace }, { rules });
const cm = (name, namespace, data) => obj('v1', 'ConfigMap', { name, namespace }, { data });
const secret = (name, namespace, type, data, { labels, annotations } = {}) => obj('v1', 'Secret', { name, namespace, labels, annotations }, { type, data });
const ns = (name, labels) => obj('v1', 'Namespace', { name, labels });
const pvc = (name, namespace, spec, labels) => obj('v1', 'PersistentVolumeClaim', { name, namespace, labels }, { spec });

const FAKE_KEY = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF0qJ\n-----END RSA PRIVATE KEY-----\n';
const FAKE_CERT = '-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\n-----END CERTIFICATE-----\n';

export default [
  // ------------------------------------------------------------------ 1
  {
    id: 'k8s3-service-loadbalancer-internal-only',
    difficulty: 'medium',
    topics: ['kubernetes', 'service', 'load-balancer', 'annotations', 'exemptions'],
    labels: kube('Service'),
    instruction:
      "Services of type LoadBalancer must not be internet-facing. On our EKS clusters that means the Service carries either `service.beta.kubernetes.io/aws-load-balancer-internal: \"true\"` or `service.beta.kubernetes.io/aws-load-balancer-scheme: internal`. The `edge` namespace is exempt (that's where the public ingress controllers live). ClusterIP and NodePort services aren't in scope for this rule.",
    check: (o) => {
      if ((o.spec?.type ?? 'ClusterIP') !== 'LoadBalancer') return true;
      if (o.metadata?.namespace === 'edge') return true;
      const a = o.metadata?.annotations ?? {};
      return a['service.beta.kubernetes.io/aws-load-balancer-internal'] === 'true' || a['service.beta.kubernetes.io/aws-load-balancer-scheme'] === 'internal';
    },
    inputs: [
      { name: 'clusterip-service', expectPassed: true, object: svc('orders', 'shop', {}) },
      {
        name: 'lb-internal-annotation-false',
        expectPassed: false,
        object: svc('reporting', 'finance', { type: 'LoadBalancer' }, { annotations: { 'service.beta.kubernetes.io/aws-load-balancer-internal': 'false' } }),
      },
      {
        name: 'lb-scheme-internal',
        expectPassed: true,
        object: svc('grpc-gateway', 'platform', { type: 'LoadBalancer' }, { annotations: { 'service.beta.kubernetes.io/aws-load-balancer-type': 'external', 'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internal' } }),
      },
      { name: 'lb-no-annotations', expectPassed: false, object: svc('admin-console', 'ops', { type: 'LoadBalancer' }) },
      {
        name: 'lb-scheme-internet-facing',
        expectPassed: false,
        object: svc('partner-api', 'integrations', { type: 'LoadBalancer' }, { annotations: { 'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internet-facing' } }),
      },
      {
        name: 'edge-namespace-public-lb',
        expectPassed: true,
        object: svc('ingress-nginx-controller', 'edge', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }, { annotations: { 'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internet-facing' } }),
      },
    ],
  },

  // ------------------------------------------------------------------ 2
  {
    id: 'k8s3-service-externalips-and-externalname-targets',
    difficulty: 'medium',
    topics: ['kubernetes', 'service', 'external-ips', 'external-name', 'dns-names'],
    labels: kube('Service'),
    instruction:
      'Because of CVE-2020-8554, Services may not use spec.externalIPs at all (an empty list is tolerated). Also, ExternalName services are only allowed to point at in-cluster names ending in `.svc.cluster.local` or at hosts in our own domain `corp.example.net` (the apex itself or any subdomain of it).',
    check: (o) => {
      const s = o.spec ?? {};
      if ((s.externalIPs ?? []).length > 0) return false;
      if (s.type !== 'ExternalName') return true;
      const n = String(s.externalName ?? '');
      return n.endsWith('.svc.cluster.local') || n === 'corp.example.net' || n.endsWith('.corp.example.net');
    },
    inputs: [
      { name: 'plain-clusterip', expectPassed: true, object: svc('pricing', 'shop', {}) },
      { name: 'clusterip-with-external-ips', expectPassed: false, object: svc('legacy-ftp', 'integrations', { externalIPs: ['203.0.113.40'] }) },
      {
        name: 'externalname-in-cluster',
        expectPassed: true,
        object: obj('v1', 'Service', { name: 'billing-alias', namespace: 'shop' }, { spec: { type: 'ExternalName', externalName: 'billing.finance.svc.cluster.local' } }),
      },
      {
        name: 'externalname-corp-subdomain',
        expectPassed: true,
        object: obj('v1', 'Service', { name: 'ldap', namespace: 'identity' }, { spec: { type: 'ExternalName', externalName: 'ldap.dc1.corp.example.net' } }),
      },
      {
        name: 'externalname-lookalike-domain',
        expectPassed: false,
        object: obj('v1', 'Service', { name: 'sso', namespace: 'identity' }, { spec: { type: 'ExternalName', externalName: 'sso.corp.example.net.login-check.io' } }),
      },
      {
        name: 'externalname-third-party-saas',
        expectPassed: false,
        object: obj('v1', 'Service', { name: 'payments-provider', namespace: 'payments' }, { spec: { type: 'ExternalName', externalName: 'api.stripe.com' } }),
      },
    ],
  },

  // ------------------------------------------------------------------ 3
  {
    id: 'k8s3-ingress-nginx-dangerous-annotations',
    difficulty: 'medium',
    topics: ['kubernetes', 'ingress', 'annotations', 'ingress-nginx', 'cidr'],
    labels: kube('Ingress'),
    instruction: `ingress-nginx annotations we don't accept on any Ingress:
* \`nginx.ingress.kubernetes.io/configuration-snippet\` and \`nginx.ingress.kubernetes.io/server-snippet\` - snippet injection (CVE-2021-25742), not allowed whatever the value
* \`nginx.ingress.kubernetes.io/ssl-redirect: "false"\` - we never serve plain http
* \`nginx.ingress.kubernetes.io/whitelist-source-range\` is fine, but if it's there none of its comma-separated CIDRs may be 0.0.0.0/0 (that defeats the point)`,
    check: (o) => {
      const a = o.metadata?.annotations ?? {};
      const P = 'nginx.ingress.kubernetes.io/';
      if (`${P}configuration-snippet` in a || `${P}server-snippet` in a) return false;
      if (a[`${P}ssl-redirect`] === 'false') return false;
      const wl = a[`${P}whitelist-source-range`];
      return wl === undefined || !wl.split(',').map((s) => s.trim()).includes('0.0.0.0/0');
    },
    inputs: [
      {
        name: 'whitelist-private-ranges',
        expectPassed: true,
        object: ing('grafana', 'monitoring', { rules: [rule('grafana.internal.acme.io', [path('/', 'Prefix', 'grafana')])] }, { 'nginx.ingress.kubernetes.io/whitelist-source-range': '10.0.0.0/8,192.168.10.0/24' }),
      },
      {
        name: 'configuration-snippet-present',
        expectPassed: false,
        object: ing('shop-web', 'shop', { rules: [rule('shop.acme.io', [path('/', 'Prefix', 'shop-web')])] }, { 'nginx.ingress.kubernetes.io/configuration-snippet': 'more_set_headers "X-Frame-Options: DENY";' }),
      },
      {
        name: 'ssl-redirect-disabled',
        expectPassed: false,
        object: ing('status-page', 'ops', { rules: [rule('status.acme.io', [path('/', 'Prefix', 'status-page')])] }, { 'nginx.ingress.kubernetes.io/ssl-redirect': 'false' }),
      },
      {
        name: 'whitelist-includes-everything',
        expectPassed: false,
        object: ing('kibana', 'logging', { rules: [rule('kibana.internal.acme.io', [path('/', 'Prefix', 'kibana')])] }, { 'nginx.ingress.kubernetes.io/whitelist-source-range': '10.0.0.0/8, 0.0.0.0/0' }),
      },
      {
        name: 'ssl-redirect-true-and-rewrite',
        expectPassed: true,
        object: ing('api', 'platform', { rules: [rule('api.acme.io', [path('/v1(/|$)(.*)', 'ImplementationSpecific', 'api-v1')])] }, { 'nginx.ingress.kubernetes.io/ssl-redirect': 'true', 'nginx.ingress.kubernetes.io/rewrite-target': '/$2' }),
      },
      {
        name: 'server-snippet-present',
        expectPassed: false,
        object: ing('docs', 'web', { rules: [rule('docs.acme.io', [path('/', 'Prefix', 'docs')])] }, { 'nginx.ingress.kubernetes.io/server-snippet': 'location /metrics { deny all; }' }),
      },
    ],
  },

  // ------------------------------------------------------------------ 4
  {
    id: 'k8s3-ingress-explicit-hosts-and-path-types',
    difficulty: 'easy',
    topics: ['kubernetes', 'ingress', 'hosts', 'path-type', 'default-backend'],
    labels: kube('Ingress'),
    instruction: `NET-342: Ingress objects must be explicit about what they route.
AC:
- no spec.defaultBackend (catch-all backends hide misrouted traffic)
- every rule names a host; host-less rules match any hostname and are not allowed
- pathType must be Exact or Prefix on every path - the behaviour of ImplementationSpecific differs per controller, so it's out`,
    check: (o) => {
      const s = o.spec ?? {};
      if (s.defaultBackend) return false;
      return (s.rules ?? []).every((r) => typeof r.host === 'string' && r.host !== '' && (r.http?.paths ?? []).every((p) => ['Exact', 'Prefix'].includes(p.pathType)));
    },
    inputs: [
      { name: 'single-host-prefix', expectPassed: true, object: ing('blog', 'web', { rules: [rule('blog.acme.io', [path('/', 'Prefix', 'blog')])] }) },
      { name: 'has-default-backend', expectPassed: false, object: ing('catch-all', 'web', { defaultBackend: backend('not-found'), rules: [rule('www.acme.io', [path('/', 'Prefix', 'www')])] }) },
      { name: 'rule-without-host', expectPassed: false, object: ing('metrics', 'monitoring', { rules: [rule(undefined, [path('/metrics', 'Exact', 'prometheus')])] }) },
      { name: 'implementation-specific-path', expectPassed: false, object: ing('legacy', 'web', { rules: [rule('legacy.acme.io', [path('/app/*', 'ImplementationSpecific', 'legacy')])] }) },
      {
        name: 'two-hosts-exact-and-prefix',
        expectPassed: true,
        object: ing('storefront', 'shop', {
          tls: [{ hosts: ['shop.acme.io', 'api.shop.acme.io'], secretName: 'shop-tls' }],
          rules: [rule('shop.acme.io', [path('/', 'Prefix', 'storefront')]), rule('api.shop.acme.io', [path('/healthz', 'Exact', 'shop-api'), path('/v2', 'Prefix', 'shop-api')])],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 5
  {
    id: 'k8s3-networkpolicy-ingress-peer-restrictions',
    difficulty: 'hard',
    topics: ['kubernetes', 'network-policy', 'cidr', 'namespace-selector', 'every-element'],
    labels: kube('NetworkPolicy'),
    instruction: `NP-02 Ingress sources. For every ingress rule of a NetworkPolicy:
(a) the rule must list at least one \`from\` peer - a rule without \`from\` admits traffic from everywhere;
(b) a peer whose namespaceSelector is empty ({}) with no podSelector alongside it selects every pod in every namespace and is not allowed;
(c) ipBlock peers must sit inside RFC 1918 space (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16) and be no broader than a /16.
Egress rules are out of scope here.`,
    check: (o) =>
      (o.spec?.ingress ?? []).every((r) => {
        const from = r.from ?? [];
        if (from.length === 0) return false;
        return from.every((p) => {
          const nsSel = p.namespaceSelector;
          if (nsSel && !Object.keys(nsSel.matchLabels ?? {}).length && !(nsSel.matchExpressions ?? []).length && !p.podSelector) return false;
          if (p.ipBlock) return isPrivateCidr(p.ipBlock.cidr) && cidr4(p.ipBlock.cidr).bits >= 16;
          return true;
        });
      }),
    inputs: [
      {
        name: 'pod-selector-peers',
        expectPassed: true,
        object: np('allow-frontend', 'shop', { podSelector: { matchLabels: { app: 'cart' } }, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: { matchLabels: { app: 'storefront' } } }], ports: [{ protocol: 'TCP', port: 8080 }] }] }),
      },
      {
        name: 'empty-namespace-selector',
        expectPassed: false,
        object: np('allow-all-namespaces', 'shop', { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ from: [{ namespaceSelector: {} }] }] }),
      },
      {
        name: 'labelled-namespace-selector',
        expectPassed: true,
        object: np('allow-monitoring', 'shop', { podSelector: {}, policyTypes: ['Ingress'], ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }], ports: [{ protocol: 'TCP', port: 9090 }] }] }),
      },
      {
        name: 'ipblock-slash-8-too-broad',
        expectPassed: false,
        object: np('allow-vpc', 'payments', { podSelector: { matchLabels: { app: 'payments-api' } }, policyTypes: ['Ingress'], ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] }),
      },
      {
        name: 'ipblocks-slash-16-and-24',
        expectPassed: true,
        object: np('allow-office-and-vpn', 'payments', {
          podSelector: { matchLabels: { app: 'payments-admin' } },
          policyTypes: ['Ingress'],
          ingress: [{ from: [{ ipBlock: { cidr: '10.20.0.0/16' } }, { ipBlock: { cidr: '172.20.5.0/24', except: ['172.20.5.128/25'] } }], ports: [{ protocol: 'TCP', port: 443 }] }],
        }),
      },
      {
        name: 'ingress-rule-without-from',
        expectPassed: false,
        object: np('open-http', 'web', { podSelector: { matchLabels: { app: 'www' } }, policyTypes: ['Ingress'], ingress: [{ ports: [{ protocol: 'TCP', port: 80 }] }] }),
      },
    ],
  },

  // ------------------------------------------------------------------ 6
  {
    id: 'k8s3-networkpolicy-both-policy-types',
    difficulty: 'easy',
    topics: ['kubernetes', 'network-policy', 'policy-types', 'egress'],
    labels: kube('NetworkPolicy'),
    instruction:
      "going forward every NetworkPolicy should spell out policyTypes with BOTH Ingress and Egress in it. yes, even if you only have ingress rules - listing Egress with no egress rules is how you say 'deny all egress', and we want that to be a deliberate decision. don't rely on the API server filling policyTypes in for you.",
    check: (o) => {
      const t = o.spec?.policyTypes ?? [];
      return t.includes('Ingress') && t.includes('Egress');
    },
    inputs: [
      {
        name: 'both-types-with-rules',
        expectPassed: true,
        object: np('cart-policy', 'shop', {
          podSelector: { matchLabels: { app: 'cart' } },
          policyTypes: ['Ingress', 'Egress'],
          ingress: [{ from: [{ podSelector: { matchLabels: { app: 'storefront' } } }] }],
          egress: [{ to: [{ podSelector: { matchLabels: { app: 'redis' } } }], ports: [{ protocol: 'TCP', port: 6379 }] }],
        }),
      },
      {
        name: 'ingress-type-only',
        expectPassed: false,
        object: np('catalog-policy', 'shop', { podSelector: { matchLabels: { app: 'catalog' } }, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: { matchLabels: { app: 'storefront' } } }] }] }),
      },
      {
        name: 'policy-types-omitted',
        expectPassed: false,
        object: np('search-policy', 'search', { podSelector: { matchLabels: { app: 'search-api' } }, ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'web' } } }] }] }),
      },
      {
        name: 'default-deny-both-no-rules',
        expectPassed: true,
        object: np('default-deny', 'payments', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] }),
      },
      {
        name: 'egress-type-only',
        expectPassed: false,
        object: np('dns-egress', 'payments', { podSelector: {}, policyTypes: ['Egress'], egress: [{ to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } }], ports: [{ protocol: 'UDP', port: 53 }] }] }),
      },
    ],
  },

  // ------------------------------------------------------------------ 7
  {
    id: 'k8s3-pdb-must-not-block-drains',
    difficulty: 'medium',
    topics: ['kubernetes', 'pod-disruption-budget', 'int-or-percent', 'selectors'],
    labels: kube('PodDisruptionBudget'),
    instruction: `PodDisruptionBudgets must not block node drains:
- maxUnavailable may not be 0 or "0%"
- minAvailable may not be "100%"
- the selector has to actually select something: matchLabels or matchExpressions with at least one entry (an empty selector {} or no selector at all is rejected)
(integer minAvailable values are fine for this rule, we check those against replica counts elsewhere)`,
    check: (o) => {
      const s = o.spec ?? {};
      if (s.maxUnavailable === 0 || s.maxUnavailable === '0%') return false;
      if (s.minAvailable === '100%') return false;
      return Object.keys(s.selector?.matchLabels ?? {}).length > 0 || (s.selector?.matchExpressions ?? []).length > 0;
    },
    inputs: [
      { name: 'max-unavailable-one', expectPassed: true, object: pdb('checkout', 'shop', { maxUnavailable: 1, selector: { matchLabels: { app: 'checkout' } } }) },
      { name: 'max-unavailable-zero', expectPassed: false, object: pdb('ledger', 'finance', { maxUnavailable: 0, selector: { matchLabels: { app: 'ledger' } } }) },
      { name: 'min-available-hundred-percent', expectPassed: false, object: pdb('kafka', 'streaming', { minAvailable: '100%', selector: { matchLabels: { app: 'kafka' } } }) },
      { name: 'max-unavailable-zero-percent', expectPassed: false, object: pdb('zookeeper', 'streaming', { maxUnavailable: '0%', selector: { matchLabels: { app: 'zookeeper' } } }) },
      { name: 'empty-selector', expectPassed: false, object: pdb('everything', 'shop', { maxUnavailable: '10%', selector: {} }) },
      {
        name: 'min-available-half-match-expressions',
        expectPassed: true,
        object: pdb('search-api', 'search', { minAvailable: '50%', selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['search-api', 'search-api-canary'] }] } }),
      },
    ],
  },

  // ------------------------------------------------------------------ 8
  {
    id: 'k8s3-hpa-replica-bounds-and-cpu-target',
    difficulty: 'medium',
    topics: ['kubernetes', 'hpa', 'autoscaling', 'defaults', 'boundaries', 'percentages'],
    labels: kube('HorizontalPodAutoscaler'),
    instruction: `HPA standards (autoscaling/v2):
1. minReplicas at least 2 - it defaults to 1 when omitted, so omitting it fails.
2. maxReplicas no more than 50.
3. There has to be a CPU metric: type Resource, resource name cpu, target type Utilization, with averageUtilization between 50 and 80 percent inclusive. Other metrics may be listed alongside it.`,
    check: (o) => {
      const s = o.spec ?? {};
      if ((s.minReplicas ?? 1) < 2 || s.maxReplicas > 50) return false;
      return (s.metrics ?? []).some((m) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target?.type === 'Utilization'
        && m.resource.target.averageUtilization >= 50 && m.resource.target.averageUtilization <= 80);
    },
    inputs: [
      { name: 'min-2-max-50-cpu-70', expectPassed: true, object: hpa('storefront', 'shop', { minReplicas: 2, maxReplicas: 50, metrics: [cpuUtil(70)] }) },
      { name: 'min-replicas-omitted', expectPassed: false, object: hpa('reviews', 'shop', { maxReplicas: 10, metrics: [cpuUtil(60)] }) },
      { name: 'max-replicas-60', expectPassed: false, object: hpa('search-api', 'search', { minReplicas: 4, maxReplicas: 60, metrics: [cpuUtil(65)] }) },
      { name: 'cpu-target-90', expectPassed: false, object: hpa('thumbnailer', 'media', { minReplicas: 2, maxReplicas: 12, metrics: [cpuUtil(90)] }) },
      {
        name: 'memory-metric-only',
        expectPassed: false,
        object: hpa('cache-api', 'cache', { minReplicas: 2, maxReplicas: 8, metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 75 } } }] }),
      },
      {
        name: 'cpu-80-plus-queue-metric',
        expectPassed: true,
        object: hpa('queue-worker', 'batch', {
          minReplicas: 3,
          maxReplicas: 20,
          metrics: [cpuUtil(80), { type: 'External', external: { metric: { name: 'sqs_messages_visible', selector: { matchLabels: { queue: 'orders' } } }, target: { type: 'AverageValue', averageValue: '30' } } }],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ 9
  {
    id: 'k8s3-clusterrolebinding-no-admin-no-everyone',
    difficulty: 'medium',
    topics: ['kubernetes', 'rbac', 'cluster-role-binding', 'subjects', 'exemptions'],
    labels: kube('ClusterRoleBinding'),
    instruction: `ClusterRoleBindings - two hard rules:
1) Nothing may bind the \`cluster-admin\` ClusterRole.
2) No binding may have any of these subjects: Group system:authenticated, Group system:unauthenticated, User system:anonymous - that hands the role to basically everyone.
Exempt from both: the built-in binding literally named \`cluster-admin\`, and bindings whose name starts with \`system:\` (the control plane manages those).`,
    check: (o) => {
      const n = o.metadata?.name ?? '';
      if (n === 'cluster-admin' || n.startsWith('system:')) return true;
      if (o.roleRef?.kind === 'ClusterRole' && o.roleRef.name === 'cluster-admin') return false;
      return !(o.subjects ?? []).some((s) => (s.kind === 'Group' && ['system:authenticated', 'system:unauthenticated'].includes(s.name)) || (s.kind === 'User' && s.name === 'system:anonymous'));
    },
    inputs: [
      { name: 'cluster-admin-to-sre-group', expectPassed: false, object: crb('sre-admins', 'cluster-admin', [group('oidc:sre')]) },
      { name: 'view-to-all-authenticated', expectPassed: false, object: crb('everyone-can-view', 'view', [group('system:authenticated')]) },
      { name: 'custom-role-to-service-account', expectPassed: true, object: crb('argocd-application-controller', 'argocd-application-controller', [sa('argocd-application-controller', 'argocd')]) },
      { name: 'builtin-cluster-admin-binding', expectPassed: true, object: crb('cluster-admin', 'cluster-admin', [group('system:masters')]) },
      { name: 'anonymous-user-subject', expectPassed: false, object: crb('healthz-anonymous', 'healthz-reader', [user('system:anonymous')]) },
      { name: 'edit-to-developers', expectPassed: true, object: crb('developers-edit', 'edit', [group('oidc:developers'), user('jane.doe@acme.io')]) },
    ],
  },

  // ------------------------------------------------------------------ 10
  {
    id: 'k8s3-role-no-exec-or-escalation-verbs',
    difficulty: 'medium',
    topics: ['kubernetes', 'rbac', 'role', 'verbs', 'subresources'],
    labels: kube('Role'),
    instruction: `Namespaced Roles handed to app teams must not contain:
- \`create\` on pods/exec, pods/attach or pods/portforward (interactive access goes through the break-glass process)
- the verbs escalate, bind or impersonate, or the wildcard verb \`*\`, on any resource at all
Read-only access to pods and pods/log is fine.`,
    check: (o) =>
      (o.rules ?? []).every((r) => {
        const v = r.verbs ?? [];
        if (v.some((x) => ['*', 'escalate', 'bind', 'impersonate'].includes(x))) return false;
        return !(v.includes('create') && (r.resources ?? []).some((x) => ['pods/exec', 'pods/attach', 'pods/portforward'].includes(x)));
      }),
    inputs: [
      { name: 'read-only-pods-and-logs', expectPassed: true, object: role('pod-reader', 'shop', [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] }]) },
      {
        name: 'create-pods-exec',
        expectPassed: false,
        object: role('debugger', 'shop', [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }, { apiGroups: [''], resources: ['pods/exec'], verbs: ['create'] }]),
      },
      { name: 'wildcard-verbs-on-configmaps', expectPassed: false, object: role('config-admin', 'shop', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['*'] }]) },
      { name: 'impersonate-service-accounts', expectPassed: false, object: role('ci-impersonator', 'ci', [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }]) },
      {
        name: 'manage-deployments-and-services',
        expectPassed: true,
        object: role('app-deployer', 'shop', [
          { apiGroups: ['apps'], resources: ['deployments', 'replicasets'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
          { apiGroups: [''], resources: ['services', 'configmaps'], verbs: ['get', 'list', 'create', 'update'] },
        ]),
      },
      { name: 'create-port-forward', expectPassed: false, object: role('db-tunnel', 'data', [{ apiGroups: [''], resources: ['pods/portforward'], verbs: ['get', 'create'] }]) },
    ],
  },

  // ------------------------------------------------------------------ 11
  {
    id: 'k8s3-configmap-no-secret-material',
    difficulty: 'medium',
    topics: ['kubernetes', 'configmap', 'secrets-hygiene', 'key-names', 'pem'],
    labels: kube('ConfigMap'),
    instruction: `ConfigMaps are not for secrets. Reject a ConfigMap if
 - any key in \`data\` ends with \`_PASSWORD\`, \`_TOKEN\` or \`_SECRET\` (case-insensitive), or ends with \`.pem\` or \`.key\`; or
 - any value in \`data\` contains a PEM private-key header, i.e. \`-----BEGIN ... PRIVATE KEY-----\` (RSA, EC or plain PRIVATE KEY all count).
Certificates (\`-----BEGIN CERTIFICATE-----\`) are public and fine.`,
    check: (o) =>
      Object.entries(o.data ?? {}).every(([k, v]) => !/(_password|_token|_secret)$/i.test(k) && !/\.(pem|key)$/.test(k) && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(String(v))),
    inputs: [
      { name: 'plain-settings', expectPassed: true, object: cm('checkout-config', 'shop', { LOG_LEVEL: 'info', CURRENCY: 'EUR', 'application.yaml': 'server:\n  port: 8080\n' }) },
      { name: 'db-password-key', expectPassed: false, object: cm('orders-config', 'shop', { DB_HOST: 'orders-db.shop.svc', DB_PASSWORD: 'hunter2' }) },
      { name: 'token-ttl-is-not-a-token', expectPassed: true, object: cm('auth-config', 'identity', { TOKEN_TTL: '15m', ISSUER: 'https://login.acme.io' }) },
      { name: 'ca-certificate-value', expectPassed: true, object: cm('trust-bundle', 'platform', { 'ca.crt': FAKE_CERT }) },
      { name: 'embedded-private-key', expectPassed: false, object: cm('sftp-client', 'integrations', { 'config.yaml': `host: sftp.partner.example\nuser: acme\nkey: |\n  ${FAKE_KEY.replace(/\n/g, '\n  ')}` }) },
      { name: 'lowercase-api-token-key', expectPassed: false, object: cm('github-sync', 'ci', { github_api_token: 'ghp_0123456789abcdef0123456789abcdef0123' }) },
    ],
  },

  // ------------------------------------------------------------------ 12
  {
    id: 'k8s3-secret-owner-and-rotation',
    difficulty: 'medium',
    topics: ['kubernetes', 'secret', 'labels', 'annotations', 'rotation'],
    labels: kube('Secret'),
    instruction: `Secrets governance (maps to ISO 27001 A.5.17):
- every Secret needs an \`owner\` label naming the owning team (any non-empty value)
- every Secret needs the annotation \`security.acme.io/rotation-days\` whose value is a whole number of days from 1 to 90
- Secrets of type kubernetes.io/service-account-token are forbidden outright (long-lived legacy tokens) - use projected tokens instead`,
    check: (o) => {
      if (o.type === 'kubernetes.io/service-account-token') return false;
      const owner = o.metadata?.labels?.owner;
      if (typeof owner !== 'string' || owner === '') return false;
      const r = o.metadata?.annotations?.['security.acme.io/rotation-days'];
      return typeof r === 'string' && /^\d+$/.test(r) && Number(r) >= 1 && Number(r) <= 90;
    },
    inputs: [
      {
        name: 'opaque-owner-rotation-90',
        expectPassed: true,
        object: secret('smtp-credentials', 'comms', 'Opaque', { username: b64('mailer'), password: b64('s3cr3t!') }, { labels: { owner: 'team-comms' }, annotations: { 'security.acme.io/rotation-days': '90' } }),
      },
      {
        name: 'rotation-91-days',
        expectPassed: false,
        object: secret('partner-api-key', 'integrations', 'Opaque', { apiKey: b64('pk_live_123') }, { labels: { owner: 'team-integrations' }, annotations: { 'security.acme.io/rotation-days': '91' } }),
      },
      {
        name: 'owner-label-missing',
        expectPassed: false,
        object: secret('db-creds', 'data', 'Opaque', { password: b64('p4ss') }, { labels: { app: 'postgres' }, annotations: { 'security.acme.io/rotation-days': '30' } }),
      },
      {
        name: 'service-account-token-type',
        expectPassed: false,
        object: secret('ci-deployer-token', 'ci', 'kubernetes.io/service-account-token', {}, { labels: { owner: 'team-ci' }, annotations: { 'kubernetes.io/service-account.name': 'ci-deployer', 'security.acme.io/rotation-days': '30' } }),
      },
      {
        name: 'tls-secret-rotation-30',
        expectPassed: true,
        object: secret('shop-tls', 'shop', 'kubernetes.io/tls', { 'tls.crt': b64(FAKE_CERT), 'tls.key': b64(FAKE_KEY) }, { labels: { owner: 'team-shop' }, annotations: { 'security.acme.io/rotation-days': '30' } }),
      },
      {
        name: 'rotation-with-unit-suffix',
        expectPassed: false,
        object: secret('webhook-signing', 'payments', 'Opaque', { key: b64('whsec_abc') }, { labels: { owner: 'team-payments' }, annotations: { 'security.acme.io/rotation-days': '90d' } }),
      },
    ],
  },

  // ------------------------------------------------------------------ 13
  {
    id: 'k8s3-namespace-psa-enforce-label',
    difficulty: 'medium',
    topics: ['kubernetes', 'namespace', 'labels', 'pod-security-admission', 'exemptions'],
    labels: kube('Namespace'),
    instruction:
      "All namespaces must opt into Pod Security Admission enforcement with the label `pod-security.kubernetes.io/enforce` set to `baseline` or `restricted`. The three system namespaces kube-system, kube-public and kube-node-lease may additionally use `privileged`, or leave the label off. And if a namespace sets `pod-security.kubernetes.io/enforce-version`, it has to be `latest`.",
    check: (o) => {
      const l = o.metadata?.labels ?? {};
      const sys = ['kube-system', 'kube-public', 'kube-node-lease'].includes(o.metadata?.name);
      const e = l['pod-security.kubernetes.io/enforce'];
      const okLevel = sys ? e === undefined || ['privileged', 'baseline', 'restricted'].includes(e) : ['baseline', 'restricted'].includes(e);
      const v = l['pod-security.kubernetes.io/enforce-version'];
      return okLevel && (v === undefined || v === 'latest');
    },
    inputs: [
      { name: 'team-namespace-restricted', expectPassed: true, object: ns('payments', { 'kubernetes.io/metadata.name': 'payments', 'pod-security.kubernetes.io/enforce': 'restricted' }) },
      { name: 'team-namespace-unlabelled', expectPassed: false, object: ns('growth-experiments', { 'kubernetes.io/metadata.name': 'growth-experiments', team: 'growth' }) },
      { name: 'team-namespace-privileged', expectPassed: false, object: ns('observability', { 'kubernetes.io/metadata.name': 'observability', 'pod-security.kubernetes.io/enforce': 'privileged' }) },
      { name: 'kube-system-privileged', expectPassed: true, object: ns('kube-system', { 'kubernetes.io/metadata.name': 'kube-system', 'pod-security.kubernetes.io/enforce': 'privileged' }) },
      {
        name: 'baseline-pinned-version',
        expectPassed: false,
        object: ns('legacy-apps', { 'kubernetes.io/metadata.name': 'legacy-apps', 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.28' }),
      },
      {
        name: 'baseline-version-latest',
        expectPassed: true,
        object: ns('search', { 'kubernetes.io/metadata.name': 'search', 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'latest', 'pod-security.kubernetes.io/warn': 'restricted' }),
      },
    ],
  },

  // ------------------------------------------------------------------ 14
  {
    id: 'k8s3-pvc-ebs-class-size-access-modes',
    difficulty: 'hard',
    topics: ['kubernetes', 'pvc', 'storage-class', 'quantities', 'access-modes', 'labels'],
    labels: kube('PersistentVolumeClaim'),
    instruction: `PVC rules for the EBS CSI storage classes:
1. storageClassName has to be set explicitly (don't fall through to the cluster default) and be one of gp3, gp3-encrypted, io2.
2. Size: resources.requests.storage up to 500Gi. Claims labelled \`storage-tier: bulk\` may go up to 4Ti. Compare by value (0.5Ti is 512Gi).
3. EBS can't do ReadWriteMany / ReadOnlyMany, so accessModes may only contain ReadWriteOnce or ReadWriteOncePod.`,
    check: (o) => {
      const s = o.spec ?? {};
      if (!['gp3', 'gp3-encrypted', 'io2'].includes(s.storageClassName)) return false;
      const max = o.metadata?.labels?.['storage-tier'] === 'bulk' ? 4 * 1024 ** 4 : 500 * 1024 ** 3;
      if (qty(s.resources?.requests?.storage) > max) return false;
      return (s.accessModes ?? []).every((m) => ['ReadWriteOnce', 'ReadWriteOncePod'].includes(m));
    },
    inputs: [
      { name: 'gp3-100gi-rwo', expectPassed: true, object: pvc('orders-db-data', 'shop', { storageClassName: 'gp3', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '100Gi' } } }) },
      { name: 'no-storage-class', expectPassed: false, object: pvc('uploads', 'media', { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } }) },
      { name: 'gp3-600gi-not-bulk', expectPassed: false, object: pvc('analytics-scratch', 'analytics', { storageClassName: 'gp3-encrypted', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '600Gi' } } }) },
      {
        name: 'bulk-tier-4ti',
        expectPassed: true,
        object: pvc('warehouse-archive', 'analytics', { storageClassName: 'gp3-encrypted', accessModes: ['ReadWriteOncePod'], resources: { requests: { storage: '4Ti' } } }, { 'storage-tier': 'bulk' }),
      },
      { name: 'read-write-many', expectPassed: false, object: pvc('shared-assets', 'web', { storageClassName: 'gp3', accessModes: ['ReadWriteMany'], resources: { requests: { storage: '50Gi' } } }) },
      { name: 'half-terabyte-binary-over-limit', expectPassed: false, object: pvc('ledger-wal', 'finance', { storageClassName: 'io2', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0.5Ti' } } }) },
    ],
  },
];
