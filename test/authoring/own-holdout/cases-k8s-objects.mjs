// Kubernetes object cases other than pod security (own holdout): Namespace, Service, Ingress,
// NetworkPolicy, PDB, HPA, ConfigMap, Secret, RBAC, CronJob, Job, Deployment metadata.
import { kube, ctr, wl, obj, email, b64 } from './lib.mjs';

const ns = (name, labels) => obj('v1', 'Namespace', { name, labels: { 'kubernetes.io/metadata.name': name, ...(labels ?? {}) } });
const svc = (name, namespace, spec, annotations) =>
  obj('v1', 'Service', { name, namespace, labels: { app: name }, annotations }, { spec: { selector: { app: name }, ...spec } });
const ing = (name, namespace, annotations, host = `${name}.acme.io`) =>
  obj('networking.k8s.io/v1', 'Ingress', { name, namespace, annotations }, {
    spec: {
      ingressClassName: 'nginx',
      tls: [{ hosts: [host], secretName: `${name}-tls` }],
      rules: [{ host, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name, port: { name: 'http' } } } }] } }],
    },
  });
const netpol = (name, namespace, spec) => obj('networking.k8s.io/v1', 'NetworkPolicy', { name, namespace }, { spec: { podSelector: { matchLabels: { app: name } }, ...spec } });
const pdb = (name, namespace, budget) => obj('policy/v1', 'PodDisruptionBudget', { name, namespace }, { spec: { ...budget, selector: { matchLabels: { app: name } } } });
const hpa = (name, namespace, { min, max, cpu, memory }) =>
  obj('autoscaling/v2', 'HorizontalPodAutoscaler', { name, namespace }, {
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      ...(min === undefined ? {} : { minReplicas: min }),
      maxReplicas: max,
      metrics: [
        ...(cpu === undefined ? [] : [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } }]),
        ...(memory === undefined ? [] : [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: memory } } }]),
      ],
    },
  });
const cm = (name, namespace, data) => obj('v1', 'ConfigMap', { name, namespace, labels: { app: name } }, { data });
const secret = (name, namespace, type, data, labels) => obj('v1', 'Secret', { name, namespace, labels }, { ...(type ? { type } : {}), data });
const RBAC = 'rbac.authorization.k8s.io/v1';
const clusterRole = (name, rules) => obj(RBAC, 'ClusterRole', { name }, { rules });
const roleBinding = (name, namespace, roleRef, subjects) => obj(RBAC, 'RoleBinding', { name, namespace }, { roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef }, subjects });
const group = (name) => ({ kind: 'Group', name, apiGroup: 'rbac.authorization.k8s.io' });
const user = (name) => ({ kind: 'User', name, apiGroup: 'rbac.authorization.k8s.io' });
const sa = (name, namespace) => ({ kind: 'ServiceAccount', name, namespace });
const simple = (name) => ({ containers: [ctr(name, `registry.acme.io/ops/${name}:1.0.0`)] });
const deployMeta = (name, labels, annotations) =>
  wl('Deployment', { name, ns: 'apps', replicas: 2, labels, annotations }, { containers: [ctr(name, `registry.acme.io/apps/${name}:2.0.0`)] });

