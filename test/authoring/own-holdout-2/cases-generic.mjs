// Generic JSON/YAML configuration documents.
import { gen, email, hex, durSeconds, composeBytes } from './lib.mjs';

const sha = (seed) => hex(seed, 40);

// ---------------------------------------------------------------- builders
const svcCfg = ({ env = 'production', port = 8443, tls, level = 'info' } = {}) => JSON.parse(JSON.stringify({
  service: 'orders-api',
  environment: env,
  server: { host: '0.0.0.0', port, tls, shutdownGracePeriod: '20s' },
  logging: { level, format: 'json' },
  database: { url: 'postgres://orders@pg.internal:5432/orders', pool: { min: 2, max: 20 } },
}));

const workflow = (jobs, name = 'ci') => ({ name, on: { push: { branches: ['main'] }, pull_request: {} }, permissions: { contents: 'read' }, jobs });
const step = (uses, extra = {}) => ({ uses, ...extra });
const run = (cmd, name) => ({ name, run: cmd });

const flag = (key, more = {}) => ({
  key,
  description: `${key} rollout`,
  owner: 'growth-team@acme.io',
  rollout: { percentage: 25 },
  expires: '2025-09-30',
  ...more,
});

const route = (path, more = {}) => ({
  path,
  methods: ['GET'],
  upstream: 'https://orders.internal.acme.io',
  auth: { required: true, scheme: 'jwt' },
  timeout: '10s',
  rateLimit: { rps: 200 },
  ...more,
});

const alertRule = (alert, severity, more = {}) => ({
  alert,
  expr: `${alert.toLowerCase()}_ratio > 0.05`,
  for: '10m',
  labels: { severity, team: 'sre' },
  annotations: { summary: `${alert} firing`, runbook_url: `https://runbooks.acme.io/alerts/${alert}` },
  ...more,
});
const rulesFile = (...groups) => ({ groups });

