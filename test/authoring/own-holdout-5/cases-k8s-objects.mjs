// Kubernetes object cases for own-holdout-5: RoleBinding subjects, HPA scale-down behaviour,
// Service port protocol naming, ingress-nginx body size, immutable ConfigMaps, Secret types,
// EBS StorageClasses, a change-ticket annotation and ClusterRole nonResourceURLs / wildcards.
import { kube, obj, ctr, res, wl, b64, nginxBytes } from './lib.mjs';

const RBAC = 'rbac.authorization.k8s.io/v1';
const G = 'rbac.authorization.k8s.io';
const rb = (name, ns, roleRef, subjects) => obj(RBAC, 'RoleBinding', { name, namespace: ns }, { roleRef: { apiGroup: G, ...roleRef }, subjects });
const sa = (name, namespace) => ({ kind: 'ServiceAccount', name, namespace });
const group = (name) => ({ kind: 'Group', apiGroup: G, name });
const user = (name) => ({ kind: 'User', apiGroup: G, name });

const hpa = (name, ns, behavior, { min = 2, max = 10 } = {}) => obj('autoscaling/v2', 'HorizontalPodAutoscaler', { name, namespace: ns }, {
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
    minReplicas: min,
    maxReplicas: max,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
    ...(behavior ? { behavior } : {}),
  },
});

const svc = (name, ns, ports, more = {}) => obj('v1', 'Service', { name, namespace: ns, labels: { app: name } }, {
  spec: { selector: { app: name }, ports, ...more },
});

const BODY = 'nginx.ingress.kubernetes.io/proxy-body-size';
const ing = (name, ns, host, annotations) => obj('networking.k8s.io/v1', 'Ingress', { name, namespace: ns, annotations }, {
  spec: {
    ingressClassName: 'nginx',
    tls: [{ hosts: [host], secretName: `${name}-tls` }],
    rules: [{ host, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name, port: { name: 'http' } } } }] } }],
  },
});

const cm = (name, ns, data, more = {}) => obj('v1', 'ConfigMap', { name, namespace: ns, labels: { app: name.replace(/-v\d+$/, '') } }, { data, ...more });

const secret = (name, ns, type, fields, more = {}) => obj('v1', 'Secret', { name, namespace: ns, ...(more.metadata ?? {}) }, { ...(type ? { type } : {}), ...fields });

const sc = (name, provisioner, parameters, more = {}) => obj('storage.k8s.io/v1', 'StorageClass', { name }, {
  provisioner, parameters, reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer', allowVolumeExpansion: true, ...more,
});

const small = res({ cpu: '100m', memory: '128Mi' }, { memory: '256Mi' });
const dep = (name, ns, annotations, labels) => wl('Deployment', { name, ns, replicas: 2, annotations, labels }, { containers: [ctr(name, `ghcr.io/acme/${name}:1.4.0`, { resources: small })] });

const cr = (name, rules, more = {}) => obj(RBAC, 'ClusterRole', { name, ...(more.metadata ?? {}) }, { rules, ...(more.rest ?? {}) });

