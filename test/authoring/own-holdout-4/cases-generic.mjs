// Generic JSON/YAML config cases (own-holdout-4).
import { gen, email, hex, durSeconds, isHttpsUrl, urlHost, inDomain, workflowSteps } from './lib.mjs';

const checkout = { name: 'Checkout', uses: 'actions/checkout@v4' };
const wf = (jobs, on = { push: { branches: ['main'] }, pull_request: {} }) => ({ name: 'ci', on, permissions: { contents: 'read' }, jobs });
const job = (steps, more = {}) => ({ 'runs-on': 'ubuntu-24.04', ...more, steps });

const flag = (key, owner, rollout_percent, more = {}) => ({ key, owner, rollout_percent, description: `${key} flag`, enabled: true, ...more });

const route = (path, auth, rpm, more = {}) => ({
  name: path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'root',
  path,
  methods: ['GET'],
  upstream: 'http://orders-api.orders.svc.cluster.local:8080',
  ...(auth ? { auth: { type: auth } } : {}),
  ...(rpm !== undefined ? { rate_limit: { requests_per_minute: rpm } } : {}),
  ...more,
});

const alert = (name, severity, forDur, runbook, more = {}) => ({
  alert: name,
  expr: `${name.toLowerCase()}_ratio > 0.05`,
  ...(forDur ? { for: forDur } : {}),
  labels: { severity, team: 'sre' },
  annotations: { summary: `${name} firing`, runbook_url: runbook },
  ...more,
});
const RB = (slug) => `https://runbooks.acme.io/alerts/${slug}`;

const pkg = (more = {}) => ({
  name: '@acme/orders-service',
  version: '3.4.1',
  private: true,
  type: 'module',
  engines: { node: '>=20.11' },
  scripts: { start: 'node dist/server.js', test: 'vitest run' },
  dependencies: { fastify: '^4.28.1', pg: '^8.12.0', zod: '3.23.8' },
  devDependencies: { typescript: '~5.5.4', vitest: '^2.0.5' },
  ...more,
});

const svcConf = (db, more = {}) => ({
  service: 'orders-api',
  listen: { host: '0.0.0.0', port: 8080 },
  database: { host: 'orders-db.internal.acme.io', port: 5432, name: 'orders', ...db },
  ...more,
});

const ARN = 'arn:aws:kms:eu-west-1:123456789012:key/8f2c1d9e-4b7a-4c3e-9a61-2f0e5d7b8c90';
const backup = (more = {}) => ({
  name: 'orders-db-nightly',
  source: { type: 'rds', identifier: 'orders-prod' },
  schedule: '0 2 * * *',
  retention_days: 35,
  encryption: { enabled: true, kms_key_arn: ARN },
  copy_to_regions: ['eu-central-1'],
  ...more,
});

const sls = (runtime, more = {}) => ({
  service: 'image-thumbs',
  frameworkVersion: '3',
  provider: { name: 'aws', ...(runtime ? { runtime } : {}), region: 'eu-west-1', memorySize: 512, timeout: 30 },
  functions: { resize: { handler: 'src/handler.resize', events: [{ s3: { bucket: 'acme-uploads', event: 's3:ObjectCreated:*' } }] } },
  ...more,
});