const backup = (more = {}) => ({
  name: 'orders-db-nightly',
  source: { type: 'postgres', database: 'orders', region: 'eu-west-1' },
  schedule: '0 2 * * *',
  retention: { daily: 14, weekly: 8, monthly: 12 },
  encryption: { enabled: true, kmsKeyArn: 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab' },
  destinations: [{ type: 's3', bucket: 'acme-backups-eu-west-1', region: 'eu-west-1' }, { type: 's3', bucket: 'acme-backups-eu-central-1', region: 'eu-central-1' }],
  ...more,
});

const pkg = (more = {}) => ({
  name: '@acme/checkout-web',
  version: '3.4.1',
  private: true,
  scripts: { build: 'vite build', test: 'vitest run' },
  engines: { node: '>=20.11' },
  dependencies: { react: '^18.2.0', 'react-dom': '^18.2.0', zod: '3.22.4' },
  devDependencies: { vite: '~5.2.0', vitest: '^1.5.0', typescript: '5.4.5' },
  ...more,
});

const compose = (services) => ({ version: '3.9', services });

export default [
  // ------------------------------------------------------------------ service config
  {
    id: 'gen-service-config-port-and-prod-tls',
    difficulty: 'medium',
    topics: ['generic', 'service-config', 'tls', 'ports', 'conditional'],
    labels: gen('service-config'),
    instruction: `service.yaml rules:
- server.port is required and must be an integer from 1024 to 65535
- in production (environment: production): server.tls.enabled must be true, server.tls.minVersion must be "1.2" or "1.3", and logging.level must not be debug or trace
- outside production, TLS and log level are up to the team`,
    check(o) {
      const p = o.server?.port;
      if (!Number.isInteger(p) || p < 1024 || p > 65535) return false;
      if (o.environment !== 'production') return true;
      return o.server?.tls?.enabled === true && ['1.2', '1.3'].includes(o.server?.tls?.minVersion) && !['debug', 'trace'].includes(o.logging?.level);
    },
    inputs: [
      { name: 'prod-tls13', expectPassed: true, object: svcCfg({ tls: { enabled: true, minVersion: '1.3', certFile: '/etc/tls/tls.crt', keyFile: '/etc/tls/tls.key' } }) },
      { name: 'staging-plain-debug', expectPassed: true, object: svcCfg({ env: 'staging', port: 8080, level: 'debug' }) },
      { name: 'prod-tls-min-1-1', expectPassed: false, object: svcCfg({ tls: { enabled: true, minVersion: '1.1' } }) },
      { name: 'privileged-port-80', expectPassed: false, object: svcCfg({ env: 'dev', port: 80 }) },
      { name: 'prod-trace-logging', expectPassed: false, object: svcCfg({ tls: { enabled: true, minVersion: '1.2' }, level: 'trace' }) },
      { name: 'prod-no-tls-block', expectPassed: false, object: svcCfg({ port: 8080 }) },
    ],
  },

  // ------------------------------------------------------------------ GitHub Actions SHA pinning
  {
    id: 'gen-actions-pinned-to-commit-sha',
    difficulty: 'hard',
    topics: ['generic', 'ci-pipeline', 'supply-chain', 'pinning', 'regex', 'exemptions'],
    labels: gen('ci-pipeline'),
    instruction: `Supply-chain rule for GitHub Actions workflows: every \`uses:\` - on steps in every job, and on jobs that call a reusable workflow (jobs.<id>.uses) - must reference a full 40-character commit SHA after the @ (owner/repo@<sha>, or owner/repo/path@<sha>). Two exemptions: anything under our own org acme-corp/ may use a tag or branch, and local actions (./...) don't need a ref at all. docker:// references must be pinned by sha256 digest instead.`,
    check(o) {
      const refs = [];
      for (const j of Object.values(o.jobs ?? {})) {
        if (j.uses) refs.push(j.uses);
        for (const s of j.steps ?? []) if (s.uses) refs.push(s.uses);
      }
      return refs.every((u) => {
        if (u.startsWith('./')) return true;
        if (u.startsWith('docker://')) return /@sha256:[0-9a-f]{64}$/.test(u);
        if (u.startsWith('acme-corp/')) return true;
        return /^[^@\s]+@[0-9a-f]{40}$/.test(u);
      });
    },
    inputs: [
      {
        name: 'all-pinned-plus-exemptions',
        expectPassed: true,
        object: workflow({
          build: { 'runs-on': 'ubuntu-22.04', steps: [step(`actions/checkout@${sha('checkout')}`, { name: 'checkout' }), step(`actions/setup-node@${sha('setup-node')}`, { with: { 'node-version': 20 } }), run('npm ci && npm test', 'test'), step('./.github/actions/lint')] },
          deploy: { needs: 'build', 'runs-on': 'ubuntu-22.04', steps: [step('acme-corp/deploy-action@v3', { with: { env: 'staging' } })] },
        }),
      },
      {
        name: 'checkout-by-tag',
        expectPassed: false,
        object: workflow({ test: { 'runs-on': 'ubuntu-latest', steps: [step('actions/checkout@v4'), run('make test', 'test')] } }),
      },
      {
        name: 'docker-image-by-tag',
        expectPassed: false,
        object: workflow({ lint: { 'runs-on': 'ubuntu-22.04', steps: [step(`actions/checkout@${sha('co2')}`), step('docker://alpine:3.19', { args: 'sh -c "echo hi"' })] } }),
      },
      {
        name: 'reusable-workflow-on-branch',
        expectPassed: false,
        object: workflow({
          unit: { 'runs-on': 'ubuntu-22.04', steps: [step(`actions/checkout@${sha('co3')}`)] },
          security: { uses: 'octo-org/shared-workflows/.github/workflows/codeql.yml@main', secrets: 'inherit' },
        }),
      },
      {
        name: 'short-sha',
        expectPassed: false,
        object: workflow({ build: { 'runs-on': 'ubuntu-22.04', steps: [step(`actions/cache@${sha('cache').slice(0, 7)}`, { with: { path: '~/.npm', key: 'npm-${{ hashFiles(\'package-lock.json\') }}' } })] } }),
      },
      {
        name: 'docker-digest-and-org-reusable-workflow',
        expectPassed: true,
        object: workflow({
          scan: { 'runs-on': 'ubuntu-22.04', steps: [step(`aquasecurity/trivy-action/sarif@${sha('trivy')}`), step(`docker://ghcr.io/hadolint/hadolint@sha256:${hex('hadolint')}`)] },
          release: { uses: 'acme-corp/workflows/.github/workflows/release.yml@v2.1.0', needs: 'scan' },
        }, 'release'),
      },
    ],
  },

  // ------------------------------------------------------------------ CI job timeouts
  {
    id: 'gen-ci-job-timeouts-and-deploy-environments',
    difficulty: 'medium',
    topics: ['generic', 'ci-pipeline', 'timeouts', 'defaults', 'lists'],
    labels: gen('ci-pipeline'),
    instruction: `Every job in a workflow must set timeout-minutes (the default is 360, way too long) and it can't be more than 45. Jobs whose id starts with "deploy" must also have an environment set, otherwise the approval gates dont kick in.`,
    check(o) {
      return Object.entries(o.jobs ?? {}).every(([id, j]) => {
        const t = j['timeout-minutes'];
        if (typeof t !== 'number' || t > 45) return false;
        return !id.startsWith('deploy') || (j.environment !== undefined && j.environment !== null && j.environment !== '');
      });
    },
    inputs: [
      {
        name: 'all-jobs-ok',
        expectPassed: true,
        object: workflow({
          build: { 'runs-on': 'ubuntu-22.04', 'timeout-minutes': 20, steps: [run('make build', 'build')] },
          test: { 'runs-on': 'ubuntu-22.04', 'timeout-minutes': 45, steps: [run('make test', 'test')] },
          'deploy-prod': { 'runs-on': 'ubuntu-22.04', needs: ['build', 'test'], 'timeout-minutes': 15, environment: 'production', steps: [run('make deploy', 'deploy')] },
        }),
      },
      {
        name: 'test-job-without-timeout',
        expectPassed: false,
        object: workflow({
          build: { 'runs-on': 'ubuntu-22.04', 'timeout-minutes': 20, steps: [run('make build', 'build')] },
          test: { 'runs-on': 'ubuntu-22.04', steps: [run('make test', 'test')] },
        }),
      },
      {
        name: 'build-timeout-60',
        expectPassed: false,
        object: workflow({ build: { 'runs-on': 'ubuntu-22.04', 'timeout-minutes': 60, steps: [run('make build', 'build')] } }),
      },
      {
        name: 'deploy-staging-without-environment',
        expectPassed: false,
        object: workflow({ 'deploy-staging': { 'runs-on': 'ubuntu-22.04', 'timeout-minutes': 10, steps: [run('make deploy ENV=staging', 'deploy')] } }),
      },
      {
        name: 'deploy-with-environment-object',
        expectPassed: true,
        object: workflow({ deploy: { 'runs-on': 'ubuntu-22.04', 'timeout-minutes': 30, environment: { name: 'production', url: 'https://shop.acme.io' }, steps: [run('make deploy', 'deploy')] } }),
      },
    ],
  },

  // ------------------------------------------------------------------ feature flags
  {
    id: 'gen-feature-flag-hygiene',
    difficulty: 'medium',
    topics: ['generic', 'feature-flags', 'email', 'dates', 'lists', 'exemptions'],
    labels: gen('feature-flags'),
    instruction: `Feature flag hygiene for flags.json - for each entry in flags:
• key in kebab-case (lowercase letters, digits and single dashes)
• owner is an @acme.io email address
• rollout.percentage is a number from 0 to 100
• an expires date in YYYY-MM-DD format, unless the flag is marked permanent: true`,
    check(o) {
      return (o.flags ?? []).every((f) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(f.key ?? '')
        && email(f.owner) && f.owner.toLowerCase().endsWith('@acme.io')
        && typeof f.rollout?.percentage === 'number' && f.rollout.percentage >= 0 && f.rollout.percentage <= 100
        && (f.permanent === true || /^\d{4}-\d{2}-\d{2}$/.test(f.expires ?? '')));
    },
    inputs: [
      {
        name: 'three-good-flags',
        expectPassed: true,
        object: { version: 2, flags: [flag('new-checkout'), flag('dark-mode-v2', { rollout: { percentage: 100 } }), flag('kill-switch-payments', { permanent: true, expires: undefined, rollout: { percentage: 0 } })].map((f) => JSON.parse(JSON.stringify(f))) },
      },
      { name: 'gmail-owner', expectPassed: false, object: { version: 2, flags: [flag('search-suggestions', { owner: 'jo.bloggs@gmail.com' })] } },
      { name: 'camel-case-key', expectPassed: false, object: { version: 2, flags: [flag('new-checkout'), flag('newSearchRanking')] } },
      { name: 'rollout-120', expectPassed: false, object: { version: 2, flags: [flag('bigger-images', { rollout: { percentage: 120 } })] } },
      { name: 'temporary-flag-without-expiry', expectPassed: false, object: { version: 2, flags: [JSON.parse(JSON.stringify(flag('holiday-banner', { expires: undefined })))] } },
      { name: 'expiry-in-uk-date-format', expectPassed: false, object: { version: 2, flags: [flag('loyalty-points', { expires: '31/12/2025' })] } },
    ],
  },

  // ------------------------------------------------------------------ gateway routes
  {
    id: 'gen-gateway-route-auth-upstream-timeout',
    difficulty: 'hard',
    topics: ['generic', 'api-gateway', 'auth', 'urls', 'durations', 'lists', 'exemptions'],
    labels: gen('api-gateway'),
    instruction: `Gateway route policy - applies to every entry in routes:
1. auth.required must be true, except for routes whose path is exactly /healthz or starts with /public/
2. upstream must be an https:// URL, or an http:// URL whose host ends in .svc.cluster.local
3. timeout (a duration string like 500ms, 15s, 2m) must be 30 seconds or less. If timeout is missing the gateway default of 60s applies, so that fails
4. rateLimit.rps, if set, at most 1000`,
    check(o) {
      return (o.routes ?? []).every((r) => {
        const open = r.path === '/healthz' || String(r.path).startsWith('/public/');
        if (!open && r.auth?.required !== true) return false;
        let u;
        try { u = new URL(r.upstream); } catch { return false; }
        if (!(u.protocol === 'https:' || (u.protocol === 'http:' && u.hostname.endsWith('.svc.cluster.local')))) return false;
        if (r.timeout === undefined || durSeconds(r.timeout) > 30) return false;
        return r.rateLimit?.rps === undefined || r.rateLimit.rps <= 1000;
      });
    },
    inputs: [
      {
        name: 'mixed-routes-all-ok',
        expectPassed: true,
        object: {
          gateway: 'public-edge',
          routes: [
            route('/api/orders', { methods: ['GET', 'POST'], timeout: '30s', rateLimit: { rps: 1000 } }),
            route('/public/docs', { auth: { required: false }, upstream: 'http://docs.web.svc.cluster.local:8080', timeout: '500ms' }),
            route('/healthz', { auth: { required: false }, timeout: '2s', rateLimit: undefined }),
          ].map((r) => JSON.parse(JSON.stringify(r))),
        },
      },
      { name: 'admin-route-auth-off', expectPassed: false, object: { gateway: 'public-edge', routes: [route('/api/orders'), route('/admin/users', { auth: { required: false } })] } },
      { name: 'timeout-45s', expectPassed: false, object: { gateway: 'public-edge', routes: [route('/api/reports', { timeout: '45s' })] } },
      { name: 'rps-1500', expectPassed: false, object: { gateway: 'public-edge', routes: [route('/api/search', { rateLimit: { rps: 1500 } })] } },
      { name: 'plain-http-to-ip', expectPassed: false, object: { gateway: 'internal', routes: [route('/api/legacy', { upstream: 'http://10.2.3.4:8080', timeout: '5s' })] } },
      { name: 'timeout-missing', expectPassed: false, object: { gateway: 'internal', routes: [JSON.parse(JSON.stringify(route('/api/exports', { timeout: undefined })))] } },
    ],
  },

  // ------------------------------------------------------------------ Prometheus alert rules
  {
    id: 'gen-alert-rules-severity-runbook-for',
    difficulty: 'medium',
    topics: ['generic', 'alerting-rules', 'prometheus', 'durations', 'urls', 'lists'],
    labels: gen('alerting-rules'),
    instruction: `For Prometheus rule files: every alerting rule (the ones with alert:, recording rules with record: are ignored) needs labels.severity set to critical, warning or info, and annotations.runbook_url pointing somewhere under https://runbooks.acme.io/. Warning and info alerts also need a "for" of at least 5m so they don't flap; critical ones may fire straight away.`,
    check(o) {
      return (o.groups ?? []).every((g) => (g.rules ?? []).every((r) => {
        if (r.alert === undefined) return true;
        const sev = r.labels?.severity;
        if (!['critical', 'warning', 'info'].includes(sev)) return false;
        if (!String(r.annotations?.runbook_url ?? '').startsWith('https://runbooks.acme.io/')) return false;
        return sev === 'critical' || (r.for !== undefined && durSeconds(r.for) >= 300);
      }));
    },
    inputs: [
      {
        name: 'warning-critical-and-recording',
        expectPassed: true,
        object: rulesFile({
          name: 'checkout',
          rules: [
            { record: 'job:http_errors:ratio5m', expr: 'sum(rate(http_requests_total{code=~"5.."}[5m])) / sum(rate(http_requests_total[5m]))' },
            alertRule('CheckoutErrorRateHigh', 'warning'),
            (({ for: _f, ...r }) => r)(alertRule('CheckoutDown', 'critical')),
          ],
        }),
      },
      { name: 'severity-page', expectPassed: false, object: rulesFile({ name: 'db', rules: [alertRule('ReplicationLag', 'page')] }) },
      { name: 'warning-for-2m', expectPassed: false, object: rulesFile({ name: 'queue', rules: [alertRule('QueueBacklog', 'warning', { for: '2m' })] }) },
      {
        name: 'runbook-on-wiki',
        expectPassed: false,
        object: rulesFile({ name: 'disk', rules: [alertRule('DiskAlmostFull', 'critical', { annotations: { summary: 'disk', runbook_url: 'http://wiki.acme.io/runbooks/disk' } })] }),
      },
      { name: 'info-without-for', expectPassed: false, object: rulesFile({ name: 'certs', rules: [(({ for: _f, ...r }) => r)(alertRule('CertExpiresSoon', 'info'))] }) },
      {
        name: 'second-group-warning-exactly-5m',
        expectPassed: true,
        object: rulesFile({ name: 'api', rules: [alertRule('ApiLatencyHigh', 'warning', { for: '15m' })] }, { name: 'batch', rules: [alertRule('BatchJobSlow', 'warning', { for: '5m' }), alertRule('BatchJobFailed', 'critical', { for: '0s' })] }),
      },
    ],
  },

  // ------------------------------------------------------------------ backups
  {
    id: 'gen-backup-retention-encryption-cross-region',
    difficulty: 'medium',
    topics: ['generic', 'backup-config', 'retention', 'encryption', 'field-comparison', 'lists'],
    labels: gen('backup-config'),
    instruction: `Backup policy (audit requirement AUD-12):
- retention.daily at least 7 and retention.monthly at least 12 - both required
- encryption.enabled must be true
- at least one of the destinations must be in a different region from source.region, so we always have a cross-region copy`,
    check(o) {
      const r = o.retention ?? {};
      if (!(r.daily >= 7) || !(r.monthly >= 12)) return false;
      if (o.encryption?.enabled !== true) return false;
      return (o.destinations ?? []).some((d) => d.region && d.region !== o.source?.region);
    },
    inputs: [
      { name: 'two-regions', expectPassed: true, object: backup() },
      { name: 'all-destinations-same-region', expectPassed: false, object: backup({ destinations: [{ type: 's3', bucket: 'acme-backups-eu-west-1', region: 'eu-west-1' }, { type: 's3', bucket: 'acme-backups-eu-west-1-ia', region: 'eu-west-1' }] }) },
      { name: 'monthly-six', expectPassed: false, object: backup({ retention: { daily: 30, weekly: 8, monthly: 6 } }) },
      { name: 'encryption-disabled', expectPassed: false, object: backup({ encryption: { enabled: false } }) },
      { name: 'boundaries-single-remote-destination', expectPassed: true, object: backup({ retention: { daily: 7, monthly: 12 }, destinations: [{ type: 'gcs', bucket: 'acme-dr-backups', region: 'europe-west2' }] }) },
      { name: 'monthly-missing', expectPassed: false, object: backup({ retention: { daily: 35, weekly: 5 } }) },
    ],
  },

  // ------------------------------------------------------------------ package.json
  {
    id: 'gen-package-json-no-floating-or-git-deps',
    difficulty: 'medium',
    topics: ['generic', 'package-manifest', 'npm', 'dependencies', 'exemptions'],
    labels: gen('package-manifest'),
    instruction: `package.json review. In dependencies, devDependencies and optionalDependencies, no version may be a git/GitHub reference (git+https://..., git://..., github:..., or the user/repo shorthand), a local file: path, "latest" or "*". peerDependencies are exempt. Also engines.node has to be set.`,
    check(o) {
      if (!o.engines?.node) return false;
      const bad = (v) => /^(git\+|git:|github:|file:)/.test(v) || v === 'latest' || v === '*' || /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(#.*)?$/.test(v);
      return ['dependencies', 'devDependencies', 'optionalDependencies'].every((k) => Object.values(o[k] ?? {}).every((v) => !bad(v)));
    },
    inputs: [
      { name: 'ranges-and-peer-star', expectPassed: true, object: pkg({ peerDependencies: { react: '*' }, optionalDependencies: { fsevents: '^2.3.3' } }) },
      { name: 'github-ref-dependency', expectPassed: false, object: pkg({ dependencies: { react: '^18.2.0', 'left-pad': 'github:acme/left-pad#v1.3.0' } }) },
      { name: 'dev-dependency-latest', expectPassed: false, object: pkg({ devDependencies: { vite: 'latest', vitest: '^1.5.0' } }) },
      { name: 'engines-missing', expectPassed: false, object: pkg({ engines: undefined }) },
      { name: 'optional-file-path', expectPassed: false, object: pkg({ optionalDependencies: { 'native-addon': 'file:../native-addon' } }) },
      { name: 'user-repo-shorthand', expectPassed: false, object: pkg({ dependencies: { react: '^18.2.0', 'acme-utils': 'acme/utils#main' } }) },
    ].map((i) => ({ ...i, object: JSON.parse(JSON.stringify(i.object)) })),
  },

  // ------------------------------------------------------------------ docker-compose
  {
    id: 'gen-compose-no-privileged-memory-limits-localhost-ports',
    difficulty: 'medium',
    topics: ['generic', 'docker-compose', 'privileged', 'memory', 'ports'],
    labels: gen('docker-compose'),
    instruction: `docker-compose files on the shared dev hosts:
- no service may have privileged: true or network_mode: host
- every service needs mem_limit, no more than 2g (compose sizes like 512m, 1g, 2048m)
- published ports must be bound to 127.0.0.1, i.e. "127.0.0.1:HOST:CONTAINER". A bare "8080:80" publishes on all interfaces and isn't ok. Services without ports are fine.`,
    check(o) {
      return Object.values(o.services ?? {}).every((s) => {
        if (s.privileged === true || s.network_mode === 'host') return false;
        if (s.mem_limit === undefined || composeBytes(s.mem_limit) > composeBytes('2g')) return false;
        return (s.ports ?? []).every((p) => String(p).startsWith('127.0.0.1:'));
      });
    },
    inputs: [
      {
        name: 'web-and-db-ok',
        expectPassed: true,
        object: compose({ web: { image: 'acme/web:dev', ports: ['127.0.0.1:8080:80'], mem_limit: '512m', depends_on: ['db'] }, db: { image: 'postgres:16', mem_limit: '1g', environment: { POSTGRES_PASSWORD: 'dev' } } }),
      },
      {
        name: 'privileged-service',
        expectPassed: false,
        object: compose({ app: { image: 'acme/app:dev', mem_limit: '1g', ports: ['127.0.0.1:3000:3000'] }, dind: { image: 'docker:25-dind', privileged: true, mem_limit: '2g' } }),
      },
      {
        name: 'port-on-all-interfaces',
        expectPassed: false,
        object: compose({ api: { image: 'acme/api:dev', ports: ['8080:80'], mem_limit: '768m' } }),
      },
      {
        name: 'memory-3g',
        expectPassed: false,
        object: compose({ es: { image: 'elasticsearch:8.13.0', mem_limit: '3g', ports: ['127.0.0.1:9200:9200'], environment: { 'discovery.type': 'single-node' } } }),
      },
      {
        name: 'missing-mem-limit',
        expectPassed: false,
        object: compose({ redis: { image: 'redis:7.2', ports: ['127.0.0.1:6379:6379'] }, worker: { image: 'acme/worker:dev', mem_limit: '256m' } }),
      },
      {
        name: 'bridge-network-2048m-localhost-db',
        expectPassed: true,
        object: compose({ pg: { image: 'postgres:16', network_mode: 'bridge', mem_limit: '2048m', ports: ['127.0.0.1:5432:5432'] }, migrate: { image: 'acme/migrate:dev', mem_limit: '128m' } }),
      },
    ],
  },

  // ------------------------------------------------------------------ database pool
  {
    id: 'gen-db-pool-min-max',
    difficulty: 'easy',
    topics: ['generic', 'db-config', 'field-comparison', 'numeric-bounds'],
    labels: gen('db-config'),
    instruction: `database.pool.min must not be greater than database.pool.max, and database.pool.max can be 50 at most.`,
    check(o) {
      const p = o.database?.pool ?? {};
      return p.min <= p.max && p.max <= 50;
    },
    inputs: [
      { name: 'min5-max20', expectPassed: true, object: { database: { driver: 'postgres', host: 'pg.internal', pool: { min: 5, max: 20, idleTimeoutMs: 30000 } } } },
      { name: 'min-above-max', expectPassed: false, object: { database: { driver: 'postgres', host: 'pg.internal', pool: { min: 30, max: 20 } } } },
      { name: 'max-80', expectPassed: false, object: { database: { driver: 'mysql', host: 'mysql.internal', pool: { min: 10, max: 80 } } } },
      { name: 'min-equals-max-50', expectPassed: true, object: { database: { driver: 'postgres', host: 'pg-reporting.internal', pool: { min: 50, max: 50 } } } },
    ],
  },

  // ------------------------------------------------------------------ CORS
  {
    id: 'gen-cors-https-origins-no-wildcard-with-credentials',
    difficulty: 'easy',
    topics: ['generic', 'cors-config', 'urls', 'wildcards', 'conditional'],
    labels: gen('cors-config'),
    instruction: `CORS config: every entry in cors.allowedOrigins has to be either "*" or an https:// origin. And "*" isn't allowed at all when cors.allowCredentials is true.`,
    check(o) {
      const c = o.cors ?? {};
      const origins = c.allowedOrigins ?? [];
      if (!origins.every((x) => x === '*' || String(x).startsWith('https://'))) return false;
      return !(c.allowCredentials === true && origins.includes('*'));
    },
    inputs: [
      { name: 'https-origins-with-credentials', expectPassed: true, object: { cors: { allowedOrigins: ['https://shop.acme.io', 'https://admin.acme.io'], allowCredentials: true, allowedMethods: ['GET', 'POST'] } } },
      { name: 'wildcard-with-credentials', expectPassed: false, object: { cors: { allowedOrigins: ['*'], allowCredentials: true } } },
      { name: 'wildcard-without-credentials', expectPassed: true, object: { cors: { allowedOrigins: ['*'], allowCredentials: false, allowedMethods: ['GET'] } } },
      { name: 'http-localhost-origin', expectPassed: false, object: { cors: { allowedOrigins: ['https://shop.acme.io', 'http://localhost:3000'], allowCredentials: false } } },
      { name: 'wildcard-credentials-unset', expectPassed: true, object: { cors: { allowedOrigins: ['*'] } } },
    ],
  },
];
