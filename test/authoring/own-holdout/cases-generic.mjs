// Generic JSON config cases (own holdout): service configs, CI pipelines, flags, gateways,
// package manifests, backup jobs, alert rules, access lists.
import { gen, email, hex } from './lib.mjs';

const DUR = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800 };
/** '1h30m' / '45s' / '1500ms' -> seconds; undefined when not a duration. */
function durSeconds(s) {
  if (typeof s !== 'string' || !/^(\d+(ms|s|m|h|d|w))+$/.test(s)) return undefined;
  let total = 0;
  for (const [, n, u] of s.matchAll(/(\d+)(ms|s|m|h|d|w)/g)) total += Number(n) * DUR[u];
  return total;
}

const workflow = (jobs) => ({ name: 'ci', on: { push: { branches: ['main'] }, pull_request: {} }, permissions: { contents: 'read' }, jobs });
const job = (steps) => ({ 'runs-on': 'ubuntu-latest', 'timeout-minutes': 20, steps });

const flag = (key, over = {}) => ({ key, description: `${key} rollout`, owner: 'growth@acme.io', expires: '2025-09-30', rolloutPercent: 25, ...over });

const route = (path, over = {}) => ({ path, methods: ['GET'], upstream: `http://svc-${path.split('/').filter(Boolean)[1] ?? 'health'}.internal:8080`, auth: 'jwt', rateLimit: { requestsPerMinute: 600 }, ...over });

const dbCfg = (url, pool) => ({ service: 'orders', http: { port: 8080 }, database: { url, pool: { ...pool, idleTimeoutSeconds: 300 } }, logging: { level: 'info' } });

const alert = (name, over = {}) => ({
  alert: name,
  expr: `sum(rate(http_requests_total{status=~"5..",job="${name.toLowerCase()}"}[5m])) > 5`,
  for: '5m',
  labels: { severity: 'warning', team: 'sre' },
  annotations: { summary: `${name} firing`, runbook_url: `https://runbooks.acme.io/alerts/${name.toLowerCase()}` },
  ...over,
});
const record = (name, expr) => ({ record: name, expr });

const user = (email_, role, over = {}) => ({ email: email_, role, mfa: true, ...over });