export default [
  // ------------------------------------------------------------------ debug flag
  {
    id: 'gen-service-config-debug-off',
    difficulty: 'easy',
    topics: ['generic', 'service-config', 'booleans', 'missing-field'],
    labels: gen('service-config'),
    instruction: 'service configs must never ship with debug switched on: the top-level `debug` key has to be false or not there at all.',
    check: (o) => o.debug === undefined || o.debug === false,
    inputs: [
      { name: 'debug-false', expectPassed: true, object: { service: 'search-api', debug: false, listen: { port: 8080 }, logging: { level: 'info', format: 'json' } } },
      { name: 'debug-absent', expectPassed: true, object: { service: 'cart-api', listen: { port: 8080 }, logging: { level: 'warn', format: 'json' } } },
      { name: 'debug-true', expectPassed: false, object: { service: 'auth-api', debug: true, listen: { port: 8443 }, logging: { level: 'debug', format: 'text' } } },
      { name: 'debug-true-with-prod-logging', expectPassed: false, object: { service: 'payments-api', debug: true, env: 'production', listen: { port: 8080 }, logging: { level: 'info', format: 'json' } } },
    ],
  },

  // ------------------------------------------------------------------ GitHub Actions SHA pinning
  {
    id: 'gen-github-actions-pinned-to-sha',
    difficulty: 'hard',
    topics: ['generic', 'ci-pipeline', 'github-actions', 'supply-chain', 'pattern', 'exemptions', 'arrays'],
    labels: gen('ci-workflow'),
    instruction:
      "Supply-chain rule for GitHub Actions workflows: every step that `uses:` an action must pin it to a full 40-character commit SHA (`owner/repo@<sha>`), e.g. `aquasecurity/trivy-action@a20de5420d57c4102486cdd9578b45609c99d7eb`. Tags and branches (@v3, @main) aren't enough. Exceptions: actions published by GitHub itself under `actions/` and `github/` may use a version tag, and local actions (`./...`) have no ref at all and are fine. Docker actions (`docker://...`) are not allowed at all. Applies to every job in the workflow.",
    check: (o) =>
      workflowSteps(o).filter((s) => typeof s.uses === 'string').every((s) => {
        const u = s.uses;
        if (u.startsWith('./')) return true;
        if (u.startsWith('docker://')) return false;
        const owner = u.split('/')[0];
        if (owner === 'actions' || owner === 'github') return true;
        return /@[0-9a-f]{40}$/.test(u);
      }),
    inputs: [
      {
        name: 'third-party-pinned',
        expectPassed: true,
        object: wf({
          build: job([checkout, { name: 'Setup Node', uses: 'actions/setup-node@v4', with: { 'node-version': 20 } }, { run: 'npm ci && npm test' }]),
          scan: job([checkout, { name: 'Trivy', uses: `aquasecurity/trivy-action@${hex('trivy', 40)}`, with: { 'scan-type': 'fs' } }]),
        }),
      },
      {
        name: 'third-party-version-tag',
        expectPassed: false,
        object: wf({ image: job([checkout, { uses: 'docker/setup-buildx-action@v3' }, { uses: 'docker/build-push-action@v5', with: { push: false } }]) }),
      },
      {
        name: 'second-job-branch-ref',
        expectPassed: false,
        object: wf({
          test: job([checkout, { run: 'make test' }]),
          deploy: job([checkout, { uses: 'azure/k8s-deploy@main', with: { manifests: 'k8s/' } }], { needs: 'test', environment: 'prod' }),
        }),
      },
      {
        name: 'local-action-and-github-org-tag',
        expectPassed: true,
        object: wf({
          analyze: job([checkout, { uses: './.github/actions/setup-toolchain' }, { uses: 'github/codeql-action/init@v3', with: { languages: 'go' } }, { uses: 'github/codeql-action/analyze@v3' }], { permissions: { 'security-events': 'write', contents: 'read' } }),
        }),
      },
      {
        name: 'short-sha',
        expectPassed: false,
        object: wf({ lint: job([checkout, { uses: 'golangci/golangci-lint-action@aaa4aa7', with: { version: 'v1.60' } }]) }),
      },
      {
        name: 'docker-action',
        expectPassed: false,
        object: wf({ lint: job([checkout, { name: 'hadolint', uses: 'docker://hadolint/hadolint:v2.12.0', with: { args: 'Dockerfile' } }]) }),
      },
    ],
  },

  // ------------------------------------------------------------------ feature flags
  {
    id: 'gen-feature-flags-owner-rollout-key',
    difficulty: 'medium',
    topics: ['generic', 'feature-flags', 'email', 'numeric-bounds', 'boundary', 'integers', 'pattern', 'arrays'],
    labels: gen('feature-flags'),
    instruction: `Rules for flags.json (every entry in \`flags\`):
1. \`owner\` is an email address at acme.io (name@acme.io)
2. \`rollout_percent\` is a whole number from 0 to 100 inclusive
3. \`key\` is lower-case kebab-case: a-z, 0-9 and single hyphens, e.g. new-checkout-v2`,
    check: (o) =>
      (o.flags ?? []).every((f) =>
        email(f.owner) && f.owner.toLowerCase().endsWith('@acme.io') &&
        Number.isInteger(f.rollout_percent) && f.rollout_percent >= 0 && f.rollout_percent <= 100 &&
        /^[a-z0-9]+(-[a-z0-9]+)*$/.test(f.key ?? '')),
    inputs: [
      {
        name: 'zero-and-hundred',
        expectPassed: true,
        object: { version: 3, flags: [flag('new-checkout-v2', 'maria.lopez@acme.io', 100), flag('dark-mode', 'ken@acme.io', 0, { enabled: false })] },
      },
      { name: 'owner-gmail', expectPassed: false, object: { version: 3, flags: [flag('fast-search', 'sam.devs@gmail.com', 25)] } },
      { name: 'rollout-150', expectPassed: false, object: { version: 3, flags: [flag('new-checkout-v2', 'maria.lopez@acme.io', 100), flag('bulk-export', 'li.wei@acme.io', 150)] } },
      { name: 'rollout-12-point-5', expectPassed: false, object: { version: 3, flags: [flag('smart-reorder', 'tom@acme.io', 12.5)] } },
      { name: 'key-camel-case', expectPassed: false, object: { version: 3, flags: [flag('newCheckoutFlow', 'maria.lopez@acme.io', 10)] } },
      { name: 'single-partial-rollout', expectPassed: true, object: { version: 3, flags: [flag('beta-search-v2', 'r.patel@acme.io', 37)] } },
    ],
  },

  // ------------------------------------------------------------------ API gateway routes
  {
    id: 'gen-api-gateway-auth-and-rate-limit',
    difficulty: 'medium',
    topics: ['generic', 'api-gateway', 'authentication', 'allowlist', 'exemptions', 'path-prefix', 'numeric-bounds', 'boundary', 'arrays'],
    labels: gen('api-gateway'),
    instruction:
      "Gateway route review (Kong-ish declarative config). Every route needs authentication: `auth.type` has to be `jwt` or `oauth2`. Having no auth (type `none`, or no auth block at all) is only OK for routes whose path starts with `/public/` or is exactly `/healthz`. Separately, no route may allow more than 6000 requests per minute (`rate_limit.requests_per_minute`) - public ones included; routes without a rate_limit are OK for now.",
    check: (o) =>
      (o.routes ?? []).every((r) => {
        const t = r.auth?.type;
        const exempt = r.path === '/healthz' || r.path.startsWith('/public/');
        const authOk = t === 'jwt' || t === 'oauth2' || (exempt && (t === undefined || t === 'none'));
        const rpm = r.rate_limit?.requests_per_minute;
        return authOk && (rpm === undefined || rpm <= 6000);
      }),
    inputs: [
      {
        name: 'jwt-and-oauth2-routes',
        expectPassed: true,
        object: { _format_version: '3.0', routes: [route('/api/orders', 'jwt', 6000), route('/api/partners', 'oauth2', 600)] },
      },
      {
        name: 'healthz-and-public-without-auth',
        expectPassed: true,
        object: { _format_version: '3.0', routes: [route('/healthz', undefined, undefined), route('/public/catalog', 'none', 3000), route('/api/orders', 'jwt', 1200)] },
      },
      { name: 'admin-route-auth-none', expectPassed: false, object: { _format_version: '3.0', routes: [route('/api/orders', 'jwt', 1200), route('/admin/users', 'none', 60)] } },
      { name: 'publications-lookalike-no-auth', expectPassed: false, object: { _format_version: '3.0', routes: [route('/publications', undefined, 600)] } },
      { name: 'rate-limit-6001', expectPassed: false, object: { _format_version: '3.0', routes: [route('/api/search', 'jwt', 6001)] } },
      { name: 'api-key-auth', expectPassed: false, object: { _format_version: '3.0', routes: [route('/api/reports', 'key-auth', 100)] } },
    ],
  },

  // ------------------------------------------------------------------ Prometheus alerting rules
  {
    id: 'gen-prometheus-alert-hygiene',
    difficulty: 'hard',
    topics: ['generic', 'alerting', 'prometheus', 'durations', 'urls', 'allowlist', 'conditional', 'defaults', 'arrays'],
    labels: gen('alerting-rules'),
    instruction: `Alerting hygiene - applies to every alerting rule in every group (recording rules, the ones with \`record:\` instead of \`alert:\`, are skipped):
- labels.severity is one of critical, warning, info
- annotations.runbook_url is an https:// URL
- critical alerts need a \`for\` of at least 5m so one bad scrape can't page someone at 3am. \`for\` uses Prometheus durations (30s, 5m, 1h); no \`for\` means the alert fires straight away, i.e. 0s.`,
    check: (o) =>
      (o.groups ?? []).flatMap((g) => g.rules ?? []).filter((r) => r.alert !== undefined).every((r) => {
        const sev = r.labels?.severity;
        if (!['critical', 'warning', 'info'].includes(sev)) return false;
        if (!isHttpsUrl(r.annotations?.runbook_url)) return false;
        return sev !== 'critical' || durSeconds(r.for ?? '0s') >= 300;
      }),
    inputs: [
      {
        name: 'good-rules-with-recording-rule',
        expectPassed: true,
        object: {
          groups: [{
            name: 'orders',
            interval: '30s',
            rules: [
              { record: 'job:http_errors:rate5m', expr: 'sum by (job) (rate(http_requests_total{code=~"5.."}[5m]))' },
              alert('OrdersHighErrorRate', 'critical', '10m', RB('orders-high-error-rate')),
              alert('OrdersLatencyWarn', 'warning', '1m', RB('orders-latency')),
            ],
          }],
        },
      },
      {
        name: 'critical-for-2m',
        expectPassed: false,
        object: { groups: [{ name: 'db', rules: [alert('PostgresReplicationLag', 'critical', '2m', RB('pg-replication-lag'))] }] },
      },
      {
        name: 'critical-without-for',
        expectPassed: false,
        object: { groups: [{ name: 'edge', rules: [alert('EdgeProxyDown', 'critical', undefined, RB('edge-proxy-down'))] }] },
      },
      {
        name: 'runbook-plain-http',
        expectPassed: false,
        object: { groups: [{ name: 'queue', rules: [alert('QueueBacklog', 'warning', '15m', 'http://wiki.acme.io/runbooks/queue-backlog')] }] },
      },
      {
        name: 'severity-page',
        expectPassed: false,
        object: { groups: [{ name: 'payments', rules: [alert('PaymentsFailing', 'page', '5m', RB('payments-failing'))] }] },
      },
      {
        name: 'critical-exactly-5m-and-info-without-for',
        expectPassed: true,
        object: {
          groups: [
            { name: 'k8s', rules: [alert('KubeNodeNotReady', 'critical', '5m', RB('kube-node-not-ready'))] },
            { name: 'certs', rules: [alert('CertExpiresIn30d', 'info', undefined, RB('cert-expiry'))] },
          ],
        },
      },
    ],
  },

  // ------------------------------------------------------------------ package.json
  {
    id: 'gen-package-json-hygiene',
    difficulty: 'medium',
    topics: ['generic', 'package-manifest', 'npm', 'versions', 'missing-field', 'multi-requirement'],
    labels: gen('package-manifest'),
    instruction: `package.json hygiene for our Node services:
- \`engines.node\` must be set
- nothing in \`dependencies\` or \`devDependencies\` may have \`*\`, \`latest\` or a git / GitHub reference (git+https://..., git://..., github:user/repo) as its version; use a normal semver range from the registry
- \`private\` must be true so nobody publishes a service to npm by accident`,
    check: (o) => {
      const bad = (v) => v === '*' || v === 'latest' || /^(git\+|git:|github:)/.test(v);
      const deps = { ...(o.dependencies ?? {}), ...(o.devDependencies ?? {}) };
      return typeof o.engines?.node === 'string' && o.engines.node.length > 0 && o.private === true && !Object.values(deps).some(bad);
    },
    inputs: [
      { name: 'good-manifest', expectPassed: true, object: pkg() },
      { name: 'engines-missing', expectPassed: false, object: pkg({ engines: undefined }) },
      { name: 'dev-dependency-latest', expectPassed: false, object: pkg({ devDependencies: { typescript: 'latest', vitest: '^2.0.5' } }) },
      { name: 'git-dependency', expectPassed: false, object: pkg({ dependencies: { fastify: '^4.28.1', 'left-pad': 'git+https://github.com/acme/left-pad.git#v1.3.0' } }) },
      { name: 'private-missing', expectPassed: false, object: pkg({ private: undefined }) },
      { name: 'caret-tilde-exact-ranges', expectPassed: true, object: pkg({ engines: { node: '20.x' }, dependencies: { express: '~4.19.2', 'pino-http': '10.2.0', ioredis: '>=5.4.0 <6' } }) },
    ],
  },

  // ------------------------------------------------------------------ docker compose
  {
    id: 'gen-docker-compose-local-only',
    difficulty: 'hard',
    topics: ['generic', 'docker-compose', 'ports', 'network', 'privileged', 'string-format', 'arrays', 'multi-requirement'],
    labels: gen('docker-compose'),
    instruction:
      "local dev compose files get passed around a lot so two rules: (1) no service may set `privileged: true` or `network_mode: host`. (2) every published port has to be bound to loopback - in the short syntax that means it's written \"127.0.0.1:HOST:CONTAINER\", in the long syntax it needs host_ip: 127.0.0.1. A bare \"8080:80\" (or just \"80\") listens on all interfaces and isn't OK. `expose:` isn't publishing so it doesn't matter",
    check: (o) =>
      Object.values(o.services ?? {}).every((s) =>
        s.privileged !== true && s.network_mode !== 'host' &&
        (s.ports ?? []).every((p) => (typeof p === 'string' ? p.startsWith('127.0.0.1:') : p.host_ip === '127.0.0.1'))),
    inputs: [
      {
        name: 'loopback-short-and-long',
        expectPassed: true,
        object: {
          services: {
            api: { build: '.', ports: ['127.0.0.1:8080:8080'], depends_on: ['db'] },
            db: { image: 'postgres:16.3', environment: { POSTGRES_PASSWORD: 'localdev' }, ports: [{ target: 5432, published: 5432, host_ip: '127.0.0.1', protocol: 'tcp' }] },
          },
        },
      },
      { name: 'bare-port-mapping', expectPassed: false, object: { services: { web: { image: 'nginx:1.27', ports: ['8080:80'] } } } },
      {
        name: 'privileged-service',
        expectPassed: false,
        object: { services: { api: { build: '.', ports: ['127.0.0.1:3000:3000'] }, dind: { image: 'docker:27-dind', privileged: true } } },
      },
      { name: 'host-network', expectPassed: false, object: { services: { mdns: { image: 'registry.acme-internal.io/tools/mdns-relay:0.2.0', network_mode: 'host' } } } },
      {
        name: 'long-syntax-without-host-ip',
        expectPassed: false,
        object: { services: { redis: { image: 'redis:7.2.5', ports: [{ target: 6379, published: 6379, protocol: 'tcp' }] } } },
      },
      {
        name: 'expose-only',
        expectPassed: true,
        object: { services: { worker: { build: './worker', expose: ['9000'], depends_on: ['queue'] }, queue: { image: 'rabbitmq:3.13-management', expose: ['5672'] } } },
      },
    ],
  },

  // ------------------------------------------------------------------ DB pool
  {
    id: 'gen-service-config-db-pool-and-ssl',
    difficulty: 'medium',
    topics: ['generic', 'service-config', 'database', 'numeric-bounds', 'boundary', 'field-comparison', 'allowlist', 'missing-field'],
    labels: gen('service-config'),
    instruction: `DB connection settings in service configs:
* database.pool.max is required and has to be 50 or less (Postgres max_connections is shared by everyone on the cluster)
* database.pool.min, where present, can't be bigger than database.pool.max
* database.ssl_mode must be one of require, verify-ca, verify-full - disable, allow and prefer don't guarantee encryption`,
    check: (o) => {
      const d = o.database ?? {};
      const max = d.pool?.max;
      const min = d.pool?.min;
      return typeof max === 'number' && max <= 50 && (min === undefined || min <= max) && ['require', 'verify-ca', 'verify-full'].includes(d.ssl_mode);
    },
    inputs: [
      { name: 'min-equals-max-50', expectPassed: true, object: svcConf({ ssl_mode: 'verify-full', pool: { min: 50, max: 50, idle_timeout: '30s' } }) },
      { name: 'max-80', expectPassed: false, object: svcConf({ ssl_mode: 'require', pool: { min: 10, max: 80 } }) },
      { name: 'min-above-max', expectPassed: false, object: svcConf({ ssl_mode: 'verify-ca', pool: { min: 20, max: 10 } }) },
      { name: 'ssl-prefer', expectPassed: false, object: svcConf({ ssl_mode: 'prefer', pool: { min: 2, max: 20 } }) },
      { name: 'no-min-require', expectPassed: true, object: svcConf({ ssl_mode: 'require', pool: { max: 25, idle_timeout: '5m' } }) },
      { name: 'max-missing', expectPassed: false, object: svcConf({ ssl_mode: 'verify-full', pool: { min: 5, idle_timeout: '1m' } }) },
    ],
  },

  // ------------------------------------------------------------------ backup policy
  {
    id: 'gen-backup-policy-retention-kms',
    difficulty: 'medium',
    topics: ['generic', 'backup-policy', 'numeric-bounds', 'boundary', 'arn', 'pattern', 'missing-field', 'multi-requirement'],
    labels: gen('backup-policy'),
    instruction:
      "Backup policy files (SOC 2 A1.2): retention_days must be at least 35 (five weeks), encryption.kms_key_arn has to be an AWS KMS *key* ARN (arn:aws:kms:<region>:<12-digit account id>:key/<key id>) and `schedule` must be present. Alias ARNs (...:alias/something) aren't accepted because an alias can be repointed to a different key.",
    check: (o) =>
      typeof o.retention_days === 'number' && o.retention_days >= 35 &&
      /^arn:aws:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/.test(o.encryption?.kms_key_arn ?? '') &&
      typeof o.schedule === 'string' && o.schedule.length > 0,
    inputs: [
      { name: 'nightly-exactly-35-days', expectPassed: true, object: backup() },
      { name: 'retention-30-days', expectPassed: false, object: backup({ retention_days: 30 }) },
      { name: 'alias-arn', expectPassed: false, object: backup({ encryption: { enabled: true, kms_key_arn: 'arn:aws:kms:eu-west-1:123456789012:alias/backups' } }) },
      { name: 'schedule-missing', expectPassed: false, object: backup({ schedule: undefined }) },
      { name: 'weekly-90-days', expectPassed: true, object: backup({ name: 'ledger-weekly', schedule: '0 3 * * 0', retention_days: 90, source: { type: 'rds', identifier: 'ledger-prod' } }) },
    ],
  },

  // ------------------------------------------------------------------ CORS
  {
    id: 'gen-cors-origins-company-https',
    difficulty: 'medium',
    topics: ['generic', 'cors', 'urls', 'dns-names', 'lookalike', 'numeric-bounds', 'boundary', 'arrays'],
    labels: gen('cors-config'),
    instruction:
      "CORS config: every entry in cors.allowed_origins has to be an https origin on our own domain - host exactly acme.io or ending in .acme.io. No `*`, no http://. And if max_age_seconds is set it can't be more than 86400 (one day).",
    check: (o) => {
      const c = o.cors ?? {};
      const originsOk = (c.allowed_origins ?? []).every((x) => isHttpsUrl(x) && inDomain(urlHost(x), 'acme.io'));
      return originsOk && (c.max_age_seconds === undefined || c.max_age_seconds <= 86400);
    },
    inputs: [
      { name: 'two-subdomains', expectPassed: true, object: { cors: { allowed_origins: ['https://app.acme.io', 'https://admin.acme.io'], allowed_methods: ['GET', 'POST'], allow_credentials: true } } },
      { name: 'wildcard-origin', expectPassed: false, object: { cors: { allowed_origins: ['*'], allowed_methods: ['GET'] } } },
      { name: 'http-origin', expectPassed: false, object: { cors: { allowed_origins: ['https://app.acme.io', 'http://legacy.acme.io'], allowed_methods: ['GET'] } } },
      { name: 'lookalike-domains', expectPassed: false, object: { cors: { allowed_origins: ['https://acme.io.evil-cdn.net', 'https://shop.notacme.io'], allowed_methods: ['GET'] } } },
      { name: 'max-age-two-days', expectPassed: false, object: { cors: { allowed_origins: ['https://app.acme.io'], max_age_seconds: 172800 } } },
      { name: 'apex-with-port-max-age-one-day', expectPassed: true, object: { cors: { allowed_origins: ['https://acme.io', 'https://dev.acme.io:8443'], max_age_seconds: 86400 } } },
    ],
  },

  // ------------------------------------------------------------------ serverless runtime
  {
    id: 'gen-serverless-supported-runtime',
    difficulty: 'easy',
    topics: ['generic', 'serverless-config', 'allowlist', 'missing-field'],
    labels: gen('serverless-config'),
    instruction:
      'Lambda runtimes: in serverless.yml, provider.runtime must be one of nodejs20.x, nodejs22.x, python3.12 or python3.13. Everything older is end-of-life or close to it.',
    check: (o) => ['nodejs20.x', 'nodejs22.x', 'python3.12', 'python3.13'].includes(o.provider?.runtime),
    inputs: [
      { name: 'nodejs20', expectPassed: true, object: sls('nodejs20.x') },
      { name: 'python312', expectPassed: true, object: sls('python3.12', { service: 'report-generator', functions: { build: { handler: 'handler.build', timeout: 120 } } }) },
      { name: 'nodejs16', expectPassed: false, object: sls('nodejs16.x') },
      { name: 'python39', expectPassed: false, object: sls('python3.9', { service: 'etl-trigger' }) },
      { name: 'runtime-missing', expectPassed: false, object: sls(undefined) },
    ],
  },
];