export default [
  // ------------------------------------------------------------------ O1
  {
    id: 'obj-namespace-onboarding-labels',
    difficulty: 'medium',
    topics: ['kubernetes', 'namespace', 'labels', 'multi-requirement', 'format', 'exemptions'],
    labels: kube('Namespace'),
    instruction:
      'Namespace onboarding checklist, applies to every Namespace object:\n' +
      '1) label `team` present and non-empty\n' +
      '2) label `cost-center` in the form CC-#### (CC, a dash, exactly four digits, e.g. CC-0420)\n' +
      '3) label pod-security.kubernetes.io/enforce set to baseline or restricted\n' +
      'The system namespaces (default, kube-system, kube-public, kube-node-lease) are exempt from all of this.',
    check: (o) => {
      if (['default', 'kube-system', 'kube-public', 'kube-node-lease'].includes(o.metadata.name)) return true;
      const l = o.metadata.labels ?? {};
      return !!l.team && /^CC-\d{4}$/.test(l['cost-center'] ?? '') && ['baseline', 'restricted'].includes(l['pod-security.kubernetes.io/enforce']);
    },
    inputs: [
      { name: 'checkout-namespace-complete', expectPassed: true, object: ns('checkout', { team: 'checkout', 'cost-center': 'CC-0420', 'pod-security.kubernetes.io/enforce': 'restricted' }) },
      { name: 'cost-center-two-digits', expectPassed: false, object: ns('search', { team: 'search', 'cost-center': 'CC-12', 'pod-security.kubernetes.io/enforce': 'baseline' }) },
      { name: 'enforce-privileged', expectPassed: false, object: ns('gpu-jobs', { team: 'ml-platform', 'cost-center': 'CC-3001', 'pod-security.kubernetes.io/enforce': 'privileged' }) },
      { name: 'kube-system-without-labels', expectPassed: true, object: ns('kube-system') },
      { name: 'team-label-missing', expectPassed: false, object: ns('reporting', { 'cost-center': 'CC-7781', 'pod-security.kubernetes.io/enforce': 'restricted' }) },
      { name: 'data-eng-namespace-baseline', expectPassed: true, object: ns('data-eng', { team: 'data-eng', 'cost-center': 'CC-9001', 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted' }) },
    ],
  },

  // ------------------------------------------------------------------ O2
  {
    id: 'obj-service-exposure-types',
    difficulty: 'medium',
    topics: ['kubernetes', 'service', 'networking', 'exemptions', 'annotations', 'namespaces', 'missing-field'],
    labels: kube('Service'),
    instruction:
      'Services: no NodePort, ever. LoadBalancer is only OK when it is an internal LB (annotation service.beta.kubernetes.io/aws-load-balancer-internal: "true") or the Service lives in the ingress-nginx namespace. ' +
      'ClusterIP and headless services are fine (no type means ClusterIP).',
    check: (o) => {
      const t = o.spec.type ?? 'ClusterIP';
      if (t === 'NodePort') return false;
      if (t === 'LoadBalancer') return o.metadata.annotations?.['service.beta.kubernetes.io/aws-load-balancer-internal'] === 'true' || o.metadata.namespace === 'ingress-nginx';
      return true;
    },
    inputs: [
      { name: 'default-clusterip', expectPassed: true, object: svc('orders', 'shop', { ports: [{ name: 'http', port: 80, targetPort: 8080 }] }) },
      { name: 'nodeport', expectPassed: false, object: svc('debug-ui', 'ops', { type: 'NodePort', ports: [{ name: 'http', port: 80, targetPort: 3000, nodePort: 30080 }] }) },
      { name: 'internal-load-balancer', expectPassed: true, object: svc('ledger-api', 'finance', { type: 'LoadBalancer', ports: [{ name: 'https', port: 443, targetPort: 8443 }] }, { 'service.beta.kubernetes.io/aws-load-balancer-internal': 'true' }) },
      { name: 'ingress-nginx-public-lb', expectPassed: true, object: svc('ingress-nginx-controller', 'ingress-nginx', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ name: 'http', port: 80, targetPort: 'http' }, { name: 'https', port: 443, targetPort: 'https' }] }) },
      { name: 'public-lb-in-web', expectPassed: false, object: svc('promo', 'web', { type: 'LoadBalancer', ports: [{ name: 'http', port: 80, targetPort: 8080 }] }) },
      { name: 'lb-internal-annotation-false', expectPassed: false, object: svc('grafana', 'monitoring', { type: 'LoadBalancer', ports: [{ name: 'http', port: 80, targetPort: 3000 }] }, { 'service.beta.kubernetes.io/aws-load-balancer-internal': 'false' }) },
    ],
  },

  // ------------------------------------------------------------------ O3
  {
    id: 'obj-ingress-nginx-annotation-hardening',
    difficulty: 'medium',
    topics: ['kubernetes', 'ingress', 'annotations', 'multi-requirement', 'numeric-bounds', 'units', 'boundary', 'negative-phrasing'],
    labels: kube('Ingress'),
    instruction:
      'ingress-nginx hardening for Ingress objects:\n' +
      '- the nginx.ingress.kubernetes.io/configuration-snippet and nginx.ingress.kubernetes.io/server-snippet annotations are banned outright (CVE-2021-25742)\n' +
      '- nginx.ingress.kubernetes.io/proxy-body-size, when present, must be 10m or less (nginx size units: k is kilobytes, m is megabytes)\n' +
      '- nginx.ingress.kubernetes.io/ssl-redirect must not be "false"\n' +
      'Ingresses without any of these annotations are fine.',
    check: (o) => {
      const a = o.metadata.annotations ?? {};
      if ('nginx.ingress.kubernetes.io/configuration-snippet' in a || 'nginx.ingress.kubernetes.io/server-snippet' in a) return false;
      if (a['nginx.ingress.kubernetes.io/ssl-redirect'] === 'false') return false;
      const b = a['nginx.ingress.kubernetes.io/proxy-body-size'];
      if (b !== undefined) {
        const m = /^(\d+)([kKmM]?)$/.exec(b);
        if (!m) return false;
        const bytes = Number(m[1]) * ({ '': 1, k: 1024, m: 1024 ** 2 }[m[2].toLowerCase()]);
        if (bytes > 10 * 1024 ** 2) return false;
      }
      return true;
    },
    inputs: [
      { name: 'body-8m-ssl-redirect-true', expectPassed: true, object: ing('uploads', 'media', { 'nginx.ingress.kubernetes.io/proxy-body-size': '8m', 'nginx.ingress.kubernetes.io/ssl-redirect': 'true' }) },
      { name: 'configuration-snippet', expectPassed: false, object: ing('legacy-portal', 'web', { 'nginx.ingress.kubernetes.io/configuration-snippet': 'more_set_headers "X-Frame-Options: DENY";' }) },
      { name: 'body-exactly-10m', expectPassed: true, object: ing('docs', 'web', { 'nginx.ingress.kubernetes.io/proxy-body-size': '10m' }) },
      { name: 'body-50m', expectPassed: false, object: ing('backups', 'ops', { 'nginx.ingress.kubernetes.io/proxy-body-size': '50m', 'nginx.ingress.kubernetes.io/proxy-read-timeout': '600' }) },
      { name: 'ssl-redirect-false', expectPassed: false, object: ing('status', 'web', { 'nginx.ingress.kubernetes.io/ssl-redirect': 'false' }) },
      { name: 'body-512k', expectPassed: true, object: ing('api', 'core', { 'nginx.ingress.kubernetes.io/proxy-body-size': '512k', 'nginx.ingress.kubernetes.io/backend-protocol': 'HTTP' }) },
    ],
  },

  // ------------------------------------------------------------------ O4
  {
    id: 'obj-networkpolicy-ipblock-width',
    difficulty: 'hard',
    topics: ['kubernetes', 'network-policy', 'networking', 'cidr', 'arrays', 'conditional'],
    labels: kube('NetworkPolicy'),
    instruction:
      'NetworkPolicy review rules (from the network team wiki):\n' +
      '* ipBlock 0.0.0.0/0 may only appear in egress rules, and only if its `except` list includes 169.254.169.254/32 so pods cannot reach the cloud metadata endpoint.\n' +
      '* In ingress rules no ipBlock may be wider than a /16, i.e. the prefix length has to be 16 or more.\n' +
      'Policies that only use pod/namespace selectors are fine.',
    check: (o) => {
      for (const r of o.spec.ingress ?? []) for (const p of r.from ?? []) if (p.ipBlock && Number(p.ipBlock.cidr.split('/')[1]) < 16) return false;
      for (const r of o.spec.egress ?? []) for (const p of r.to ?? []) if (p.ipBlock?.cidr === '0.0.0.0/0' && !(p.ipBlock.except ?? []).includes('169.254.169.254/32')) return false;
      return true;
    },
    inputs: [
      {
        name: 'selectors-only',
        expectPassed: true,
        object: netpol('orders', 'shop', {
          policyTypes: ['Ingress'],
          ingress: [{ from: [{ podSelector: { matchLabels: { app: 'storefront' } } }, { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }], ports: [{ protocol: 'TCP', port: 8080 }] }],
        }),
      },
      {
        name: 'ingress-slash-16',
        expectPassed: true,
        object: netpol('ledger', 'finance', { policyTypes: ['Ingress'], ingress: [{ from: [{ ipBlock: { cidr: '10.20.0.0/16' } }], ports: [{ protocol: 'TCP', port: 5432 }] }] }),
      },
      {
        name: 'ingress-slash-8',
        expectPassed: false,
        object: netpol('metrics', 'monitoring', { policyTypes: ['Ingress'], ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/8' } }], ports: [{ protocol: 'TCP', port: 9090 }] }] }),
      },
      {
        name: 'egress-internet-except-metadata',
        expectPassed: true,
        object: netpol('webhooks', 'integrations', {
          policyTypes: ['Egress'],
          egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '169.254.169.254/32'] } }], ports: [{ protocol: 'TCP', port: 443 }] }],
        }),
      },
      {
        name: 'egress-internet-no-except',
        expectPassed: false,
        object: netpol('crawler', 'search', { policyTypes: ['Egress'], egress: [{ to: [{ ipBlock: { cidr: '0.0.0.0/0' } }] }] }),
      },
      {
        name: 'ingress-internet-even-with-except',
        expectPassed: false,
        object: netpol('public-api', 'edge', {
          policyTypes: ['Ingress', 'Egress'],
          ingress: [{ from: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['169.254.169.254/32'] } }], ports: [{ protocol: 'TCP', port: 443 }] }],
          egress: [{ to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'core' } } }] }],
        }),
      },
    ],
  },

  // ------------------------------------------------------------------ O5
  {
    id: 'obj-pdb-allows-drains',
    difficulty: 'medium',
    topics: ['kubernetes', 'pdb', 'availability', 'percentages', 'negative-phrasing'],
    labels: kube('PodDisruptionBudget'),
    instruction:
      'PodDisruptionBudgets have to leave room for node drains:\n' +
      '- maxUnavailable must not be 0 or "0%"\n' +
      '- minAvailable must not be "100%", and an integer minAvailable is not allowed at all (it blocks drains as soon as someone scales the deployment down); a percentage below 100% is fine\n' +
      '- maxUnavailable as an integer or a percentage is the preferred form',
    check: (o) => {
      const { maxUnavailable: mu, minAvailable: ma } = o.spec;
      if (mu !== undefined && (mu === 0 || mu === '0%')) return false;
      if (ma !== undefined) {
        if (typeof ma === 'number') return false;
        if (Number(ma.replace('%', '')) >= 100) return false;
      }
      return true;
    },
    inputs: [
      { name: 'max-unavailable-one', expectPassed: true, object: pdb('checkout', 'shop', { maxUnavailable: 1 }) },
      { name: 'max-unavailable-zero', expectPassed: false, object: pdb('ledger', 'finance', { maxUnavailable: 0 }) },
      { name: 'min-available-100-percent', expectPassed: false, object: pdb('zookeeper', 'data', { minAvailable: '100%' }) },
      { name: 'min-available-50-percent', expectPassed: true, object: pdb('search', 'search', { minAvailable: '50%' }) },
      { name: 'min-available-integer', expectPassed: false, object: pdb('kafka', 'data', { minAvailable: 2 }) },
      { name: 'max-unavailable-zero-percent', expectPassed: false, object: pdb('etcd', 'platform', { maxUnavailable: '0%' }) },
    ],
  },

  // ------------------------------------------------------------------ O6
  {
    id: 'obj-hpa-replica-and-cpu-target-bounds',
    difficulty: 'medium',
    topics: ['kubernetes', 'hpa', 'autoscaling', 'numeric-bounds', 'boundary', 'field-comparison', 'missing-field'],
    labels: kube('HorizontalPodAutoscaler'),
    instruction:
      'HPA standards:\n' +
      '- minReplicas must be set explicitly and be at least 2\n' +
      '- maxReplicas at most 20, and strictly greater than minReplicas\n' +
      "- if there's a CPU resource metric with a Utilization target, its averageUtilization must be between 50 and 85 (inclusive)",
    check: (o) => {
      const { minReplicas: min, maxReplicas: max, metrics = [] } = o.spec;
      if (min === undefined || min < 2 || max > 20 || !(max > min)) return false;
      return metrics.every((m) => !(m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target?.type === 'Utilization') || (m.resource.target.averageUtilization >= 50 && m.resource.target.averageUtilization <= 85));
    },
    inputs: [
      { name: 'min2-max10-cpu70', expectPassed: true, object: hpa('checkout', 'shop', { min: 2, max: 10, cpu: 70 }) },
      { name: 'min-unset', expectPassed: false, object: hpa('reviews', 'shop', { max: 5, cpu: 70 }) },
      { name: 'min-equals-max', expectPassed: false, object: hpa('ledger', 'finance', { min: 3, max: 3, cpu: 60 }) },
      { name: 'at-upper-bounds', expectPassed: true, object: hpa('search', 'search', { min: 2, max: 20, cpu: 85, memory: '1Gi' }) },
      { name: 'max-25', expectPassed: false, object: hpa('frontend', 'web', { min: 4, max: 25, cpu: 65 }) },
      { name: 'cpu-90', expectPassed: false, object: hpa('render', 'media', { min: 2, max: 6, cpu: 90 }) },
    ],
  },

  // ------------------------------------------------------------------ O7
  {
    id: 'obj-configmap-no-credentials',
    difficulty: 'medium',
    topics: ['kubernetes', 'configmap', 'secrets', 'name-patterns', 'negative-phrasing'],
    labels: kube('ConfigMap'),
    instruction:
      'ConfigMaps are not for credentails. Fail any ConfigMap where\n' +
      '- a key under data has password, secret or token in its name (any case), or\n' +
      '- any data value contains a PEM private key (a line like -----BEGIN ... PRIVATE KEY-----).\n' +
      'Certificates (-----BEGIN CERTIFICATE-----) are public, those are fine.',
    check: (o) =>
      Object.entries(o.data ?? {}).every(([k, v]) => !/password|secret|token/i.test(k) && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(v)),
    inputs: [
      { name: 'plain-app-properties', expectPassed: true, object: cm('orders-config', 'shop', { 'application.properties': 'server.port=8080\nspring.datasource.url=jdbc:postgresql://orders-db:5432/orders\n', LOG_LEVEL: 'info' }) },
      { name: 'db-password-key', expectPassed: false, object: cm('crm-config', 'sales', { DB_HOST: 'crm-db.sales.svc', DB_PASSWORD: 'hunter2' }) },
      { name: 'private-key-in-pem-value', expectPassed: false, object: cm('gateway-certs', 'edge', { 'server.pem': '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAwJ3...\n-----END RSA PRIVATE KEY-----\n' }) },
      { name: 'ca-certificate', expectPassed: true, object: cm('trust-bundle', 'edge', { 'ca.crt': '-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE...\n-----END CERTIFICATE-----\n' }) },
      { name: 'camel-case-client-secret', expectPassed: false, object: cm('sso-settings', 'identity', { issuer: 'https://login.acme.io', oauthClientSecret: 's3cr3t-value' }) },
    ],
  },

  // ------------------------------------------------------------------ O8
  {
    id: 'obj-secret-types-and-prod-ownership',
    difficulty: 'hard',
    topics: ['kubernetes', 'secret', 'labels', 'namespaces', 'conditional', 'missing-field', 'multi-requirement'],
    labels: kube('Secret'),
    instruction:
      'Secrets policy (SEC-3310):\n' +
      'a) Secrets of type kubernetes.io/service-account-token are banned in every namespace, use projected tokens instead.\n' +
      "b) In the prod namespace, Opaque secrets must carry the label secrets.acme.io/managed-by: external-secrets (hand-made secrets don't get rotated). Remember that a Secret with no type is Opaque.\n" +
      "c) TLS secrets (kubernetes.io/tls) and dockerconfigjson secrets don't need the label.",
    check: (o) => {
      const t = o.type ?? 'Opaque';
      if (t === 'kubernetes.io/service-account-token') return false;
      if (o.metadata.namespace === 'prod' && t === 'Opaque') return o.metadata.labels?.['secrets.acme.io/managed-by'] === 'external-secrets';
      return true;
    },
    inputs: [
      { name: 'prod-opaque-managed', expectPassed: true, object: secret('payments-db', 'prod', 'Opaque', { username: b64('payments'), password: b64('Zx9!plq') }, { 'secrets.acme.io/managed-by': 'external-secrets' }) },
      { name: 'prod-opaque-hand-made', expectPassed: false, object: secret('stripe-key', 'prod', 'Opaque', { apiKey: b64('sk_live_xxx') }, { app: 'billing' }) },
      { name: 'dev-opaque-unlabelled', expectPassed: true, object: secret('stripe-key', 'dev', 'Opaque', { apiKey: b64('sk_test_xxx') }) },
      {
        name: 'sa-token-secret',
        expectPassed: false,
        object: obj('v1', 'Secret', { name: 'ci-deployer-token', namespace: 'ci', annotations: { 'kubernetes.io/service-account.name': 'ci-deployer' } }, { type: 'kubernetes.io/service-account-token' }),
      },
      { name: 'prod-tls-unlabelled', expectPassed: true, object: secret('shop-acme-io-tls', 'prod', 'kubernetes.io/tls', { 'tls.crt': b64('-----BEGIN CERTIFICATE-----'), 'tls.key': b64('-----BEGIN PRIVATE KEY-----') }) },
      { name: 'prod-no-type-unlabelled', expectPassed: false, object: secret('smtp-relay', 'prod', undefined, { password: b64('relaypass') }) },
    ],
  },

  // ------------------------------------------------------------------ O9
  {
    id: 'obj-clusterrole-no-wildcards-secret-readers',
    difficulty: 'medium',
    topics: ['kubernetes', 'rbac', 'cluster-role', 'wildcards', 'arrays', 'exemptions', 'name-prefix'],
    labels: kube('ClusterRole'),
    instruction:
      'RBAC review for ClusterRoles:\n' +
      "- no '*' anywhere in a rule's verbs, resources or apiGroups\n" +
      '- only roles whose name starts with system: may grant get, list or watch on secrets',
    check: (o) =>
      (o.rules ?? []).every((r) => {
        if ([...(r.verbs ?? []), ...(r.resources ?? []), ...(r.apiGroups ?? [])].includes('*')) return false;
        if ((r.resources ?? []).includes('secrets') && (r.verbs ?? []).some((v) => ['get', 'list', 'watch'].includes(v))) return o.metadata.name.startsWith('system:');
        return true;
      }),
    inputs: [
      { name: 'pod-reader', expectPassed: true, object: clusterRole('pod-reader', [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] }]) },
      { name: 'verbs-wildcard', expectPassed: false, object: clusterRole('deploy-manager', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }]) },
      { name: 'resources-wildcard', expectPassed: false, object: clusterRole('apps-viewer', [{ apiGroups: ['apps'], resources: ['*'], verbs: ['get', 'list'] }]) },
      { name: 'lists-secrets', expectPassed: false, object: clusterRole('config-auditor', [{ apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['list'] }]) },
      { name: 'system-role-reads-secrets', expectPassed: true, object: clusterRole('system:controller:token-cleaner', [{ apiGroups: [''], resources: ['secrets'], verbs: ['delete', 'get', 'list', 'watch'] }, { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] }]) },
      { name: 'create-only-secrets', expectPassed: true, object: clusterRole('cert-issuer', [{ apiGroups: [''], resources: ['secrets'], verbs: ['create', 'update'] }]) },
    ],
  },

  // ------------------------------------------------------------------ O10
  {
    id: 'obj-rolebinding-no-admin-no-users',
    difficulty: 'medium',
    topics: ['kubernetes', 'rbac', 'role-binding', 'denylist', 'arrays', 'exemptions'],
    labels: kube('RoleBinding'),
    instruction:
      'RoleBindings must not reference the cluster-admin or admin ClusterRoles. Subjects have to be Groups or ServiceAccounts: binding an individual User is not allowed, with one exception, the break-glass user sre-oncall@acme.io.',
    check: (o) =>
      !(o.roleRef.kind === 'ClusterRole' && ['cluster-admin', 'admin'].includes(o.roleRef.name)) &&
      (o.subjects ?? []).every((s) => s.kind === 'Group' || s.kind === 'ServiceAccount' || (s.kind === 'User' && s.name === 'sre-oncall@acme.io')),
    inputs: [
      { name: 'role-to-service-account', expectPassed: true, object: roleBinding('ci-deployer', 'shop', { kind: 'Role', name: 'deployer' }, [sa('ci-deployer', 'ci')]) },
      { name: 'cluster-admin-to-group', expectPassed: false, object: roleBinding('platform-admins', 'shop', { kind: 'ClusterRole', name: 'cluster-admin' }, [group('platform-team')]) },
      { name: 'view-to-individual-user', expectPassed: false, object: roleBinding('alice-view', 'finance', { kind: 'ClusterRole', name: 'view' }, [user('alice@acme.io')]) },
      { name: 'break-glass-user', expectPassed: true, object: roleBinding('oncall-view', 'finance', { kind: 'ClusterRole', name: 'view' }, [user('sre-oncall@acme.io')]) },
      { name: 'edit-to-group-and-sa', expectPassed: true, object: roleBinding('search-editors', 'search', { kind: 'ClusterRole', name: 'edit' }, [group('search-devs'), sa('argocd-application-controller', 'argocd')]) },
      { name: 'admin-to-service-account', expectPassed: false, object: roleBinding('tenant-admin', 'tenant-a', { kind: 'ClusterRole', name: 'admin' }, [sa('tenant-a-operator', 'tenant-a')]) },
    ],
  },

  // ------------------------------------------------------------------ O11
  {
    id: 'obj-cronjob-concurrency-deadline-history',
    difficulty: 'medium',
    topics: ['kubernetes', 'cronjob', 'multi-requirement', 'missing-field', 'boundary', 'defaults'],
    labels: kube('CronJob'),
    instruction:
      'OPS-5521 CronJob hygiene\n' +
      'Acceptance criteria:\n' +
      '- concurrencyPolicy is Forbid or Replace (the default is Allow, so leaving it out fails)\n' +
      '- startingDeadlineSeconds is set, max 10 minutes\n' +
      "- successfulJobsHistoryLimit no more than 3 (unset is fine, k8s defaults it to 3)",
    check: (o) => {
      const s = o.spec;
      return ['Forbid', 'Replace'].includes(s.concurrencyPolicy) && s.startingDeadlineSeconds !== undefined && s.startingDeadlineSeconds <= 600 && (s.successfulJobsHistoryLimit ?? 3) <= 3;
    },
    inputs: [
      { name: 'forbid-300-history-2', expectPassed: true, object: wl('CronJob', { name: 'invoice-run', ns: 'finance', cronFields: { concurrencyPolicy: 'Forbid', startingDeadlineSeconds: 300, successfulJobsHistoryLimit: 2 } }, simple('invoice-run')) },
      { name: 'concurrency-unset', expectPassed: false, object: wl('CronJob', { name: 'cache-warm', ns: 'web', cronFields: { startingDeadlineSeconds: 300 } }, simple('cache-warm')) },
      { name: 'replace-exactly-600', expectPassed: true, object: wl('CronJob', { name: 'feed-refresh', ns: 'web', schedule: '*/15 * * * *', cronFields: { concurrencyPolicy: 'Replace', startingDeadlineSeconds: 600 } }, simple('feed-refresh')) },
      { name: 'deadline-900', expectPassed: false, object: wl('CronJob', { name: 'gc-orphans', ns: 'ops', cronFields: { concurrencyPolicy: 'Forbid', startingDeadlineSeconds: 900 } }, simple('gc-orphans')) },
      { name: 'history-10', expectPassed: false, object: wl('CronJob', { name: 'audit-export', ns: 'security', cronFields: { concurrencyPolicy: 'Forbid', startingDeadlineSeconds: 120, successfulJobsHistoryLimit: 10 } }, simple('audit-export')) },
      { name: 'deadline-unset', expectPassed: false, object: wl('CronJob', { name: 'rollup', ns: 'analytics', cronFields: { concurrencyPolicy: 'Forbid', successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 3 } }, simple('rollup')) },
    ],
  },

  // ------------------------------------------------------------------ O12
  {
    id: 'obj-job-ttl-and-backoff',
    difficulty: 'medium',
    topics: ['kubernetes', 'job', 'numeric-bounds', 'boundary', 'units', 'missing-field', 'defaults'],
    labels: kube('Job'),
    instruction:
      'Jobs must clean up after themselves and not retry forever: ttlSecondsAfterFinished has to be set and be no more than 24h, and backoffLimit at most 4. ' +
      'Note Kubernetes defaults backoffLimit to 6, so leaving it unset fails.',
    check: (o) => {
      const s = o.spec;
      return s.ttlSecondsAfterFinished !== undefined && s.ttlSecondsAfterFinished <= 86400 && s.backoffLimit !== undefined && s.backoffLimit <= 4;
    },
    inputs: [
      { name: 'ttl-one-day-backoff-3', expectPassed: true, object: wl('Job', { name: 'reconcile', ns: 'finance', jobFields: { ttlSecondsAfterFinished: 86400, backoffLimit: 3 } }, simple('reconcile')) },
      { name: 'ttl-unset', expectPassed: false, object: wl('Job', { name: 'reindex', ns: 'search', jobFields: { backoffLimit: 2 } }, simple('reindex')) },
      { name: 'backoff-unset', expectPassed: false, object: wl('Job', { name: 'seed-data', ns: 'dev', jobFields: { ttlSecondsAfterFinished: 3600 } }, simple('seed-data')) },
      { name: 'ttl-two-days', expectPassed: false, object: wl('Job', { name: 'export-gdpr', ns: 'legal', jobFields: { ttlSecondsAfterFinished: 172800, backoffLimit: 1 } }, simple('export-gdpr')) },
      { name: 'ttl-600-backoff-4', expectPassed: true, object: wl('Job', { name: 'thumbnail-backfill', ns: 'media', jobFields: { ttlSecondsAfterFinished: 600, backoffLimit: 4, activeDeadlineSeconds: 7200 } }, simple('thumbnail-backfill')) },
      { name: 'ttl-zero-backoff-zero', expectPassed: true, object: wl('Job', { name: 'one-shot', ns: 'ops', jobFields: { ttlSecondsAfterFinished: 0, backoffLimit: 0 } }, simple('one-shot')) },
    ],
  },

  // ------------------------------------------------------------------ O13
  {
    id: 'obj-deployment-ownership-metadata',
    difficulty: 'easy',
    topics: ['kubernetes', 'deployment', 'labels', 'annotations', 'format', 'email'],
    labels: kube('Deployment'),
    instruction:
      'All Deployments need the labels app.kubernetes.io/name and app.kubernetes.io/part-of on the Deployment itself, plus an acme.io/owner annotation holding the owning team\'s email address (something@acme.io).',
    check: (o) => {
      const l = o.metadata.labels ?? {};
      const owner = o.metadata.annotations?.['acme.io/owner'];
      return !!l['app.kubernetes.io/name'] && !!l['app.kubernetes.io/part-of'] && email(owner) && owner.endsWith('@acme.io');
    },
    inputs: [
      { name: 'complete', expectPassed: true, object: deployMeta('quotes', { 'app.kubernetes.io/name': 'quotes', 'app.kubernetes.io/part-of': 'insurance' }, { 'acme.io/owner': 'insurance-team@acme.io' }) },
      { name: 'part-of-missing', expectPassed: false, object: deployMeta('claims', { 'app.kubernetes.io/name': 'claims' }, { 'acme.io/owner': 'claims@acme.io' }) },
      { name: 'owner-not-an-email', expectPassed: false, object: deployMeta('policies', { 'app.kubernetes.io/name': 'policies', 'app.kubernetes.io/part-of': 'insurance' }, { 'acme.io/owner': 'platform-team' }) },
      { name: 'extra-labels-fine', expectPassed: true, object: deployMeta('payouts', { app: 'payouts', 'app.kubernetes.io/name': 'payouts', 'app.kubernetes.io/part-of': 'payments', 'app.kubernetes.io/version': '4.1.0' }, { 'acme.io/owner': 'payments@acme.io', 'deployment.kubernetes.io/revision': '7' }) },
      { name: 'owner-outside-domain', expectPassed: false, object: deployMeta('leads', { 'app.kubernetes.io/name': 'leads', 'app.kubernetes.io/part-of': 'sales' }, { 'acme.io/owner': 'jdoe@gmail.com' }) },
      {
        name: 'labels-only-on-pod-template',
        expectPassed: false,
        object: wl('Deployment', { name: 'brokers', ns: 'apps', replicas: 2, annotations: { 'acme.io/owner': 'sales@acme.io' }, podLabels: { 'app.kubernetes.io/name': 'brokers', 'app.kubernetes.io/part-of': 'sales' } }, { containers: [ctr('brokers', 'registry.acme.io/apps/brokers:2.0.0')] }),
      },
    ],
  },

  // ------------------------------------------------------------------ O14
  {
    id: 'obj-service-port-names-protocol-prefix',
    difficulty: 'easy',
    topics: ['kubernetes', 'service', 'naming', 'arrays', 'format'],
    labels: kube('Service'),
    instruction:
      'Every port in a Service must have a name, and the name has to start with the protocol: http, https, grpc, tcp or udp, optionally followed by a dash and a suffix (http, grpc-api, tcp-metrics). Istio uses this for protocol detection.',
    check: (o) => (o.spec.ports ?? []).every((p) => typeof p.name === 'string' && /^(http|https|grpc|tcp|udp)(-[a-z0-9-]+)?$/.test(p.name)),
    inputs: [
      { name: 'http-and-grpc-api', expectPassed: true, object: svc('catalog', 'shop', { ports: [{ name: 'http', port: 80, targetPort: 8080 }, { name: 'grpc-api', port: 9000, targetPort: 9000 }] }) },
      { name: 'unnamed-single-port', expectPassed: false, object: svc('pricing', 'shop', { ports: [{ port: 80, targetPort: 8080 }] }) },
      { name: 'name-web', expectPassed: false, object: svc('landing', 'web', { ports: [{ name: 'web', port: 80, targetPort: 3000 }] }) },
      { name: 'https-admin-and-tcp-metrics', expectPassed: true, object: svc('vault-ui', 'security', { clusterIP: 'None', ports: [{ name: 'https-admin', port: 8200 }, { name: 'tcp-metrics', port: 9102 }] }) },
    ],
  },
];
