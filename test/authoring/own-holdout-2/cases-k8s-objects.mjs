// Kubernetes: Service, Ingress, NetworkPolicy, PDB, HPA, Namespace, ConfigMap, ClusterRole,
// ServiceAccount, PersistentVolumeClaim, StorageClass.
import { kube, obj, nsOf, qty, b64 } from './lib.mjs';

const svc = (name, ns, spec, annotations) => obj('v1', 'Service', { name, namespace: ns, labels: { app: name }, annotations }, { spec: { selector: { app: name }, ...spec } });
const PORTS = [{ name: 'https', port: 443, targetPort: 8443, protocol: 'TCP' }];

const ing = (name, ns, spec, annotations) => obj('networking.k8s.io/v1', 'Ingress', { name, namespace: ns, annotations }, { spec });
const rule = (host, service = 'web') => ({ host, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: service, port: { number: 80 } } } }] } });

const np = (name, ns, spec) => obj('networking.k8s.io/v1', 'NetworkPolicy', { name, namespace: ns }, { spec: { podSelector: { matchLabels: { app: name } }, ...spec } });
const pdb = (name, ns, spec) => obj('policy/v1', 'PodDisruptionBudget', { name, namespace: ns }, { spec: { selector: { matchLabels: { app: name } }, ...spec } });
const hpa = (name, ns, spec) => obj('autoscaling/v2', 'HorizontalPodAutoscaler', { name, namespace: ns }, { spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name }, ...spec } });
const cpuUtil = (n) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } } });
const nsObj = (name, labels) => obj('v1', 'Namespace', { name, labels });
const cm = (name, ns, data, binaryData) => obj('v1', 'ConfigMap', { name, namespace: ns }, JSON.parse(JSON.stringify({ data, binaryData })));
const cr = (name, rules, more = {}) => obj('rbac.authorization.k8s.io/v1', 'ClusterRole', { name, labels: more.labels }, { ...(more.aggregationRule ? { aggregationRule: more.aggregationRule } : {}), rules });
const sa = (name, ns, annotations) => obj('v1', 'ServiceAccount', { name, namespace: ns, annotations });
const pvc = (name, ns, spec) => obj('v1', 'PersistentVolumeClaim', { name, namespace: ns, labels: { app: name } }, { spec });
const sc = (name, more) => obj('storage.k8s.io/v1', 'StorageClass', { name }, { provisioner: 'ebs.csi.aws.com', parameters: { type: 'gp3', encrypted: 'true' }, ...more });

const ARN = (acct, role) => `arn:aws:iam::${acct}:role/${role}`;