export default [
  // ------------------------------------------------------------------ RoleBinding subjects
  {
    id: 'k8s-rolebinding-subject-rules',
    difficulty: 'hard',
    topics: ['kubernetes', 'rbac', 'rolebinding', 'subjects', 'field-comparison', 'namespace-scope'],
    labels: kube('RoleBinding'),
    instruction: `RBAC-05 RoleBinding subjects

A RoleBinding grants permissions inside its own namespace and should only hand them to identities that belong there. Therefore:
(a) a ServiceAccount subject must live in the same namespace as the RoleBinding itself;
(b) the groups system:authenticated, system:unauthenticated and system:serviceaccounts, and the user system:anonymous, must never appear as subjects;
(c) a binding whose roleRef is the ClusterRole admin or cluster-admin may only have subjects of kind Group (no individual users or service accounts holding admin).
RoleBindings in kube-system are exempt from (a) only.`,
    check: (o) => {
      const ns = o.metadata.namespace;
      const subs = o.subjects ?? [];
      for (const s of subs) {
        if (s.kind === 'ServiceAccount' && ns !== 'kube-system' && s.namespace !== ns) return false;
        if (s.kind === 'Group' && ['system:authenticated', 'system:unauthenticated', 'system:serviceaccounts'].includes(s.name)) return false;
        if (s.kind === 'User' && s.name === 'system:anonymous') return false;
      }
      const adminRef = o.roleRef.kind === 'ClusterRole' && ['admin', 'cluster-admin'].includes(o.roleRef.name);
      return !adminRef || subs.every((s) => s.kind === 'Group');
    },
    inputs: [
      {
        name: 'rb-same-namespace-service-account',
        expectPassed: true,
        object: rb('orders-config-reader', 'shop', { kind: 'Role', name: 'config-reader' }, [sa('orders', 'shop')]),
      },
      {
        name: 'rb-service-account-from-other-namespace',
        expectPassed: false,
        object: rb('ci-deployer', 'shop', { kind: 'ClusterRole', name: 'edit' }, [sa('argocd-application-controller', 'argocd')]),
      },
      {
        name: 'rb-kube-system-cross-namespace-sa',
        expectPassed: true,
        object: rb('cluster-autoscaler-leader', 'kube-system', { kind: 'Role', name: 'leader-locking' }, [sa('cluster-autoscaler', 'autoscaling')]),
      },
      {
        name: 'rb-system-authenticated-group',
        expectPassed: false,
        object: rb('docs-viewers', 'docs', { kind: 'ClusterRole', name: 'view' }, [group('system:authenticated')]),
      },
      {
        name: 'rb-admin-to-individual-user',
        expectPassed: false,
        object: rb('payments-admin-jdoe', 'payments', { kind: 'ClusterRole', name: 'admin' }, [group('team-payments-leads'), user('jane.doe@acme.io')]),
      },
      {
        name: 'rb-admin-to-group-only',
        expectPassed: true,
        object: rb('payments-admins', 'payments', { kind: 'ClusterRole', name: 'admin' }, [group('team-payments-oncall'), group('team-payments-leads')]),
      },
    ],
  },

  // ------------------------------------------------------------------ HPA scale-down behaviour
  {
    id: 'k8s-hpa-scale-down-damping',
    difficulty: 'medium',
    topics: ['kubernetes', 'hpa', 'autoscaling', 'scale-down', 'defaults'],
    labels: kube('HorizontalPodAutoscaler'),
    instruction:
      "our HPAs are flapping 📉📈 so new rule for the scale-down behaviour of every HorizontalPodAutoscaler: spec.behavior.scaleDown.stabilizationWindowSeconds must be at least 300 (5 min). that's also what k8s uses when you don't set it, so unset is ok. and scale-down policies, if there are any, can't remove more than 50 percent per period, i.e. a policy of type Percent needs value 50 or less. Pods-type policies are fine whatever the number. scaleUp isn't part of this.",
    check: (o) => {
      const sd = o.spec.behavior?.scaleDown ?? {};
      return (sd.stabilizationWindowSeconds ?? 300) >= 300 && (sd.policies ?? []).every((p) => p.type !== 'Percent' || p.value <= 50);
    },
    inputs: [
      {
        name: 'hpa-no-behavior',
        expectPassed: true,
        object: hpa('storefront', 'shop', undefined),
      },
      {
        name: 'hpa-window-60',
        expectPassed: false,
        object: hpa('checkout', 'shop', { scaleDown: { stabilizationWindowSeconds: 60 } }),
      },
      {
        name: 'hpa-window-300-percent-50',
        expectPassed: true,
        object: hpa('search', 'shop', { scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Percent', value: 50, periodSeconds: 60 }] } }),
      },
      {
        name: 'hpa-percent-100',
        expectPassed: false,
        object: hpa('image-resizer', 'media', { scaleDown: { policies: [{ type: 'Pods', value: 2, periodSeconds: 60 }, { type: 'Percent', value: 100, periodSeconds: 15 }] } }, { min: 1, max: 40 }),
      },
      {
        name: 'hpa-scaleup-long-window-scaledown-120',
        expectPassed: false,
        object: hpa('recommendations', 'ml', { scaleUp: { stabilizationWindowSeconds: 900 }, scaleDown: { stabilizationWindowSeconds: 120 } }),
      },
    ],
  },

  // ------------------------------------------------------------------ Service port protocol naming
  {
    id: 'k8s-service-port-protocol-naming',
    difficulty: 'medium',
    topics: ['kubernetes', 'services', 'service-mesh', 'naming', 'every-element'],
    labels: kube('Service'),
    instruction: `Istio picks the protocol for a Service port from its name or appProtocol, and guesses wrong when neither says anything. So every port on every Service must either:
- set appProtocol (any value), or
- have a name that is http, http2, grpc, tcp, tls or https, optionally followed by a dash and a suffix (http-api, grpc-internal, tcp-postgres ...).
An unnamed port only passes with appProtocol set. "metrics" or "web" as a name doesn't tell Istio anything, so those fail.`,
    check: (o) => (o.spec.ports ?? []).every((p) => !!p.appProtocol || /^(http|http2|grpc|tcp|tls|https)(-.+)?$/.test(p.name ?? '')),
    inputs: [
      {
        name: 'svc-bare-grpc-name',
        expectPassed: true,
        object: svc('pricing', 'shop', [{ name: 'grpc', port: 9090, targetPort: 9090 }]),
      },
      {
        name: 'svc-unnamed-single-port',
        expectPassed: false,
        object: svc('legacy-soap', 'legacy-erp', [{ port: 8080, targetPort: 8080 }]),
      },
      {
        name: 'svc-metrics-port-name',
        expectPassed: false,
        object: svc('orders', 'shop', [{ name: 'http-api', port: 80, targetPort: 8080 }, { name: 'metrics', port: 9102, targetPort: 9102 }]),
      },
      {
        name: 'svc-unnamed-with-appprotocol',
        expectPassed: true,
        object: svc('postgres', 'data', [{ port: 5432, targetPort: 5432, appProtocol: 'postgresql' }], { clusterIP: 'None' }),
      },
      {
        name: 'svc-httpapi-no-dash-lookalike',
        expectPassed: false,
        object: svc('profile', 'identity', [{ name: 'httpapi', port: 80, targetPort: 8080 }]),
      },
    ],
  },

  // ------------------------------------------------------------------ ingress-nginx proxy-body-size
  {
    id: 'k8s-ingress-nginx-body-size',
    difficulty: 'hard',
    topics: ['kubernetes', 'ingress', 'annotations', 'size-units', 'namespace-scope', 'defaults'],
    labels: kube('Ingress'),
    instruction: `Ingress upload limits

The ingress-nginx annotation nginx.ingress.kubernetes.io/proxy-body-size sets the largest request body the controller accepts. Rules:
- if it's set, it must be 10 MB or less. nginx size syntax: a plain number is bytes, k/K is kilobytes, m/M megabytes, g/G gigabytes, all 1024-based (so 10m = 10240k = 10485760 bytes)
- "0" turns the limit off completely and is never allowed
- the only exception is Ingresses in the uploads namespace, which may go up to 1g (but still not 0)
- if the annotation isn't there the controller default of 1m applies, which is fine`,
    check: (o) => {
      const v = o.metadata.annotations?.[BODY];
      if (v === undefined) return true;
      const bytes = nginxBytes(v);
      if (bytes === 0) return false;
      return bytes <= (o.metadata.namespace === 'uploads' ? 1024 ** 3 : 10 * 1024 ** 2);
    },
    inputs: [
      {
        name: 'ing-no-body-size-annotation',
        expectPassed: true,
        object: ing('storefront', 'shop', 'shop.acme.io', { 'nginx.ingress.kubernetes.io/ssl-redirect': 'true' }),
      },
      {
        name: 'ing-10240k-boundary',
        expectPassed: true,
        object: ing('support-portal', 'support', 'support.acme.io', { [BODY]: '10240k' }),
      },
      {
        name: 'ing-uploads-ns-1g',
        expectPassed: true,
        object: ing('media-upload', 'uploads', 'upload.acme.io', { [BODY]: '1g', 'nginx.ingress.kubernetes.io/proxy-request-buffering': 'off' }),
      },
      {
        name: 'ing-11m',
        expectPassed: false,
        object: ing('api', 'api', 'api.acme.io', { [BODY]: '11m' }),
      },
      {
        name: 'ing-uploads-ns-zero',
        expectPassed: false,
        object: ing('bulk-import', 'uploads', 'import.acme.io', { [BODY]: '0' }),
      },
      {
        name: 'ing-api-ns-1g',
        expectPassed: false,
        object: ing('docs-api', 'api', 'docs-api.acme.io', { [BODY]: '1G' }),
      },
    ],
  },

  // ------------------------------------------------------------------ immutable ConfigMaps
  {
    id: 'k8s-prod-configmaps-immutable',
    difficulty: 'easy',
    topics: ['kubernetes', 'configmaps', 'immutability', 'namespace-scope'],
    labels: kube('ConfigMap'),
    instruction:
      'ConfigMaps in any namespace whose name begins with "prod-" must be marked immutable: true. We roll config by creating a new ConfigMap under a new name, never by editing in place. immutable: false, or no immutable field at all, is a fail. Other namespaces don\'t need it.',
    check: (o) => !o.metadata.namespace.startsWith('prod-') || o.immutable === true,
    inputs: [
      {
        name: 'cm-prod-immutable',
        expectPassed: true,
        object: cm('checkout-config-v14', 'prod-shop', { 'application.yaml': 'server:\n  port: 8080\nfeatures:\n  oneClick: true\n' }, { immutable: true }),
      },
      {
        name: 'cm-prod-immutable-missing',
        expectPassed: false,
        object: cm('payments-routing-v3', 'prod-payments', { 'routes.json': '{"eu":"adyen","us":"stripe"}' }),
      },
      {
        name: 'cm-prod-immutable-false',
        expectPassed: false,
        object: cm('search-synonyms-v7', 'prod-shop', { 'synonyms.txt': 'tv, television\nsofa, couch\n' }, { immutable: false }),
      },
      {
        name: 'cm-production-ns-lookalike',
        expectPassed: true,
        object: cm('grafana-dashboards-v2', 'production', { 'overview.json': '{"title":"Overview","panels":[]}' }),
      },
    ],
  },

  // ------------------------------------------------------------------ Secret types
  {
    id: 'k8s-secret-type-hygiene',
    difficulty: 'medium',
    topics: ['kubernetes', 'secrets', 'secret-type', 'service-account-tokens', 'defaults'],
    labels: kube('Secret'),
    instruction: `Secrets hygiene, from the platform securty review:
• TLS key pairs must be stored as type kubernetes.io/tls. An Opaque secret that has a tls.key entry, in data or in stringData, is a finding.
• Long-lived service account token secrets (type kubernetes.io/service-account-token) aren't allowed anywhere any more; use projected tokens.
• Everything else (Opaque without a tls.key, dockerconfigjson, basic-auth, ...) is fine.
A Secret without a type is Opaque.`,
    check: (o) => {
      const type = o.type ?? 'Opaque';
      if (type === 'kubernetes.io/service-account-token') return false;
      const hasKey = 'tls.key' in (o.data ?? {}) || 'tls.key' in (o.stringData ?? {});
      return !(type === 'Opaque' && hasKey);
    },
    inputs: [
      {
        name: 'secret-tls-typed',
        expectPassed: true,
        object: secret('shop-acme-io-tls', 'shop', 'kubernetes.io/tls', { data: { 'tls.crt': b64('-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----\n'), 'tls.key': b64('-----BEGIN PRIVATE KEY-----\nMIIE...\n-----END PRIVATE KEY-----\n') } }),
      },
      {
        name: 'secret-opaque-with-tls-key',
        expectPassed: false,
        object: secret('kafka-client-cert', 'streaming', 'Opaque', { data: { 'tls.crt': b64('-----BEGIN CERTIFICATE-----\nMIIC...\n-----END CERTIFICATE-----\n'), 'tls.key': b64('-----BEGIN PRIVATE KEY-----\nMIIF...\n-----END PRIVATE KEY-----\n'), 'ca.crt': b64('-----BEGIN CERTIFICATE-----\nMIID...\n-----END CERTIFICATE-----\n') } }),
      },
      {
        name: 'secret-service-account-token',
        expectPassed: false,
        object: secret('jenkins-deployer-token', 'ci', 'kubernetes.io/service-account-token', {}, { metadata: { annotations: { 'kubernetes.io/service-account.name': 'jenkins-deployer' } } }),
      },
      {
        name: 'secret-untyped-stringdata-tls-key',
        expectPassed: false,
        object: secret('legacy-ldap-cert', 'identity', undefined, { stringData: { 'tls.crt': '-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----\n', 'tls.key': '-----BEGIN RSA PRIVATE KEY-----\nMIIE...\n-----END RSA PRIVATE KEY-----\n' } }),
      },
      {
        name: 'secret-dockerconfigjson',
        expectPassed: true,
        object: secret('regcred-internal', 'shop', 'kubernetes.io/dockerconfigjson', { data: { '.dockerconfigjson': b64('{"auths":{"registry.internal.acme.dev":{"auth":"cm9ib3Q6czNjcjN0"}}}') } }),
      },
    ],
  },

  // ------------------------------------------------------------------ EBS StorageClasses
  {
    id: 'k8s-ebs-storageclass-encryption',
    difficulty: 'medium',
    topics: ['kubernetes', 'storage-class', 'encryption', 'arn', 'aws'],
    labels: kube('StorageClass'),
    instruction:
      'Any StorageClass backed by the AWS EBS CSI driver (provisioner ebs.csi.aws.com) must set parameters.encrypted to "true" (a string - parameters are a string map) and parameters.kmsKeyId to a full KMS key ARN of the form arn:aws:kms:<region>:<12-digit account>:key/<key id>. An alias (alias/..., or an alias ARN) is not accepted. The volume type parameter must be gp3 or io2; no gp2, st1 or sc1. StorageClasses for other provisioners (EFS, local-path, ...) are out of scope.',
    check: (o) => {
      if (o.provisioner !== 'ebs.csi.aws.com') return true;
      const p = o.parameters ?? {};
      return p.encrypted === 'true'
        && /^arn:aws:kms:[a-z0-9-]+:\d{12}:key\/[0-9a-f-]+$/.test(p.kmsKeyId ?? '')
        && ['gp3', 'io2'].includes(p.type);
    },
    inputs: [
      {
        name: 'sc-gp3-encrypted-key-arn',
        expectPassed: true,
        object: sc('gp3-encrypted', 'ebs.csi.aws.com', { type: 'gp3', encrypted: 'true', kmsKeyId: 'arn:aws:kms:eu-west-1:123456789012:key/6f1c2a9e-4b7d-4c1e-9a3f-0d8e5b2c7a41', iops: '6000', throughput: '250' }),
      },
      {
        name: 'sc-encrypted-alias',
        expectPassed: false,
        object: sc('gp3-team-data', 'ebs.csi.aws.com', { type: 'gp3', encrypted: 'true', kmsKeyId: 'alias/ebs-team-data' }),
      },
      {
        name: 'sc-encrypted-false',
        expectPassed: false,
        object: sc('gp3-scratch', 'ebs.csi.aws.com', { type: 'gp3', encrypted: 'false' }),
      },
      {
        name: 'sc-gp2-type',
        expectPassed: false,
        object: sc('gp2-encrypted', 'ebs.csi.aws.com', { type: 'gp2', encrypted: 'true', kmsKeyId: 'arn:aws:kms:eu-west-1:123456789012:key/6f1c2a9e-4b7d-4c1e-9a3f-0d8e5b2c7a41' }),
      },
      {
        name: 'sc-efs-provisioner',
        expectPassed: true,
        object: sc('efs-shared', 'efs.csi.aws.com', { provisioningMode: 'efs-ap', fileSystemId: 'fs-0a1b2c3d4e5f67890', directoryPerms: '700' }, { volumeBindingMode: 'Immediate', allowVolumeExpansion: false }),
      },
    ],
  },

  // ------------------------------------------------------------------ change ticket annotation
  {
    id: 'k8s-deployment-change-ticket-annotation',
    difficulty: 'easy',
    topics: ['kubernetes', 'deployments', 'annotations', 'regex', 'change-management'],
    labels: kube('Deployment'),
    instruction:
      'every Deployment must carry the annotation change.acme.io/ticket, and its value has to be a ServiceNow change number: the letters CHG followed by exactly 7 digits, e.g. CHG0041234. no lower case, no spaces, nothing else in the value.',
    check: (o) => /^CHG\d{7}$/.test(o.metadata.annotations?.['change.acme.io/ticket'] ?? ''),
    inputs: [
      {
        name: 'deploy-valid-change-number',
        expectPassed: true,
        object: dep('pricing', 'shop', { 'change.acme.io/ticket': 'CHG0041234' }),
      },
      {
        name: 'deploy-no-annotations',
        expectPassed: false,
        object: dep('wishlist', 'shop'),
      },
      {
        name: 'deploy-six-digits',
        expectPassed: false,
        object: dep('reviews', 'shop', { 'change.acme.io/ticket': 'CHG004123' }),
      },
      {
        name: 'deploy-lowercase-prefix',
        expectPassed: false,
        object: dep('loyalty', 'crm', { 'change.acme.io/ticket': 'chg0041299' }),
      },
      {
        name: 'deploy-ticket-as-label-only',
        expectPassed: false,
        object: dep('coupons', 'crm', { 'kubernetes.io/change-cause': 'CHG0040001 bump coupons' }, { app: 'coupons', 'change.acme.io/ticket': 'CHG0040001' }),
      },
      {
        name: 'deploy-valid-with-other-annotations',
        expectPassed: true,
        object: dep('shipping', 'logistics', { 'change.acme.io/ticket': 'CHG1000871', 'kubernetes.io/change-cause': 'rollout 1.4.0' }),
      },
    ],
  },

  // ------------------------------------------------------------------ ClusterRole review
  {
    id: 'k8s-clusterrole-wildcards-nonresource-urls',
    difficulty: 'medium',
    topics: ['kubernetes', 'rbac', 'clusterrole', 'wildcards', 'non-resource-urls', 'allowlist'],
    labels: kube('ClusterRole'),
    instruction: `ClusterRole review checklist, applies to every ClusterRole we ship:
- no rule may list "*" under resources
- nonResourceURLs: only /healthz, /livez, /readyz, /metrics and /version may appear, and a rule that has nonResourceURLs may only grant the get verb. So "*" or "/*" is out, and so is anything like /debug/pprof
- aggregated ClusterRoles (aggregationRule set, rules left empty) are fine`,
    check: (o) => (o.rules ?? []).every((r) => {
      if ((r.resources ?? []).includes('*')) return false;
      if (r.nonResourceURLs) {
        const ok = ['/healthz', '/livez', '/readyz', '/metrics', '/version'];
        return r.nonResourceURLs.every((u) => ok.includes(u)) && r.verbs.every((v) => v === 'get');
      }
      return true;
    }),
    inputs: [
      {
        name: 'cr-metrics-get-and-pods-read',
        expectPassed: true,
        object: cr('prometheus-scraper', [
          { apiGroups: [''], resources: ['pods', 'endpoints', 'services', 'nodes'], verbs: ['get', 'list', 'watch'] },
          { nonResourceURLs: ['/metrics'], verbs: ['get'] },
        ]),
      },
      {
        name: 'cr-resources-wildcard',
        expectPassed: false,
        object: cr('ops-readonly', [{ apiGroups: ['apps'], resources: ['*'], verbs: ['get', 'list', 'watch'] }]),
      },
      {
        name: 'cr-nonresource-star',
        expectPassed: false,
        object: cr('health-checker', [{ nonResourceURLs: ['/healthz', '/*'], verbs: ['get'] }]),
      },
      {
        name: 'cr-debug-pprof',
        expectPassed: false,
        object: cr('profiling-reader', [{ nonResourceURLs: ['/debug/pprof', '/debug/pprof/*'], verbs: ['get'] }]),
      },
      {
        name: 'cr-healthz-with-post',
        expectPassed: false,
        object: cr('readiness-poker', [{ nonResourceURLs: ['/healthz', '/readyz'], verbs: ['get', 'post'] }]),
      },
      {
        name: 'cr-aggregated-empty-rules',
        expectPassed: true,
        object: cr('acme-monitoring-view', [], {
          rest: { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.acme.io/aggregate-to-monitoring': 'true' } }] } },
        }),
      },
    ],
  },
];