export default [
  // ------------------------------------------------------------------ G1
  {
    id: 'gen-upstream-timeout-any-unit',
    difficulty: 'hard',
    topics: ['generic', 'service-config', 'timeouts', 'name-variants', 'units', 'boundary', 'missing-field'],
    labels: gen('service-config'),
    instruction:
      'Service configs: the upstream call timeout has to be under 30 seconds, and retries at most 3. Teams spell the timeout differently - upstream.timeoutSeconds, upstream.timeout_ms, or upstream.timeout as a duration string like "10s" or "1500ms" - ' +
      "all of them count, just convert the units. Retries live in upstream.retries; if there's no retries key that's fine (the client default is 1).",
    check: (o) => {
      const u = o.upstream ?? {};
      const secs = u.timeoutSeconds ?? (u.timeout_ms !== undefined ? u.timeout_ms / 1000 : durSeconds(u.timeout));
      return secs !== undefined && secs < 30 && (u.retries ?? 1) <= 3;
    },
    inputs: [
      { name: 'seconds-25-retries-3', expectPassed: true, object: { service: 'orders', upstream: { url: 'https://inventory.internal', timeoutSeconds: 25, retries: 3 } } },
      { name: 'ms-exactly-30000', expectPassed: false, object: { service: 'search', upstream: { url: 'https://catalog.internal', timeout_ms: 30000, retries: 1 } } },
      { name: 'string-45s', expectPassed: false, object: { service: 'reports', upstream: { url: 'https://warehouse.internal', timeout: '45s' } } },
      { name: 'ms-29999-retries-2', expectPassed: true, object: { service: 'pricing', upstream: { url: 'https://fx.internal', timeout_ms: 29999, retries: 2 } } },
      { name: 'seconds-10-retries-5', expectPassed: false, object: { service: 'notifier', upstream: { url: 'https://smtp-gw.internal', timeoutSeconds: 10, retries: 5, backoff: 'exponential' } } },
      { name: 'string-1500ms-no-retries-key', expectPassed: true, object: { service: 'avatar', upstream: { url: 'https://images.internal', timeout: '1500ms' }, cache: { ttl: '10m' } } },
    ],
  },

  // ------------------------------------------------------------------ G2
  {
    id: 'gen-actions-pinned-to-commit-sha',
    difficulty: 'medium',
    topics: ['generic', 'ci-pipeline', 'supply-chain', 'arrays', 'exemptions', 'format'],
    labels: gen('ci-pipeline'),
    instruction:
      'Supply-chain rule for our GitHub Actions workflows: every `uses:` in every step of every job must pin the action to a full 40-character commit SHA (owner/repo@<sha>). ' +
      "Two exceptions where a version tag like @v4 is fine: GitHub's own actions (actions/...) and our org's actions (acme-corp/...). " +
      "Steps that only have `run:` are fine. Branch refs like @main and short SHAs don't count as pinned.",
    check: (o) =>
      Object.values(o.jobs ?? {}).every((j) =>
        (j.steps ?? []).every((s) => {
          if (!s.uses) return true;
          const [action, ref] = s.uses.split('@');
          if (['actions', 'acme-corp'].includes(action.split('/')[0])) return true;
          return /^[0-9a-f]{40}$/.test(ref ?? '');
        })),
    inputs: [
      {
        name: 'tags-for-exempt-sha-for-third-party',
        expectPassed: true,
        object: workflow({
          build: job([
            { uses: 'actions/checkout@v4' },
            { name: 'Login', uses: `docker/login-action@${hex('login-action', 40)}`, with: { registry: 'registry.acme.io' } },
            { name: 'Deploy', uses: 'acme-corp/deploy-action@v2', with: { environment: 'staging' } },
          ]),
        }),
      },
      {
        name: 'third-party-by-tag',
        expectPassed: false,
        object: workflow({ image: job([{ uses: 'actions/checkout@v4' }, { uses: 'docker/build-push-action@v5', with: { push: true, tags: 'registry.acme.io/app:latest' } }]) }),
      },
      {
        name: 'run-steps-and-setup-node',
        expectPassed: true,
        object: workflow({ test: job([{ uses: 'actions/checkout@v4' }, { uses: 'actions/setup-node@v4', with: { 'node-version': 20 } }, { run: 'npm ci' }, { run: 'npm test' }]) }),
      },
      {
        name: 'second-job-branch-ref',
        expectPassed: false,
        object: workflow({
          test: job([{ uses: 'actions/checkout@v4' }, { run: 'make test' }]),
          scan: job([{ uses: 'actions/checkout@v4' }, { uses: 'aquasecurity/trivy-action@master', with: { 'scan-type': 'fs' } }]),
        }),
      },
      {
        name: 'short-sha',
        expectPassed: false,
        object: workflow({ lint: job([{ uses: 'actions/checkout@v4' }, { uses: 'golangci/golangci-lint-action@3cfe3a4', with: { version: 'v1.57' } }]) }),
      },
    ],
  },

  // ------------------------------------------------------------------ G3
  {
    id: 'gen-feature-flag-entry-fields',
    difficulty: 'medium',
    topics: ['generic', 'feature-flags', 'arrays', 'email', 'date-format', 'numeric-bounds', 'boundary'],
    labels: gen('feature-flags'),
    instruction:
      'Feature flag file checks. Each entry in `flags` needs:\n' +
      '- owner: an email address\n' +
      '- expires: a date written as YYYY-MM-DD\n' +
      '- rolloutPercent: a whole number from 0 to 100 (both ends allowed)\n' +
      'One bad flag fails the whole file.',
    check: (o) =>
      (o.flags ?? []).every((f) => email(f.owner) && typeof f.expires === 'string' && /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(f.expires) && Number.isInteger(f.rolloutPercent) && f.rolloutPercent >= 0 && f.rolloutPercent <= 100),
    inputs: [
      { name: 'zero-and-hundred', expectPassed: true, object: { version: 3, flags: [flag('new-checkout', { rolloutPercent: 100 }), flag('dark-mode', { rolloutPercent: 0, owner: 'web-ui@acme.io' })] } },
      { name: 'owner-not-email', expectPassed: false, object: { version: 3, flags: [flag('promo-banner'), flag('smart-search', { owner: 'growth team' })] } },
      { name: 'expires-day-first', expectPassed: false, object: { version: 3, flags: [flag('gift-cards', { expires: '31/12/2025' })] } },
      { name: 'rollout-101', expectPassed: false, object: { version: 3, flags: [flag('one-click', { rolloutPercent: 101 })] } },
      { name: 'rollout-fractional', expectPassed: false, object: { version: 3, flags: [flag('reco-v2', { rolloutPercent: 12.5 })] } },
      { name: 'single-flag-extra-fields', expectPassed: true, object: { version: 3, flags: [flag('fast-refunds', { rolloutPercent: 50, segments: ['uk', 'ie'], jira: 'PAY-991' })] } },
    ],
  },

  // ------------------------------------------------------------------ G4
  {
    id: 'gen-gateway-routes-auth-and-rate-limits',
    difficulty: 'hard',
    topics: ['generic', 'api-gateway', 'arrays', 'exemptions', 'numeric-bounds', 'boundary', 'missing-field'],
    labels: gen('api-gateway'),
    instruction:
      'API-77: gateway route policy\n\n' +
      'Every route in routes[] must require authentication (auth is "jwt" or "mtls"), except public endpoints: paths starting with /public/ and the exact path /healthz may have auth "none" or no auth key at all.\n' +
      'All routes, public ones included, need a rate limit: rateLimit.requestsPerMinute between 1 and 6000 inclusive.',
    check: (o) =>
      (o.routes ?? []).every((r) => {
        const pub = r.path.startsWith('/public/') || r.path === '/healthz';
        if (!pub && !['jwt', 'mtls'].includes(r.auth)) return false;
        const rpm = r.rateLimit?.requestsPerMinute;
        return typeof rpm === 'number' && rpm >= 1 && rpm <= 6000;
      }),
    inputs: [
      {
        name: 'api-jwt-and-open-healthz',
        expectPassed: true,
        object: { gateway: 'edge-eu', routes: [route('/api/orders', { methods: ['GET', 'POST'] }), (({ auth, ...r }) => ({ ...r, rateLimit: { requestsPerMinute: 60 } }))(route('/healthz'))] },
      },
      { name: 'admin-route-auth-none', expectPassed: false, object: { gateway: 'edge-eu', routes: [route('/api/orders'), route('/api/admin', { auth: 'none' })] } },
      { name: 'public-route-without-rate-limit', expectPassed: false, object: { gateway: 'edge-eu', routes: [(({ rateLimit, ...r }) => ({ ...r, auth: 'none' }))(route('/public/docs'))] } },
      { name: 'mtls-at-6000', expectPassed: true, object: { gateway: 'edge-partners', routes: [route('/api/payments', { auth: 'mtls', methods: ['POST'], rateLimit: { requestsPerMinute: 6000 } }), route('/public/status', { auth: 'none', rateLimit: { requestsPerMinute: 120 } })] } },
      { name: 'rate-limit-10000', expectPassed: false, object: { gateway: 'edge-eu', routes: [route('/api/search', { rateLimit: { requestsPerMinute: 10000 } })] } },
      { name: 'healthz-subpath-not-exempt', expectPassed: false, object: { gateway: 'edge-eu', routes: [(({ auth, ...r }) => r)(route('/healthz/deep'))] } },
    ],
  },

  // ------------------------------------------------------------------ G5
  {
    id: 'gen-database-tls-and-pool-size',
    difficulty: 'medium',
    topics: ['generic', 'service-config', 'database', 'url-format', 'field-comparison', 'numeric-bounds'],
    labels: gen('service-config'),
    instruction:
      'Database settings in service configs:\n' +
      '- database.url must be a postgres URL with TLS on, i.e. its query string has sslmode=require, verify-ca or verify-full (sslmode=disable/allow/prefer or no sslmode at all fail)\n' +
      '- database.pool.max at most 50, and database.pool.min must not be greater than pool.max',
    check: (o) => {
      const d = o.database ?? {};
      const m = /^postgres(?:ql)?:\/\/[^?]+\?(.*)$/.exec(d.url ?? '');
      const mode = m ? new URLSearchParams(m[1]).get('sslmode') : null;
      const p = d.pool ?? {};
      return ['require', 'verify-ca', 'verify-full'].includes(mode) && typeof p.max === 'number' && p.max <= 50 && (p.min ?? 0) <= p.max;
    },
    inputs: [
      { name: 'verify-full-pool-5-20', expectPassed: true, object: dbCfg('postgres://orders_app@orders-db.internal:5432/orders?sslmode=verify-full&sslrootcert=/etc/ssl/rds-ca.pem', { min: 5, max: 20 }) },
      { name: 'sslmode-disable', expectPassed: false, object: dbCfg('postgres://orders_app@orders-db.internal:5432/orders?sslmode=disable', { min: 2, max: 10 }) },
      { name: 'no-sslmode', expectPassed: false, object: dbCfg('postgresql://orders_app@orders-db.internal:5432/orders', { min: 2, max: 10 }) },
      { name: 'require-pool-max-50', expectPassed: true, object: dbCfg('postgresql://orders_app@orders-db.internal:5432/orders?application_name=orders&sslmode=require', { min: 10, max: 50 }) },
      { name: 'min-above-max', expectPassed: false, object: dbCfg('postgres://orders_app@orders-db.internal:5432/orders?sslmode=require', { min: 60, max: 40 }) },
      { name: 'pool-max-80', expectPassed: false, object: dbCfg('postgres://orders_app@orders-db.internal:5432/orders?sslmode=verify-ca', { min: 5, max: 80 }) },
    ],
  },

  // ------------------------------------------------------------------ G6
  {
    id: 'gen-production-log-level',
    difficulty: 'easy',
    topics: ['generic', 'service-config', 'logging', 'conditional', 'allowlist', 'missing-field'],
    labels: gen('service-config'),
    instruction: 'In production configs (environment: production) logging.level has to be set explicitly to info, warn or error. debug and trace are fine in any other environment.',
    check: (o) => o.environment !== 'production' || ['info', 'warn', 'error'].includes(o.logging?.level),
    inputs: [
      { name: 'prod-info', expectPassed: true, object: { service: 'checkout', environment: 'production', logging: { level: 'info', format: 'json' } } },
      { name: 'prod-debug', expectPassed: false, object: { service: 'checkout', environment: 'production', logging: { level: 'debug', format: 'json' } } },
      { name: 'staging-debug', expectPassed: true, object: { service: 'checkout', environment: 'staging', logging: { level: 'debug', format: 'text' } } },
      { name: 'prod-level-missing', expectPassed: false, object: { service: 'ledger', environment: 'production', logging: { format: 'json' } } },
      { name: 'prod-warn', expectPassed: true, object: { service: 'ledger', environment: 'production', logging: { level: 'warn' } } },
    ],
  },

  // ------------------------------------------------------------------ G7
  {
    id: 'gen-cors-allowed-origins',
    difficulty: 'medium',
    topics: ['generic', 'service-config', 'cors', 'arrays', 'url-format', 'exemptions', 'conditional'],
    labels: gen('service-config'),
    instruction:
      'CORS: every entry in cors.allowedOrigins must be an https:// origin on acme.com or a subdomain of it (https://acme.com, https://app.acme.com). No wildcard "*", no plain http. ' +
      'Only exception: when environment is dev, http://localhost with any port is allowed as well.',
    check: (o) =>
      (o.cors?.allowedOrigins ?? []).every((x) => /^https:\/\/([a-z0-9-]+\.)*acme\.com(:\d+)?$/.test(x) || (o.environment === 'dev' && /^http:\/\/localhost(:\d+)?$/.test(x))),
    inputs: [
      { name: 'prod-apex-and-subdomain', expectPassed: true, object: { service: 'api', environment: 'prod', cors: { allowedOrigins: ['https://acme.com', 'https://app.acme.com'], allowCredentials: true } } },
      { name: 'prod-wildcard', expectPassed: false, object: { service: 'api', environment: 'prod', cors: { allowedOrigins: ['*'] } } },
      { name: 'prod-plain-http', expectPassed: false, object: { service: 'api', environment: 'prod', cors: { allowedOrigins: ['https://acme.com', 'http://app.acme.com'] } } },
      { name: 'dev-localhost', expectPassed: true, object: { service: 'api', environment: 'dev', cors: { allowedOrigins: ['https://dev.acme.com', 'http://localhost:3000'] } } },
      { name: 'staging-localhost', expectPassed: false, object: { service: 'api', environment: 'staging', cors: { allowedOrigins: ['https://staging.acme.com', 'http://localhost:3000'] } } },
      { name: 'prod-lookalike-domain', expectPassed: false, object: { service: 'api', environment: 'prod', cors: { allowedOrigins: ['https://acme.com.evil.io'] } } },
    ],
  },

  // ------------------------------------------------------------------ G8
  {
    id: 'gen-redis-memory-policy',
    difficulty: 'medium',
    topics: ['generic', 'redis-config', 'units', 'boundary', 'allowlist', 'negative-phrasing', 'missing-field'],
    labels: gen('redis-config'),
    instruction:
      'Redis cache config (JSON rendering of the redis.conf keys), we want eviction to behave predictably under load so: maxmemory must be set and be no more than 4gb (redis units, 1gb = 1024mb), maxmemory-policy must be allkeys-lru or allkeys-lfu, and protected-mode must not be "no".',
    check: (o) => {
      const m = /^(\d+)(kb|mb|gb)?$/i.exec(String(o.maxmemory ?? ''));
      if (!m) return false;
      const bytes = Number(m[1]) * ({ kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? '').toLowerCase()] ?? 1);
      return bytes <= 4 * 1024 ** 3 && ['allkeys-lru', 'allkeys-lfu'].includes(o['maxmemory-policy']) && o['protected-mode'] !== 'no';
    },
    inputs: [
      { name: 'exactly-4gb', expectPassed: true, object: { port: 6379, maxmemory: '4gb', 'maxmemory-policy': 'allkeys-lru', 'protected-mode': 'yes', appendonly: 'no' } },
      { name: '4096mb-lfu', expectPassed: true, object: { port: 6379, maxmemory: '4096mb', 'maxmemory-policy': 'allkeys-lfu', timeout: 300 } },
      { name: '6gb', expectPassed: false, object: { port: 6379, maxmemory: '6gb', 'maxmemory-policy': 'allkeys-lru', 'protected-mode': 'yes' } },
      { name: 'volatile-lru', expectPassed: false, object: { port: 6379, maxmemory: '2gb', 'maxmemory-policy': 'volatile-lru', 'protected-mode': 'yes' } },
      { name: 'protected-mode-no', expectPassed: false, object: { port: 6379, maxmemory: '1gb', 'maxmemory-policy': 'allkeys-lru', 'protected-mode': 'no', bind: '0.0.0.0' } },
      { name: 'maxmemory-missing', expectPassed: false, object: { port: 6379, 'maxmemory-policy': 'allkeys-lru', 'protected-mode': 'yes' } },
    ],
  },

  // ------------------------------------------------------------------ G9
  {
    id: 'gen-package-json-exact-dependency-versions',
    difficulty: 'medium',
    topics: ['generic', 'package-manifest', 'semver', 'format', 'exemptions', 'map-values'],
    labels: gen('package-manifest'),
    instruction:
      'Lockstep deps: in package.json `dependencies` every version must be an exact semver (1.2.3, or a pre-release like 1.2.3-beta.1). No ^ or ~ ranges, no *, no latest, no git/URL/file specs. ' +
      'devDependencies are exempt, do whatever you want there.',
    check: (o) => Object.values(o.dependencies ?? {}).every((v) => /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(v)),
    inputs: [
      { name: 'all-exact', expectPassed: true, object: { name: '@acme/checkout-web', version: '4.2.0', private: true, dependencies: { react: '18.2.0', 'react-dom': '18.2.0', zod: '3.22.4' } } },
      { name: 'caret-range', expectPassed: false, object: { name: '@acme/checkout-web', version: '4.2.0', dependencies: { react: '18.2.0', axios: '^1.6.8' } } },
      { name: 'dev-deps-with-ranges', expectPassed: true, object: { name: '@acme/ledger-api', version: '1.0.0', dependencies: { fastify: '4.26.2' }, devDependencies: { vitest: '^1.5.0', typescript: '~5.4.0', eslint: '*' } } },
      { name: 'latest-tag', expectPassed: false, object: { name: '@acme/ledger-api', version: '1.0.0', dependencies: { fastify: '4.26.2', pino: 'latest' } } },
      { name: 'git-url', expectPassed: false, object: { name: '@acme/ledger-api', version: '1.0.0', dependencies: { 'acme-money': 'git+https://github.com/acme-corp/money.git#v2.1.0' } } },
      { name: 'exact-prerelease', expectPassed: true, object: { name: '@acme/search-ui', version: '0.9.0', dependencies: { 'acme-design-system': '2.0.0-beta.3', lodash: '4.17.21' } } },
    ],
  },

  // ------------------------------------------------------------------ G10
  {
    id: 'gen-backup-retention-destination-encryption',
    difficulty: 'medium',
    topics: ['generic', 'backup-config', 'name-variants', 'units', 'boundary', 'url-format', 'multi-requirement'],
    labels: gen('backup-config'),
    instruction:
      'Backup job configs: retention must be between 7 and 35 days inclusive. Some files say retentionDays: 14, others retention: "14d" / "2w" / "336h", treat them all the same. ' +
      'destination has to be an s3:// URL in a bucket whose name starts with acme-backups-, and encryption.enabled must be true.',
    check: (o) => {
      const days = o.retentionDays ?? (durSeconds(o.retention) ?? NaN) / 86400;
      const bucket = /^s3:\/\/([^/]+)(\/.*)?$/.exec(o.destination ?? '')?.[1] ?? '';
      return days >= 7 && days <= 35 && bucket.startsWith('acme-backups-') && o.encryption?.enabled === true;
    },
    inputs: [
      { name: 'days-14', expectPassed: true, object: { job: 'orders-db', schedule: '0 2 * * *', retentionDays: 14, destination: 's3://acme-backups-prod/orders/', encryption: { enabled: true, kmsKey: 'alias/backups' } } },
      { name: 'five-weeks', expectPassed: true, object: { job: 'ledger-db', schedule: '30 1 * * *', retention: '5w', destination: 's3://acme-backups-finance/ledger', encryption: { enabled: true } } },
      { name: 'seventy-two-hours', expectPassed: false, object: { job: 'cache-snapshot', schedule: '0 * * * *', retention: '72h', destination: 's3://acme-backups-prod/cache', encryption: { enabled: true } } },
      { name: 'wrong-bucket', expectPassed: false, object: { job: 'audit-logs', schedule: '0 4 * * *', retentionDays: 30, destination: 's3://acme-logs/backups/audit', encryption: { enabled: true } } },
      { name: 'encryption-off', expectPassed: false, object: { job: 'wiki', schedule: '0 3 * * 0', retentionDays: 10, destination: 's3://acme-backups-internal/wiki', encryption: { enabled: false } } },
      { name: 'gcs-destination-at-7', expectPassed: false, object: { job: 'crm-db', schedule: '0 2 * * *', retentionDays: 7, destination: 'gs://acme-backups-eu/crm', encryption: { enabled: true } } },
    ],
  },

  // ------------------------------------------------------------------ G11
  {
    id: 'gen-alert-rules-lint',
    difficulty: 'hard',
    topics: ['generic', 'alerting-rules', 'arrays', 'nested-arrays', 'durations', 'url-format', 'exemptions', 'missing-field'],
    labels: gen('alerting-rules'),
    instruction:
      'Alert rule file lint (Prometheus rule files, groups[].rules[]). Every alerting rule (the ones with `alert:`) needs\n' +
      '- labels.severity of critical, warning or info\n' +
      '- annotations.runbook_url that is an https URL\n' +
      '- a `for` duration of at least 1m (so 30s is too short; no `for` at all means it fires instantly, which also fails)\n' +
      'Recording rules (`record:`) are exempt from all of this.',
    check: (o) =>
      (o.groups ?? []).every((g) =>
        (g.rules ?? []).every((r) => {
          if (!r.alert) return true;
          const f = durSeconds(r.for);
          return ['critical', 'warning', 'info'].includes(r.labels?.severity) && /^https:\/\/[^\s/]+\.[^\s/]+(\/\S*)?$/.test(r.annotations?.runbook_url ?? '') && f !== undefined && f >= 60;
        })),
    inputs: [
      {
        name: 'two-groups-compliant',
        expectPassed: true,
        object: {
          groups: [
            { name: 'checkout', rules: [record('job:http_errors:rate5m', 'sum by (job) (rate(http_requests_total{status=~"5.."}[5m]))'), alert('CheckoutErrors', { labels: { severity: 'critical', team: 'shop' } })] },
            { name: 'infra', interval: '1m', rules: [alert('DiskFilling', { for: '1m', labels: { severity: 'info' } }), alert('NodeNotReady', { for: '1h30m' })] },
          ],
        },
      },
      { name: 'for-30s', expectPassed: false, object: { groups: [{ name: 'api', rules: [alert('ApiLatency', { for: '30s' })] }] } },
      { name: 'for-missing', expectPassed: false, object: { groups: [{ name: 'api', rules: [alert('ApiDown'), (({ for: _f, ...r }) => r)(alert('ApiSaturated'))] }] } },
      { name: 'severity-page', expectPassed: false, object: { groups: [{ name: 'payments', rules: [alert('PaymentsStuck', { labels: { severity: 'page', team: 'payments' } })] }] } },
      { name: 'runbook-http', expectPassed: false, object: { groups: [{ name: 'search', rules: [alert('IndexLag', { annotations: { summary: 'index lagging', runbook_url: 'http://wiki.acme.io/runbooks/index-lag' } })] }] } },
      { name: 'recording-rules-only', expectPassed: true, object: { groups: [{ name: 'slo-recordings', rules: [record('slo:availability:ratio_rate1h', 'sum(rate(ok_total[1h])) / sum(rate(all_total[1h]))'), record('slo:latency:p99_5m', 'histogram_quantile(0.99, sum by (le) (rate(http_request_duration_seconds_bucket[5m])))')] }] } },
    ],
  },

  // ------------------------------------------------------------------ G12
  {
    id: 'gen-admin-portal-access-list',
    difficulty: 'medium',
    topics: ['generic', 'access-config', 'arrays', 'email', 'allowlist', 'conditional', 'missing-field'],
    labels: gen('access-config'),
    instruction:
      'Access list for the admin portal (users[]): everyone needs an @acme.io email address, role must be viewer, editor or admin, and anyone with role admin must have mfa: true (missing counts as no MFA). ' +
      "Contractors (contractor: true) can't be admins at all.",
    check: (o) =>
      (o.users ?? []).every((u) =>
        email(u.email) && u.email.endsWith('@acme.io') && ['viewer', 'editor', 'admin'].includes(u.role) && (u.role !== 'admin' || (u.mfa === true && u.contractor !== true))),
    inputs: [
      { name: 'mixed-roles-compliant', expectPassed: true, object: { portal: 'backoffice', users: [user('maria.lopez@acme.io', 'admin'), user('tom.chen@acme.io', 'editor', { mfa: false }), user('ops-bot@acme.io', 'viewer')] } },
      { name: 'gmail-address', expectPassed: false, object: { portal: 'backoffice', users: [user('maria.lopez@acme.io', 'admin'), user('tomchen1987@gmail.com', 'viewer')] } },
      { name: 'admin-mfa-false', expectPassed: false, object: { portal: 'backoffice', users: [user('sam.patel@acme.io', 'admin', { mfa: false })] } },
      { name: 'contractor-editor-no-mfa-key', expectPassed: true, object: { portal: 'backoffice', users: [{ email: 'j.doe@acme.io', role: 'editor', contractor: true }, user('maria.lopez@acme.io', 'admin')] } },
      { name: 'contractor-admin-with-mfa', expectPassed: false, object: { portal: 'backoffice', users: [user('k.ng@acme.io', 'admin', { contractor: true })] } },
      { name: 'role-superuser', expectPassed: false, object: { portal: 'backoffice', users: [user('root@acme.io', 'superuser')] } },
    ],
  },

  // ------------------------------------------------------------------ G13
  {
    id: 'gen-service-catalog-tier-oncall',
    difficulty: 'easy',
    topics: ['generic', 'service-catalog', 'allowlist', 'missing-field'],
    labels: gen('service-catalog'),
    instruction: 'service catalogue entries: `tier` must be 1, 2 or 3, and `oncall` (the pager rotation name) must be present and non-empty.',
    check: (o) => [1, 2, 3].includes(o.tier) && typeof o.oncall === 'string' && o.oncall.trim() !== '',
    inputs: [
      { name: 'tier-2-with-rotation', expectPassed: true, object: { name: 'checkout', tier: 2, oncall: 'shop-primary', repo: 'https://github.com/acme-corp/checkout' } },
      { name: 'tier-4', expectPassed: false, object: { name: 'intranet-wiki', tier: 4, oncall: 'it-helpdesk' } },
      { name: 'empty-oncall', expectPassed: false, object: { name: 'ledger', tier: 1, oncall: '' } },
      { name: 'tier-1-payments', expectPassed: true, object: { name: 'payments-gateway', tier: 1, oncall: 'payments', slo: { availability: 99.95 } } },
    ],
  },

  // ------------------------------------------------------------------ G14
  {
    id: 'gen-http-server-tls-no-port-80',
    difficulty: 'easy',
    topics: ['generic', 'service-config', 'tls', 'negative-phrasing', 'missing-field'],
    labels: gen('service-config'),
    instruction: 'HTTP servers must have TLS switched on (server.tls.enabled: true) and must not listen on port 80.',
    check: (o) => o.server?.tls?.enabled === true && o.server?.port !== 80,
    inputs: [
      { name: 'tls-on-8443', expectPassed: true, object: { server: { port: 8443, tls: { enabled: true, certFile: '/etc/tls/tls.crt', keyFile: '/etc/tls/tls.key' } } } },
      { name: 'tls-off', expectPassed: false, object: { server: { port: 8443, tls: { enabled: false } } } },
      { name: 'tls-block-missing', expectPassed: false, object: { server: { port: 8080 } } },
      { name: 'port-80-with-tls', expectPassed: false, object: { server: { port: 80, tls: { enabled: true, certFile: '/etc/tls/tls.crt', keyFile: '/etc/tls/tls.key' } } } },
      { name: 'tls-on-443', expectPassed: true, object: { server: { port: 443, tls: { enabled: true, minVersion: '1.2' } } } },
    ],
  },
];