export default [
  // ------------------------------------------------------------------ Service exposure
  {
    id: 'k8s-service-exposure-loadbalancer-rules',
    difficulty: 'hard',
    topics: ['kubernetes', 'services', 'load-balancers', 'namespaces', 'annotations', 'exemptions'],
    labels: kube('Service'),
    instruction: `Service exposure rules:
- type NodePort is not allowed anywhere.
- type LoadBalancer is only allowed in namespaces whose name begins with "edge-".
- Even there, a LoadBalancer has to be internal (annotation service.beta.kubernetes.io/aws-load-balancer-scheme: "internal") - except in the edge-public namespace, where internet-facing is the whole point.
- Every LoadBalancer, edge-public included, must set spec.loadBalancerSourceRanges, and none of the ranges may be 0.0.0.0/0.
ClusterIP and headless Services are fine.`,
    check(o) {
      const type = o.spec?.type ?? 'ClusterIP';
      if (type === 'NodePort') return false;
      if (type !== 'LoadBalancer') return true;
      const ns = nsOf(o);
      if (!ns.startsWith('edge-')) return false;
      if (ns !== 'edge-public' && o.metadata?.annotations?.['service.beta.kubernetes.io/aws-load-balancer-scheme'] !== 'internal') return false;
      const ranges = o.spec.loadBalancerSourceRanges ?? [];
      return ranges.length > 0 && !ranges.includes('0.0.0.0/0');
    },
    inputs: [
      { name: 'clusterip-in-payments', expectPassed: true, object: svc('ledger', 'payments', { ports: PORTS }) },
      { name: 'nodeport-in-edge-namespace', expectPassed: false, object: svc('debug-gw', 'edge-api', { type: 'NodePort', ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort: 30080 }] }) },
      {
        name: 'internal-lb-outside-edge',
        expectPassed: false,
        object: svc('ledger-lb', 'payments', { type: 'LoadBalancer', loadBalancerSourceRanges: ['10.0.0.0/8'], ports: PORTS }, { 'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internal' }),
      },
      {
        name: 'internal-lb-in-edge-api-with-ranges',
        expectPassed: true,
        object: svc('partner-api', 'edge-api', { type: 'LoadBalancer', loadBalancerSourceRanges: ['10.0.0.0/8', '172.16.0.0/12'], ports: PORTS }, { 'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internal' }),
      },
      {
        name: 'edge-public-open-to-world',
        expectPassed: false,
        object: svc('storefront', 'edge-public', { type: 'LoadBalancer', loadBalancerSourceRanges: ['0.0.0.0/0'], externalTrafficPolicy: 'Local', ports: PORTS }),
      },
      {
        name: 'edge-public-restricted-ranges',
        expectPassed: true,
        object: svc('partner-portal', 'edge-public', { type: 'LoadBalancer', loadBalancerSourceRanges: ['203.0.113.0/24', '198.51.100.0/24'], ports: PORTS }, { 'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internet-facing' }),
      },
    ],
  },

  // ------------------------------------------------------------------ Ingress hosts + TLS
  {
    id: 'k8s-ingress-class-domain-and-tls-coverage',
    difficulty: 'hard',
    topics: ['kubernetes', 'ingress', 'tls', 'dns-names', 'lists'],
    labels: kube('Ingress'),
    instruction: `Ingress checklist, all of these must hold:
1. spec.ingressClassName is set to nginx-internal or nginx-external (the old kubernetes.io/ingress.class annotation doesn't count)
2. every rule has a host, and every host is a subdomain of apps.acme.co.uk, e.g. orders.apps.acme.co.uk. The bare apps.acme.co.uk isn't allowed and neither are wildcard hosts
3. every rule's host is listed in the hosts of a tls entry that has a secretName`,
    check(o) {
      const s = o.spec ?? {};
      if (!['nginx-internal', 'nginx-external'].includes(s.ingressClassName)) return false;
      return (s.rules ?? []).every((r) => typeof r.host === 'string'
        && /^([a-z0-9]([-a-z0-9]*[a-z0-9])?\.)+apps\.acme\.co\.uk$/.test(r.host)
        && (s.tls ?? []).some((t) => t.secretName && (t.hosts ?? []).includes(r.host)));
    },
    inputs: [
      {
        name: 'two-hosts-both-covered',
        expectPassed: true,
        object: ing('orders', 'orders', { ingressClassName: 'nginx-internal', tls: [{ hosts: ['orders.apps.acme.co.uk', 'orders-admin.apps.acme.co.uk'], secretName: 'orders-tls' }], rules: [rule('orders.apps.acme.co.uk'), rule('orders-admin.apps.acme.co.uk', 'admin')] }),
      },
      {
        name: 'second-host-not-in-tls',
        expectPassed: false,
        object: ing('billing', 'billing', { ingressClassName: 'nginx-internal', tls: [{ hosts: ['billing.apps.acme.co.uk'], secretName: 'billing-tls' }], rules: [rule('billing.apps.acme.co.uk'), rule('invoices.apps.acme.co.uk', 'invoices')] }),
      },
      {
        name: 'host-in-wrong-domain',
        expectPassed: false,
        object: ing('careers', 'marketing', { ingressClassName: 'nginx-external', tls: [{ hosts: ['careers.apps.acme.com'], secretName: 'careers-tls' }], rules: [rule('careers.apps.acme.com')] }),
      },
      {
        name: 'class-only-via-legacy-annotation',
        expectPassed: false,
        object: ing('status', 'ops', { tls: [{ hosts: ['status.apps.acme.co.uk'], secretName: 'status-tls' }], rules: [rule('status.apps.acme.co.uk')] }, { 'kubernetes.io/ingress.class': 'nginx-internal' }),
      },
      {
        name: 'wildcard-host',
        expectPassed: false,
        object: ing('tenants', 'saas', { ingressClassName: 'nginx-external', tls: [{ hosts: ['*.apps.acme.co.uk'], secretName: 'wildcard-tls' }], rules: [rule('*.apps.acme.co.uk', 'tenant-router')] }),
      },
      {
        name: 'multi-level-subdomain-external',
        expectPassed: true,
        object: ing('api-eu', 'api', { ingressClassName: 'nginx-external', tls: [{ hosts: ['api.eu.apps.acme.co.uk'], secretName: 'api-eu-tls' }], rules: [rule('api.eu.apps.acme.co.uk', 'api')] }),
      },
    ],
  },

  // ------------------------------------------------------------------ NetworkPolicy egress metadata
  {
    id: 'k8s-netpol-world-egress-must-except-metadata',
    difficulty: 'medium',
    topics: ['kubernetes', 'network-policy', 'egress', 'cidr', 'cloud-metadata'],
    labels: kube('NetworkPolicy'),
    instruction: `Any NetworkPolicy egress rule with an ipBlock whose cidr is 0.0.0.0/0 must list 169.254.169.254/32 in that same ipBlock's except list - otherwise the pods can reach the cloud metadata endpoint and grab node credentials. Egress to narrower CIDRs, to pod/namespace selectors, and ingress rules are not affected.`,
    check(o) {
      return (o.spec?.egress ?? []).every((r) => (r.to ?? []).every((p) => !p.ipBlock || p.ipBlock.cidr !== '0.0.0.0/0' || (p.ipBlock.except ?? []).includes('169.254.169.254/32')));
    },
    inputs: [
      {
        name: 'world-egress-excepting-metadata',
        expectPassed: true,
        object: np('webhook-sender', 'integrations', { policyTypes: ['Egress'], egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '169.254.169.254/32'] } }], ports: [{ protocol: 'TCP', port: 443 }] }] }),
      },
      {
        name: 'world-egress-no-except',
        expectPassed: false,
        object: np('crawler', 'search', { policyTypes: ['Egress'], egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }] }] }),
      },
      {
        name: 'world-egress-except-private-only',
        expectPassed: false,
        object: np('email-sender', 'notifications', { policyTypes: ['Egress'], egress: [{ to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } }] }, { to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '192.168.0.0/16'] } }], ports: [{ protocol: 'TCP', port: 587 }] }] }),
      },
      {
        name: 'world-ingress-only-selector-egress',
        expectPassed: true,
        object: np('public-web', 'web', { policyTypes: ['Ingress', 'Egress'], ingress: [{ from: [{ ipBlock: { cidr: '0.0.0.0/0' } }], ports: [{ protocol: 'TCP', port: 8080 }] }], egress: [{ to: [{ podSelector: { matchLabels: { app: 'web-api' } } }] }] }),
      },
      {
        name: 'narrow-cidr-egress',
        expectPassed: true,
        object: np('db-client', 'reporting', { policyTypes: ['Egress'], egress: [{ to: [{ ipBlock: { cidr: '10.20.0.0/16' } }], ports: [{ protocol: 'TCP', port: 5432 }] }] }),
      },
    ],
  },

  // ------------------------------------------------------------------ PDB
  {
    id: 'k8s-pdb-max-unavailable-only',
    difficulty: 'medium',
    topics: ['kubernetes', 'pdb', 'percentages', 'int-or-string', 'selectors'],
    labels: kube('PodDisruptionBudget'),
    instruction: `We're standardising every PodDisruptionBudget on maxUnavailable; minAvailable isn't accepted any more. maxUnavailable may be an integer of at least 1 (0 blocks node drains for good), or a percentage string between 1% and 25% inclusive. Also the selector must not be empty, since an empty selector matches every pod in the namespace.`,
    check(o) {
      const s = o.spec ?? {};
      if (s.minAvailable !== undefined) return false;
      const mu = s.maxUnavailable;
      let ok = false;
      if (typeof mu === 'number') ok = mu >= 1;
      else if (typeof mu === 'string') { const m = /^(\d+)%$/.exec(mu); ok = !!m && Number(m[1]) >= 1 && Number(m[1]) <= 25; }
      const sel = s.selector ?? {};
      return ok && (Object.keys(sel.matchLabels ?? {}).length > 0 || (sel.matchExpressions ?? []).length > 0);
    },
    inputs: [
      { name: 'max-unavailable-one', expectPassed: true, object: pdb('orders-api', 'orders', { maxUnavailable: 1 }) },
      { name: 'min-available-two', expectPassed: false, object: pdb('kafka', 'events', { minAvailable: 2 }) },
      { name: 'max-unavailable-30-percent', expectPassed: false, object: pdb('frontend', 'web', { maxUnavailable: '30%' }) },
      { name: 'max-unavailable-25-percent', expectPassed: true, object: pdb('search', 'search', { maxUnavailable: '25%' }) },
      { name: 'max-unavailable-zero', expectPassed: false, object: pdb('etcd-backup', 'ops', { maxUnavailable: 0 }) },
      { name: 'empty-selector', expectPassed: false, object: obj('policy/v1', 'PodDisruptionBudget', { name: 'everything', namespace: 'shop' }, { spec: { maxUnavailable: 1, selector: {} } }) },
    ],
  },

  // ------------------------------------------------------------------ HPA
  {
    id: 'k8s-hpa-replica-bounds-and-cpu-target',
    difficulty: 'medium',
    topics: ['kubernetes', 'hpa', 'autoscaling', 'numeric-bounds', 'field-comparison', 'percentages'],
    labels: kube('HorizontalPodAutoscaler'),
    instruction: `HPA sanity rules:
- minReplicas at least 2 (leave it out and it's 1, which fails)
- maxReplicas no more than 40, and no more than 10x minReplicas
- if there's a Resource metric for cpu, its target has to be type Utilization with averageUtilization between 50 and 85 percent inclusive`,
    check(o) {
      const s = o.spec ?? {};
      const min = s.minReplicas ?? 1;
      if (min < 2 || s.maxReplicas > 40 || s.maxReplicas > 10 * min) return false;
      return (s.metrics ?? []).every((m) => m.type !== 'Resource' || m.resource?.name !== 'cpu'
        || (m.resource.target?.type === 'Utilization' && m.resource.target.averageUtilization >= 50 && m.resource.target.averageUtilization <= 85));
    },
    inputs: [
      { name: 'min2-max20-cpu70', expectPassed: true, object: hpa('checkout', 'shop', { minReplicas: 2, maxReplicas: 20, metrics: [cpuUtil(70)] }) },
      { name: 'min-missing', expectPassed: false, object: hpa('notifications', 'notify', { maxReplicas: 10, metrics: [cpuUtil(60)] }) },
      { name: 'max-more-than-ten-times-min', expectPassed: false, object: hpa('image-resizer', 'media', { minReplicas: 3, maxReplicas: 35, metrics: [cpuUtil(75)] }) },
      { name: 'cpu-target-90', expectPassed: false, object: hpa('search-api', 'search', { minReplicas: 5, maxReplicas: 40, metrics: [cpuUtil(90)] }) },
      {
        name: 'memory-metric-only-at-95',
        expectPassed: true,
        object: hpa('cache-loader', 'web', { minReplicas: 4, maxReplicas: 40, metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 95 } } }] }),
      },
      {
        name: 'cpu-average-value-target',
        expectPassed: false,
        object: hpa('pricing', 'shop', { minReplicas: 2, maxReplicas: 20, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: '500m' } } }] }),
      },
    ],
  },

  // ------------------------------------------------------------------ Namespace labels
  {
    id: 'k8s-namespace-owner-and-cost-centre',
    difficulty: 'easy',
    topics: ['kubernetes', 'namespaces', 'labels', 'regex', 'exemptions', 'british-spelling'],
    labels: kube('Namespace'),
    instruction: `Every Namespace needs an "owner" label and a "cost-centre" label whose value looks like cc-1234 (cc- followed by exactly four digits). kube-system, kube-public, kube-node-lease and default are exempt.`,
    check(o) {
      const name = o.metadata?.name;
      if (['kube-system', 'kube-public', 'kube-node-lease', 'default'].includes(name)) return true;
      const l = o.metadata?.labels ?? {};
      return !!l.owner && /^cc-\d{4}$/.test(l['cost-centre'] ?? '');
    },
    inputs: [
      { name: 'both-labels-ok', expectPassed: true, object: nsObj('payments', { owner: 'team-payments', 'cost-centre': 'cc-4410' }) },
      { name: 'owner-missing', expectPassed: false, object: nsObj('search', { 'cost-centre': 'cc-2001' }) },
      { name: 'five-digit-cost-centre', expectPassed: false, object: nsObj('ml-platform', { owner: 'ml-infra', 'cost-centre': 'cc-12345' }) },
      { name: 'kube-system-without-labels', expectPassed: true, object: nsObj('kube-system', undefined) },
      { name: 'us-spelling-cost-center-key', expectPassed: false, object: nsObj('growth', { owner: 'growth-eng', 'cost-center': 'cc-3307' }) },
    ],
  },

  // ------------------------------------------------------------------ ConfigMap keys
  {
    id: 'k8s-configmap-no-credential-keys',
    difficulty: 'easy',
    topics: ['kubernetes', 'configmaps', 'credentials', 'key-names'],
    labels: kube('ConfigMap'),
    instruction: `ConfigMaps are not for secrets. Reject any ConfigMap that has a key under data or binaryData whose name contains "password", "secret", "token" or "private_key", ignoring case. (We only look at the key names, not the values.)`,
    check(o) {
      const keys = [...Object.keys(o.data ?? {}), ...Object.keys(o.binaryData ?? {})];
      return keys.every((k) => !['password', 'secret', 'token', 'private_key'].some((w) => k.toLowerCase().includes(w)));
    },
    inputs: [
      { name: 'plain-settings', expectPassed: true, object: cm('checkout-settings', 'shop', { LOG_LEVEL: 'info', 'app.properties': 'payment.provider=adyen\nretry.max=3\n' }) },
      { name: 'db-password-key', expectPassed: false, object: cm('legacy-app-env', 'legacy', { DB_HOST: 'pg.legacy.svc', DB_PASSWORD: 'hunter2' }) },
      { name: 'binary-private-key-file', expectPassed: false, object: cm('sftp-client', 'integrations', { 'known_hosts': 'sftp.partner.example ssh-ed25519 AAAAC3Nza...' }, { 'id_ed25519.private_key': b64('-----BEGIN OPENSSH PRIVATE KEY-----') }) },
      { name: 'credential-word-only-in-value', expectPassed: true, object: cm('signup-flags', 'accounts', { 'feature-flags.json': '{"passwordless_login": true, "require_strong_password": true}' }) },
      { name: 'camel-case-slack-token-key', expectPassed: false, object: cm('alert-bot', 'ops', { SlackToken: 'xoxb-000-000', channel: '#alerts-ops' }) },
    ],
  },

  // ------------------------------------------------------------------ ClusterRole review
  {
    id: 'k8s-clusterrole-no-wildcards-secrets-or-escalation',
    difficulty: 'hard',
    topics: ['kubernetes', 'rbac', 'cluster-roles', 'wildcards', 'secrets', 'exemptions'],
    labels: kube('ClusterRole'),
    instruction: `ClusterRole review rules
(a) no rule may use "*" in verbs, resources or apiGroups;
(b) no rule may grant get, list or watch on secrets in the core API group ("") - unless the ClusterRole's name starts with "system:";
(c) nobody gets the escalate, bind or impersonate verbs, full stop.
Aggregated ClusterRoles whose rules list is empty are fine.`,
    check(o) {
      const name = o.metadata?.name ?? '';
      return (o.rules ?? []).every((r) => {
        const verbs = r.verbs ?? [];
        const resources = r.resources ?? [];
        const groups = r.apiGroups ?? [];
        if ([...verbs, ...resources, ...groups].includes('*')) return false;
        if (verbs.some((v) => ['escalate', 'bind', 'impersonate'].includes(v))) return false;
        if (!name.startsWith('system:') && groups.includes('') && resources.includes('secrets') && verbs.some((v) => ['get', 'list', 'watch'].includes(v))) return false;
        return true;
      });
    },
    inputs: [
      { name: 'pod-reader', expectPassed: true, object: cr('pod-reader', [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] }]) },
      { name: 'lists-secrets', expectPassed: false, object: cr('config-auditor', [{ apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['list'] }]) },
      { name: 'system-role-reads-secrets', expectPassed: true, object: cr('system:controller:token-cleaner', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'delete'] }, { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] }]) },
      { name: 'wildcard-resources', expectPassed: false, object: cr('ci-deployer', [{ apiGroups: ['apps'], resources: ['*'], verbs: ['get', 'create', 'update', 'patch'] }]) },
      { name: 'impersonate-users', expectPassed: false, object: cr('support-impersonator', [{ apiGroups: [''], resources: ['users', 'groups'], verbs: ['impersonate'] }]) },
      {
        name: 'aggregated-role-empty-rules',
        expectPassed: true,
        object: cr('monitoring-view', [], { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.acme.io/aggregate-to-monitoring': 'true' } }] } }),
      },
    ],
  },

  // ------------------------------------------------------------------ ServiceAccount IRSA
  {
    id: 'k8s-serviceaccount-irsa-role-accounts',
    difficulty: 'medium',
    topics: ['kubernetes', 'service-accounts', 'annotations', 'arn-format', 'aws'],
    labels: kube('ServiceAccount'),
    instruction: `If a ServiceAccount has the eks.amazonaws.com/role-arn annotation, the value must be an IAM *role* ARN (arn:aws:iam::<account id>:role/<name>, role paths allowed) in one of our two AWS accounts: 111122223333 (prod) or 444455556666 (non-prod). On top of that, ServiceAccounts in namespaces whose name ends in "-prod" may only use the prod account. ServiceAccounts without the annotation are fine.`,
    check(o) {
      const a = o.metadata?.annotations?.['eks.amazonaws.com/role-arn'];
      if (a === undefined) return true;
      const m = /^arn:aws:iam::(\d{12}):role\/[A-Za-z0-9+=,.@_\/-]+$/.exec(a);
      if (!m || !['111122223333', '444455556666'].includes(m[1])) return false;
      return !nsOf(o).endsWith('-prod') || m[1] === '111122223333';
    },
    inputs: [
      { name: 'no-annotation', expectPassed: true, object: sa('builder', 'ci') },
      { name: 'nonprod-account-in-dev-namespace', expectPassed: true, object: sa('search-indexer', 'search-dev', { 'eks.amazonaws.com/role-arn': ARN('444455556666', 'search-indexer-dev') }) },
      { name: 'unknown-account', expectPassed: false, object: sa('uploader', 'media-dev', { 'eks.amazonaws.com/role-arn': ARN('999988887777', 'uploader') }) },
      { name: 'nonprod-account-in-prod-namespace', expectPassed: false, object: sa('orders-api', 'orders-prod', { 'eks.amazonaws.com/role-arn': ARN('444455556666', 'orders-api') }) },
      { name: 'user-arn-not-role', expectPassed: false, object: sa('deployer', 'ci', { 'eks.amazonaws.com/role-arn': 'arn:aws:iam::111122223333:user/ci-deployer' }) },
      { name: 'prod-account-role-with-path', expectPassed: true, object: sa('orders-worker', 'orders-prod', { 'eks.amazonaws.com/role-arn': ARN('111122223333', 'service-role/orders-worker') }) },
    ],
  },

  // ------------------------------------------------------------------ PVC
  {
    id: 'k8s-pvc-storage-class-size-and-rwx',
    difficulty: 'medium',
    topics: ['kubernetes', 'storage', 'pvc', 'quantities', 'conditional'],
    labels: kube('PersistentVolumeClaim'),
    instruction: `PVC rules:
- storageClassName must be set explicitly to gp3, gp3-encrypted or efs-shared. An empty string (static binding) isn't allowed either.
- requested storage at most 500Gi
- ReadWriteMany access mode only together with efs-shared`,
    check(o) {
      const s = o.spec ?? {};
      if (!['gp3', 'gp3-encrypted', 'efs-shared'].includes(s.storageClassName)) return false;
      if (qty(s.resources?.requests?.storage ?? '0') > qty('500Gi')) return false;
      return !(s.accessModes ?? []).includes('ReadWriteMany') || s.storageClassName === 'efs-shared';
    },
    inputs: [
      { name: 'gp3-encrypted-100gi-rwo', expectPassed: true, object: pvc('postgres-data', 'orders', { storageClassName: 'gp3-encrypted', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '100Gi' } } }) },
      { name: 'no-storage-class', expectPassed: false, object: pvc('redis-data', 'cache', { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } }) },
      { name: 'gp3-600gi', expectPassed: false, object: pvc('warehouse-scratch', 'analytics', { storageClassName: 'gp3', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '600Gi' } } }) },
      { name: 'gp3-read-write-many', expectPassed: false, object: pvc('shared-uploads', 'media', { storageClassName: 'gp3', accessModes: ['ReadWriteMany'], resources: { requests: { storage: '50Gi' } } }) },
      { name: 'efs-rwx-at-500gi', expectPassed: true, object: pvc('render-cache', 'media', { storageClassName: 'efs-shared', accessModes: ['ReadWriteMany'], resources: { requests: { storage: '500Gi' } } }) },
      { name: 'half-a-tebibyte', expectPassed: false, object: pvc('clickhouse-data', 'analytics', { storageClassName: 'gp3-encrypted', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '0.5Ti' } } }) },
    ],
  },

  // ------------------------------------------------------------------ StorageClass
  {
    id: 'k8s-storageclass-retain-and-expansion',
    difficulty: 'easy',
    topics: ['kubernetes', 'storage', 'storage-class', 'defaults', 'exemptions'],
    labels: kube('StorageClass'),
    instruction: `StorageClasses must set reclaimPolicy: Retain (k8s defaults to Delete, so leaving it out fails) and allowVolumeExpansion: true. Exception: classes whose name ends in "-scratch" may use Delete, but they still need allowVolumeExpansion: true.`,
    check(o) {
      if (o.allowVolumeExpansion !== true) return false;
      return (o.metadata?.name ?? '').endsWith('-scratch') || o.reclaimPolicy === 'Retain';
    },
    inputs: [
      { name: 'retain-with-expansion', expectPassed: true, object: sc('gp3-encrypted', { reclaimPolicy: 'Retain', allowVolumeExpansion: true, volumeBindingMode: 'WaitForFirstConsumer' }) },
      { name: 'reclaim-policy-unset', expectPassed: false, object: sc('gp3', { allowVolumeExpansion: true, volumeBindingMode: 'WaitForFirstConsumer' }) },
      { name: 'scratch-class-delete', expectPassed: true, object: sc('gp3-scratch', { reclaimPolicy: 'Delete', allowVolumeExpansion: true }) },
      { name: 'retain-without-expansion', expectPassed: false, object: sc('io2-db', { reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }) },
      { name: 'scratch-class-no-expansion', expectPassed: false, object: sc('st1-scratch', { reclaimPolicy: 'Delete', allowVolumeExpansion: false }) },
    ],
  },
];
